//! What the fuzz targets share: component types that cover the framework's
//! shapes (a parent chain, `multiple` types, a requirement, a behaviour
//! with hooks) and the checks every target runs on the world it is left
//! with.

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A single root type.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(name = "Moving")]
pub struct Moving {
    pub speed: i32,
}

/// Derived from [`Moving`].
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(parent = Moving, name = "AxisMoving")]
pub struct AxisMoving {
    pub base: Moving,
    pub vertical: bool,
}

/// A `multiple` type.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(multiple, name = "Tag")]
pub struct Tag(pub u8);

/// A `multiple` type derived from another.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(multiple, parent = Tag, name = "TagPlus")]
pub struct TagPlus {
    pub base: Tag,
    pub extra: u64,
}

/// Requires [`Health`]; counts its hooks in [`Health`]'s `hooks`.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour, requires(Health), name = "Pulse")]
pub struct Pulse {
    pub beats: u32,
}

impl Behaviour for Pulse {
    fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
        self.beats = self.beats.wrapping_add(1);
        if let Some(health) = ctx.get_mut::<Health>() {
            health.hooks = health.hooks.wrapping_add(1);
        }
    }
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        if self.beats % 7 == 3 {
            ctx.commands().spawn((Tag(self.beats as u8),));
        }
    }
}

/// What [`Pulse`] requires.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(name = "Health")]
pub struct Health {
    pub hp: i64,
    pub hooks: u32,
}

/// The checks every target runs: each answer the world gives about an
/// entity agrees with the others, and the world saves, loads and saves
/// again to the same bytes, as JSON and as a binary snapshot.
pub fn check(world: &World) {
    let ids: Vec<EntityId> = world
        .query::<(EntityId,)>()
        .include_inactive()
        .into_iter()
        .map(|(id,)| id)
        .collect();
    assert_eq!(
        ids.len(),
        world.len(),
        "a query over every entity sees them all"
    );
    for &id in &ids {
        let e = world.entity(id).expect("a live entity is found");
        agree::<Moving>(&e);
        agree::<AxisMoving>(&e);
        agree::<Tag>(&e);
        agree::<TagPlus>(&e);
        agree::<Pulse>(&e);
        agree::<Health>(&e);
        assert!(e.get_all::<Moving>().count() <= 1, "Moving is single");
    }
    for (kind, count) in [
        (
            "Moving",
            world
                .query::<(&Moving,)>()
                .include_inactive()
                .into_iter()
                .count(),
        ),
        (
            "Tag",
            world
                .query::<(&Tag,)>()
                .include_inactive()
                .into_iter()
                .count(),
        ),
        (
            "Health",
            world
                .query::<(&Health,)>()
                .include_inactive()
                .into_iter()
                .count(),
        ),
    ] {
        let holders = ids
            .iter()
            .filter(|&&id| world.entity(id).unwrap().has_by_name(kind).unwrap())
            .count();
        assert_eq!(count, holders, "a query of {kind} visits each holder once");
    }
    let saved = world.save_json().expect("every component type here saves");
    let loaded = World::load_json(&saved).expect("a saved world loads");
    assert_eq!(
        loaded.save_json().unwrap(),
        saved,
        "saving a loaded world gives the same file"
    );
}

/// `has`, `get` and `get_all` tell the same story.
fn agree<T: Component + PartialEq + std::fmt::Debug>(e: &EntityRef<'_>) {
    let first = e.get::<T>();
    assert_eq!(e.has::<T>(), first.is_some());
    assert_eq!(e.get_all::<T>().next(), first);
}
