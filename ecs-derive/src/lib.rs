//! `#[derive(Component)]` for `ecs-core`.
//!
//! Users depend on `ecs-core`, which re-exports this derive next to the
//! trait of the same name; see `ecs_core::Component` for the attributes.
//!
//! The crate follows thiserror's layout: `ast` is a borrowed view of the
//! input, `attr` parses `#[component(...)]`, `valid` checks the rules that
//! need several pieces of the input, `expand` generates the impl (or a
//! minimal fallback impl next to the errors), and `ctxt` collects every
//! error so the user sees them all in one build.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod valid;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Implements `ecs_core::Component`; see that trait for the attributes.
#[proc_macro_derive(Component, attributes(component))]
pub fn derive_component(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
