//! The marker impls next to the `Component` impl.

use super::generics::Generics;
use crate::ast::{tokens, Input};
use proc_macro2::TokenStream;
use quote::quote;

/// The marker impls that say what the attributes declare, which the traits
/// the user implements require (`Receive<M>` needs `DeclaresReceive<M>`), so
/// an impl the attributes do not declare, and the runtime would never call,
/// is a compile error. Each type once, and only a type that can be
/// declared: on errors the list may still hold a repeat or a reference.
pub(super) fn declarations(input: &Input, generics: &Generics) -> TokenStream {
    let ident = input.ident();
    let Generics {
        impl_generics,
        ty_generics,
        where_clause,
        ..
    } = generics;
    let mut seen = Vec::new();
    let receives = input.attrs.receives.iter().filter(|ty| {
        let key = tokens(ty);
        let first = !seen.contains(&key);
        seen.push(key);
        first && !matches!(ty, syn::Type::Reference(_))
    });
    let behaviour = input.attrs.behaviour.as_ref().map(|_| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::ecs_core::__private::DeclaresBehaviour for #ident #ty_generics #where_clause {}
        }
    });
    let sibling = match &input.attrs.behaviour {
        Some((_, Some(sibling))) if !matches!(sibling, syn::Type::Reference(_)) => Some(quote! {
            #[automatically_derived]
            impl #impl_generics ::ecs_core::__private::DeclaresUpdateWith<#sibling> for #ident #ty_generics #where_clause {}
        }),
        _ => None,
    };
    // A `multiple` type may be the parent of another `multiple` type.
    let multiple = input.attrs.multiple.map(|_| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::ecs_core::__private::MultipleParent for #ident #ty_generics #where_clause {}
        }
    });
    quote! {
        #multiple
        #behaviour
        #sibling
        #(
            #[automatically_derived]
            impl #impl_generics ::ecs_core::__private::DeclaresReceive<#receives> for #ident #ty_generics #where_clause {}
        )*
    }
}
