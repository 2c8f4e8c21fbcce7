//! # The showcase: a Bomberman-like game on ecs-core
//!
//! A playable arena game in the terminal (ratatui on crossterm) in the
//! spirit of Lifish, written the way a game on this framework would be:
//! components with inheritance (`AxisMoving` is-a `Moving`; `Soldier`,
//! `Runner` and `Tank` are-a `Enemy`, inheriting or overriding its
//! behaviour and its `Hit` receiver), several colliders per entity,
//! behaviours updated in a declared order, messages broadcast down the
//! level's tree and sent up to its root, weak handles kept across frames,
//! queries, resources, and levels loaded from JSON blueprints. The live
//! inspector ([`ecs_inspector`]) opens with Tab.
//!
//! | module | what |
//! |---|---|
//! | [`components`] | the components and messages |
//! | [`enemies`] | `Enemy` and its kinds |
//! | [`player`] | the player, movement, bombs, crates: behaviours and receivers |
//! | [`collide`] | collisions through weak handles |
//! | [`level`] | levels from blueprints |
//! | [`game`] | one frame at a time: sense, update, detonate, collide, the level's end |
//! | [`ai`] | the player's autopilot for headless runs |
//! | [`app`] | the game plus the inspector, driven by input events |
//! | [`ui`] | drawing with ratatui |
//! | [`term`] | the real terminal: raw mode, frame pacing, restore on every exit |
//! | [`headless`] | text frames and events, deterministic per seed |
//! | [`pictures`] | the README's GIF and PNG |
#![forbid(unsafe_code)]

pub mod ai;
pub mod app;
pub mod collide;
pub mod components;
pub mod enemies;
pub mod game;
pub mod headless;
pub mod level;
pub mod pictures;
pub mod player;
pub mod term;
pub mod ui;

pub use app::App;
pub use game::Game;
