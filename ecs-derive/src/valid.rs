//! Rules that need several pieces of the input. Each function states its
//! rule; every violation is reported, none stops the others.

use crate::ast::{last_segment, tokens, Data, Field, Input};
use crate::attr;
use crate::ctxt::Ctxt;
use quote::ToTokens;

pub fn check(cx: &Ctxt, input: &Input) {
    check_static(cx, input);
    check_name(cx, input);
    match &input.data {
        Data::Struct(_) => check_struct_parent(cx, input),
        Data::Enum(_) | Data::Union(_) => check_no_parent(cx, input),
    }
}

/// Rule: a component is `'static` (a `World` owns it and may move to another
/// thread), so the type has no lifetime parameter.
fn check_static(cx: &Ctxt, input: &Input) {
    let ident = input.ident();
    for lifetime in input.original.generics.lifetimes() {
        let lt = &lifetime.lifetime;
        cx.error_spanned_by(
            lt,
            format!(
                "components must be `'static`, so `{ident}` cannot have a lifetime parameter `{lt}`; \
                 store owned data instead of borrowing (`String`, `Vec<T>`, `Arc<T>`, or an `EntityId` \
                 to refer to another entity)"
            ),
        );
    }
}

/// Rule: `name = "..."` is not empty (name lookups and blueprints use it).
fn check_name(cx: &Ctxt, input: &Input) {
    if let Some(name) = &input.attrs.name {
        if name.value().trim().is_empty() {
            cx.error_spanned_by(
                name,
                format!(
                    "the component name must not be empty; write `name = \"{}\"` or remove `name` \
                     to use the type's name",
                    input.ident()
                ),
            );
        }
    }
}

/// Rule: a struct with a parent holds it in exactly one field: the field
/// marked `#[component(parent)]` (at most one is), or else the only field
/// whose type is the `P` of `parent = P`.
fn check_struct_parent(cx: &Ctxt, input: &Input) {
    let ident = input.ident();
    let marked = input.marked_parent_fields();
    if let Some(first) = marked.first() {
        check_marker_agrees(cx, input, first);
        for extra in &marked[1..] {
            cx.error_at(
                extra.attrs.parent.expect("marked"),
                format!(
                    "only one field can be the parent, and field `{}` of `{ident}` is marked \
                     `#[component(parent)]` already; remove one of the two markers",
                    first.display_name()
                ),
            );
        }
        return;
    }
    let Some((_, parent)) = &input.attrs.parent else {
        return;
    };
    let parent_name = display_type(parent);
    let candidates = input.fields_of_type(parent);
    match candidates.as_slice() {
        [] => cx.error_spanned_by(
            parent,
            format!(
                "`{ident}` has no field of type `{parent_name}`; a component with \
                 `parent = {parent_name}` embeds its parent: add a field such as \
                 `base: {parent_name}` (or mark the field that holds it with `#[component(parent)]`)"
            ),
        ),
        [_] => {}
        [first, rest @ ..] => {
            for other in rest {
                cx.error_spanned_by(
                    other.original,
                    format!(
                        "`{ident}` has several fields of type `{parent_name}` (`{}` and `{}`), so the \
                         parent is ambiguous; put `#[component(parent)]` on the one that is the parent",
                        first.display_name(),
                        other.display_name()
                    ),
                );
            }
        }
    }
}

/// Rule: with both `parent = P` on the type and `#[component(parent)]` on a
/// field, the field's type is `P`. Only visibly different types are caught
/// here (`Moving` vs `Jumping`); two paths to one type (`Moving` vs
/// `crate::Moving`) are accepted and the compiler checks they agree.
fn check_marker_agrees(cx: &Ctxt, input: &Input, marked: &Field) {
    let Some((_, declared)) = &input.attrs.parent else {
        return;
    };
    let same = match (last_segment(declared), last_segment(marked.ty)) {
        (Some(declared), Some(field)) => declared == field,
        _ => tokens(declared) == tokens(marked.ty),
    };
    if !same {
        let declared = display_type(declared);
        cx.error_spanned_by(
            marked.ty,
            format!(
                "the field marked `#[component(parent)]` has type `{}`, but the type says \
                 `parent = {declared}`; make them agree, or drop `parent = {declared}` \
                 (the field marker alone is enough)",
                display_type(marked.ty)
            ),
        );
    }
}

/// Rule: enums and unions have no parent: the parent is a value the
/// component embeds and hands out by reference, which only a struct field
/// can be. Nor do `#[component(...)]` attributes appear inside them.
fn check_no_parent(cx: &Ctxt, input: &Input) {
    let ident = input.ident();
    let (kind, fields): (&str, Vec<_>) = match &input.data {
        Data::Enum(variants) => {
            for variant in variants {
                for attr in &variant.original.attrs {
                    if attr.path().is_ident(attr::COMPONENT) {
                        cx.error_spanned_by(
                            attr,
                            "`#[component(...)]` is not expected on an enum variant; \
                             it describes the whole component, so put it above the `enum`",
                        );
                    }
                }
            }
            (
                "enum",
                variants.iter().flat_map(|v| v.fields.iter()).collect(),
            )
        }
        Data::Union(fields) => ("union", fields.iter().collect()),
        Data::Struct(_) => return,
    };
    let a_kind = if kind == "enum" { "an enum" } else { "a union" };
    if let Some((key, _)) = &input.attrs.parent {
        cx.error_at(
            *key,
            format!(
                "`parent` is not supported on {a_kind}: the parent must be a field every value \
                 holds; wrap it in a struct instead: \
                 `#[component(parent = P)] struct {ident}Component {{ base: P, kind: {ident} }}`"
            ),
        );
    }
    for field in fields {
        if let Some(key) = field.attrs.parent {
            cx.error_at(
                key,
                format!(
                    "`#[component(parent)]` is not expected on a field of {a_kind}: {a_kind} \
                     component cannot have a parent; wrap it in a struct whose field is the parent"
                ),
            );
        }
    }
}

/// `Tagged<u32>`, not `Tagged < u32 >`.
pub fn display_type<T: ToTokens>(ty: &T) -> String {
    let mut out = ty.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" < ", "<"),
        ("< ", "<"),
        (" <", "<"),
        (" >", ">"),
        (" ,", ","),
        ("& ", "&"),
    ] {
        out = out.replace(from, to);
    }
    out
}
