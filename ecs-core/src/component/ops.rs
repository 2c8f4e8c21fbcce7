//! What a component type can do beyond being stored (be defaulted, cloned,
//! printed, serialized, deserialized), found by the derive through
//! method-lookup specialization so no extra attribute is needed, and kept
//! as plain function pointers for code that only has a type's name.
//!
//! Default, clone and debug are values' own business and live here, over
//! the storage layer's arrays. The serde entry points belong to the data
//! layer: this module declares where the probes put them ([`SerializeCap`],
//! [`DeserializeCap`]) and carries them erased ([`Codec`]); the data layer
//! fills them in and reads them back.

use std::any::Any;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::storage::raw::BlobVec;
use crate::{Component, Error};

/// A component value with its type erased.
pub(crate) type BoxedComponent = Box<dyn Any + Send + Sync>;

/// Copies the value at a row of an array of the type into a box.
pub(crate) type CloneFn = fn(&BlobVec, usize) -> BoxedComponent;

/// A type's two clone entry points: one value, boxed (an entity's clone),
/// and every value of one array appended to another of the same type, in
/// order, with no allocation per value (a snapshot).
#[doc(hidden)]
pub struct Cloners {
    pub(crate) one: CloneFn,
    pub(crate) rows: fn(&BlobVec, &mut BlobVec),
}

/// The value at a row of an array of the type, as `&dyn Debug`.
pub(crate) type DebugFn = for<'a> fn(&'a BlobVec, usize) -> &'a dyn std::fmt::Debug;

/// A layer's entry points for one type, erased: the layer that made them
/// reads them back by downcasting to its own record type.
pub type Codec = &'static (dyn Any + Send + Sync);

/// The erased capabilities of one component type.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ComponentOps {
    pub(crate) default: Option<fn() -> BoxedComponent>,
    pub(crate) clone: Option<&'static Cloners>,
    /// The data layer's writers, when the type is `Serialize`.
    pub(crate) serialize: Option<Codec>,
    /// The data layer's readers, when the type is `DeserializeOwned`.
    pub(crate) deserialize: Option<Codec>,
    pub(crate) debug: Option<DebugFn>,
}

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

fn clone_boxed<T: Component + Clone>(values: &BlobVec, row: usize) -> BoxedComponent {
    Box::new(
        values
            .get::<T>(row, 0)
            .expect("a value is copied by its own type's function")
            .clone(),
    )
}

fn clone_rows<T: Component + Clone>(from: &BlobVec, to: &mut BlobVec) {
    to.extend_cloned::<T>(from);
}

/// The [`Cloners`] of `T`, as a constant the derive's tables point at.
struct ClonersOf<T>(PhantomData<T>);

impl<T: Component + Clone> ClonersOf<T> {
    const CLONERS: Cloners = Cloners {
        one: clone_boxed::<T>,
        rows: clone_rows::<T>,
    };
}

fn debug_row<T: Component + std::fmt::Debug>(values: &BlobVec, row: usize) -> &dyn std::fmt::Debug {
    values
        .get::<T>(row, 0)
        .expect("a value is printed by its own type's function")
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

/// A capability's probe method, and the trait that turns its answer into
/// an entry point (`OP`); with `$value`, the entry point is made here.
macro_rules! capability {
    ($method:ident, $cap:ident, $bound:path, $ty:ty) => {
        impl<T: $bound> Probe<T> {
            pub fn $method(self) -> Found<T> {
                Found(PhantomData)
            }
        }
        /// The entry point a probe's answer stands for.
        #[doc(hidden)]
        pub trait $cap {
            const OP: Option<$ty>;
        }
        impl $cap for Missing {
            const OP: Option<$ty> = None;
        }
    };
    ($method:ident, $cap:ident, $bound:path, $ty:ty, $f:ident) => {
        capability!($method, $cap, $bound, $ty);
        impl<T: Component + $bound> $cap for Found<T> {
            const OP: Option<$ty> = Some($f::<T>);
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
capability!(__ecs_debug, DebugCap, std::fmt::Debug, DebugFn, debug_row);
capability!(__ecs_clone, CloneCap, Clone, &'static Cloners);
impl<T: Component + Clone> CloneCap for Found<T> {
    const OP: Option<&'static Cloners> = Some(&ClonersOf::<T>::CLONERS);
}
// The serde entry points are the data layer's: it implements these two for
// `Found<T>`.
capability!(__ecs_serialize, SerializeCap, Serialize, Codec);
capability!(__ecs_deserialize, DeserializeCap, DeserializeOwned, Codec);

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

/// Error for a type that lacks a capability an operation needs.
pub(crate) fn lacking(name: &'static str, capability: &'static str) -> Error {
    Error::Lacks { name, capability }
}
