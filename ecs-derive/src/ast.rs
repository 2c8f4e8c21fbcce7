//! A borrowed view of the derive input with its attributes parsed.

use crate::attr;
use crate::ctxt::Ctxt;
use syn::{Data as SynData, DeriveInput, Fields, Index, Member, Type};

/// The type being derived.
pub struct Input<'a> {
    pub original: &'a DeriveInput,
    pub attrs: attr::Container,
    pub data: Data<'a>,
}

/// The shape of the type.
pub enum Data<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    Union(Vec<Field<'a>>),
}

pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    /// The field as written, for spans.
    pub original: &'a syn::Field,
    /// `base` or `0`: how `self.<member>` reaches the field.
    pub member: Member,
    pub ty: &'a Type,
    pub attrs: attr::Field,
}

impl<'a> Input<'a> {
    /// Parses the attributes of `node` and its fields; errors go to `cx`.
    pub fn from_syn(cx: &Ctxt, node: &'a DeriveInput) -> Self {
        let data = match &node.data {
            SynData::Struct(data) => Data::Struct(fields(cx, &data.fields)),
            SynData::Enum(data) => Data::Enum(
                data.variants
                    .iter()
                    .map(|variant| Variant {
                        original: variant,
                        fields: fields(cx, &variant.fields),
                    })
                    .collect(),
            ),
            SynData::Union(data) => Data::Union(
                data.fields
                    .named
                    .iter()
                    .enumerate()
                    .map(|(i, field)| Field::from_syn(cx, i, field))
                    .collect(),
            ),
        };
        Input {
            original: node,
            attrs: attr::parse_container(cx, &node.attrs),
            data,
        }
    }

    /// The type's name as written, without generics.
    pub fn ident(&self) -> &'a syn::Ident {
        &self.original.ident
    }

    /// The struct's fields (empty for enums and unions).
    pub fn struct_fields(&self) -> &[Field<'a>] {
        match &self.data {
            Data::Struct(fields) => fields,
            Data::Enum(_) | Data::Union(_) => &[],
        }
    }
}

/// The field that holds the parent, and the type to name it by.
pub struct Parent<'a, 'b> {
    /// `P` of `parent = P` if written, else the marked field's type.
    pub ty: &'b Type,
    pub field: &'b Field<'a>,
}

impl<'a> Input<'a> {
    /// The struct's fields marked `#[component(parent)]`.
    pub fn marked_parent_fields(&self) -> Vec<&Field<'a>> {
        self.struct_fields()
            .iter()
            .filter(|field| field.attrs.parent.is_some())
            .collect()
    }

    /// The struct's fields whose type is written like `ty` (token for
    /// token); if none is, those whose type's last path segment matches, so
    /// `parent = crate::Moving` finds `base: Moving`. The compiler checks
    /// that the types really agree.
    pub fn fields_of_type(&self, ty: &Type) -> Vec<&Field<'a>> {
        let same = |f: &&Field<'a>| tokens(f.ty) == tokens(ty);
        let exact: Vec<_> = self.struct_fields().iter().filter(same).collect();
        if !exact.is_empty() {
            return exact;
        }
        match last_segment(ty) {
            Some(want) => self
                .struct_fields()
                .iter()
                .filter(|f| last_segment(f.ty).as_ref() == Some(&want))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The parent, when the input names exactly one (after validation).
    pub fn parent(&self) -> Option<Parent<'a, '_>> {
        let declared = self.attrs.parent.as_ref().map(|(_, ty)| ty);
        let field = match self.marked_parent_fields().first() {
            Some(marked) => *marked,
            None => *self.fields_of_type(declared?).first()?,
        };
        Some(Parent {
            ty: declared.unwrap_or(field.ty),
            field,
        })
    }
}

/// A type's tokens as a string, whitespace-insensitive.
pub fn tokens(ty: &Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(' ', "")
}

pub fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last().map(|segment| {
            quote::ToTokens::to_token_stream(segment)
                .to_string()
                .replace(' ', "")
        }),
        _ => None,
    }
}

impl<'a> Field<'a> {
    fn from_syn(cx: &Ctxt, index: usize, node: &'a syn::Field) -> Self {
        Field {
            original: node,
            member: match &node.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(Index {
                    index: u32::try_from(index).expect("fewer than 2^32 fields"),
                    span: syn::spanned::Spanned::span(&node.ty),
                }),
            },
            ty: &node.ty,
            attrs: attr::parse_field(cx, node),
        }
    }

    /// The field as a message suggests writing it with type `ty`:
    /// `base: Moving`, or `Moving` in a tuple struct.
    pub fn written_as(&self, ty: &Type) -> String {
        let ty = attr::display_type(ty);
        match &self.member {
            Member::Named(ident) => format!("{ident}: {ty}"),
            Member::Unnamed(_) => ty,
        }
    }

    /// How messages name the field: `base` or `0`.
    pub fn display_name(&self) -> String {
        match &self.member {
            Member::Named(ident) => ident.to_string(),
            Member::Unnamed(index) => index.index.to_string(),
        }
    }
}

fn fields<'a>(cx: &Ctxt, fields: &'a Fields) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| Field::from_syn(cx, i, field))
        .collect()
}
