//! What the inspector shows, read from a world through its public API only:
//! the scene graph flattened to rows, the table layouts and their entity
//! counts, and the component type hierarchy.

use std::collections::BTreeMap;

use ecs_core::prelude::*;

/// One line of the scene tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRow {
    /// The entity on this line.
    pub id: EntityId,
    /// How deep it is (roots are 0).
    pub depth: usize,
    /// The tree glyphs before the label (`├─`, `└─`, `│ `).
    pub prefix: String,
    /// Its name, or its id when it has none.
    pub label: String,
    /// Killed: it keeps its components but does nothing.
    pub dead: bool,
    /// Disabled as a whole.
    pub disabled: bool,
}

/// Every entity as a tree row: roots in slot order, each followed by its
/// subtree (depth first, children in order). A stack, not recursion, so a
/// deep tree cannot overflow.
pub fn tree_rows(world: &World) -> Vec<TreeRow> {
    let mut rows = Vec::with_capacity(world.len());
    // (entity, depth, the "is last child" flag of every ancestor and itself)
    let roots: Vec<EntityId> = world.roots().collect();
    let mut stack: Vec<(EntityId, Vec<bool>)> = Vec::new();
    for (i, root) in roots.iter().enumerate().rev() {
        stack.push((*root, vec![i + 1 == roots.len()]));
    }
    while let Some((id, lasts)) = stack.pop() {
        let Ok(e) = world.entity(id) else { continue };
        let depth = lasts.len() - 1;
        let mut prefix = String::new();
        if depth > 0 {
            for &last in &lasts[1..depth] {
                prefix.push_str(if last { "  " } else { "│ " });
            }
            prefix.push_str(if lasts[depth] { "└─" } else { "├─" });
        }
        rows.push(TreeRow {
            id,
            depth,
            prefix,
            label: e.name().map_or_else(|| format!("{id:?}"), str::to_owned),
            dead: e.is_dead(),
            disabled: !e.is_enabled(),
        });
        let children: Vec<EntityId> = e.children().collect();
        for (i, child) in children.iter().enumerate().rev() {
            let mut l = lasts.clone();
            l.push(i + 1 == children.len());
            stack.push((*child, l));
        }
    }
    rows
}

/// A layout (the component types of a table, in order) and how many live
/// entities have it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The component type names, in insertion order.
    pub types: Vec<&'static str>,
    /// Live entities with exactly this layout.
    pub entities: usize,
}

/// The layouts live entities have, most populated first. Entities holding
/// the same component types in the same order share a table, so these are
/// the world's occupied tables; [`World::table_count`] also counts the
/// layouts no entity has any more.
pub fn layouts(world: &World) -> Vec<Layout> {
    let mut by_keys: BTreeMap<Vec<&'static str>, usize> = BTreeMap::new();
    for id in world.iter_ids() {
        let Ok(e) = world.entity(id) else { continue };
        let types: Vec<&'static str> = e.components().map(|c| c.name()).collect();
        *by_keys.entry(types).or_default() += 1;
    }
    let mut out: Vec<Layout> = by_keys
        .into_iter()
        .map(|(types, entities)| Layout { types, entities })
        .collect();
    out.sort_by(|a, b| b.entities.cmp(&a.entities).then(a.types.cmp(&b.types)));
    out
}

/// Counts of a world's entities by state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Census {
    /// Every live entity.
    pub total: usize,
    /// Neither killed nor disabled.
    pub active: usize,
    /// Killed.
    pub dead: usize,
    /// Disabled (and not killed).
    pub disabled: usize,
    /// Components over every entity.
    pub components: usize,
}

/// Counts the world's entities by state.
pub fn census(world: &World) -> Census {
    let mut c = Census::default();
    for id in world.iter_ids() {
        let Ok(e) = world.entity(id) else { continue };
        c.total += 1;
        c.components += e.len();
        if e.is_dead() {
            c.dead += 1;
        } else if !e.is_enabled() {
            c.disabled += 1;
        } else {
            c.active += 1;
        }
    }
    c
}

/// One line of the type hierarchy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRow {
    /// Depth below its root type.
    pub depth: usize,
    /// The type's name.
    pub name: &'static str,
    /// Whether an entity may hold several.
    pub multiple: bool,
}

/// Every registered component type as a tree: each root (a type with no
/// parent) followed by the types derived from it, alphabetically.
pub fn type_rows() -> Vec<TypeRow> {
    let mut children: BTreeMap<Option<&'static str>, Vec<(&'static str, bool)>> = BTreeMap::new();
    for ty in ecs_core::registered_components() {
        children
            .entry(ty.parents().next())
            .or_default()
            .push((ty.name(), ty.is_multiple()));
    }
    for list in children.values_mut() {
        list.sort();
    }
    let mut rows = Vec::new();
    let mut stack: Vec<(usize, &'static str, bool)> = children
        .get(&None)
        .map(|roots| roots.iter().rev().map(|&(n, m)| (0, n, m)).collect())
        .unwrap_or_default();
    while let Some((depth, name, multiple)) = stack.pop() {
        rows.push(TypeRow {
            depth,
            name,
            multiple,
        });
        if let Some(kids) = children.get(&Some(name)) {
            stack.extend(kids.iter().rev().map(|&(n, m)| (depth + 1, n, m)));
        }
    }
    rows
}

/// The type chain of a component type by name: itself, then its ancestors.
pub fn type_chain(name: &str) -> Vec<&'static str> {
    match ecs_core::component_type(name) {
        Ok(ty) => std::iter::once(ty.name()).chain(ty.parents()).collect(),
        Err(_) => Vec::new(),
    }
}
