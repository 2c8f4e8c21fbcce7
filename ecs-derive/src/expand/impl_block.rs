//! The `impl Component` block: its constants, the table a type gets when
//! the trait's default does not fit, and what goes next to the impl.

use super::declarations::declarations;
use super::generics::Generics;
use super::parent::ParentBody;
use crate::ast::Input;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::LitStr;

/// The impl with its marker impls and catalog entry. Without
/// `capabilities` (the fallback) none of the declared capabilities is set.
pub(super) fn impl_block(
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
    let path_tail = path_tail(input, generics);
    let runtime = runtime(input, generics, capabilities);
    let vtable = vtable(input, parent, capabilities);
    let declarations = declarations(input, generics);
    let submit = catalog_entry(input, generics);
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

/// What `__PATH` appends to the module path: `::Name@line:column`.
fn path_tail(input: &Input, generics: &Generics) -> String {
    let ident = input.ident();
    // A generic type's instantiations share one path; the mark says so.
    let generic_mark = if generics.is_empty { "" } else { "<>" };
    // The text after the module path, with the derive's line and column
    // written out here: `line!()` and `column!()` in the output would be two
    // more macro expansions per type for rustc.
    let site = proc_macro::Span::call_site();
    format!("::{ident}{generic_mark}@{}:{}", site.line(), site.column())
}

/// `const __RUNTIME`, unless there is neither a capability to probe nor a
/// number to cache.
fn runtime(input: &Input, generics: &Generics, capabilities: bool) -> Option<TokenStream> {
    let ident = input.ident();
    // A `static` inside a generic impl would be shared by every
    // instantiation, so only non-generic types cache their number. With the
    // link-time catalog on Linux, Android and FreeBSD that `static` is also
    // the type's catalog entry.
    let number = generics
        .is_empty
        .then(|| quote!(::ecs_core::__number_cell!(#ident)));
    let ops = capabilities.then(ops_probe);
    // Capabilities and the number cache in one constant: one body fewer
    // per type for rustc to check than two constants.
    (ops.is_some() || number.is_some()).then(|| {
        let ops = ops.unwrap_or_else(|| quote!(::ecs_core::__private::Runtime::NONE.ops));
        let number = number.unwrap_or_else(|| quote!(::core::option::Option::None));
        quote! {
            const __RUNTIME: ::ecs_core::__private::Runtime = ::ecs_core::__private::Runtime {
                ops: #ops,
                number: #number,
            };
        }
    })
}

/// Capabilities found by method lookup: `probe.__ecs_default()` is
/// `Probe`'s own method when `Self: Default`, else `ProbeFallback`'s.
/// Inside a generic impl only the declared bounds count.
/// The answers are types, read by a constant from a closure that is never
/// called, so no code is generated per probe.
fn ops_probe() -> TokenStream {
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
}

/// `const __VTABLE`, for a type whose table is not the trait's default.
fn vtable(input: &Input, parent: Option<ParentBody>, capabilities: bool) -> Option<TokenStream> {
    let has_parent = parent.is_some();
    let (base, parent_requirements) = match parent {
        Some(p) => (p.vtable, p.requirements),
        None => (
            quote!(::ecs_core::__private::ComponentVTable::root::<Self>()),
            TokenStream::new(),
        ),
    };
    let behaviour = behaviour(input, capabilities);
    let receiver = receiver(input, capabilities);
    let requirements = requirements(input, capabilities, parent_requirements);
    let transient = input
        .attrs
        .transient
        .is_some()
        .then(|| quote!(.transient(true)));
    // A plain type keeps the trait's table, built by generic code in
    // ecs-core: no body per type to check, and evaluated only where read.
    let own_table = has_parent
        || behaviour.is_some()
        || receiver.is_some()
        || requirements.is_some()
        || transient.is_some();
    own_table.then(|| {
        quote! {
            const __VTABLE: &'static ::ecs_core::__private::ComponentVTable = &{
                #base
                #behaviour
                #receiver
                #requirements
                #transient
            };
        }
    })
}

/// `.behaviour(...)` on the table, for a declared behaviour.
fn behaviour(input: &Input, capabilities: bool) -> Option<TokenStream> {
    let declared_behaviour = input.attrs.behaviour.as_ref().filter(|_| capabilities);
    // Spanned on `behaviour`, so a missing `impl Behaviour` points at it.
    declared_behaviour.map(|(span, with)| {
        let fns = match with {
            // Spanned on the sibling type, so a missing `impl UpdateWith<S>`
            // points at it.
            Some(sibling) => quote_spanned! {sibling.span()=>
                ::ecs_core::__private::BehaviourFns::with::<Self, #sibling>()
            },
            None => quote_spanned!(*span=> ::ecs_core::__private::BehaviourFns::of::<Self>()),
        };
        quote!(.behaviour(#fns))
    })
}

/// `.receiver(...)` on the table, for declared message types.
fn receiver(input: &Input, capabilities: bool) -> Option<TokenStream> {
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
    (capabilities && !input.attrs.receives.is_empty()).then(|| {
        quote! {
            .receiver(|message| {
                #(#receivers)*
                ::core::option::Option::None
            })
        }
    })
}

/// `.requirements(...)` on the table: this type's own, then the parent's.
fn requirements(
    input: &Input,
    capabilities: bool,
    parent_requirements: TokenStream,
) -> Option<TokenStream> {
    // Each `require::<R>()` carries the span of `R`, so "cannot be required"
    // points at the type the user named.
    let own_requirements: Vec<TokenStream> = input
        .attrs
        .requires
        .iter()
        .filter(|_| capabilities)
        .map(|ty| quote_spanned!(ty.span()=> out.require::<#ty>();))
        .collect();
    (!own_requirements.is_empty() || !parent_requirements.is_empty())
        .then(|| quote!(.requirements(|out| { #(#own_requirements)* #parent_requirements })))
}

/// The type's entry in the catalog of types found by name.
fn catalog_entry(input: &Input, generics: &Generics) -> Option<TokenStream> {
    let ident = input.ident();
    // Found by name at run time without a registration call, on targets
    // where static constructors build the catalog (elsewhere the number cache's
    // static is the entry); a `static` cannot depend on generic parameters,
    // so generic types are by-type only.
    generics.is_empty.then(|| {
        quote! {
            ::ecs_core::__catalog_entry!(#ident);
        }
    })
}
