//! The scene graph: parent/child links between entities (as in Unity's
//! Transform hierarchy), and what changes them: linking without a cycle,
//! despawning a whole subtree. Children keep the order they were attached in.

use crate::entity::EntityIndex;
use crate::world::World;
use crate::{EntityId, EntityMut, EntityRef, Error};

const NO_PARENT: EntityIndex = EntityIndex(u32::MAX);

#[derive(Debug)]
struct Node {
    parent: EntityIndex,
    children: Vec<EntityIndex>,
}

impl Clone for Node {
    fn clone(&self) -> Self {
        Node {
            parent: self.parent,
            children: self.children.clone(),
        }
    }

    /// Reuses the children's buffer (a derived `clone_from` would not), so
    /// restoring a snapshot into its own world allocates nothing.
    fn clone_from(&mut self, source: &Self) {
        self.parent = source.parent;
        self.children.clone_from(&source.children);
    }
}

impl Default for Node {
    fn default() -> Self {
        Node {
            parent: NO_PARENT,
            children: Vec::new(),
        }
    }
}

/// Links by entity slot; grown only when links are made, so worlds without a
/// hierarchy pay nothing for it.
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    nodes: Vec<Node>,
    /// How many times a link was made or undone: equal counts of one
    /// history mean equal links (a diff skips comparing them).
    edits: u64,
}

impl Clone for Hierarchy {
    fn clone(&self) -> Self {
        Hierarchy {
            nodes: self.nodes.clone(),
            edits: self.edits,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.nodes.clone_from(&source.nodes);
        self.edits = source.edits;
    }
}

impl Hierarchy {
    /// No links: what a world starts with.
    pub const fn new() -> Self {
        Hierarchy {
            nodes: Vec::new(),
            edits: 0,
        }
    }

    /// How many times a link was made or undone (see `edits`).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    pub fn parent(&self, index: EntityIndex) -> Option<EntityIndex> {
        let parent = self.nodes.get(index.index())?.parent;
        (parent != NO_PARENT).then_some(parent)
    }

    pub fn children(&self, index: EntityIndex) -> &[EntityIndex] {
        self.nodes.get(index.index()).map_or(&[], |n| &n.children)
    }

    fn node_mut(&mut self, index: EntityIndex) -> &mut Node {
        let i = index.index();
        if self.nodes.len() <= i {
            self.nodes.resize_with(i + 1, Node::default);
        }
        &mut self.nodes[i]
    }

    /// Unlinks `child` from its parent, if any.
    pub fn detach(&mut self, child: EntityIndex) {
        if let Some(parent) = self.parent(child) {
            self.edits += 1;
            let siblings = &mut self.node_mut(parent).children;
            // Despawning a subtree detaches children last first, so the
            // common case is the last child: constant time, where a scan
            // would make despawning a wide parent quadratic.
            if siblings.last() == Some(&child) {
                siblings.pop();
            } else if let Some(at) = siblings.iter().position(|&c| c == child) {
                siblings.remove(at);
            }
            self.node_mut(child).parent = NO_PARENT;
        }
    }

    /// Links `child` under `parent`, last among its children; the caller has
    /// ruled out cycles.
    pub(crate) fn attach(&mut self, child: EntityIndex, parent: EntityIndex) {
        self.detach(child);
        self.edits += 1;
        self.node_mut(child).parent = parent;
        self.node_mut(parent).children.push(child);
    }

    /// Links fresh entities: each of `children` (none linked yet) under
    /// `parent` (which has none yet), in order, `children` becoming the
    /// parent's list (no copy). For loads, which link whole trees at a
    /// time.
    pub(crate) fn link_fresh(
        &mut self,
        parent: EntityIndex,
        children: Vec<EntityIndex>,
        slots: usize,
    ) {
        if self.nodes.len() < slots {
            self.nodes.resize_with(slots, Node::default);
        }
        self.edits += 1;
        for &child in &children {
            self.nodes[child.index()].parent = parent;
        }
        let list = &mut self.nodes[parent.index()].children;
        debug_assert!(list.is_empty(), "a fresh parent");
        *list = children;
    }

    /// `index` and its descendants, depth-first, parents before children,
    /// children in attach order.
    pub fn subtree(&self, index: EntityIndex) -> Vec<EntityIndex> {
        let mut out = Vec::new();
        let mut stack = vec![index];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.children(i).iter().rev());
        }
        out
    }

    /// The parent, grandparent, ... of `index`.
    pub fn ancestors(&self, index: EntityIndex) -> impl Iterator<Item = EntityIndex> + '_ {
        std::iter::successors(self.parent(index), move |&i| self.parent(i))
    }
}

/// Mutable twin of [`World::hierarchy`].
#[inline]
pub(crate) fn hierarchy_mut(world: &mut World) -> &mut Hierarchy {
    world.extension_mut::<Hierarchy>()
}

/// [`World::set_parent`]: links `child` under `parent` unless that would
/// close a cycle.
pub(crate) fn set_parent(
    world: &mut World,
    child: EntityId,
    parent: EntityId,
) -> Result<(), Error> {
    world.check(child)?;
    world.check(parent)?;
    // A leaf cannot be its new parent's ancestor: building a tree
    // top-down costs no walk, and otherwise the walk is the parent's
    // depth.
    let cycle = child == parent
        || (!world.hierarchy().children(child.index).is_empty()
            && world
                .hierarchy()
                .ancestors(parent.index)
                .any(|a| a == child.index));
    if cycle {
        return Err(Error::HierarchyCycle { child, parent });
    }
    hierarchy_mut(world).attach(child.index, parent.index);
    world.set_parent_link(child.index, Some(parent.index));
    Ok(())
}

/// [`World::despawn`]: `id` and its subtree, children before parents.
pub(crate) fn despawn(world: &mut World, id: EntityId) -> Result<(), Error> {
    world.check(id)?;
    if world.hierarchy().children(id.index).is_empty() {
        world.despawn_one(id.index, true);
        world.reclaim_tables();
        return Ok(());
    }
    let subtree = world.hierarchy().subtree(id.index);
    for &index in subtree.iter().rev() {
        world.take_out_one(index, true);
    }
    // The whole subtree is gone before any of its values is dropped.
    world.empty_trash();
    world.reclaim_tables();
    Ok(())
}

impl<'w> EntityRef<'w> {
    /// The parent entity, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity(wheel)?.parent(), Some(car));
    /// assert_eq!(world.entity(car)?.parent(), None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn parent(&self) -> Option<EntityId> {
        let world = self.world();
        world
            .hierarchy()
            .parent(self.id().index)
            .map(|i| world.id_at(i))
    }

    /// The children, in the order they were attached.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let front = world.spawn();
    /// let back = world.spawn();
    /// world.set_parent(back, car)?;
    /// world.set_parent(front, car)?;
    /// assert_eq!(world.entity(car)?.children().collect::<Vec<_>>(), [back, front]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn children(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .children(self.id().index)
            .iter()
            .map(|&i| world.id_at(i))
    }

    /// Parent, grandparent, ..., up to the root.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// let bolt = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// world.set_parent(bolt, wheel)?;
    /// assert_eq!(world.entity(bolt)?.ancestors().collect::<Vec<_>>(), [wheel, car]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn ancestors(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .ancestors(self.id().index)
            .map(|i| world.id_at(i))
    }

    /// Every descendant, depth-first: a child, then its subtree, then the
    /// next child (pre-order, children in attach order); not the entity itself.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// let bolt = world.spawn();
    /// let door = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// world.set_parent(bolt, wheel)?;
    /// world.set_parent(door, car)?;
    /// let all: Vec<EntityId> = world.entity(car)?.descendants().collect();
    /// assert_eq!(all, [wheel, bolt, door]); // pre-order
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn descendants(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .subtree(self.id().index)
            .into_iter()
            .skip(1)
            .map(|i| world.id_at(i))
    }
}

impl EntityMut<'_> {
    /// The parent entity, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity_mut(wheel)?.parent(), Some(car));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn parent(&self) -> Option<EntityId> {
        self.as_ref().parent()
    }

    /// The children, in the order they were attached.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity_mut(car)?.children(), [wheel]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn children(&self) -> Vec<EntityId> {
        self.as_ref().children().collect()
    }
}
