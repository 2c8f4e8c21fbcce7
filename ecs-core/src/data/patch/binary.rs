//! The binary form of a [`WorldPatch`]: one MessagePack array holding the
//! same as the JSON form, positionally, with each value as its type's own
//! MessagePack (`bin`), or, for a merge patch read from JSON, that patch
//! as JSON text (`str`):
//!
//! `[format, version, slots, free (nil or [index]), dead [[index, generation]],
//! despawned [[index, generation]], entities, names [[index, generation, name
//! or nil]], orphans [[index, generation]], children [[index, generation,
//! [[index, generation]]]]]`, each entity `[index, generation, spawned,
//! flags (nil, or 1 disabled + 2 killed), layers (nil or mask), remove [[at,
//! type]], set [[at, type, value]], enable [[at, type, enabled]], add [[type,
//! enabled, value]]]`.

use rmp::{decode, encode, Marker};

use crate::component::catalog::component_type;
use crate::data::format::mp;
use crate::Error;

use super::json::{FORMAT, VERSION};
use super::values::{bin_entry, name};
use super::{Ent, EntityPatch, Type, Value, WorldPatch};

/// [`WorldPatch::to_binary`].
pub(super) fn write(patch: &WorldPatch) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    mp::array(&mut out, 10);
    mp::string(&mut out, FORMAT);
    mp::uint(&mut out, VERSION);
    mp::uint(&mut out, patch.slots.into());
    match &patch.free {
        Some(free) => {
            mp::array(&mut out, free.len());
            free.iter().for_each(|&i| mp::uint(&mut out, i.into()));
        }
        None => mp::nil(&mut out),
    }
    mp::array(&mut out, patch.dead.len());
    for &(index, generation) in &patch.dead {
        ent(&mut out, Ent { index, generation });
    }
    ents(&mut out, &patch.despawned);
    mp::array(&mut out, patch.entities.len());
    for e in &patch.entities {
        write_entity(&mut out, e)?;
    }
    mp::array(&mut out, patch.names.len());
    for (e, name) in &patch.names {
        mp::array(&mut out, 3);
        mp::uint(&mut out, e.index.into());
        mp::uint(&mut out, e.generation.into());
        match name {
            Some(name) => mp::string(&mut out, name),
            None => mp::nil(&mut out),
        }
    }
    ents(&mut out, &patch.orphans);
    mp::array(&mut out, patch.children.len());
    for (parent, children) in &patch.children {
        mp::array(&mut out, 3);
        mp::uint(&mut out, parent.index.into());
        mp::uint(&mut out, parent.generation.into());
        ents(&mut out, children);
    }
    Ok(out)
}

fn ent(out: &mut Vec<u8>, e: Ent) {
    mp::array(out, 2);
    mp::uint(out, e.index.into());
    mp::uint(out, e.generation.into());
}

fn ents(out: &mut Vec<u8>, list: &[Ent]) {
    mp::array(out, list.len());
    list.iter().for_each(|&e| ent(out, e));
}

fn write_value(out: &mut Vec<u8>, ty: Type, value: &Value) -> Result<(), Error> {
    match (bin_entry(ty, value)?, value) {
        (Some(bytes), _) => {
            let _ = encode::write_bin(out, &bytes);
        }
        (None, Value::Merge(patch)) => mp::string(out, &patch.to_string()),
        (None, _) => unreachable!("only a merge patch has no MessagePack"),
    }
    Ok(())
}

fn write_entity(out: &mut Vec<u8>, e: &EntityPatch) -> Result<(), Error> {
    mp::array(out, 9);
    mp::uint(out, e.id.index.into());
    mp::uint(out, e.id.generation.into());
    let _ = encode::write_bool(out, e.spawned);
    match e.flags {
        Some((disabled, killed)) => mp::uint(out, u64::from(disabled) | (u64::from(killed) << 1)),
        None => mp::nil(out),
    }
    match e.layers {
        Some(layers) => mp::uint(out, layers.into()),
        None => mp::nil(out),
    }
    mp::array(out, e.remove.len());
    for &(at, ty) in &e.remove {
        mp::array(out, 2);
        mp::uint(out, at.into());
        mp::string(out, name(ty));
    }
    mp::array(out, e.set.len());
    for (at, ty, value) in &e.set {
        mp::array(out, 3);
        mp::uint(out, (*at).into());
        mp::string(out, name(ty));
        write_value(out, ty, value)?;
    }
    mp::array(out, e.enable.len());
    for &(at, ty, enabled) in &e.enable {
        mp::array(out, 3);
        mp::uint(out, at.into());
        mp::string(out, name(ty));
        let _ = encode::write_bool(out, enabled);
    }
    mp::array(out, e.add.len());
    for (ty, enabled, value) in &e.add {
        mp::array(out, 3);
        mp::string(out, name(ty));
        let _ = encode::write_bool(out, *enabled);
        write_value(out, ty, value)?;
    }
    Ok(())
}

/// A reader over the bytes, naming where it stands in errors.
struct Rd<'a> {
    rest: &'a [u8],
    len: usize,
}

impl<'a> Rd<'a> {
    fn bad(&self, message: &str) -> Error {
        Error::Data {
            path: format!("(patch, byte {})", self.len - self.rest.len()),
            message: format!("{message}: not a binary world patch, or cut short"),
        }
    }

    fn peek(&self) -> Option<Marker> {
        self.rest.first().map(|&b| Marker::from_u8(b))
    }

    fn array(&mut self) -> Result<usize, Error> {
        let n =
            decode::read_array_len(&mut self.rest).map_err(|_| self.bad("expected an array"))?;
        Ok(n as usize)
    }

    /// An array of exactly `n` items.
    fn tuple(&mut self, n: usize) -> Result<(), Error> {
        if self.array()? == n {
            Ok(())
        } else {
            Err(self.bad(&format!("expected an array of {n}")))
        }
    }

    fn uint(&mut self) -> Result<u64, Error> {
        decode::read_int(&mut self.rest).map_err(|_| self.bad("expected a whole number"))
    }

    fn u32(&mut self) -> Result<u32, Error> {
        let n = self.uint()?;
        u32::try_from(n).map_err(|_| self.bad("expected a number below 2^32"))
    }

    fn bool(&mut self) -> Result<bool, Error> {
        decode::read_bool(&mut self.rest).map_err(|_| self.bad("expected true or false"))
    }

    fn nil(&mut self) -> bool {
        let nil = self.peek() == Some(Marker::Null);
        if nil {
            self.rest = &self.rest[1..];
        }
        nil
    }

    fn str(&mut self) -> Result<&'a str, Error> {
        match decode::read_str_from_slice(self.rest) {
            Ok((s, rest)) => {
                self.rest = rest;
                Ok(s)
            }
            Err(_) => Err(self.bad("expected a string")),
        }
    }

    fn ent(&mut self) -> Result<Ent, Error> {
        self.tuple(2)?;
        Ok(Ent {
            index: self.u32()?,
            generation: self.u32()?,
        })
    }

    fn ents(&mut self) -> Result<Vec<Ent>, Error> {
        (0..self.array()?).map(|_| self.ent()).collect()
    }

    fn ty(&mut self) -> Result<Type, Error> {
        Ok(component_type(self.str()?)?.vtable())
    }

    fn value(&mut self) -> Result<Value, Error> {
        if matches!(
            self.peek(),
            Some(Marker::Bin8 | Marker::Bin16 | Marker::Bin32)
        ) {
            let n = decode::read_bin_len(&mut self.rest).map_err(|_| self.bad("expected bytes"))?;
            let n = n as usize;
            if self.rest.len() < n {
                return Err(self.bad("a value cut short"));
            }
            let (bytes, rest) = self.rest.split_at(n);
            self.rest = rest;
            return Ok(Value::Bin {
                new: bytes.to_vec(),
                old: None,
            });
        }
        let text = self.str()?;
        let patch =
            serde_json::from_str(text).map_err(|_| self.bad("expected a JSON merge patch"))?;
        Ok(Value::Merge(patch))
    }
}

/// [`WorldPatch::from_binary`].
pub(super) fn read(bytes: &[u8]) -> Result<WorldPatch, Error> {
    let mut rd = Rd {
        rest: bytes,
        len: bytes.len(),
    };
    rd.tuple(10)?;
    if rd.str()? != FORMAT {
        return Err(rd.bad(&format!("expected \"{FORMAT}\"")));
    }
    if rd.uint()? != VERSION {
        return Err(rd.bad(&format!("expected version {VERSION}")));
    }
    let mut patch = WorldPatch {
        slots: rd.u32()?,
        ..WorldPatch::default()
    };
    if !rd.nil() {
        patch.free = Some(
            (0..rd.array()?)
                .map(|_| rd.u32())
                .collect::<Result<_, _>>()?,
        );
    }
    for _ in 0..rd.array()? {
        let e = rd.ent()?;
        patch.dead.push((e.index, e.generation));
    }
    patch.despawned = rd.ents()?;
    for _ in 0..rd.array()? {
        patch.entities.push(read_entity(&mut rd)?);
    }
    for _ in 0..rd.array()? {
        rd.tuple(3)?;
        let e = Ent {
            index: rd.u32()?,
            generation: rd.u32()?,
        };
        let name = if rd.nil() {
            None
        } else {
            Some(rd.str()?.to_owned())
        };
        patch.names.push((e, name));
    }
    patch.orphans = rd.ents()?;
    for _ in 0..rd.array()? {
        rd.tuple(3)?;
        let parent = Ent {
            index: rd.u32()?,
            generation: rd.u32()?,
        };
        patch.children.push((parent, rd.ents()?));
    }
    if !rd.rest.is_empty() {
        return Err(rd.bad("bytes after the patch"));
    }
    Ok(patch)
}

fn read_entity(rd: &mut Rd<'_>) -> Result<EntityPatch, Error> {
    rd.tuple(9)?;
    let id = Ent {
        index: rd.u32()?,
        generation: rd.u32()?,
    };
    let mut e = EntityPatch::new(id, rd.bool()?);
    if !rd.nil() {
        let flags = rd.uint()?;
        e.flags = Some((flags & 1 != 0, flags & 2 != 0));
    }
    if !rd.nil() {
        e.layers = Some(rd.u32()?);
    }
    for _ in 0..rd.array()? {
        rd.tuple(2)?;
        e.remove.push((rd.u32()?, rd.ty()?));
    }
    for _ in 0..rd.array()? {
        rd.tuple(3)?;
        e.set.push((rd.u32()?, rd.ty()?, rd.value()?));
    }
    for _ in 0..rd.array()? {
        rd.tuple(3)?;
        e.enable.push((rd.u32()?, rd.ty()?, rd.bool()?));
    }
    for _ in 0..rd.array()? {
        rd.tuple(3)?;
        let (ty, enabled) = (rd.ty()?, rd.bool()?);
        e.add.push((ty, enabled, rd.value()?));
    }
    Ok(e)
}
