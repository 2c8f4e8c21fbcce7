//! # ecs-inspector
//!
//! A live inspector for [`ecs_core`] worlds that any game drawing with
//! [ratatui](https://ratatui.rs) can embed: a widget showing the scene graph
//! as a tree, the selected entity's components (name, type chain, instance
//! id, enabled flag, `Debug` value) and handles, the tables and their entity
//! counts, the component type hierarchy and the game's frame timings; plus
//! key handling that moves the selection and pokes the world (enable or
//! disable a component or the entity, kill or revive the entity).
//!
//! It reads the world through `ecs-core`'s public API only, so `ecs-core`
//! itself takes no terminal dependency.
//!
//! ```
//! use ecs_core::prelude::*;
//! use ecs_inspector::{FrameTiming, Inspector};
//! use ratatui::{backend::TestBackend, crossterm::event::KeyCode, Terminal};
//!
//! #[derive(Component, Debug)]
//! struct Health(u32);
//!
//! fn main() -> Result<(), ecs_core::Error> {
//!     let mut world = World::new();
//!     let hero = world.spawn_named("hero");
//!     world.entity_mut(hero)?.add(Health(3))?;
//!     let mut inspector = Inspector::new();
//!     // Each frame: what it cost, for the graph...
//!     inspector.record_frame(FrameTiming::default());
//!     // ...keys, while the inspector is shown (`true` if it used the key)...
//!     assert!(inspector.handle_key(KeyCode::Char('x').into(), &mut world));
//!     assert!(world.entity(hero)?.is_dead());
//!     // ...and the widget, wherever the game wants it.
//!     let mut terminal = Terminal::new(TestBackend::new(100, 24)).unwrap();
//!     terminal.draw(|f| f.render_widget(inspector.view(&world), f.area())).unwrap();
//!     Ok(())
//! }
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::VecDeque;
use std::time::Duration;

use ecs_core::prelude::*;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

pub mod model;
mod view;

pub use view::InspectorView;

/// How many frames the timing graph keeps.
pub const TIMING_HISTORY: usize = 120;

/// What one frame of the host game cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameTiming {
    /// Time spent updating the world (`World::update` and the game's own steps).
    pub update: Duration,
    /// Time spent drawing.
    pub draw: Duration,
}

/// What the right-hand pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    /// The selected entity: components, handles.
    #[default]
    Entity,
    /// Every registered component type as an is-a tree.
    Types,
}

/// The inspector's state: what is selected, what is shown, the recent frame
/// timings. Draw it with [`Inspector::view`]; feed it keys with
/// [`Inspector::handle_key`].
#[derive(Debug, Clone, Default)]
pub struct Inspector {
    selected: Option<EntityId>,
    /// The row the selection was on, to land near it when it despawns.
    row: usize,
    component: Option<usize>,
    pane: Pane,
    timings: VecDeque<FrameTiming>,
    note: Option<String>,
}

impl Inspector {
    /// An inspector with nothing selected yet (the first entity is shown).
    pub fn new() -> Self {
        Self::default()
    }

    /// The keys [`Inspector::handle_key`] understands, for a help line.
    pub const HELP: &'static str =
        "up/down entity  left/right component  e enable  x kill/revive  t types";

    /// Records one frame's timings for the graph.
    pub fn record_frame(&mut self, timing: FrameTiming) {
        if self.timings.len() == TIMING_HISTORY {
            self.timings.pop_front();
        }
        self.timings.push_back(timing);
    }

    /// The recorded frame timings, oldest first.
    pub fn timings(&self) -> impl Iterator<Item = &FrameTiming> {
        self.timings.iter()
    }

    /// The selected entity, if it is still alive in `world` (else the
    /// entity now on the selected row).
    pub fn selected(&self, world: &World) -> Option<EntityId> {
        let rows = model::tree_rows(world);
        self.resolve(&rows).map(|i| rows[i].id)
    }

    /// Selects an entity (and its entity row, not a component).
    pub fn select(&mut self, id: EntityId) {
        self.selected = Some(id);
        self.component = None;
    }

    /// The selected component's index among the entity's components, or
    /// `None` when the entity itself is selected.
    pub fn selected_component(&self) -> Option<usize> {
        self.component
    }

    /// What the right-hand pane shows.
    pub fn pane(&self) -> Pane {
        self.pane
    }

    /// The outcome of the last key that changed the world, for the status line.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The widget: draw it with `frame.render_widget(inspector.view(&world), area)`.
    pub fn view<'a>(&'a self, world: &'a World) -> InspectorView<'a> {
        InspectorView::new(self, world)
    }

    /// The index of the selected row in `rows`.
    fn resolve(&self, rows: &[model::TreeRow]) -> Option<usize> {
        if rows.is_empty() {
            return None;
        }
        let by_id = self
            .selected
            .and_then(|id| rows.iter().position(|r| r.id == id));
        Some(by_id.unwrap_or(self.row.min(rows.len() - 1)))
    }

    /// Handles one key; returns whether the inspector used it. Key release
    /// events (sent by terminals with the kitty protocol) are ignored.
    ///
    /// | key | does |
    /// |---|---|
    /// | Up / Down, PageUp / PageDown, Home / End | move through the scene tree |
    /// | Left / Right | select the entity's previous / next component (past the ends: the entity itself) |
    /// | `e` | enable or disable the selected component, or the entity when none is selected |
    /// | `x` | kill or revive the selected entity |
    /// | `t` | show the type hierarchy instead of the entity, and back |
    pub fn handle_key(&mut self, key: KeyEvent, world: &mut World) -> bool {
        if key.kind == KeyEventKind::Release {
            return false;
        }
        let rows = model::tree_rows(world);
        let current = self.resolve(&rows);
        let len = rows.len();
        let moved = |to: usize| to.min(len.saturating_sub(1));
        let target = match (key.code, current) {
            (KeyCode::Up, Some(i)) => Some(i.saturating_sub(1)),
            (KeyCode::Down, Some(i)) => Some(moved(i + 1)),
            (KeyCode::PageUp, Some(i)) => Some(i.saturating_sub(10)),
            (KeyCode::PageDown, Some(i)) => Some(moved(i + 10)),
            (KeyCode::Home, Some(_)) => Some(0),
            (KeyCode::End, Some(_)) => Some(moved(len)),
            _ => None,
        };
        if let Some(i) = target {
            self.row = i;
            self.select(rows[i].id);
            return true;
        }
        let Some(i) = current else {
            return matches!(key.code, KeyCode::Char('t'));
        };
        let id = rows[i].id;
        self.selected = Some(id);
        self.row = i;
        match key.code {
            KeyCode::Left | KeyCode::Right => {
                let count = world.entity(id).map_or(0, |e| e.len());
                self.component = step_component(self.component, count, key.code == KeyCode::Right);
            }
            KeyCode::Char('e') => self.note = Some(self.toggle_enabled(world, id)),
            KeyCode::Char('x') => self.note = Some(toggle_killed(world, id)),
            KeyCode::Char('t') => {
                self.pane = match self.pane {
                    Pane::Entity => Pane::Types,
                    Pane::Types => Pane::Entity,
                }
            }
            _ => return false,
        }
        true
    }

    /// Flips the selected component's enabled flag, or the entity's.
    fn toggle_enabled(&self, world: &mut World, id: EntityId) -> String {
        let Ok(mut e) = world.entity_mut(id) else {
            return format!("{id:?} is gone");
        };
        let label = e.name().map_or_else(|| format!("{id:?}"), str::to_owned);
        let picked = self.component.and_then(|i| {
            let c = e.components().nth(i)?;
            Some((c.instance, c.enabled, c.name()))
        });
        match picked {
            Some((instance, enabled, name)) => match e.set_instance_enabled(instance, !enabled) {
                Ok(_) => format!("{label}: {name} {instance:?} {}", state(!enabled)),
                Err(err) => err.to_string(),
            },
            None => {
                let enabled = !e.is_enabled();
                e.set_enabled(enabled);
                format!("{label}: {}", state(enabled))
            }
        }
    }
}

fn state(enabled: bool) -> &'static str {
    if enabled {
        "enabled"
    } else {
        "disabled"
    }
}

/// Kills a living entity, revives a dead one.
fn toggle_killed(world: &mut World, id: EntityId) -> String {
    let Ok(mut e) = world.entity_mut(id) else {
        return format!("{id:?} is gone");
    };
    let label = e.name().map_or_else(|| format!("{id:?}"), str::to_owned);
    if e.is_dead() {
        e.revive();
        format!("{label}: revived")
    } else {
        e.kill();
        format!("{label}: killed")
    }
}

/// The next (or previous) component index, where `None` is the entity row
/// before the first component and after the last.
fn step_component(current: Option<usize>, count: usize, forward: bool) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match (current, forward) {
        (None, true) => Some(0),
        (None, false) => Some(count - 1),
        (Some(i), true) if i + 1 < count => Some(i + 1),
        (Some(i), false) if i > 0 && i <= count => Some(i - 1),
        (Some(_), _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::step_component;

    #[test]
    fn component_selection_wraps_through_the_entity_row() {
        assert_eq!(step_component(None, 3, true), Some(0));
        assert_eq!(step_component(Some(2), 3, true), None);
        assert_eq!(step_component(None, 3, false), Some(2));
        assert_eq!(step_component(Some(0), 3, false), None);
        assert_eq!(step_component(Some(5), 0, true), None);
    }
}
