//! What a component type can do beyond being stored (be defaulted, cloned,
//! serialized, deserialized), found by the derive through method-lookup
//! specialization so no extra attribute is needed, and kept as plain
//! function pointers for code that only has a type's name.

use std::any::Any;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::data::format::{Fmt, Guard};
use crate::entity::{CompRef, RowId, SegId, TypeIdx};
use crate::storage::table::Place;
use crate::storage::Segment;
use crate::world::World;
use crate::{Component, Error};

/// A component value with its type erased.
pub(crate) type BoxedComponent = Box<dyn Any + Send + Sync>;

/// Copies one stored component into a box.
pub(crate) type CloneFn = fn(&World, CompRef) -> BoxedComponent;
/// Writes one stored value as JSON, compact or pretty (see [`Fmt`]).
pub(crate) type JsonWriteFn = fn(Stored<'_>, &mut Vec<u8>, Fmt) -> Result<(), serde_json::Error>;
/// Writes one stored value as MessagePack.
pub(crate) type BinaryWriteFn =
    fn(Stored<'_>, &mut Vec<u8>) -> Result<(), rmp_serde::encode::Error>;
/// Reads one value from the JSON at the start of the input straight onto
/// the end of segment `seg` of its type's column (type index `ty`),
/// unchecked: the caller is filling in a new table row. Returns how many
/// bytes it took.
pub(crate) type JsonPushFn =
    fn(&mut World, TypeIdx, SegId, &[u8]) -> Result<usize, serde_json::Error>;
/// Reads one value from exactly the MessagePack given.
pub(crate) type BinaryReadFn = fn(&[u8]) -> Result<BoxedComponent, rmp_serde::decode::Error>;
/// Reads one value from exactly the MessagePack given straight onto the
/// end of segment `seg` of its type's column (type index `ty`), unchecked:
/// the caller is filling in a new table row.
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
}
/// Reads a component from JSON.
pub(crate) type DeserializeFn = fn(&serde_json::Value) -> Result<BoxedComponent, DataErrorParts>;
/// Reads a component from JSON straight onto the end of segment `seg` of
/// its type's column, unchecked: the caller is filling in a new table row.
pub(crate) type DebugFn = for<'a> fn(RowRef<'a>) -> &'a dyn std::fmt::Debug;

/// One stored component, for the capability functions that read it.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    pub(crate) segment: &'a Segment,
    pub(crate) row: RowId,
}
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
}

/// The erased capabilities of one component type.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ComponentOps {
    pub default: Option<fn() -> BoxedComponent>,
    pub clone: Option<CloneFn>,
    pub serialize: Option<SerializeFns>,
    pub deserialize: Option<DeserializeFns>,
    pub debug: Option<DebugFn>,
}

/// `(path inside the data, message)`.
#[doc(hidden)]
pub type DataErrorParts = (String, String);

impl ComponentOps {
    /// No capability: what a type has before the derive's probes run.
    pub const fn none() -> Self {
        ComponentOps {
            default: None,
            clone: None,
            serialize: None,
            deserialize: None,
            debug: None,
        }
    }
}

fn default_boxed<T: Component + Default>() -> BoxedComponent {
    Box::new(T::default())
}

fn clone_boxed<T: Component + Clone>(world: &World, comp: CompRef) -> BoxedComponent {
    Box::new(world.storage().segment(comp.seg).get::<T>(comp.row).clone())
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
    let mut ser = rmp_serde::Serializer::new(out);
    value.get::<T>().serialize(&mut ser)
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
            world.storage_mut().push_value(Place { ty, seg }, value);
            Ok(stream.byte_offset())
        }
        Some(Err(error)) => Err(error),
        None => Err(serde::de::Error::custom("expected a value")),
    }
}

fn binary_read<T: Component + DeserializeOwned>(
    input: &[u8],
) -> Result<BoxedComponent, rmp_serde::decode::Error> {
    Ok(Box::new(rmp_serde::from_slice::<T>(input)?))
}

fn binary_push<T: Component + DeserializeOwned>(
    world: &mut World,
    ty: TypeIdx,
    seg: SegId,
    input: &[u8],
) -> Result<(), rmp_serde::decode::Error> {
    let value = rmp_serde::from_slice::<T>(input)?;
    world.storage_mut().push_value(Place { ty, seg }, value);
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
    let flag = if disabled {
        crate::storage::DISABLED
    } else {
        0
    };
    world
        .storage_mut()
        .push_run(Place { ty, seg }, count, flag, || {
            deserialize_value::<T>(data)
        })
}

/// Asks "does `T` implement ...?" in generated code: `probe.__ecs_default()`
/// on a `Probe<T>` picks `Probe`'s own (inherent) method when its bound
/// holds; when it does not, that candidate is rejected and method lookup
/// takes [`ProbeFallback`]'s method of the same name, at the same step.
/// A trait rather than a `Deref` to a fallback type: no deref step to
/// search and no `deref` call in the closure's MIR, which made the probe
/// cost a third more to build. The derive imports the trait (`as _`) in
/// the closure that holds the probes.
///
/// The answer is a type ([`Found`] or [`Missing`]), not a value, so the
/// derive makes the calls inside a closure that is never called and reads
/// the answer in a constant ([`ComponentOps::probed`]): the probes are
/// type-checked but no code is generated for them.
#[doc(hidden)]
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Clone for Probe<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Probe<T> {}

impl<T> Probe<T> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

/// Where a probe's lookup ends when `T` lacks the capability.
#[doc(hidden)]
pub trait ProbeFallback: Sized {
    /// `T` is not `Default`.
    fn __ecs_default(self) -> Missing {
        Missing
    }
    /// `T` is not `Clone`.
    fn __ecs_clone(self) -> Missing {
        Missing
    }
    /// `T` is not `Serialize`.
    fn __ecs_serialize(self) -> Missing {
        Missing
    }
    /// `T` is not `DeserializeOwned`.
    fn __ecs_deserialize(self) -> Missing {
        Missing
    }
    /// `T` is not `Debug`.
    fn __ecs_debug(self) -> Missing {
        Missing
    }
}

impl<T> ProbeFallback for Probe<T> {}

/// A probe's answer: `T` has the capability.
#[doc(hidden)]
pub struct Found<T>(PhantomData<fn() -> T>);

/// A probe's answer: the type lacks the capability.
#[doc(hidden)]
pub struct Missing;

macro_rules! capability {
    ($method:ident, $cap:ident, $bound:path, $ty:ty, $f:ident) => {
        capability!($method, $cap, $bound, $ty, T => $f::<T>);
    };
    ($method:ident, $cap:ident, $bound:path, $ty:ty, $t:ident => $value:expr) => {
        impl<$t: $bound> Probe<$t> {
            pub fn $method(self) -> Found<$t> {
                Found(PhantomData)
            }
        }
        /// The entry point a probe's answer stands for.
        #[doc(hidden)]
        pub trait $cap {
            const OP: Option<$ty>;
        }
        impl<$t: Component + $bound> $cap for Found<$t> {
            const OP: Option<$ty> = Some($value);
        }
        impl $cap for Missing {
            const OP: Option<$ty> = None;
        }
    };
}

capability!(
    __ecs_default,
    DefaultCap,
    Default,
    fn() -> BoxedComponent,
    default_boxed
);
fn debug_row<T: Component + std::fmt::Debug>(at: RowRef<'_>) -> &dyn std::fmt::Debug {
    at.segment.get::<T>(at.row)
}

capability!(__ecs_debug, DebugCap, std::fmt::Debug, DebugFn, debug_row);
capability!(__ecs_clone, CloneCap, Clone, CloneFn, clone_boxed);
capability!(
    __ecs_serialize,
    SerializeCap,
    Serialize,
    SerializeFns,
    T => SerializeFns {
        json: json_write::<T>,
        binary: binary_write::<T>,
    }
);
capability!(
    __ecs_deserialize,
    DeserializeCap,
    DeserializeOwned,
    DeserializeFns,
    T => DeserializeFns {
        boxed: deserialize_boxed::<T>,
        push: deserialize_push::<T>,
        push_many: deserialize_push_many::<T>,
        json_push: json_push::<T>,
        binary: binary_read::<T>,
        binary_push: binary_push::<T>,
    }
);

/// The five answers of the derive's probes, in the order default, clone,
/// serialize, deserialize, debug.
#[doc(hidden)]
pub trait Answers {
    /// The capabilities the answers stand for, as a reference so the
    /// derive's constant holds no value a const check must look into.
    const OPS: &'static ComponentOps;
}

impl<A: DefaultCap, B: CloneCap, C: SerializeCap, D: DeserializeCap, E: DebugCap> Answers
    for (A, B, C, D, E)
{
    const OPS: &'static ComponentOps = &ComponentOps {
        default: A::OP,
        clone: B::OP,
        serialize: C::OP,
        deserialize: D::OP,
        debug: E::OP,
    };
}

impl ComponentOps {
    /// The capabilities the probes in `probes` found. `probes` is never
    /// called: only its return type is read. A function pointer rather
    /// than `&impl Fn`: the derive's closure then needs no `Fn` bound
    /// solved nor a promoted reference, a third of the probe's build cost.
    pub const fn probed<R: Answers>(probes: fn() -> R) -> &'static Self {
        let _ = probes;
        R::OPS
    }
}

impl World {
    /// The ops of `ty`, a type with stored components.
    pub(crate) fn ops(&self, ty: crate::entity::TypeIdx) -> ComponentOps {
        *self
            .storage()
            .info(ty)
            .ops()
            .expect("a type with stored components was registered by its own type")
    }
}

/// Error for a type that lacks a capability an operation needs.
pub(crate) fn lacking(name: &'static str, capability: &'static str) -> Error {
    Error::Lacks { name, capability }
}
