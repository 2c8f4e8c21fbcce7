//! # ecs-core
//!
//! An entity is a bag of typed components, and component types form an
//! inheritance tree declared once, on the struct: `#[derive(Component)]`
//! with `#[component(parent = Moving)]` makes `AxisMoving` *is-a* `Moving`,
//! so `entity.get::<Moving>()` answers with the `AxisMoving` it holds. The key
//! stack and the `is_derived_from` chain are generated at compile time; there
//! is no registration call anywhere.
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component, Debug, Clone)]
//! struct Moving { speed: f32 }
//!
//! #[derive(Component, Debug, Clone)]
//! #[component(parent = Moving)]              // AxisMoving "is-a" Moving
//! struct AxisMoving { base: Moving, vertical: bool }
//!
//! #[derive(Component, Debug)]
//! #[component(multiple)]                     // several per entity allowed
//! struct Collider { radius: f32 }
//!
//! # fn main() -> Result<(), ecs_core::Error> {
//! let mut world = World::new();
//! let player = world.spawn_named("player");
//! let mut e = world.entity_mut(player)?;
//! e.add(AxisMoving { base: Moving { speed: 2.0 }, vertical: false })?;
//! e.add(Collider { radius: 1.0 })?;
//! e.add(Collider { radius: 3.0 })?;
//! assert_eq!(e.get::<Moving>().unwrap().speed, 2.0);   // found through the parent chain
//! assert_eq!(e.get_all::<Collider>().count(), 2);
//! assert!(e.add(Moving { speed: 1.0 }).is_err());      // Moving is single: one is already there
//! # Ok(())
//! # }
//! ```
//!
//! # Guide
//!
//! ## Concepts
//!
//! - A [`World`] owns entities. [`World::spawn`] returns an [`EntityId`]:
//!   an index plus a generation plus the world's tag, so a despawned id (or
//!   an id of another world) never answers again: it is
//!   [`Error::NoSuchEntity`], never a panic.
//! - An entity is a bag of components. [`World::entity`] and
//!   [`World::entity_mut`] give an [`EntityRef`] / [`EntityMut`] with `get`,
//!   `get_all`, `has`, `add`, `remove` and the rest.
//! - A component is any `'static + Send + Sync` type with
//!   `#[derive(Component)]` (structs of every shape, enums, generic types).
//!   Nothing is registered by hand, ever.
//! - A resource is a world's one value of some `'static + Send + Sync` type
//!   (a clock, a score): [`World::insert_resource`],
//!   [`World::get_resource`], and [`Context::resource`] from behaviours and
//!   receivers.
//! - [`Commands`] queue changes to apply later, in order: behaviours fill
//!   the world's queue ([`Context::commands`], [`World::commands`]); a
//!   queue of your own is applied by [`Commands::apply`].
//!
//! ## The derive attributes
//!
//! | attribute | meaning |
//! |---|---|
//! | `#[component(parent = P)]` | this type is-a `P`; it embeds exactly one field of type `P` |
//! | `#[component(parent)]` on a field | that field is the parent (its type is `P`); alone it is enough |
//! | `#[component(multiple)]` | an entity may hold several of this type |
//! | `#[component(name = "...")]` | the stable name used by name lookups, blueprints and saves (default: the identifier) |
//! | `#[component(requires(A, B))]` | adding this type also adds `A::default()`, `B::default()` when missing; inherited by derived types |
//! | `#[component(behaviour)]` | the type implements [`Behaviour`]: [`World::update`] runs it, hooks fire |
//! | `#[component(behaviour(with = S))]` | as `behaviour`, and [`UpdateWith<S>`](UpdateWith) gets the entity's `S` handed in, fetched in bulk |
//! | `#[component(receives(M, N))]` | the type implements [`Receive<M>`](Receive) for each: [`World::send`], [`World::broadcast`], [`World::send_upwards`] reach it |
//! | `#[component(transient)]` | left out of [`World::save_json`] on purpose |
//!
//! `Clone`, `Default`, `Debug`, `serde::Serialize` and `serde::Deserialize`
//! are detected by the derive (method-lookup specialization) with no attribute:
//! they enable [`World::clone_entity`], [`EntityMut::add_by_name`], the
//! inspector and `Debug` output, saving, and blueprints. For a generic
//! component only the bounds on its declaration count.
//!
//! Every misuse of the attributes is a compile error on the token at fault
//! that says what to write instead (see `tests/ui/` in the repository).
//!
//! ## The is-a rule
//!
//! A component is-a its own type and every ancestor in its `parent` chain.
//! `get::<T>()` returns the first component, in insertion order, that is-a
//! `T`; `get_all::<T>()` every one; `has::<T>()` is `get::<T>().is_some()`.
//! `remove::<T>()` is the exception: it takes the first component whose
//! concrete type is exactly `T`, so `remove::<Moving>()` never removes an
//! `AxisMoving` by surprise (use [`EntityMut::remove_all`] for is-a).
//!
//! ## Single and multiple
//!
//! For every single (non-`multiple`) type `K`, an entity holds at most one
//! component that is-a `K`. An `add` that would break it returns
//! [`Error::Duplicate`] naming both types, and changes nothing. A `multiple`
//! type whose parent is single is a compile error (an entity could never
//! hold two); a single type may have a `multiple` parent.
//!
//! ## Errors
//!
//! There is one error type, [`Error`]. Every fallible operation leaves the
//! world exactly as it was when it fails; a panic in user code (an update,
//! a hook, `Clone`, `Default`, serde) propagates but leaves the world
//! consistent and usable.
//!
//! Behaviours, hooks and receivers return nothing: their fallible part
//! runs in [`Context::attempt`], where `?` works ([`Context::try_get`]
//! says why a component cannot be had), and a failure is kept as
//! [`Error::Attempt`] for [`World::take_command_errors`], with the failed
//! changes queued through [`Context::commands`].
//!
//! ## Performance notes
//!
//! - Entities that hold the same component types in the same order share a
//!   *table*; each component type's column keeps one dense segment per table
//!   holding it, and all of an entity's components sit at the same row. An
//!   entity's bookkeeping is its `(table, row)` pair (16 bytes with its
//!   generation and flags) however many components it holds; each component
//!   adds its value and a 4-byte serial/flags word.
//! - Adding or removing a component moves the entity's other components to
//!   the table of its new layout, as in bevy_ecs and hecs; the move is cached
//!   per table, and spawning with a bundle, a blueprint, a clone or a loaded
//!   file goes straight to the final table.
//! - `get` and the is-a rule cost one load in the table's per-type index
//!   wherever the component sits; a query ([`World::query_mut`]) finds
//!   each term's segment once per table and walks them together, and
//!   [`World::for_each_mut`] walks one type's segments.
//! - [`World::spawn_batch`] checks the bundle once and reserves exactly, so
//!   columns hold no spare capacity.
//! - Every distinct layout is a table that lives as long as the world. An
//!   entity that gathers hundreds of components one `add` at a time makes
//!   one table per intermediate layout; keep large collections in one
//!   component (a `Vec`).
//! - A derived component holds its parent as a field, at a byte offset the
//!   derive computes at compile time (`offset_of!`), so `get::<Moving>()` on
//!   an `AxisMoving` and a loop over every `Moving` read the same memory an
//!   exact lookup reads, at that offset: no generated upcast per value.
//!
//! ## Architecture
//!
//! The crate is ten layers, one folder (or file) each, listed lowest first
//! in `ecs-core/LAYERS`. A layer names only the layers below it, never one
//! above; `scripts/layers.py` checks that, and that no files import each
//! other in a circle, in CI.
//!
//! | layer | owns | why it sits here |
//! |---|---|---|
//! | `entity` | ids, index newtypes, [`InstanceId`], the allocator and per-entity record (generation, table, row, flags) | names everything else; knows nothing |
//! | `error` | [`Error`], the one error type | every layer above returns it |
//! | `storage` | raw memory: `storage::raw` (the only `unsafe`: type-erased arrays, strided walks, lockstep lanes, the lender of a writing query's segments, a type's memory facts, the link-time catalog's section) and process-wide type numbers | knows memory, not what a component is |
//! | `component` | descriptors: the [`Component`] trait, the key chain, the per-type table the derive generates (memory facts, flags, default / clone / debug, and other layers' entry points carried erased), declared requirements, the by-name catalog | describes types; stores nothing |
//! | `table` | the type registry with is-a bits, segments, columns, tables, the is-a index, every structural move | a world's component values |
//! | `query` | terms, tuples and the conflict check, table matching, plans, the iterator, rayon splitting | reads tables; takes the entity table and storage as arguments |
//! | `world` | [`World`] = entities + storage + resources + query plans, and the state of the layers above as extensions it owns but does not name; [`EntityRef`]/[`EntityMut`]; insert, remove, spawn; requirements met; lifecycle hooks fired | the one owner of a world's invariants |
//! | `scene` | the hierarchy, names, tree search, spawning named and linked trees | entity relations, kept as a world extension |
//! | `runtime` | behaviours and their entry points, [`Context`], [`Commands`], messages | runs user code on a world; its queue is a world extension |
//! | `data` | codecs (the serde entry points of each type), by-name operations, clone, blueprints, save/load, inspect | reads and writes everything below |
//!
//! Each upper layer that adds methods to [`World`] does so in one file,
//! its `api.rs`; every other `World` method is in `world/`. A layer keeps
//! what it needs per component type in its own record, made by the derive
//! and carried erased in the type's table (`component::ops::Codec`): the
//! world layer's behaviour entry points (`world/hooks.rs`), the runtime's
//! receivers (`runtime/message.rs`), the data layer's codecs
//! (`data/codec.rs`). `component/` only carries them.
//!
//! Where to add:
//! - **a query term**: `query/term.rs` (its `Term` impl: what it reads and
//!   its cursor over one table); the term kinds are listed once, on `Term`.
//! - **a save format**: new files in `data/save/` (as `binary.rs`, and
//!   `json_encode.rs` with `json_decode.rs`, are) implementing `Encode` (`data/save/write.rs`) and
//!   `Decode` (`data/save/decode.rs`): the format-neutral writer and
//!   reader walk the header, resources, entities and components; a format
//!   only encodes and decodes. Its `SaveFormat` variant and its arm in
//!   `save`/`load` are in `data/save/mod.rs`.
//! - **a derive attribute**: `ecs-derive/src/attr.rs` parses and checks it;
//!   `ecs-derive/src/expand/impl_block.rs` turns it into the type's table.
//! - **a lifecycle hook**: `world/hooks.rs` (the moment, and the one rule
//!   for when it fires); the `Behaviour` method users implement is in
//!   `runtime/behaviour.rs`.
//!
//! ## Safety
//!
//! Columns are type-erased arrays: one module, `storage::raw`, holds every
//! `unsafe` block of the crate, each with the proof it is sound; the rest
//! of the crate is `#![deny(unsafe_code)]`. Every typed read names a type
//! and a chain level and is checked against the `TypeId` recorded there
//! before a pointer is formed. The ancestor offsets come from the derive
//! through an `unsafe` constructor (so a hand-written impl cannot invent
//! one), and are checked against the parent's own description before use.
//! On Linux, Android and FreeBSD the same module also reads the link-time
//! catalog, a linker section of one entry per derived type, after checking
//! that its bounds span whole entries.
//! A user crate with `#![forbid(unsafe_code)]` can still derive components.
//! The whole test suite runs under AddressSanitizer in CI.
#![deny(missing_docs)]
#![deny(unsafe_code)]

extern crate self as ecs_core;

/// Invokes `$m!` once per tuple arity from 1 to 16, with the element type
/// names and a variable name for each (`A / ca, B / cb, ...`).
macro_rules! for_each_tuple {
    ($m:ident) => {
        for_each_tuple!(@ $m []
            A / ca, B / cb, C / cc, D / cd, E / ce, F / cf, G / cg, H / ch,
            I / ci, J / cj, K / ck, L / cl, M / cm, N / cn, O / co, P / cp);
    };
    (@ $m:ident [$($done:ident / $dvar:ident),*] $next:ident / $nvar:ident $(, $rest:ident / $rvar:ident)*) => {
        $m!($($done / $dvar,)* $next / $nvar);
        for_each_tuple!(@ $m [$($done / $dvar,)* $next / $nvar] $($rest / $rvar),*);
    };
    (@ $m:ident [$($done:ident / $dvar:ident),*]) => {};
}

mod component;
mod data;
mod entity;
mod error;
mod query;
mod runtime;
mod scene;
mod storage;
mod table;
mod world;

pub use component::catalog::{
    component_type, name_conflicts, register, registered_components, ComponentType,
};
pub use component::{Component, ComponentKey, MAX_CHAIN_DEPTH};
pub use data::blueprint::{Blueprint, BlueprintLibrary, MAX_BLUEPRINT_DEPTH};
pub use data::inspect::{type_hierarchy_dot, INSPECT_MAX_INDENT};
pub use data::patch::WorldPatch;
pub use data::refs::{Dangling, IdMap};
pub use data::save::{Loaded, SaveFormat, SaveOptions, Saved};
pub use data::variant::Level;
pub use ecs_derive::Component;
pub use entity::EntityId;
pub use entity::InstanceId;
pub use error::{Error, SourceError, Via};
pub use query::{
    All, Query, QueryData, QueryIter, QueryMut, ReadOnlyQueryData, ReadOnlyTerm, Term, Up,
};
pub use runtime::behaviour::{Behaviour, UpdateOrder, UpdateWith};
pub use runtime::commands::Commands;
pub use runtime::context::Context;
pub use runtime::message::Receive;
pub use runtime::observe::{ComponentEvent, ObserverId};
pub use scene::search::TreeFilter;
pub use table::Tick;
pub use world::bundle::Bundle;
pub use world::entity_ref::{EntityMut, EntityRef};
pub use world::instance::{ComponentInfo, Handle};
pub use world::snapshot::Snapshot;
pub use world::state::Filter;
pub use world::World;
pub use world::DEFAULT_LAYERS;

/// The names almost every user of the crate needs.
pub mod prelude {
    pub use crate::{
        All, Behaviour, Blueprint, BlueprintLibrary, Bundle, Commands, Component, ComponentEvent,
        ComponentKey, Context, Dangling, EntityId, EntityMut, EntityRef, Error, Filter, Handle,
        InstanceId, Level, Query, QueryMut, Receive, SaveFormat, SaveOptions, Saved, Snapshot,
        Tick, TreeFilter, Up, UpdateWith, World, WorldPatch,
    };
}

/// Paths the derive's generated code uses. Not public API.
#[doc(hidden)]
pub mod __private {
    #[cfg(linked_catalog)]
    pub use crate::component::catalog::linked_entry;
    #[cfg(all(feature = "catalog", not(linked_catalog)))]
    pub use crate::component::catalog::Registration;
    pub use crate::component::ops::{ComponentOps, Found, Missing, Probe, ProbeFallback};
    pub use crate::component::require::{RequiredComponent, Requirements};
    pub use crate::component::{erased_of, Runtime};
    pub use crate::component::{ComponentVTable, KeyChain, MultipleParent};
    pub use crate::runtime::behaviour::{BehaviourFns, DeclaresBehaviour, DeclaresUpdateWith};
    pub use crate::runtime::message::{DeclaresReceive, ReceiverFn};
    pub use crate::storage::numbers::TypeNumberCell;
    #[cfg(linked_catalog)]
    pub use crate::storage::raw::LinkedEntry;
    pub use crate::storage::raw::{Lanes, Strided, StridedMut};
    pub use crate::storage::ErasedType;
    pub use crate::world::read_only::{
        AddNeedsEntityMut, GetMutNeedsEntityMut, RemoveNeedsEntityMut,
    };
    pub use core::any::{Any, TypeId};
    #[cfg(all(feature = "catalog", not(linked_catalog)))]
    pub use inventory;
}

/// The derive's number cache for the non-generic type `$ty`: the `static`
/// that caches its process-wide number. (With the link-time catalog on
/// Linux, Android and FreeBSD the same macro, in `storage::raw::linked`,
/// places that `static` in the catalog's section.)
#[cfg(not(linked_catalog))]
#[doc(hidden)]
#[macro_export]
macro_rules! __number_cell {
    ($ty:ty) => {{
        static NUMBER: $crate::__private::TypeNumberCell = $crate::__private::TypeNumberCell::EMPTY;
        ::core::option::Option::Some(&NUMBER)
    }};
}

/// The derive's entry of `$ty` in the link-time catalog where it is built
/// by the `inventory` crate (the `catalog` feature on a target other than
/// Linux, Android or FreeBSD); nothing elsewhere.
#[cfg(all(feature = "catalog", not(linked_catalog)))]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_entry {
    ($ty:ty) => {
        $crate::__private::inventory::submit! {
            $crate::__private::Registration::of::<$ty>()
        }
    };
}

/// The derive's entry of `$ty` in the link-time catalog where it is built
/// by the `inventory` crate (the `catalog` feature on a target other than
/// Linux, Android or FreeBSD); nothing elsewhere.
#[cfg(not(all(feature = "catalog", not(linked_catalog))))]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_entry {
    ($ty:ty) => {};
}

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
