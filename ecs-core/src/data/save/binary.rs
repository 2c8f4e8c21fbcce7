//! The binary snapshot: one MessagePack array, positional, component type
//! names and entity names listed once and named by index, an entity's
//! component types before their values (each value a `bin` of the
//! component's own MessagePack). Encodes and decodes the pieces `write`
//! and `read` walk, nothing else.

use std::any::TypeId;
use std::borrow::Cow;

use crate::component::ops::BoxedComponent;
use crate::data::codec::DeserializeFns;
use crate::data::format::mp;
use crate::world::World;
use crate::Error;

use super::bad;
use super::decode::{Column, Decode, EntityField, EntryCx, Head, List, NameRef, Part};
use super::write::{Encode, SavedComponent, SavedEntity, SavedValue};

/// How many parts a snapshot has: format, version, update order,
/// resources, naming order, types, names, entities.
const PARTS: usize = 8;

/// How many fields an entity has: name, flags, layers, children, types,
/// data.
const ENTITY_FIELDS: usize = 6;

/// A snapshot marks at most the first 64 components of an entity
/// disabled: every build that reads snapshots has refused more (their
/// reader kept the marks in a 64-bit mask), and this one refuses them
/// alike so that a file reads the same everywhere. (A save does not check
/// it: such an entity saves, and its snapshot is refused on load.)
const MAX_DISABLED: usize = 64;

/// Writes a snapshot.
pub(super) struct BinaryEncoder {
    out: Vec<u8>,
    /// The entity's components written so far.
    written: usize,
}

impl BinaryEncoder {
    /// An encoder for a save of `entities` entities.
    pub(super) fn new(entities: usize) -> Self {
        BinaryEncoder {
            out: Vec::with_capacity(64 + 64 * entities),
            written: 0,
        }
    }

    /// A value as a `bin` holding its MessagePack.
    #[inline(always)]
    fn value(&mut self, value: SavedValue<'_>) -> Result<(), String> {
        let start = mp::begin_bin(&mut self.out);
        (value.write.binary)(value.value, &mut self.out).map_err(|e| e.to_string())?;
        mp::end_bin(&mut self.out, start);
        Ok(())
    }

    #[inline]
    fn strings(&mut self, strings: &[&str]) {
        mp::array(&mut self.out, strings.len());
        for s in strings {
            mp::string(&mut self.out, s);
        }
    }

    #[inline]
    fn uints(&mut self, uints: &[u32]) {
        mp::array(&mut self.out, uints.len());
        for &n in uints {
            mp::uint(&mut self.out, u64::from(n));
        }
    }
}

impl Encode for BinaryEncoder {
    const INTERNS: bool = true;
    const VALUE_WITH_TYPE: bool = false;
    const JSON: bool = false;

    fn begin(&mut self, format: &str, version: u64) {
        mp::array(&mut self.out, PARTS);
        mp::string(&mut self.out, format);
        mp::uint(&mut self.out, version);
    }

    fn update_order(&mut self, names: &[&str]) {
        self.strings(names);
    }

    fn begin_resources(&mut self, count: usize) {
        mp::array(&mut self.out, count);
    }

    fn resource(&mut self, name: &str, value: SavedValue<'_>) -> Result<(), String> {
        mp::array(&mut self.out, 2);
        mp::string(&mut self.out, name);
        self.value(value)
    }

    fn end_resources(&mut self) {}

    fn name_order(&mut self, order: Option<&[u32]>) {
        match order {
            None => mp::nil(&mut self.out),
            Some(order) => self.uints(order),
        }
    }

    fn tables(&mut self, types: &[&str], names: &[&str]) {
        self.strings(types);
        self.strings(names);
    }

    fn begin_entities(&mut self, count: usize) {
        mp::array(&mut self.out, count);
    }

    #[inline]
    fn entity(&mut self, e: &SavedEntity<'_>) {
        let out = &mut self.out;
        mp::array(out, ENTITY_FIELDS);
        match e.name {
            Some((_, index)) => mp::uint(out, u64::from(index)),
            None => mp::nil(out),
        }
        mp::uint(out, u64::from(e.disabled) | u64::from(e.killed) << 1);
        mp::uint(out, u64::from(e.layers));
        self.uints(e.children);
        // A component's type is its index in the types table times two,
        // plus one when it is disabled.
        let out = &mut self.out;
        mp::array(out, e.components.len());
        for c in e.components {
            mp::uint(out, u64::from(c.code) << 1 | u64::from(!c.enabled));
        }
        mp::array(out, e.components.len());
        self.written = 0;
    }

    #[inline]
    fn component(&mut self, c: &SavedComponent<'_>) -> Result<(), String> {
        self.written += 1;
        match c.write {
            Some(write) => self.value(SavedValue {
                write,
                value: c.value,
            }),
            // Keeps the envelope well formed; the save fails.
            None => {
                mp::nil(&mut self.out);
                Ok(())
            }
        }
    }

    fn component_path(&self, entity: usize) -> String {
        format!("entities[{entity}].data[{}]", self.written - 1)
    }

    fn end_entity(&mut self) {}

    fn finish(self) -> Vec<u8> {
        self.out
    }
}

/// Reads a snapshot, part by part in their fixed order.
pub(super) struct BinaryDecoder<'a> {
    r: mp::In<'a>,
    /// The next part.
    part: usize,
    /// The next field of the entity being read.
    field: usize,
    /// The encoded type list last read: neighbours mostly share one, and
    /// the same bytes always read the same way (MessagePack is
    /// self-delimiting), so a list is compared with a known one, not read.
    last_types: &'a [u8],
    /// Where the type list being read starts.
    types_at: Option<&'a [u8]>,
    /// The value last read.
    last: &'a [u8],
}

impl<'a> BinaryDecoder<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        BinaryDecoder {
            r: mp::In::new(bytes),
            part: 0,
            field: 0,
            last_types: &[],
            types_at: None,
            last: &[],
        }
    }

    /// Entity `i`'s name (an index into `names`, or nil), flags and
    /// layers.
    #[inline]
    fn fixed_fields(&mut self, i: usize, names: &[u32]) -> Result<EntityField<'a>, Error> {
        let r = &mut self.r;
        let name = match r.nil() {
            true => None,
            false => {
                let k = r
                    .uint("a name's index or nil")
                    .map_err(|m| at(i, "name", m))?;
                let name = usize::try_from(k).ok().and_then(|k| names.get(k));
                let name = name.ok_or_else(|| {
                    let n = names.len();
                    at(i, "name", format!("expected an index into the {n} names"))
                })?;
                Some(NameRef::Interned(*name))
            }
        };
        let flags = r.uint("the flags").map_err(|m| at(i, "flags", m))?;
        if flags > 3 {
            return Err(at(i, "flags", "expected 0 to 3 (1: disabled, 2: killed)"));
        }
        let layers = r.uint("a layer mask").map_err(|m| at(i, "layers", m))?;
        Ok(EntityField::Fixed {
            name,
            enabled: flags & 1 == 0,
            killed: flags & 2 != 0,
            layers,
        })
    }
}

/// Whether a list with `left` items left has another (counted off).
fn count_down(left: &mut usize) -> bool {
    let more = *left > 0;
    *left = left.saturating_sub(1);
    more
}

/// Where in entity `i` `key` is, for an error.
fn at(i: usize, key: &str, message: impl Into<String>) -> Error {
    bad(format!("entities[{i}].{key}"), message)
}

impl<'a> Decode<'a> for BinaryDecoder<'a> {
    const HEADER_FIRST: bool = true;
    const VALUE_WITH_TYPE: bool = false;
    const JSON: bool = false;

    /// Items left in the list.
    type Seq = usize;

    fn begin(&mut self) -> Result<(), String> {
        let len = self.r.array("a saved world (an array)")?;
        if len != PARTS {
            return Err(format!(
                "expected a saved world of {PARTS} parts, found {len}"
            ));
        }
        Ok(())
    }

    fn next_part(&mut self) -> Result<Option<Part>, Error> {
        const ORDER: [Part; PARTS] = [
            Part::Format,
            Part::Version,
            Part::UpdateOrder,
            Part::Resources,
            Part::NameOrder,
            Part::Types,
            Part::Names,
            Part::Entities,
        ];
        let mut part = ORDER.get(self.part).copied();
        self.part += 1;
        // No naming order: `nil` in its place.
        if part == Some(Part::NameOrder) && self.r.nil() {
            part = ORDER.get(self.part).copied();
            self.part += 1;
        }
        Ok(part)
    }

    fn end(&mut self) -> Result<(), String> {
        match self.r.rest.len() {
            0 => Ok(()),
            n => Err(format!("{n} bytes after the saved world")),
        }
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.r.rest.len()
    }

    #[inline]
    fn string(&mut self, what: &str) -> Result<Cow<'a, str>, String> {
        self.r.string(what).map(Cow::Borrowed)
    }

    #[inline]
    fn uint(&mut self, what: &str) -> Result<u64, String> {
        self.r.uint(what)
    }

    #[inline]
    fn begin_list(&mut self, list: List) -> Result<usize, String> {
        self.r.array(match list {
            List::UpdateOrder => "the update order",
            List::Resources => "the resources",
            List::NameOrder => "the naming order",
            List::Types => "the component types",
            List::Names => "the names",
            List::Entities => "the entities",
            List::Children => "the children",
        })
    }

    #[inline]
    fn next_item(&mut self, left: &mut usize) -> Result<bool, String> {
        Ok(count_down(left))
    }

    #[inline]
    fn declared_len(left: &usize) -> Option<usize> {
        Some(*left)
    }

    #[inline]
    fn room(&self, left: &usize) -> usize {
        (*left).min(self.r.rest.len())
    }

    fn resource(
        &mut self,
        path: &str,
        mut resolve: impl FnMut(&str) -> Result<(TypeId, &'static DeserializeFns), Error>,
    ) -> Result<(TypeId, BoxedComponent), Error> {
        if self.r.array("a resource").map_err(|m| bad(path, m))? != 2 {
            return Err(bad(path, "expected [type, data]"));
        }
        let name = self.r.string("a type name");
        let name = name.map_err(|m| bad(format!("{path}.type"), m))?;
        let (ty, fns) = resolve(name)?;
        let data = self.r.bin("the resource's data");
        let data = data.map_err(|m| bad(format!("{path}.data"), m))?;
        self.last = data;
        let value = (fns.binary)(data).map_err(|e| bad(format!("{path}.data"), e.to_string()))?;
        Ok((ty, value))
    }

    #[inline]
    fn begin_entity(&mut self, i: usize) -> Result<(), Error> {
        let len = self.r.array("an entity");
        if len.map_err(|m| bad(format!("entities[{i}]"), m))? != ENTITY_FIELDS {
            return Err(bad(
                format!("entities[{i}]"),
                "expected [name, flags, layers, children, types, data]",
            ));
        }
        self.field = 0;
        Ok(())
    }

    #[inline]
    fn next_entity_field(
        &mut self,
        i: usize,
        names: &[u32],
    ) -> Result<Option<EntityField<'a>>, Error> {
        self.field += 1;
        Ok(Some(match self.field {
            1 => self.fixed_fields(i, names)?,
            2 => EntityField::Children,
            3 => EntityField::Components,
            _ => return Ok(None),
        }))
    }

    #[inline]
    fn same_types_as(&mut self, encoded: &[u8]) -> bool {
        match self.r.rest.strip_prefix(encoded) {
            Some(rest) if !encoded.is_empty() => {
                self.r.rest = rest;
                true
            }
            _ => false,
        }
    }

    fn types_read(&self) -> &'a [u8] {
        self.last_types
    }

    #[inline]
    fn begin_components(&mut self, i: usize) -> Result<usize, Error> {
        // Forgotten until the new list has found its table.
        self.last_types = &[];
        self.types_at = Some(self.r.rest);
        let len = self.r.array("the component types");
        len.map_err(|m| at(i, "types", m))
    }

    #[inline]
    fn next_component(&mut self, _: usize, left: &mut usize) -> Result<bool, Error> {
        Ok(count_down(left))
    }

    #[inline]
    fn component(&mut self, i: usize, c: usize, cx: &mut EntryCx<'_>) -> Result<Head, Error> {
        let here = || format!("types[{c}]");
        let t = self.r.uint("a type index").map_err(|m| at(i, &here(), m))?;
        let table = &cx.types.table;
        let kind = usize::try_from(t >> 1).ok().and_then(|t| table.get(t));
        let kind = *kind.ok_or_else(|| {
            let n = table.len();
            let message =
                format!("expected an index into the {n} types (times two, plus one if disabled)");
            at(i, &here(), message)
        })?;
        let enabled = t & 1 == 0;
        if !enabled && c >= MAX_DISABLED {
            return Err(at(
                i,
                &here(),
                format!("only the first {MAX_DISABLED} components may be disabled in a snapshot"),
            ));
        }
        Ok(Head {
            kind,
            enabled,
            pushed: false,
        })
    }

    #[inline]
    fn begin_values(&mut self, i: usize, count: usize) -> Result<(), Error> {
        if let Some(start) = self.types_at.take() {
            self.last_types = &start[..start.len() - self.r.rest.len()];
        }
        let len = self.r.array("the component data");
        if len.map_err(|m| at(i, "data", m))? != count {
            return Err(at(
                i,
                "data",
                format!("expected {count} values, one per type"),
            ));
        }
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
        let here = || Self::value_path(i, k);
        let data = self
            .r
            .bin("the component's data")
            .map_err(|m| bad(here(), m))?;
        self.last = data;
        let Column { kind, place } = column;
        (kind.fns.binary_push)(world, place.ty, place.seg, data)
            .map_err(|e| bad(here(), e.to_string()))
    }

    #[inline]
    fn end_values(&mut self) {}

    fn value_path(i: usize, k: usize) -> String {
        format!("entities[{i}].data[{k}]")
    }

    fn last_value(&self) -> &'a [u8] {
        self.last
    }
}
