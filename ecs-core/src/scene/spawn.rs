//! Spawning assembled entities with their names and links: trees made
//! from blueprints or clones, and whole loaded worlds. The world layer
//! spawns the values; this layer names and links them.

use crate::component::ops::BoxedComponent;
use crate::entity::{EntityIndex, TypeIdx};
use crate::scene::hierarchy::hierarchy_mut;
use crate::world::prepared::{LoadedEntity, Requirements};
use crate::world::World;
use crate::{EntityId, Error};

/// One entity to spawn, with its subtree.
pub(crate) struct PreparedEntity {
    pub name: Option<String>,
    pub enabled: bool,
    pub killed: bool,
    pub layers: Option<u32>,
    /// `(type, value, enabled)` in insertion order.
    pub components: Vec<(TypeIdx, BoxedComponent, bool)>,
    /// The position of its parent in the list being spawned, which comes
    /// before it (`None` for the list's root).
    pub parent: Option<usize>,
}

impl PreparedEntity {
    pub fn new() -> Self {
        PreparedEntity {
            name: None,
            enabled: true,
            killed: false,
            layers: None,
            components: Vec::new(),
            parent: None,
        }
    }
}

/// Each entity's children, by saved id, in one buffer (a load reads them
/// entity by entity): no list is an allocation of its own.
#[derive(Default)]
pub(crate) struct ChildLists {
    ids: Vec<u32>,
    /// By entity: where its children start in `ids`, and how many.
    spans: Vec<(usize, usize)>,
}

impl ChildLists {
    /// Room for `entities` more lists.
    pub fn reserve(&mut self, entities: usize) {
        self.spans.reserve(entities);
    }

    /// Starts the next entity's list (empty until [`ChildLists::push`]).
    pub fn open(&mut self) {
        self.spans.push((self.ids.len(), 0));
    }

    /// Room for `more` children of the entity opened last.
    pub fn reserve_children(&mut self, more: usize) {
        self.ids.reserve(more);
    }

    /// Adds a child to the list opened last.
    pub fn push(&mut self, child: u32) {
        self.ids.push(child);
        if let Some(span) = self.spans.last_mut() {
            span.1 += 1;
        }
    }

    /// How many children the list opened last has.
    pub fn last_len(&self) -> usize {
        self.spans.last().map_or(0, |span| span.1)
    }

    /// How many children all the lists hold.
    pub fn total(&self) -> usize {
        self.ids.len()
    }

    /// Whether no entity has a child.
    pub fn no_links(&self) -> bool {
        self.ids.is_empty()
    }

    /// The children of entity `i` (none past the last list).
    pub fn of(&self, i: usize) -> &[u32] {
        self.spans
            .get(i)
            .map_or(&[], |&(start, len)| &self.ids[start..start + len])
    }

    /// Every entity's children, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.spans
            .iter()
            .map(|&(start, len)| &self.ids[start..start + len])
    }
}

/// Spawns `prepared`, a tree listed parents first, its root first
/// (checked by the caller against the single rule): every component
/// first, then the requirements they lack, then the attach and enable
/// hooks, entity by entity, parents first. On error (a requirement
/// clashing with a listed component) nothing is left. A flat list, not
/// nested values, so that neither spawning nor dropping a tree of any
/// depth recurses.
pub(crate) fn spawn_prepared(
    world: &mut World,
    prepared: Vec<PreparedEntity>,
    parent: Option<EntityId>,
    requirements: Requirements,
) -> Result<EntityId, Error> {
    let mut created: Vec<EntityId> = Vec::with_capacity(prepared.len());
    for node in prepared {
        let under = match node.parent {
            Some(at) => Some(created[at]),
            None => parent,
        };
        let id = spawn_node(world, node);
        if let Some(under) = under {
            // A fresh entity has no children, so it cannot close a cycle.
            hierarchy_mut(world).attach(id.index, under.index);
            world.set_parent_link(id.index, Some(under.index));
        }
        created.push(id);
    }
    let root = *created.first().expect("a prepared tree has a root");
    match requirements {
        Requirements::Add => world.finish_spawn(&created)?,
    }
    Ok(root)
}

/// Completes a load once every entity is in (slot `p` for entity `p`):
/// links `children` (saved ids, checked by the caller: in range, one
/// parent each, no cycle), names the entities in `name_order` (saved
/// ids) or file order, then fires the attach and enable hooks in
/// `tree_order` (parents first). Returns the ids in file order.
pub(crate) fn finish_loaded(
    world: &mut World,
    entities: &[LoadedEntity],
    children: &ChildLists,
    tree_order: &[u32],
    name_order: Option<Vec<u32>>,
) -> Vec<EntityId> {
    let created: Vec<EntityId> = (0..entities.len())
        .map(|i| world.id_at(EntityIndex::from_index(i)))
        .collect();
    let slots = created.len();
    let mut linking = false;
    // One list for every parent's children: the hierarchy copies them.
    let mut linked: Vec<EntityIndex> = Vec::new();
    for (parent, list) in children.iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        if !std::mem::replace(&mut linking, true) {
            world.reserve_parent_links(slots);
            hierarchy_mut(world).reserve(slots, children.total());
        }
        linked.clear();
        linked.extend(list.iter().map(|&child| created[child as usize].index));
        world.set_parent_links(&linked, created[parent].index);
        hierarchy_mut(world).link_fresh(created[parent].index, &linked, slots);
    }
    // Room for every name at once: thousands of entities share a few
    // names, and growing each list entity by entity dominated naming.
    // Hooks and requirements belong to types, so each table is asked
    // once rather than each entity's every component. One pass for both.
    let mut counts = vec![0; world.names().interned()];
    let mut named = false;
    let mut seen = vec![false; world.storage().table_slots()];
    let mut plain = true;
    for e in entities {
        if let Some(name) = e.name {
            counts[name as usize] += 1;
            named = true;
        }
        if !std::mem::replace(&mut seen[e.table.index()], true) {
            let layout = world.storage().table(e.table).layout();
            plain &= layout.iter().all(|place| world.is_plain_ty(place.ty));
        }
    }
    if named {
        // The names are looked up once, not once per entity.
        let names = world.names_mut();
        names.reserve_all(&counts, created.len());
        let mut give = |at: usize| {
            if let Some(name) = entities[at].name {
                names.give(created[at].index, name);
            }
        };
        match name_order {
            Some(order) => order.into_iter().for_each(|at| give(at as usize)),
            None => (0..entities.len()).for_each(give),
        }
    }
    if !plain {
        let in_tree_order: Vec<EntityId> =
            tree_order.iter().map(|&i| created[i as usize]).collect();
        world.fire_spawn_hooks(&in_tree_order);
    }
    created
}

/// Spawns one prepared entity, named, without requirements or hooks.
fn spawn_node(world: &mut World, prepared: PreparedEntity) -> EntityId {
    let state = (prepared.enabled, prepared.killed);
    let id = world.spawn_values(prepared.components, state, prepared.layers);
    if let Some(name) = &prepared.name {
        world.names_mut().set(id.index, Some(name));
    }
    id
}
