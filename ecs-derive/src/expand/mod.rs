//! Code generation: the `Component` impl, or on errors the `compile_error!`s
//! next to a minimal impl (thiserror's `fallback.rs`), so one typo does not
//! turn every use of the type into "is not a component".
//!
//! Generated code reaches the runtime only through `::ecs_core::Component`,
//! `::ecs_core::ComponentKey` and `::ecs_core::__private`, and the standard
//! library only through `::core`, so it compiles under
//! `#![no_implicit_prelude]` and inside ecs-core itself.
//!
//! This file decides between the full impl and the fallback; the pieces
//! live below it, each file using only those listed after it:
//! `impl_block` (the `impl Component` block and its constants), `parent`
//! (what a parent adds to the table), `declarations` (the marker impls),
//! `checks` (compile-time assertions with the user's spans) and `generics`
//! (the impl's generics).

mod checks;
mod declarations;
mod generics;
mod impl_block;
mod parent;

use self::checks::descendant_check;
use self::generics::Generics;
use self::impl_block::impl_block;
use crate::ast::Input;
use crate::ctxt::Ctxt;
use crate::valid;
use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt;
use syn::{DeriveInput, LitStr};

pub fn derive(node: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let input = Input::from_syn(&cx, node);
    valid::check(&cx, &input);
    match cx.check() {
        Ok(()) => impl_component(&input),
        Err(errors) => {
            let errors = errors.to_compile_error();
            let fallback = fallback(&input);
            quote!(#errors #fallback)
        }
    }
}

/// The full impl, for a valid input.
fn impl_component(input: &Input) -> TokenStream {
    let generics = Generics::new(input, false);
    let name = name(input);
    let multiple = input.attrs.multiple.is_some();
    let descendant_check = descendant_check(input, &generics);
    let body = input
        .parent()
        .map(|parent| parent::ParentBody::new(input, &parent));
    let block = impl_block(input, &generics, &name, multiple, body, true);
    quote!(#block #descendant_check)
}

/// The impl emitted next to the errors: no parent, this type's own key only,
/// and none of the declared capabilities (their types may be the errors);
/// the declarations are kept, so the user's impls that match them do not
/// add errors of their own.
fn fallback(input: &Input) -> TokenStream {
    let generics = Generics::new(input, true);
    let name = name(input);
    impl_block(
        input,
        &generics,
        &name,
        input.attrs.multiple.is_some(),
        None,
        false,
    )
}

/// `name = "..."`, or the type's identifier.
fn name(input: &Input) -> LitStr {
    match &input.attrs.name {
        Some(name) if !name.value().trim().is_empty() => name.clone(),
        _ => {
            let ident = input.ident();
            LitStr::new(&ident.unraw().to_string(), ident.span())
        }
    }
}
