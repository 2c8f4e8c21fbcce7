//! The impl's generics, and the token rewriting they need.

use crate::ast::{Input, Parent};
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::GenericParam;

/// The impl's generics: the user's, plus `Send + Sync + 'static` on every
/// type parameter (a component needs them) and `P: Component` when the
/// parent type mentions a type parameter.
pub(super) struct Generics {
    pub(super) impl_generics: TokenStream,
    pub(super) ty_generics: TokenStream,
    pub(super) where_clause: TokenStream,
    /// No type or const parameter.
    pub(super) is_empty: bool,
}

impl Generics {
    /// With `fallback`, lifetime parameters (already reported) become
    /// `'static`, so the fallback impl itself compiles.
    pub(super) fn new(input: &Input, fallback: bool) -> Self {
        let mut generics = input.original.generics.clone();
        let type_params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
        let is_empty = generics
            .params
            .iter()
            .all(|p| matches!(p, GenericParam::Lifetime(_)));

        let where_clause = generics.make_where_clause();
        for param in &type_params {
            where_clause.predicates.push(syn::parse_quote! {
                #param: ::core::marker::Send + ::core::marker::Sync + 'static
            });
        }
        if !fallback {
            if let Some(Parent { ty, .. }) = input.parent() {
                if mentions_any(ty.to_token_stream(), &type_params) {
                    where_clause
                        .predicates
                        .push(syn::parse_quote!(#ty: ::ecs_core::Component));
                }
            }
        }

        let lifetimes: Vec<Ident> = generics
            .lifetimes()
            .map(|l| l.lifetime.ident.clone())
            .collect();
        if !fallback || lifetimes.is_empty() {
            let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
            return Generics {
                impl_generics: impl_generics.to_token_stream(),
                ty_generics: ty_generics.to_token_stream(),
                where_clause: where_clause.to_token_stream(),
                is_empty,
            };
        }

        // `struct Foo<'a, T>` gets `impl<T> Component for Foo<'static, T>`.
        let args = generics.params.iter().map(|param| match param {
            GenericParam::Lifetime(_) => quote!('static),
            GenericParam::Type(p) => p.ident.to_token_stream(),
            GenericParam::Const(p) => p.ident.to_token_stream(),
        });
        let ty_generics = quote!(< #(#args),* >);
        generics.params = generics
            .params
            .into_iter()
            .filter(|p| !matches!(p, GenericParam::Lifetime(_)))
            .collect();
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        Generics {
            impl_generics: to_static(impl_generics.to_token_stream(), &lifetimes),
            ty_generics,
            where_clause: to_static(where_clause.to_token_stream(), &lifetimes),
            is_empty,
        }
    }
}

/// Whether `tokens` contain one of `idents`.
fn mentions_any(tokens: TokenStream, idents: &[Ident]) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => idents.contains(&ident),
        TokenTree::Group(group) => mentions_any(group.stream(), idents),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

/// Replaces the lifetimes named `names` with `'static` in `tokens`.
fn to_static(tokens: TokenStream, names: &[Ident]) -> TokenStream {
    let mut out = Vec::new();
    let mut after_quote = false;
    for token in tokens {
        let token = match token {
            TokenTree::Ident(ident) if after_quote && names.contains(&ident) => {
                TokenTree::Ident(Ident::new("static", ident.span()))
            }
            TokenTree::Group(group) => {
                let mut new =
                    proc_macro2::Group::new(group.delimiter(), to_static(group.stream(), names));
                new.set_span(group.span());
                TokenTree::Group(new)
            }
            other => other,
        };
        after_quote = matches!(&token, TokenTree::Punct(p) if p.as_char() == '\'');
        out.push(token);
    }
    out.into_iter().collect()
}
