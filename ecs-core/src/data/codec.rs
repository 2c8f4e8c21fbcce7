//! The serde entry points of each component type: writers and readers for
//! JSON and MessagePack, made per type by the derive's probes (the
//! component layer's `SerializeCap` and `DeserializeCap`) and carried
//! erased in the type's table; [`serialize_fns`] and [`deserialize_fns`]
//! read them back.

use std::any::Any;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::component::ops::{
    BoxedComponent, Codec, ComponentOps, DeserializeCap, Found, SerializeCap,
};
use crate::data::format::{Fmt, Guard};
use crate::entity::{RowId, SegId, TypeIdx};
use crate::table::{Place, Segment};
use crate::world::World;
use crate::Component;

/// `(path inside the data, message)`.
pub(crate) type DataErrorParts = (String, String);

/// Writes one stored value as JSON, compact or pretty (see [`Fmt`]).
pub(crate) type JsonWriteFn = fn(Stored<'_>, &mut Vec<u8>, Fmt) -> Result<(), serde_json::Error>;
/// Writes one stored value as MessagePack.
pub(crate) type BinaryWriteFn =
    fn(Stored<'_>, &mut Vec<u8>) -> Result<(), rmp_serde::encode::Error>;
/// Where inside one stored value its writing fails, as JSON (`true`) or
/// as MessagePack: the path from the value down to the field (`target`,
/// `many[2]`; empty for the value itself).
pub(crate) type LocateFn = fn(Stored<'_>, bool) -> String;
/// Reads one value from the JSON at the start of the input straight onto
/// the end of segment `seg` of its type's column (type index `ty`),
/// unchecked: the caller is filling in a new table row of a world it is
/// loading (see [`Storage::push_loaded`](crate::table::Storage::push_loaded)).
/// Returns how many bytes it took.
pub(crate) type JsonPushFn =
    fn(&mut World, TypeIdx, SegId, &[u8]) -> Result<usize, serde_json::Error>;
/// Reads one value from exactly the MessagePack given.
pub(crate) type BinaryReadFn = fn(&[u8]) -> Result<BoxedComponent, rmp_serde::decode::Error>;
/// Reads one value from exactly the MessagePack given straight onto the
/// end of segment `seg` of its type's column (type index `ty`), unchecked:
/// the caller is filling in a new table row of a world it is loading.
pub(crate) type BinaryPushFn =
    fn(&mut World, TypeIdx, SegId, &[u8]) -> Result<(), rmp_serde::decode::Error>;

/// A stored value of a known type: a component's row, or a resource.
#[derive(Clone, Copy)]
pub(crate) enum Stored<'a> {
    Row(RowRef<'a>),
    Any(&'a (dyn Any + Send + Sync)),
}

impl<'a> Stored<'a> {
    fn get<T: 'static>(self) -> &'a T {
        match self {
            Stored::Row(at) => at.segment.get::<T>(at.row),
            Stored::Any(value) => value
                .downcast_ref()
                .expect("a value is written by its own type's function"),
        }
    }
}

/// The ways of writing a value: JSON and MessagePack, each straight
/// through serde.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct SerializeFns {
    pub(crate) json: JsonWriteFn,
    pub(crate) binary: BinaryWriteFn,
    pub(crate) locate: LocateFn,
}
/// Reads a component from JSON.
pub(crate) type DeserializeFn = fn(&serde_json::Value) -> Result<BoxedComponent, DataErrorParts>;

/// One stored component, for the writers that read it.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    pub(crate) segment: &'a Segment,
    pub(crate) row: RowId,
}
/// Reads a component from JSON straight onto the end of segment `seg` of
/// its type's column, unchecked: the caller is filling in a new table row.
pub(crate) type DeserializePushFn =
    fn(&mut World, TypeIdx, SegId, &serde_json::Value) -> Result<(), DataErrorParts>;

/// Reads `count` components from the same JSON onto the end of segment `seg`,
/// each with a fresh serial and, with `disabled`, the disabled bit. On error
/// or panic some may have been pushed: the caller trims the segment.
pub(crate) type DeserializePushManyFn =
    fn(&mut World, TypeIdx, SegId, &serde_json::Value, usize, bool) -> Result<(), DataErrorParts>;

/// The ways of reading a component: from a parsed JSON value (blueprints),
/// and straight from a saved world's JSON text or MessagePack bytes.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct DeserializeFns {
    pub(crate) boxed: DeserializeFn,
    pub(crate) push: DeserializePushFn,
    pub(crate) push_many: DeserializePushManyFn,
    pub(crate) json_push: JsonPushFn,
    pub(crate) binary: BinaryReadFn,
    pub(crate) binary_push: BinaryPushFn,
    pub(crate) replace: ReplaceFn,
}

/// Puts a boxed value of the type in place of the value at `row` of
/// segment `seg` (dropping the old one), marking the row changed: a patch
/// writing a new value, as `get_mut` would.
pub(crate) type ReplaceFn = fn(&mut World, SegId, RowId, BoxedComponent);

fn replace<T: Component>(world: &mut World, seg: SegId, row: RowId, value: BoxedComponent) {
    let value: T = *value
        .downcast()
        .expect("a value is put in place by its own type's function");
    let storage = world.storage_mut();
    let now = storage.write_tick();
    *storage.segment_mut(seg).get_mut::<T>(row, now) = value;
}

fn json_write<T: Component + Serialize>(
    value: Stored<'_>,
    out: &mut Vec<u8>,
    fmt: Fmt,
) -> Result<(), serde_json::Error> {
    let mut ser = serde_json::Serializer::with_formatter(out, fmt);
    value.get::<T>().serialize(Guard(&mut ser))
}

fn binary_write<T: Component + Serialize>(
    value: Stored<'_>,
    out: &mut Vec<u8>,
) -> Result<(), rmp_serde::encode::Error> {
    crate::data::format::mp_ser::write(value.get::<T>(), out)
}

/// Writes the value again, to nowhere, tracking the path: only a save
/// that failed pays for it.
#[cold]
fn locate<T: Component + Serialize>(value: Stored<'_>, json: bool) -> String {
    let value = value.get::<T>();
    let path = if json {
        let mut ser = serde_json::Serializer::new(std::io::sink());
        serde_path_to_error::serialize(value, Guard(&mut ser)).map_err(|e| e.path().to_string())
    } else {
        let mut ser = rmp_serde::Serializer::new(std::io::sink());
        serde_path_to_error::serialize(value, &mut ser).map_err(|e| e.path().to_string())
    };
    match path {
        Err(path) if path != "." => path,
        _ => String::new(),
    }
}

fn json_push<T: Component + DeserializeOwned>(
    world: &mut World,
    ty: TypeIdx,
    seg: SegId,
    input: &[u8],
) -> Result<usize, serde_json::Error> {
    let mut stream = serde_json::Deserializer::from_slice(input).into_iter::<T>();
    match stream.next() {
        Some(Ok(value)) => {
            world.storage_mut().push_loaded(Place { ty, seg }, value);
            Ok(stream.byte_offset())
        }
        Some(Err(error)) => Err(error),
        None => Err(serde::de::Error::custom("expected a value")),
    }
}

fn binary_read<T: Component + DeserializeOwned>(
    input: &[u8],
) -> Result<BoxedComponent, rmp_serde::decode::Error> {
    Ok(Box::new(crate::data::format::mp_de::read::<T>(input)?))
}

fn binary_push<T: Component + DeserializeOwned>(
    world: &mut World,
    ty: TypeIdx,
    seg: SegId,
    input: &[u8],
) -> Result<(), rmp_serde::decode::Error> {
    let value = crate::data::format::mp_de::read::<T>(input)?;
    world.storage_mut().push_loaded(Place { ty, seg }, value);
    Ok(())
}

fn deserialize_value<T: DeserializeOwned>(data: &serde_json::Value) -> Result<T, DataErrorParts> {
    // The fast path does not track where it is; only a failure pays for a
    // second pass that finds the path.
    match T::deserialize(data) {
        Ok(value) => Ok(value),
        Err(_) => match serde_path_to_error::deserialize::<_, T>(data) {
            Ok(value) => Ok(value),
            Err(error) => {
                let path = error.path().to_string();
                let path = if path == "." { String::new() } else { path };
                Err((path, error.into_inner().to_string()))
            }
        },
    }
}

fn deserialize_boxed<T: Component + DeserializeOwned>(
    data: &serde_json::Value,
) -> Result<BoxedComponent, DataErrorParts> {
    Ok(Box::new(deserialize_value::<T>(data)?))
}

/// `ty` is `T`'s index in `world`, resolved once by the caller.
fn deserialize_push<T: Component + DeserializeOwned>(
    world: &mut World,
    ty: TypeIdx,
    seg: SegId,
    data: &serde_json::Value,
) -> Result<(), DataErrorParts> {
    let value = deserialize_value::<T>(data)?;
    world.storage_mut().push_value(Place { ty, seg }, value);
    Ok(())
}

/// `ty` is `T`'s index in `world`; the column is downcast once for all
/// `count` values.
fn deserialize_push_many<T: Component + DeserializeOwned>(
    world: &mut World,
    ty: TypeIdx,
    seg: SegId,
    data: &serde_json::Value,
    count: usize,
    disabled: bool,
) -> Result<(), DataErrorParts> {
    world
        .storage_mut()
        .push_run(Place { ty, seg }, count, disabled, || {
            deserialize_value::<T>(data)
        })
}

impl<T: Component + Serialize> SerializeCap for Found<T> {
    const OP: Option<Codec> = Some(&SerializeFns {
        json: json_write::<T>,
        binary: binary_write::<T>,
        locate: locate::<T>,
    });
}

impl<T: Component + DeserializeOwned> DeserializeCap for Found<T> {
    const OP: Option<Codec> = Some(&DeserializeFns {
        boxed: deserialize_boxed::<T>,
        push: deserialize_push::<T>,
        push_many: deserialize_push_many::<T>,
        json_push: json_push::<T>,
        binary: binary_read::<T>,
        binary_push: binary_push::<T>,
        replace: replace::<T>,
    });
}

/// The writers of a type that is `Serialize`.
pub(crate) fn serialize_fns(ops: &ComponentOps) -> Option<&'static SerializeFns> {
    ops.serialize.map(|codec| {
        codec
            .downcast_ref()
            .expect("a type's writers are the data layer's `SerializeFns`")
    })
}

/// The readers of a type that is `DeserializeOwned`.
pub(crate) fn deserialize_fns(ops: &ComponentOps) -> Option<&'static DeserializeFns> {
    ops.deserialize.map(|codec| {
        codec
            .downcast_ref()
            .expect("a type's readers are the data layer's `DeserializeFns`")
    })
}
