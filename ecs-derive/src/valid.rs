//! Rules that need several pieces of the input. Each function states its
//! rule; every violation is reported, none stops the others.

use crate::ast::{last_segment, tokens, Data, Field, Input};
use crate::attr::{self, display_type};
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, input: &Input) {
    check_static(cx, input);
    check_name(cx, input);
    check_requires(cx, input);
    check_sibling(cx, input);
    check_receives(cx, input);
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

/// Rule: `name = "..."` is not empty and has no space at either end (name
/// lookups and blueprints match it exactly, and `"Health "` looks like
/// `"Health"`).
fn check_name(cx: &Ctxt, input: &Input) {
    if let Some(name) = &input.attrs.name {
        let value = name.value();
        if !value.trim().is_empty() && value.trim() != value {
            cx.error_spanned_by(
                name,
                format!(
                    "the component name {:?} has spaces at its ends, which name lookups and \
                     blueprints would have to repeat exactly; write `name = {:?}`",
                    value,
                    value.trim()
                ),
            );
        }
        if value.trim().is_empty() {
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
        check_marked_by_value(cx, input, first);
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
    if names_self(input, parent) {
        cx.error_spanned_by(
            parent,
            format!(
                "a type cannot be its own parent: `{ident}` would have to hold a `{ident}` inside \
                 itself; name the component `{ident}` is a kind of (`parent = Moving`), or remove `parent`"
            ),
        );
        return;
    }
    if not_a_plain_type(cx, parent, "parent = ") {
        return;
    }
    let parent_name = display_type(parent);
    let candidates = input.fields_of_type(parent);
    match candidates.as_slice() {
        [] => match input
            .struct_fields()
            .iter()
            .find(|field| holds_behind_pointer(field.ty, parent))
        {
            // Following "add a field `base: B`" would leave this field in
            // place, so say what is wrong with it.
            Some(field) => cx.error_spanned_by(
                field.ty,
                format!(
                    "a parent is embedded by value, so `get::<{parent_name}>()` can lend the \
                     `{parent_name}` inside every `{ident}`: write `{}`, not `{}`; but if \
                     `{parent_name}` derives from `{ident}` (a cycle, which a parent chain cannot \
                     be), keep the field as it is and remove `parent = {parent_name}` instead",
                    field.written_as(parent),
                    field.written_as(field.ty),
                ),
            ),
            None => cx.error_spanned_by(
                parent,
                format!(
                    "`{ident}` has no field of type `{parent_name}`; a component with \
                     `parent = {parent_name}` embeds its parent: add a field such as \
                     `base: {parent_name}` (or mark the field that holds it with `#[component(parent)]`)"
                ),
            ),
        },
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

/// Rule: `requires(...)` lists other components, each once, none of them
/// the type's parent: a requirement the new component meets itself (it
/// is-a itself and its parent) would never add anything.
fn check_requires(cx: &Ctxt, input: &Input) {
    let ident = input.ident();
    let parent = input.parent().map(|p| tokens(p.ty));
    for (i, ty) in input.attrs.requires.iter().enumerate() {
        if not_a_plain_type(cx, ty, "requires(") {
            continue;
        }
        let name = display_type(ty);
        let message = if names_self(input, ty) {
            format!(
                "`{ident}` cannot require itself: the entity holds the `{ident}` being added, \
                 so the requirement would never add anything; remove `{name}` from `requires(...)`"
            )
        } else if input.attrs.requires[..i]
            .iter()
            .any(|earlier| tokens(earlier) == tokens(ty))
        {
            format!("`{name}` is listed twice in `requires(...)`; remove this one")
        } else if parent.as_deref() == Some(tokens(ty).as_str()) {
            format!(
                "every `{ident}` is-a `{name}` (its parent), so `requires({name})` is met by the \
                 `{ident}` itself and never adds anything; remove `{name}` from `requires(...)`"
            )
        } else {
            continue;
        };
        cx.error_spanned_by(ty, message);
    }
}

/// Rule: `behaviour(with = S)` names another component: the sibling handed
/// to `update_with` is a separate component of the same entity.
fn check_sibling(cx: &Ctxt, input: &Input) {
    let Some((_, Some(sibling))) = &input.attrs.behaviour else {
        return;
    };
    if names_self(input, sibling) {
        cx.error_spanned_by(
            sibling,
            format!(
                "a component is not its own sibling: `with = {0}` would never hand `update_with` \
                 anything; name another component of the entity (`with = Position`), or write \
                 plain `#[component(behaviour)]`, remove `impl UpdateWith<{1}>`, and use `self` \
                 in `update`",
                display_type(sibling),
                input.ident()
            ),
        );
    } else {
        not_a_plain_type(cx, sibling, "with = ");
    }
}

/// Rule: `receives(...)` names each message type once, by value (a message
/// is sent by reference, `send(id, &Heal(5))`, whatever its type).
fn check_receives(cx: &Ctxt, input: &Input) {
    for (i, ty) in input.attrs.receives.iter().enumerate() {
        let name = display_type(ty);
        if let syn::Type::Reference(reference) = ty {
            let inner = display_type(&reference.elem);
            cx.error_spanned_by(
                ty,
                format!(
                    "name the message type itself: write `receives({inner})`; `send(id, &{inner}(..))` \
                     already passes it by reference, and `receive` gets a `&{inner}`"
                ),
            );
        } else if input.attrs.receives[..i]
            .iter()
            .any(|earlier| tokens(earlier) == tokens(ty))
        {
            cx.error_spanned_by(
                ty,
                format!("`{name}` is listed twice in `receives(...)`; remove this one"),
            );
        }
    }
}

/// Rule: the field marked `#[component(parent)]` holds the parent by value,
/// not behind a pointer (which could never be a component).
fn check_marked_by_value(cx: &Ctxt, input: &Input, marked: &Field) {
    const POINTERS: &[&str] = &["Box", "Rc", "Arc", "Option", "Vec"];
    let inner = match marked.ty {
        syn::Type::Reference(reference) => Some(&*reference.elem),
        syn::Type::Path(path) => path.path.segments.last().and_then(|last| {
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            match args.args.first() {
                Some(syn::GenericArgument::Type(inner))
                    if args.args.len() == 1 && POINTERS.iter().any(|p| last.ident == p) =>
                {
                    Some(inner)
                }
                _ => None,
            }
        }),
        _ => None,
    };
    if let Some(inner) = inner {
        let parent = display_type(inner);
        cx.error_spanned_by(
            marked.ty,
            format!(
                "a parent is embedded by value, so `get::<{parent}>()` can lend the `{parent}` \
                 inside every `{}`: write `{}`, not `{}`",
                input.ident(),
                marked.written_as(inner),
                marked.written_as(marked.ty),
            ),
        );
    }
}

/// Whether `ty` holds `parent` behind a pointer or in a container:
/// `&P`, `Box<P>`, `Option<P>`, `Vec<P>`, ... (any one-argument generic).
fn holds_behind_pointer(ty: &syn::Type, parent: &syn::Type) -> bool {
    let is_parent = |inner: &syn::Type| {
        tokens(inner) == tokens(parent)
            || (last_segment(inner).is_some() && last_segment(inner) == last_segment(parent))
    };
    match ty {
        syn::Type::Reference(reference) => is_parent(&reference.elem),
        syn::Type::Ptr(pointer) => is_parent(&pointer.elem),
        syn::Type::Path(path) => match path.path.segments.last().map(|s| &s.arguments) {
            Some(syn::PathArguments::AngleBracketed(args)) if args.args.len() == 1 => {
                matches!(&args.args[0], syn::GenericArgument::Type(inner) if is_parent(inner))
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether `ty` names the type being derived: `Self`, or its own name.
fn names_self(input: &Input, ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() && path.path.segments.len() == 1 => {
            let ident = &path.path.segments[0].ident;
            ident == "Self" || ident == input.ident()
        }
        _ => false,
    }
}

/// Reports a reference or a tuple where a component type belongs (`written`
/// is what precedes the type: `parent = `, `requires(`, `with = `); `true`
/// when it did.
fn not_a_plain_type(cx: &Ctxt, ty: &syn::Type, written: &str) -> bool {
    let close = if written.ends_with('(') { ")" } else { "" };
    let message = match ty {
        syn::Type::Reference(reference) => format!(
            "name the component type itself: write `{written}{}{close}`, without `&`",
            display_type(&reference.elem)
        ),
        syn::Type::Tuple(tuple) if close.is_empty() => format!(
            "name one component type here, not a tuple: `{written}{}`",
            tuple
                .elems
                .first()
                .map_or_else(|| "Position".to_owned(), display_type)
        ),
        syn::Type::Tuple(tuple) => format!(
            "list the component types one by one, not as a tuple: write `{written}{}{close}`",
            tuple
                .elems
                .iter()
                .map(display_type)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => return false,
    };
    cx.error_spanned_by(ty, message);
    true
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
