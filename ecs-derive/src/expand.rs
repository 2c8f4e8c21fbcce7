//! Code generation: the `Component` impl, or on errors the `compile_error!`s
//! next to a minimal impl (thiserror's `fallback.rs`), so one typo does not
//! turn every use of the type into "is not a component".
//!
//! Generated code reaches the runtime only through `::ecs_core::Component`,
//! `::ecs_core::ComponentKey` and `::ecs_core::__private`, and the standard
//! library only through `::core`, so it compiles under
//! `#![no_implicit_prelude]` and inside ecs-core itself.

use crate::ast::{Input, Parent};
use crate::ctxt::Ctxt;
use crate::valid::{self, display_type};
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, GenericParam, LitStr};

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
    let parent = input.parent();
    let name = name(input);
    let multiple = input.attrs.multiple.is_some();

    let descendant_check = descendant_check(input, &generics);

    let Some(parent) = parent else {
        let block = impl_block(input, &generics, &name, multiple, None, true);
        return quote!(#block #descendant_check);
    };

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

    let body = ParentBody {
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
    };
    let block = impl_block(input, &generics, &name, multiple, Some(body), true);
    quote!(#block #descendant_check)
}

/// The check that the parent's chain leaves room for one more type,
/// spanned on the parent type and naming both: it runs before the runtime
/// builds the table, whose own assert could only point at the derive.
fn depth_check(input: &Input, parent_ty: &syn::Type) -> TokenStream {
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
fn ancestor_checks(input: &Input, parent_ty: &syn::Type) -> TokenStream {
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
fn descendant_check(input: &Input, generics: &Generics) -> TokenStream {
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
fn multiple_check(input: &Input, parent_ty: &syn::Type) -> TokenStream {
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

/// The parts of the impl that differ when there is a parent.
struct ParentBody {
    /// The table before its capabilities are set.
    vtable: TokenStream,
    /// Adds the parent's requirements after this type's own.
    requirements: TokenStream,
}

fn impl_block(
    input: &Input,
    generics: &Generics,
    name: &LitStr,
    multiple: bool,
    parent: Option<ParentBody>,
    capabilities: bool,
) -> TokenStream {
    let ident = input.ident();
    let Generics {
        impl_generics,
        ty_generics,
        where_clause,
        ..
    } = generics;
    // A generic type's instantiations share one path; the mark says so.
    let generic_mark = if generics.is_empty { "" } else { "<>" };
    // The text after the module path, with the derive's line and column
    // written out here: `line!()` and `column!()` in the output would be two
    // more macro expansions per type for rustc.
    let site = proc_macro::Span::call_site();
    let path_tail = format!("::{ident}{generic_mark}@{}:{}", site.line(), site.column());
    let has_parent = parent.is_some();
    let (vtable, parent_requirements) = match parent {
        Some(p) => (p.vtable, p.requirements),
        None => (
            quote!(::ecs_core::__private::ComponentVTable::root::<Self>()),
            TokenStream::new(),
        ),
    };
    let declared_behaviour = input.attrs.behaviour.as_ref().filter(|_| capabilities);
    // Spanned on `behaviour`, so a missing `impl Behaviour` points at it.
    let behaviour = declared_behaviour.map(|(span, with)| {
        let fns = match with {
            // Spanned on the sibling type, so a missing `impl UpdateWith<S>`
            // points at it.
            Some(sibling) => quote_spanned! {sibling.span()=>
                ::ecs_core::__private::BehaviourFns::with::<Self, #sibling>()
            },
            None => quote_spanned!(*span=> ::ecs_core::__private::BehaviourFns::of::<Self>()),
        };
        quote!(.behaviour(#fns))
    });
    // A `static` inside a generic impl would be shared by every
    // instantiation, so only non-generic types cache their number. With the
    // link-time catalog on Linux, Android and FreeBSD that `static` is also
    // the type's catalog entry.
    let number = generics
        .is_empty
        .then(|| quote!(::ecs_core::__number_cell!(#ident)));
    // The dispatch table: one `TypeId` comparison per declared message type,
    // each spanned on the type so a missing `impl Receive<M>` points at it.
    let receivers = input.attrs.receives.iter().map(|ty| {
        quote_spanned! {ty.span()=>
            if message == ::ecs_core::__private::TypeId::of::<#ty>() {
                return ::core::option::Option::Some(
                    ::ecs_core::__private::ReceiverFn::of::<Self, #ty>(),
                );
            }
        }
    });
    let receiver = (capabilities && !input.attrs.receives.is_empty()).then(|| {
        quote! {
            .receiver(|message| {
                #(#receivers)*
                ::core::option::Option::None
            })
        }
    });
    let declarations = declarations(input, generics);
    // Each `require::<R>()` carries the span of `R`, so "cannot be required"
    // points at the type the user named.
    let own_requirements: Vec<TokenStream> = input
        .attrs
        .requires
        .iter()
        .filter(|_| capabilities)
        .map(|ty| quote_spanned!(ty.span()=> out.require::<#ty>();))
        .collect();
    let requirements = (!own_requirements.is_empty() || !parent_requirements.is_empty())
        .then(|| quote!(.requirements(|out| { #(#own_requirements)* #parent_requirements })));
    let transient = input
        .attrs
        .transient
        .is_some()
        .then(|| quote!(.transient(true)));
    // Capabilities found by method lookup: `probe.__ecs_default()` is
    // `Probe`'s own method when `Self: Default`, else `ProbeFallback`'s.
    // Inside a generic impl only the declared bounds count.
    // The answers are types, read by a constant from a closure that is never
    // called, so no code is generated per probe.
    let ops = capabilities.then(|| {
        quote! {
                ::ecs_core::__private::ComponentOps::probed(|| {
                    #[allow(unused_imports)]
                    use ::ecs_core::__private::ProbeFallback as _;
                    let probe = ::ecs_core::__private::Probe::<Self>::new();
                    (
                        probe.__ecs_default(),
                        probe.__ecs_clone(),
                        probe.__ecs_serialize(),
                        probe.__ecs_deserialize(),
                        probe.__ecs_debug(),
                    )
                })
        }
    });
    // Capabilities and the number cache in one constant: one body fewer
    // per type for rustc to check than two constants.
    let runtime = (ops.is_some() || number.is_some()).then(|| {
        let ops = ops.unwrap_or_else(|| quote!(::ecs_core::__private::Runtime::NONE.ops));
        let number = number.unwrap_or_else(|| quote!(::core::option::Option::None));
        quote! {
            const __RUNTIME: ::ecs_core::__private::Runtime = ::ecs_core::__private::Runtime {
                ops: #ops,
                number: #number,
            };
        }
    });
    // A plain type keeps the trait's table, built by generic code in
    // ecs-core: no body per type to check, and evaluated only where read.
    let own_table = has_parent
        || behaviour.is_some()
        || receiver.is_some()
        || requirements.is_some()
        || transient.is_some();
    let vtable = own_table.then(|| {
        quote! {
            const __VTABLE: &'static ::ecs_core::__private::ComponentVTable = &{
                #vtable
                #behaviour
                #receiver
                #requirements
                #transient
            };
        }
    });
    // Found by name at run time without a registration call, on targets
    // where static constructors build the catalog (elsewhere the number cache's
    // static is the entry); a `static` cannot depend on generic parameters,
    // so generic types are by-type only.
    let submit = generics.is_empty.then(|| {
        quote! {
            ::ecs_core::__catalog_entry!(#ident);
        }
    });
    // Single is the trait's default: one constant less per type to check.
    let multiple_const = multiple.then(|| {
        quote!(
            const MULTIPLE: ::core::primitive::bool = true;
        )
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics ::ecs_core::Component for #ident #ty_generics #where_clause {
            const NAME: &'static ::core::primitive::str = #name;
            #multiple_const
            const __PATH: &'static ::core::primitive::str =
                ::core::concat!(::core::module_path!(), #path_tail);
            #runtime
            #vtable
        }
        #declarations
        #submit
    }
}

/// The marker impls that say what the attributes declare, which the traits
/// the user implements require (`Receive<M>` needs `DeclaresReceive<M>`), so
/// an impl the attributes do not declare, and the runtime would never call,
/// is a compile error. Each type once, and only a type that can be
/// declared: on errors the list may still hold a repeat or a reference.
fn declarations(input: &Input, generics: &Generics) -> TokenStream {
    let ident = input.ident();
    let Generics {
        impl_generics,
        ty_generics,
        where_clause,
        ..
    } = generics;
    let mut seen = Vec::new();
    let receives = input.attrs.receives.iter().filter(|ty| {
        let key = crate::ast::tokens(ty);
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

/// The impl's generics: the user's, plus `Send + Sync + 'static` on every
/// type parameter (a component needs them) and `P: Component` when the
/// parent type mentions a type parameter.
struct Generics {
    impl_generics: TokenStream,
    ty_generics: TokenStream,
    where_clause: TokenStream,
    /// No type or const parameter.
    is_empty: bool,
}

impl Generics {
    /// With `fallback`, lifetime parameters (already reported) become
    /// `'static`, so the fallback impl itself compiles.
    fn new(input: &Input, fallback: bool) -> Self {
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
