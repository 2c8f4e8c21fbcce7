//! Fixtures shared by test files that declare `mod common;`.
//!
//! Every component here is in the by-name catalog of each test binary that
//! declares `mod common;`, used or not (the catalog collects every derived
//! component linked in). Such a file must not define another component
//! with one of these names, or both would be reported as a name conflict.

// Each test binary uses only some of the fixtures.
#![allow(dead_code)]

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A plain component: copyable, cloneable, saveable, with a `Default`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Position(pub f32);

/// A single type with a derived type, [`AxisMoving`].
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Moving {
    pub speed: f32,
}

/// Is-a [`Moving`] (its `base`).
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
#[component(parent = Moving)]
pub struct AxisMoving {
    pub base: Moving,
    pub vertical: bool,
}

impl AxisMoving {
    pub fn new(speed: f32, vertical: bool) -> Self {
        AxisMoving {
            base: Moving { speed },
            vertical,
        }
    }
}

/// A named-field component whose fields all have defaults in data.
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Transform {
    pub x: f32,
    pub y: f32,
}

/// Requires a [`Transform`].
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[component(requires(Transform))]
pub struct Enemy;

/// Proptest cases: the environment variable `var` if set, else `default`.
pub fn cases(var: &str, default: u32) -> u32 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `world` saved and loaded again; asserts that saving the loaded world
/// gives the same file (the save format loses nothing).
pub fn reloaded(world: &World) -> World {
    let json = world.save_json().unwrap();
    let loaded = World::load_json(&json).unwrap();
    assert_eq!(
        loaded.save_json().unwrap(),
        json,
        "lossless: saving the loaded world gives the same file"
    );
    loaded
}
