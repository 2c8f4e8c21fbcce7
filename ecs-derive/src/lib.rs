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
//!
//! The modules form layers, lowest first, as the first line of
//! `ecs-derive/LAYERS` lists them: `ctxt < attr < ast < valid < expand`.
//! Each uses only those below it. `ctxt` knows none of the others. `attr`
//! knows `ctxt`, and owns the keys and `display_type`, the way every
//! message quotes a written type. `ast` knows `attr`, whose parsed
//! attributes it holds, and owns the type comparisons (`tokens`,
//! `last_segment`). `valid` knows the input and its attributes; `expand`
//! knows them all: it runs `valid` and turns the input into tokens, in the
//! files of `expand/`.

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
