//! What a parent adds to the impl: the checks that need its chain, and a
//! table built from the parent's.

use super::checks::{ancestor_checks, depth_check, multiple_check};
use crate::ast::{Input, Parent};
use proc_macro2::{TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

/// The parts of the impl that differ when there is a parent.
pub(super) struct ParentBody {
    /// The table before its capabilities are set.
    pub(super) vtable: TokenStream,
    /// Adds the parent's requirements after this type's own.
    pub(super) requirements: TokenStream,
}

impl ParentBody {
    pub(super) fn new(input: &Input, parent: &Parent) -> Self {
        let parent_ty = parent.ty;
        let as_component = quote_spanned!(parent_ty.span()=> <#parent_ty as ::ecs_core::Component>);
        let member = &parent.field.member;
        // Spanned on the field's type, so a type mismatch points at it.
        let field_span = parent.field.ty.span();
        let field_ref = quote_spanned!(field_span=> &this.#member);
        // The table is built from the field's own type, so its proof that the
        // field holds that type cannot fail, and a parent declared as another
        // type is the one error of the closure above. Spanned like the parent
        // type, so "is not a component" is reported once for both.
        let field_ty = respan(parent.field.ty.to_token_stream(), parent_ty.span());

        let check = multiple_check(input, parent_ty);
        let depth_check = depth_check(input, parent_ty);
        let ancestor_checks = ancestor_checks(input, parent_ty);

        ParentBody {
            // Naming `<P as Component>` before `with_parent::<Self, P>` makes
            // "`P` is not a component" appear once, without a note about
            // the table's bounds. The closure proves the parent field's type is
            // `P`, which the offset below relies on.
            vtable: quote! {
                #depth_check
                let _: ::core::primitive::bool = #as_component::MULTIPLE;
                #check
                #ancestor_checks
                let _: fn(&Self) -> &#parent_ty = |this| #field_ref;
                ::ecs_core::__private::ComponentVTable::with_parent::<Self, #parent_ty>(
                    ::ecs_core::__erased_with_parent!(Self, #field_ty, #member),
                )
            },
            requirements: quote!(#as_component::__VTABLE.add_requirements(out);),
        }
    }
}

/// `tokens`, every one of them spanned at `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut new =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                new.set_span(span);
                token = TokenTree::Group(new);
            }
            token.set_span(span);
            token
        })
        .collect()
}
