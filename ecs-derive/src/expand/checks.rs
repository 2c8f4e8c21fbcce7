//! Compile-time assertions, each spanned on the type it is about, so the
//! error the compiler reports points where the user can fix it.

use super::generics::Generics;
use crate::ast::Input;
use crate::attr::display_type;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::LitStr;

/// The check that the parent's chain leaves room for one more type,
/// spanned on the parent type and naming both: it runs before the runtime
/// builds the table, whose own assert could only point at the derive.
pub(super) fn depth_check(input: &Input, parent_ty: &syn::Type) -> TokenStream {
    assert_const(
        quote! {
            <#parent_ty as ::ecs_core::Component>::__VTABLE.depth() < ::ecs_core::MAX_CHAIN_DEPTH
        },
        &format!(
            "`{ident}` cannot derive from `{parent}`: the parent chain of `{parent}` is already \
             16 types deep, the most `ecs_core::MAX_CHAIN_DEPTH` allows; derive `{ident}` from a \
             type higher up that chain, or hold the `{parent}` as a plain field (without `parent`)",
            ident = input.ident(),
            parent = display_type(parent_ty),
        ),
        parent_ty.span(),
    )
}

/// The checks that need the parent's chain, each spanned on the type it
/// is about: a required ancestor is always there already (the type itself
/// is-a it), and an ancestor is never handed to `update_with` (the runtime
/// hands no type related to the behaviour's own). The derive rejects the
/// parent itself by name; these catch the ancestors further up, and the
/// parent spelled another way.
pub(super) fn ancestor_checks(input: &Input, parent_ty: &syn::Type) -> TokenStream {
    let ident = input.ident();
    let parent = quote_spanned!(parent_ty.span()=> <#parent_ty as ::ecs_core::Component>::__VTABLE);
    let requires = input.attrs.requires.iter().map(|ty| {
        let name = display_type(ty);
        assert_const(
            quote!(!#parent.chain_has(::ecs_core::ComponentKey::of::<#ty>())),
            &format!(
                "`{name}` is up the parent chain of `{ident}`, so every `{ident}` is-a `{name}` \
                 and `requires({name})` is met by the `{ident}` itself, never adding anything; \
                 remove `{name}` from `requires(...)`"
            ),
            ty.span(),
        )
    });
    let sibling = sibling(input).map(|ty| {
        let name = display_type(ty);
        assert_const(
            quote!(!#parent.chain_has(::ecs_core::ComponentKey::of::<#ty>())),
            &format!(
                "`{name}` is up the parent chain of `{ident}`, and a behaviour is not handed a \
                 type it is-a, so `update_with` would never be called; write plain \
                 `#[component(behaviour)]`, remove `impl UpdateWith<{name}>`, and reach the \
                 `{name}` through `self`"
            ),
            ty.span(),
        )
    });
    quote!(#(#requires)* #sibling)
}

/// `S` of `behaviour(with = S)`.
fn sibling<'a>(input: &'a Input) -> Option<&'a syn::Type> {
    match &input.attrs.behaviour {
        Some((_, Some(ty))) => Some(ty),
        _ => None,
    }
}

/// For a non-generic type with `behaviour(with = S)`, the check that `S`
/// does not derive from it: the runtime hands no type related to the
/// behaviour's own, so `update_with` would never run. A free constant, as
/// `S`'s table is built from this type's and this one's cannot wait for it.
pub(super) fn descendant_check(input: &Input, generics: &Generics) -> TokenStream {
    let Some(ty) = sibling(input).filter(|_| generics.is_empty) else {
        return TokenStream::new();
    };
    let ident = input.ident();
    let name = display_type(ty);
    let check = assert_const(
        quote! {
            !<#ty as ::ecs_core::Component>::__VTABLE
                .chain_has(::ecs_core::ComponentKey::of::<#ident>())
        },
        &format!(
            "`{name}` derives from `{ident}`, and a behaviour is not handed a type that is-a \
             its own, so `update_with` would never be called; write plain \
             `#[component(behaviour)]` and remove `impl UpdateWith<{name}>`"
        ),
        ty.span(),
    );
    quote_spanned!(ty.span()=> const _: () = { #check };)
}

/// `assert!(condition, message)` spanned at `span`, for a constant: the
/// error the compiler reports when it fails points at `span`.
fn assert_const(condition: TokenStream, message: &str, span: proc_macro2::Span) -> TokenStream {
    let message = LitStr::new(&message.replace('{', "{{").replace('}', "}}"), span);
    quote_spanned!(span=> ::core::assert!(#condition, #message);)
}

/// For a `multiple` type, the check that its parent is `multiple` too (an
/// entity could never hold two otherwise), spanned on the parent type: the
/// parent implements `MultipleParent` when it is. A parent that is a type
/// parameter (`T`, `T::Base`) is known only per instantiation, so its flag
/// is asserted instead, when the table of an instantiation is evaluated.
pub(super) fn multiple_check(input: &Input, parent_ty: &syn::Type) -> TokenStream {
    if input.attrs.multiple.is_none() {
        return TokenStream::new();
    }
    let is_param = match parent_ty {
        syn::Type::Path(path) => {
            path.qself.is_some()
                || input
                    .original
                    .generics
                    .type_params()
                    .any(|p| path.path.segments[0].ident == p.ident)
        }
        _ => false,
    };
    if !is_param {
        return quote_spanned! {parent_ty.span()=>
            let () = <#parent_ty as ::ecs_core::__private::MultipleParent>::OK;
        };
    }
    assert_const(
        quote!(<#parent_ty as ::ecs_core::Component>::MULTIPLE),
        &format!(
            "`{ident}` is `multiple`, but the type given for its parent `{parent}` is single, so \
             an entity could never hold two `{ident}`s; mark that type `#[component(multiple)]`, \
             use `{ident}` with a `multiple` parent only, or drop `multiple` from `{ident}`",
            ident = input.ident(),
            parent = display_type(parent_ty),
        ),
        parent_ty.span(),
    )
}
