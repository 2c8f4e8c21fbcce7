//! The JSON format's reading: a keyed format, so parts and fields come in
//! any order (see the writing side for its shape). Decodes the pieces
//! `read` walks, nothing else.

use serde_json::Value;

use crate::component::ops::BoxedComponent;
use crate::data::codec::DeserializeFns;
use crate::data::format::JsonIn;
use crate::world::World;
use crate::Error;

use super::bad;
use super::decode::{Column, Decode, EntityField, EntryCx, Head, List, NameRef, Part};

/// Reads JSON: a keyed format, so parts and fields come in any order.
pub(super) struct JsonDecoder<'a> {
    r: JsonIn<'a>,
    /// Where each component's data starts in the entity being read (if it
    /// has any), for reading once its table is known.
    data_at: Vec<Option<usize>>,
    /// Where the entity's list of components ends.
    components_end: usize,
    /// Whether the next key is the first of the saved world's object, and
    /// of the entity's.
    first_part: bool,
    first_field: bool,
    /// Where the value last read starts and ends.
    last: (usize, usize),
}

impl<'a> JsonDecoder<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        JsonDecoder {
            r: JsonIn::new(bytes),
            data_at: Vec::new(),
            components_end: 0,
            first_part: true,
            first_field: true,
            last: (0, 0),
        }
    }

    /// Reads the value at `start` into `column`, as component `k` of
    /// entity `i`.
    #[inline(always)]
    fn push(
        &mut self,
        world: &mut World,
        column: Column,
        start: usize,
        i: usize,
        k: usize,
    ) -> Result<(), Error> {
        let Column { kind, place } = column;
        self.r.pos = start;
        match (kind.fns.json_push)(world, place.ty, place.seg, self.r.rest()) {
            Ok(used) => {
                self.r.pos += used;
                self.last = (start, self.r.pos);
                Ok(())
            }
            Err(e) => Err(data_error(&mut self.r, start, kind.fns, (i, k), e)),
        }
    }
}

/// A list being read.
pub(super) struct JsonSeq {
    /// Whether the next item is the list's first.
    first: bool,
    /// How many items to make room for.
    room: usize,
}

fn component_path(i: usize, k: usize) -> String {
    format!("entities[{i}].components[{k}]")
}

impl<'a> Decode<'a> for JsonDecoder<'a> {
    const HEADER_FIRST: bool = false;
    const VALUE_WITH_TYPE: bool = true;
    const JSON: bool = true;

    type Seq = JsonSeq;

    fn begin(&mut self) -> Result<(), String> {
        self.r
            .begin_object()
            .map_err(|m| format!("not a saved world: {m}"))
    }

    fn next_part(&mut self) -> Result<Option<Part>, Error> {
        let key = self.r.next_key(&mut self.first_part);
        let Some(key) = key.map_err(|m| bad("(root)", m))? else {
            return Ok(None);
        };
        Ok(Some(match &*key {
            b"format" => Part::Format,
            b"version" => Part::Version,
            b"update_order" => Part::UpdateOrder,
            b"resources" => Part::Resources,
            b"name_order" => Part::NameOrder,
            b"entities" => Part::Entities,
            other => return Err(bad(
                String::from_utf8_lossy(other),
                "unknown field; a saved world has `format`, `version`, `update_order`, `resources`, `name_order` and `entities`",
            )),
        }))
    }

    fn end(&mut self) -> Result<(), String> {
        self.r.ws();
        match self.r.pos == self.r.bytes.len() {
            true => Ok(()),
            false => Err(format!(
                "unexpected text after the saved world at {}",
                self.r.where_(self.r.pos)
            )),
        }
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.r.bytes.len() - self.r.pos
    }

    #[inline]
    fn string(&mut self, _: &str) -> Result<std::borrow::Cow<'a, str>, String> {
        self.r.string()
    }

    #[inline]
    fn uint(&mut self, what: &str) -> Result<u64, String> {
        self.r.u64(what)
    }

    #[inline]
    fn begin_list(&mut self, list: List) -> Result<JsonSeq, String> {
        self.r.begin_array().map_err(|m| match list {
            List::Entities => format!("expected an array of entities: {m}"),
            List::Children => format!("expected an array of ids: {m}"),
            _ => m,
        })?;
        // An entity takes a hundred bytes or so: room for as many as the
        // text could hold at that size saves growing the lists.
        let room = match list {
            List::Entities => self.remaining() / 100,
            _ => 0,
        };
        Ok(JsonSeq { first: true, room })
    }

    #[inline]
    fn next_item(&mut self, seq: &mut JsonSeq) -> Result<bool, String> {
        self.r.next_item(&mut seq.first)
    }

    #[inline]
    fn declared_len(_: &JsonSeq) -> Option<usize> {
        None
    }

    #[inline]
    fn room(&self, seq: &JsonSeq) -> usize {
        seq.room
    }

    fn resource(
        &mut self,
        path: &str,
        mut resolve: impl FnMut(&str) -> Result<(std::any::TypeId, &'static DeserializeFns), Error>,
    ) -> Result<(std::any::TypeId, BoxedComponent), Error> {
        let r = &mut self.r;
        r.begin_object().map_err(|m| bad(path, m))?;
        let mut first = true;
        let mut entry = None;
        let mut data_at = None;
        let mut data_end = 0;
        while let Some(key) = r.next_key(&mut first).map_err(|m| bad(path, m))? {
            match &*key {
                b"type" => {
                    let name = r.string().map_err(|m| bad(format!("{path}.type"), m))?;
                    entry = Some(resolve(&name)?);
                }
                b"data" => {
                    data_at = Some(r.pos);
                    r.skip_value().map_err(|m| bad(format!("{path}.data"), m))?;
                    data_end = r.pos;
                }
                other => {
                    return Err(bad(
                        format!("{path}.{}", String::from_utf8_lossy(other)),
                        "unknown field; a resource has `type` and `data`",
                    ))
                }
            }
        }
        let (Some((ty, fns)), Some(start)) = (entry, data_at) else {
            return Err(bad(path, "expected `type` and `data`"));
        };
        let resume = r.pos;
        r.pos = start;
        let value = read_resource(r, start, fns, path)?;
        r.pos = resume;
        self.last = (start, data_end);
        Ok((ty, value))
    }

    #[inline]
    fn begin_entity(&mut self, i: usize) -> Result<(), Error> {
        self.first_field = true;
        self.r
            .begin_object()
            .map_err(|m| bad(entity_path(i), format!("expected an entity object: {m}")))
    }

    #[inline]
    fn next_entity_field(&mut self, i: usize, _: &[u32]) -> Result<Option<EntityField<'a>>, Error> {
        let r = &mut self.r;
        let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
        let key = r.next_key(&mut self.first_field);
        let Some(key) = key.map_err(|m| bad(entity_path(i), m))? else {
            return Ok(None);
        };
        Ok(Some(match &*key {
            b"id" => EntityField::Id(r.u64("an id").map_err(|m| at("id", m))?),
            b"name" if r.null() => EntityField::Name(None),
            b"name" => EntityField::Name(Some(NameRef::Text(r.string().map_err(|m| at("name", m))?))),
            b"enabled" => EntityField::Enabled(r.bool().map_err(|m| at("enabled", m))?),
            b"killed" => EntityField::Killed(r.bool().map_err(|m| at("killed", m))?),
            b"layers" => EntityField::Layers(r.u64("a 32-bit layer mask").map_err(|m| at("layers", m))?),
            b"children" => EntityField::Children,
            b"components" => EntityField::Components,
            other => return Err(at(
                &String::from_utf8_lossy(other),
                "unknown field; an entity has `id`, `name`, `enabled`, `killed`, `layers`, `children` and `components`".into(),
            )),
        }))
    }

    #[inline]
    fn same_types_as(&mut self, _: &[u8]) -> bool {
        false
    }

    fn types_read(&self) -> &'a [u8] {
        &[]
    }

    #[inline]
    fn begin_components(&mut self, i: usize) -> Result<JsonSeq, Error> {
        self.data_at.clear();
        self.r
            .begin_array()
            .map_err(|m| bad(components_path(i), format!("expected an array: {m}")))?;
        Ok(JsonSeq {
            first: true,
            room: 0,
        })
    }

    #[inline]
    fn next_component(&mut self, i: usize, seq: &mut JsonSeq) -> Result<bool, Error> {
        self.r
            .next_item(&mut seq.first)
            .map_err(|m| bad(components_path(i), m))
    }

    #[inline]
    fn component(&mut self, i: usize, k: usize, cx: &mut EntryCx<'_>) -> Result<Head, Error> {
        let path = || component_path(i, k);
        self.r
            .begin_object()
            .map_err(|m| bad(path(), format!("expected a component object: {m}")))?;
        let mut first = true;
        let mut kind = None;
        let mut enabled = true;
        let mut data = None;
        let mut pushed = false;
        while let Some(key) = self.r.next_key(&mut first).map_err(|m| bad(path(), m))? {
            match &*key {
                b"type" => {
                    let name = self.r.string_bytes();
                    let name = name.map_err(|m| bad(format!("{}.type", path()), m))?;
                    let expect = cx.guess.map(|g| g.kind.ty);
                    kind = Some(cx.types.by_name(cx.world, &name, path, expect)?);
                    // A value read before this type was read as another's.
                    pushed = false;
                }
                b"enabled" => {
                    enabled = (self.r.bool()).map_err(|m| bad(format!("{}.enabled", path()), m))?
                }
                b"data" => {
                    self.r.ws();
                    let start = self.r.pos;
                    let guessed = cx.guess.filter(|g| kind.is_some_and(|k| k.ty == g.kind.ty));
                    match guessed {
                        // Its type came first and is the guessed one: into
                        // the guessed column on the spot (once).
                        Some(column) if data.is_none() => {
                            self.push(cx.world, column, start, i, k)?;
                            pushed = true;
                        }
                        _ => {
                            self.r
                                .skip_value()
                                .map_err(|m| bad(format!("{}.data", path()), m))?;
                            pushed = false;
                        }
                    }
                    data = Some(start);
                }
                other => {
                    return Err(bad(
                        format!("{}.{}", path(), String::from_utf8_lossy(other)),
                        "unknown field; a component has `type`, `data` and optionally `enabled`",
                    ))
                }
            }
        }
        let kind = kind.ok_or_else(|| {
            bad(
                path(),
                "missing `type`: name the component, e.g. \"type\": \"Transform\"",
            )
        })?;
        self.data_at.push(data);
        Ok(Head {
            kind,
            enabled,
            pushed,
        })
    }

    #[inline]
    fn begin_values(&mut self, _: usize, _: usize) -> Result<(), Error> {
        self.components_end = self.r.pos;
        Ok(())
    }

    #[inline]
    fn value(
        &mut self,
        world: &mut World,
        i: usize,
        k: usize,
        column: Column,
    ) -> Result<(), Error> {
        if let Some(start) = self.data_at[k] {
            return self.push(world, column, start, i, k);
        }
        // No `data`: a unit struct's `null`, or a struct whose fields all
        // have defaults (which hold no saved id).
        self.last = (0, 0);
        let Column { kind, place } = column;
        let push = kind.fns.json_push;
        push(world, place.ty, place.seg, b"null")
            .or_else(|_| push(world, place.ty, place.seg, b"{}"))
            .map(drop)
            .map_err(|e| {
                bad(
                    format!("{}.data", component_path(i, k)),
                    format!("missing, and the type needs data: {e}"),
                )
            })
    }

    #[inline]
    fn end_values(&mut self) {
        self.r.pos = self.components_end;
    }

    fn value_path(i: usize, k: usize) -> String {
        format!("{}.data", component_path(i, k))
    }

    fn last_value(&self) -> &'a [u8] {
        &self.r.bytes[self.last.0..self.last.1]
    }
}

fn entity_path(i: usize) -> String {
    format!("entities[{i}]")
}

fn components_path(i: usize) -> String {
    format!("entities[{i}].components")
}

/// A resource's value at `start`. Resources are few: read through a
/// value, which gives the path inside the data on error.
fn read_resource(
    r: &mut JsonIn<'_>,
    start: usize,
    fns: &DeserializeFns,
    path: &str,
) -> Result<BoxedComponent, Error> {
    let value = serde_json::Deserializer::from_slice(r.rest())
        .into_iter::<Value>()
        .next()
        .unwrap_or_else(|| Err(serde::de::Error::custom("expected a value")))
        .map_err(|e| bad(format!("{path}.data"), format!("{e} ({})", r.where_(start))))?;
    (fns.boxed)(&value).map_err(|(inner, message)| bad(data_path(path, &inner), message))
}

/// The path of `inner` (a path inside a value, as serde_path_to_error
/// gives it) in the data of whatever is at `path`.
fn data_path(path: &str, inner: &str) -> String {
    match inner {
        "" => format!("{path}.data"),
        s if s.starts_with('[') => format!("{path}.data{s}"),
        s => format!("{path}.data.{s}"),
    }
}

/// The error of the data at `start` of component `k` of entity `i` that
/// did not read: with the path inside the data when the data is
/// well-formed JSON (found by a second, slow read), else with serde_json's
/// message and the line and column in the file.
#[cold]
fn data_error(
    r: &mut JsonIn<'_>,
    start: usize,
    fns: &DeserializeFns,
    (i, k): (usize, usize),
    error: serde_json::Error,
) -> Error {
    let path = &component_path(i, k);
    r.pos = start;
    if r.skip_value().is_ok()
        && let Ok(value) = serde_json::from_slice::<Value>(&r.bytes[start..r.pos])
        && let Err((inner, message)) = (fns.boxed)(&value)
    {
        return bad(data_path(path, &inner), message);
    }
    let message = error.to_string();
    // serde_json counts from the data's start: report the file's place.
    let message = match message.rfind(" at line ") {
        Some(cut) => message[..cut].to_owned(),
        None => message,
    };
    bad(
        format!("{path}.data"),
        format!("{message} ({})", r.where_(start)),
    )
}
