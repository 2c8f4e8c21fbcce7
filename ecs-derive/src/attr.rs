//! Parsing of `#[component(...)]` on the type and on its fields.
//!
//! Every key the derive understands is a constant below; each is parsed in
//! one branch of [`parse_container`] or [`parse_field`]. The messages of
//! every layer quote what the user wrote through [`display_type`], which
//! lives here, the lowest layer that quotes anything.

use crate::ctxt::Ctxt;
use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Expr, Lit, LitStr, Meta, Token, Type};

/// The attribute's own name: `#[component(...)]`.
pub const COMPONENT: &str = "component";
/// `#[component(parent = P)]` on the type, `#[component(parent)]` on a field.
pub const PARENT: &str = "parent";
/// `#[component(multiple)]`: an entity may hold several of this type.
pub const MULTIPLE: &str = "multiple";
/// `#[component(name = "...")]`: the stable name.
pub const NAME: &str = "name";
/// `#[component(requires(Transform, Health))]`: components added with this one.
pub const REQUIRES: &str = "requires";
/// `#[component(behaviour)]`: updated by `World::update`, has hooks.
pub const BEHAVIOUR: &str = "behaviour";
/// `#[component(receives(TakeDamage, Heal))]`: message types it handles.
pub const RECEIVES: &str = "receives";
/// `#[component(transient)]`: left out of saved worlds on purpose.
pub const TRANSIENT: &str = "transient";

/// The keys accepted on the type, in the order the messages list them.
const CONTAINER_KEYS: &[&str] = &[
    PARENT, MULTIPLE, NAME, REQUIRES, BEHAVIOUR, RECEIVES, TRANSIENT,
];
/// The keys accepted on a field.
const FIELD_KEYS: &[&str] = &[PARENT];

/// `#[component(...)]` on the type.
pub struct Container {
    /// `parent = P`: the key's span and `P`.
    pub parent: Option<(Span, Type)>,
    /// `multiple`: the key's span.
    pub multiple: Option<Span>,
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `requires(A, B)`: the required types, in order.
    pub requires: Vec<Type>,
    /// `behaviour`: the key's span, and `S` of `behaviour(with = S)`.
    pub behaviour: Option<(Span, Option<Type>)>,
    /// `receives(A, B)`: the message types, in order.
    pub receives: Vec<Type>,
    /// `transient`: the key's span.
    pub transient: Option<Span>,
}

/// `#[component(...)]` on a field.
pub struct Field {
    /// `parent`: the key's span.
    pub parent: Option<Span>,
}

/// One key's value, remembering where it was set so a repeated key is
/// reported on the key itself (serde_derive's `Attr`).
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    fn none(cx: &'c Ctxt, name: &'static str) -> Self {
        Attr {
            cx,
            name,
            value: None,
        }
    }

    fn set(&mut self, key: &syn::Path, value: T) {
        if self.value.is_some() {
            let message = format!(
                "duplicate component attribute `{}`; it may appear once, remove this one",
                self.name
            );
            self.cx.error_spanned_by(key, message);
        } else {
            self.value = Some(value);
        }
    }

    fn get(self) -> Option<T> {
        self.value
    }
}

/// Parses every `#[component(...)]` on the type; errors go to `cx`.
pub fn parse_container(cx: &Ctxt, attrs: &[Attribute]) -> Container {
    let mut parent = Attr::none(cx, PARENT);
    let mut multiple = Attr::none(cx, MULTIPLE);
    let mut name = Attr::none(cx, NAME);
    let mut requires = Attr::none(cx, REQUIRES);
    let mut behaviour = Attr::none(cx, BEHAVIOUR);
    let mut receives = Attr::none(cx, RECEIVES);
    let mut transient = Attr::none(cx, TRANSIENT);

    for attr in component_attrs(cx, attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(PARENT) {
                // #[component(parent = Moving)]
                if !meta.input.peek(Token![=]) {
                    return Err(meta.error(
                        "`parent` on the type needs the parent type: write `#[component(parent = Moving)]`, \
                         or put `#[component(parent)]` on the field that holds the parent",
                    ));
                }
                if let Some(ty) = type_value(cx, meta.value()?, "parent = ", "Moving")? {
                    parent.set(&meta.path, (key_span(&meta), ty));
                }
            } else if meta.path.is_ident(MULTIPLE) {
                // #[component(multiple)]
                no_value(&meta, "`#[component(multiple)]`")?;
                multiple.set(&meta.path, key_span(&meta));
            } else if meta.path.is_ident(BEHAVIOUR) {
                // #[component(behaviour)] or #[component(behaviour(with = Position))]
                let with = sibling(cx, &meta)?;
                behaviour.set(&meta.path, (key_span(&meta), with));
            } else if meta.path.is_ident(TRANSIENT) {
                // #[component(transient)]
                no_value(&meta, "`#[component(transient)]`")?;
                transient.set(&meta.path, key_span(&meta));
            } else if meta.path.is_ident(RECEIVES) {
                // #[component(receives(TakeDamage, Heal))]
                let types = type_list(cx, &meta, "receives", "TakeDamage, Heal")?;
                receives.set(&meta.path, types);
            } else if meta.path.is_ident(REQUIRES) {
                // #[component(requires(Transform, Health))]
                let types = type_list(cx, &meta, "requires", "Transform, Health")?;
                requires.set(&meta.path, types);
            } else if meta.path.is_ident(NAME) {
                // #[component(name = "Axis")]
                if !meta.input.peek(Token![=]) {
                    return Err(meta.error("expected `=` after `name`: write `#[component(name = \"Axis\")]`"));
                }
                let expr: Expr = meta.value()?.parse()?;
                match &expr {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => name.set(&meta.path, lit.clone()),
                    _ => cx.error_spanned_by(&expr, not_a_string(&expr)),
                }
            } else {
                unknown_key(cx, &meta, CONTAINER_KEYS, "component attribute", "")?;
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }

    Container {
        parent: parent.get(),
        multiple: multiple.get(),
        name: name.get(),
        requires: requires.get().unwrap_or_default(),
        behaviour: behaviour.get(),
        receives: receives.get().unwrap_or_default(),
        transient: transient.get(),
    }
}

/// What closes `written` in a message: `)` after `requires(`.
fn close(written: &str) -> &'static str {
    if written.ends_with('(') {
        ")"
    } else {
        ""
    }
}

/// The `S` of `behaviour(with = S)`, or `None` after a plain `behaviour`.
fn sibling(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Type>> {
    if !meta.input.peek(syn::token::Paren) {
        no_value(meta, "`#[component(behaviour)]`")?;
        return Ok(None);
    }
    let content;
    syn::parenthesized!(content in meta.input);
    if content.is_empty() {
        // `behaviour()`: an empty list, like `requires()`.
        cx.error_spanned_by(
            &meta.path,
            "`behaviour()` names no sibling: write `#[component(behaviour)]`, \
             or `#[component(behaviour(with = Position))]` to have a `Position` handed in",
        );
        return Ok(None);
    }
    let mut with = None;
    let mut named = false;
    syn::meta::parser(|inner| {
        if !inner.path.is_ident("with") {
            return Err(inner.error(
                "expected `with = Sibling`: write `#[component(behaviour(with = Position))]`, \
                 or `#[component(behaviour)]` for no typed sibling",
            ));
        }
        if named {
            // A second sibling would be dropped silently.
            cx.error_spanned_by(
                &inner.path,
                "`behaviour(with = ...)` hands in one sibling type; keep one `with = ...` \
                 and reach the others through `ctx.get_mut::<T>()`",
            );
        }
        named = true;
        let ty = type_value(cx, inner.value()?, "with = ", "Position")?;
        with = with.take().or(ty);
        Ok(())
    })
    .parse2(content.parse()?)?;
    Ok(with)
}

/// `key(A, B)`: a parenthesized, non-empty list of types. `example` is what
/// the messages suggest writing inside the parentheses.
fn type_list(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Vec<Type>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`{key}` takes a list of types: write `#[component({key}({example}))]`"
        )));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let first = example.split(',').next().unwrap_or(example);
    let mut types = Vec::new();
    let mut entries = 0;
    while !content.is_empty() {
        entries += 1;
        types.extend(type_value(cx, &content, &format!("{key}("), first)?);
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    if entries == 0 {
        cx.error_spanned_by(
            &meta.path,
            format!(
                "`{key}()` names no type: list at least one, e.g. `{key}({first})`, or remove it"
            ),
        );
    }
    Ok(types)
}

/// Parses the type after `key =` (`written` is `"parent = "`), or one
/// entry of a list (`written` is `"requires("`). A string literal is
/// reported with its content unquoted and skipped (`Ok(None)`), so the
/// other keys are still checked; anything else that is not a type is an
/// error naming `example`, instead of syn's list of every token a type may
/// start with.
fn type_value(
    cx: &Ctxt,
    input: ParseStream,
    written: &str,
    example: &str,
) -> syn::Result<Option<Type>> {
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        cx.error_spanned_by(
            &lit,
            format!(
                "a type is written without quotes: write `{written}{}{}`",
                lit.value(),
                close(written)
            ),
        );
        return Ok(None);
    }
    input.parse::<Type>().map(Some).map_err(|err| {
        syn::Error::new(
            err.span(),
            format!(
                "expected a type, such as `{written}{example}{}`",
                close(written)
            ),
        )
    })
}

/// Parses every `#[component(...)]` on one field; errors go to `cx`.
pub fn parse_field(cx: &Ctxt, field: &syn::Field) -> Field {
    let mut parent = Attr::none(cx, PARENT);

    for attr in component_attrs(cx, &field.attrs) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(PARENT) {
                // #[component(parent)]
                no_value(
                    &meta,
                    "`#[component(parent)]` on the field (its type is the parent), \
                     or `#[component(parent = ...)]` on the type",
                )?;
                parent.set(&meta.path, key_span(&meta));
            } else if let Some(key) = CONTAINER_KEYS.iter().find(|k| meta.path.is_ident(k)) {
                // A key of the type's: say where it goes, with what was written.
                let value = value_tokens(&meta);
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "`{key}` is not expected on a field; it describes the whole component, \
                         so it belongs on the type: write `#[component({key}{value})]` above the `struct`"
                    ),
                );
                skip_value(&meta)?;
            } else {
                unknown_key(
                    cx,
                    &meta,
                    FIELD_KEYS,
                    "component field attribute",
                    "the only one on a field is `#[component(parent)]`",
                )?;
            }
            Ok(())
        });
        if let Err(err) = result {
            cx.syn_error(err);
        }
    }

    Field {
        parent: parent.get(),
    }
}

/// The `#[component(...)]` attributes among `attrs`, reporting the ones
/// whose shape is not a parenthesized list (`#[component]`,
/// `#[component = ...]`, `#[component[...]]`).
fn component_attrs<'a>(cx: &Ctxt, attrs: &'a [Attribute]) -> Vec<&'a Attribute> {
    let mut found = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident(COMPONENT) {
            continue;
        }
        match &attr.meta {
            Meta::List(list) if matches!(list.delimiter, syn::MacroDelimiter::Paren(_)) => {
                found.push(attr);
            }
            Meta::List(list) => cx.error_spanned_by(
                list,
                "expected parentheses: write `#[component(...)]`, e.g. `#[component(multiple)]`",
            ),
            Meta::Path(path) => cx.error_spanned_by(
                path,
                "`#[component]` needs a list of keys: write `#[component(parent = P)]`, \
                 `#[component(multiple)]` or `#[component(name = \"...\")]` (on a field: \
                 `#[component(parent)]`), or remove it; `#[derive(Component)]` alone is enough",
            ),
            Meta::NameValue(nv) => cx.error_spanned_by(
                nv,
                "expected `#[component(key = value)]`, not `#[component = value]`; \
                 e.g. `#[component(name = \"Axis\")]`",
            ),
        }
    }
    found
}

fn key_span(meta: &ParseNestedMeta) -> Span {
    syn::spanned::Spanned::span(&meta.path)
}

/// Rejects `key = value` and `key(...)` for a key that takes no value;
/// `write` is what to write instead.
fn no_value(meta: &ParseNestedMeta, write: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        let key = meta.path.to_token_stream().to_string();
        return Err(meta.error(format!("`{key}` takes no value here; write {write}")));
    }
    Ok(())
}

/// Records an unknown key (with the nearest valid one, if any is close) and
/// skips its value, so the remaining keys are still checked.
fn unknown_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    valid: &[&str],
    what: &str,
    tail: &str,
) -> syn::Result<()> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    let mut message = format!("unknown {what} `{key}`");
    if let Some(near) = nearest(&key, valid) {
        message += &format!("; did you mean `{near}`?");
    } else {
        message += ";";
    }
    if tail.is_empty() {
        let list: Vec<String> = valid.iter().map(|k| format!("`{k}`")).collect();
        message += &format!(" expected one of {}", list.join(", "));
    } else {
        message += " ";
        message += tail;
    }
    cx.error_spanned_by(&meta.path, message);
    skip_value(meta)
}

/// The value written after a key, as the messages quote it: ` = "Axis"`,
/// `(Transform)`, or nothing. Reads a copy of the input, so the value is
/// still there to skip.
fn value_tokens(meta: &ParseNestedMeta) -> String {
    let input = meta.input.fork();
    let mut tokens = proc_macro2::TokenStream::new();
    while !input.is_empty() && !input.peek(Token![,]) {
        match input.parse::<proc_macro2::TokenTree>() {
            Ok(token) => tokens.extend([token]),
            Err(_) => break,
        }
    }
    let text = display_type(&tokens);
    match text.strip_prefix('=') {
        Some(value) => format!(" = {}", value.trim_start()),
        None => text,
    }
}

/// A type (or any tokens) as a message quotes it: `Tagged<u32>`, not
/// `Tagged < u32 >`.
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

/// Consumes `= value` or `(...)` after a key that was reported already.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// The message for `name = <not a string literal>`.
fn not_a_string(expr: &Expr) -> String {
    let written = expr.to_token_stream().to_string();
    let suggestion = match expr {
        Expr::Path(path) if path.path.get_ident().is_some() => written.clone(),
        _ => "Axis".to_owned(),
    };
    format!(
        "the component name must be a string literal: write `name = \"{suggestion}\"`, not `name = {written}`"
    )
}

/// The valid key closest to `key` by edit distance, if any is close enough.
fn nearest<'k>(key: &str, valid: &[&'k str]) -> Option<&'k str> {
    let key = key.to_ascii_lowercase();
    valid
        .iter()
        .map(|candidate| (edit_distance(&key, candidate), *candidate))
        .filter(|(distance, candidate)| {
            *distance <= candidate.len().max(3) / 3
                || (key.len() >= 3 && (candidate.starts_with(&key) || key.starts_with(candidate)))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions
/// and swaps of two adjacent characters each cost one (`mutliple` is one
/// away from `multiple`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_keys_only() {
        assert_eq!(nearest("mutliple", CONTAINER_KEYS), Some("multiple"));
        assert_eq!(nearest("parnet", CONTAINER_KEYS), Some("parent"));
        assert_eq!(nearest("nmae", CONTAINER_KEYS), Some("name"));
        assert_eq!(nearest("Multiple", CONTAINER_KEYS), Some("multiple"));
        assert_eq!(nearest("multi", CONTAINER_KEYS), Some("multiple"));
        assert_eq!(nearest("color", CONTAINER_KEYS), None);
        assert_eq!(nearest("x", CONTAINER_KEYS), None);
    }
}
