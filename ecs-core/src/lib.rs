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
#![warn(missing_docs)]

extern crate self as ecs_core;

mod behaviour;
mod blueprint;
mod bundle;
mod catalog;
mod component;
mod context;
mod debug;
mod dynamic;
mod entity;
mod entity_ref;
mod error;
mod hierarchy;
mod inspect;
mod instance;
mod lookup;
mod message;
mod names;
mod ops;
mod pairs;
mod prepared;
mod query;
mod registry;
mod removal;
mod require;
mod save;
mod search;
mod state;
mod storage;
mod world;

pub use behaviour::{Behaviour, UpdateOrder};
pub use blueprint::{Blueprint, BlueprintLibrary, MAX_BLUEPRINT_DEPTH};
pub use bundle::Bundle;
pub use catalog::{component_type, name_conflicts, registered_components, ComponentType};
pub use component::{Component, ComponentKey, MAX_CHAIN_DEPTH};
pub use context::{Commands, Context};
pub use ecs_derive::Component;
pub use entity::EntityId;
pub use entity_ref::{EntityMut, EntityRef};
pub use error::Error;
pub use inspect::type_hierarchy_dot;
pub use instance::{ComponentInfo, Handle, InstanceId};
pub use message::Receive;
pub use pairs::PairsMut;
pub use search::TreeFilter;
pub use state::{Filter, DEFAULT_LAYERS};
pub use world::World;

/// The names almost every user of the crate needs.
pub mod prelude {
    pub use crate::{
        Behaviour, Blueprint, Bundle, Commands, Component, ComponentKey, Context, EntityId,
        EntityMut, EntityRef, Error, Filter, Handle, InstanceId, Receive, TreeFilter, World,
    };
}

/// Paths the derive's generated code uses. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::behaviour::BehaviourFns;
    pub use crate::catalog::Registration;
    pub use crate::component::KeyChain;
    pub use crate::debug::{DebugProbe, NoDebug, ViaDebug};
    pub use crate::message::{DeclaresReceive, ReceiverFn};
    pub use crate::ops::{
        ComponentOps, HasClone, HasDefault, HasDeserialize, HasSerialize, NoClone, NoDefault,
        NoDeserialize, NoSerialize, Probe,
    };
    pub use crate::registry::TypeNumberCell;
    pub use crate::require::{RequiredComponent, Requirements};
    pub use core::any::{Any, TypeId};
    pub use inventory;
}

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
