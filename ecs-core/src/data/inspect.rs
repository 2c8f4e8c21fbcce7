//! An inspector's view of a world: an indented text tree of entities with
//! their components, and Graphviz DOT for the component type hierarchy and
//! the scene graph.

use std::fmt::Write;

use crate::component::catalog::registered_components;
use crate::world::World;
use crate::EntityId;

/// How many levels [`World::inspect`] indents before it writes depths.
pub const INSPECT_MAX_INDENT: usize = 32;

/// [`World::inspect`]: each root in slot order, then its subtree
/// depth-first.
pub(crate) fn inspect(world: &World) -> String {
    let mut out = String::new();
    // A stack, not recursion: a tree may be arbitrarily deep.
    let mut stack: Vec<(EntityId, usize)> = world.roots().map(|r| (r, 0)).collect();
    stack.reverse();
    while let Some((id, depth)) = stack.pop() {
        inspect_entity(world, id, depth, &mut out);
        let children: Vec<EntityId> = world
            .entity(id)
            .expect("listed entities are alive")
            .children()
            .collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// One entity's line of [`World::inspect`], then a line per component.
fn inspect_entity(world: &World, id: EntityId, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth.min(INSPECT_MAX_INDENT));
    let deep = if depth > INSPECT_MAX_INDENT {
        format!("[depth {depth}] ")
    } else {
        String::new()
    };
    let e = world.entity(id).expect("listed entities are alive");
    let name = e.name().map(|n| format!("{n} ")).unwrap_or_default();
    let mut flags = String::new();
    if !e.is_enabled() {
        flags.push_str(" [disabled]");
    }
    if e.is_dead() {
        flags.push_str(" [dead]");
    }
    let _ = writeln!(out, "{indent}{deep}{name}{id:?}{flags}");
    for info in e.components() {
        let state = if info.enabled { "" } else { " [disabled]" };
        let value = match info.value {
            Some(value) => format!(" = {value:?}"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "{indent}  - {} {:?}{state}{value}",
            info.name(),
            info.instance
        );
    }
}

/// [`World::scene_graph_dot`]: a node per live entity, then its edges to
/// its children.
pub(crate) fn scene_graph_dot(world: &World) -> String {
    let mut out = String::from("digraph scene {\n  node [shape=box, fontname=\"monospace\"];\n");
    for id in world.iter_ids() {
        let e = world.entity(id).expect("live");
        let title = e
            .name()
            .map_or_else(|| format!("{id:?}"), |n| format!("{n} ({id:?})"));
        let components: Vec<&str> = e.components().map(|c| c.name()).collect();
        let style = if e.is_dead() || !e.is_enabled() {
            ", style=dashed"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  e{} [label=\"{}\\n{}\"{style}];",
            id.to_bits(),
            escape(&title),
            escape(&components.join(", "))
        );
        for child in e.children() {
            let _ = writeln!(out, "  e{} -> e{};", id.to_bits(), child.to_bits());
        }
    }
    out.push_str("}\n");
    out
}

/// Every registered component type as Graphviz DOT, with an edge from each
/// type to its parent (the is-a tree); `multiple` types are drawn doubled.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Moving;
/// #[derive(Component)]
/// #[component(parent = Moving)]
/// struct AxisMoving(Moving);
/// let dot = ecs_core::type_hierarchy_dot();
/// assert!(dot.starts_with("digraph components {"));
/// assert!(dot.contains(r#""AxisMoving" -> "Moving";"#));
/// ```
pub fn type_hierarchy_dot() -> String {
    let mut out = String::from(
        "digraph components {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    for ty in registered_components() {
        let shape = if ty.is_multiple() {
            ", peripheries=2"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  \"{}\" [tooltip=\"{}\"{shape}];",
            escape(ty.name()),
            escape(ty.type_name())
        );
        if let Some(parent) = ty.parents().next() {
            let _ = writeln!(
                out,
                "  \"{}\" -> \"{}\";",
                escape(ty.name()),
                escape(parent)
            );
        }
    }
    out.push_str("}\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}
