//! What a behaviour sees while it runs: its entity's other components, and a
//! queue for structural changes.

use std::collections::VecDeque;

use crate::entity::TypeIdx;
use crate::storage::typed;
use crate::world::World;
use crate::{Bundle, Component, EntityId, Error};

/// Access to the running component's entity during `update` and hooks.
///
/// The component itself is `&mut self`; its siblings are reached here. The
/// storage of the running component's type is lent out while it runs, so
/// asking for a component kept there (itself, or another component of the
/// same type) is [`Error::InUse`] rather than an aliasing borrow.
pub struct Context<'w> {
    world: &'w mut World,
    entity: u32,
    id: EntityId,
    busy: TypeIdx,
    /// The running component's row: entities spawned alike keep their
    /// components at the same row of every column, so a sibling is often
    /// right there, and a lookup is one comparison.
    row: u32,
}

impl<'w> Context<'w> {
    pub(crate) fn new(world: &'w mut World, entity: u32, busy: TypeIdx, row: u32) -> Self {
        let id = world.id_at(entity);
        Context {
            world,
            entity,
            id,
            busy,
            row,
        }
    }

    /// The entity's id.
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The entity's name.
    pub fn name(&self) -> Option<&str> {
        self.world.name_of(self.entity)
    }

    /// The first sibling that is-a `T`.
    ///
    /// # Errors
    /// [`Error::MissingComponent`] when the entity holds none;
    /// [`Error::InUse`] when the first match is stored with the running
    /// component (for instance the running component itself).
    #[inline]
    pub fn get<T: Component>(&self) -> Result<&T, Error> {
        let (comp, t) = self.locate::<T>()?;
        self.world
            .view_as(comp, t)
            .ok_or_else(|| self.missing::<T>())
    }

    /// Mutable twin of [`Context::get`].
    ///
    /// # Errors
    /// As [`Context::get`].
    #[inline]
    pub fn get_mut<T: Component>(&mut self) -> Result<&mut T, Error> {
        let (comp, t) = self.locate::<T>()?;
        let missing = Error::MissingComponent {
            entity: self.id,
            wanted: T::NAME,
        };
        self.world.view_as_mut(comp, t).ok_or(missing)
    }

    /// Whether the entity holds a component that is-a `T` (the running one
    /// included).
    pub fn has<T: Component>(&self) -> bool {
        self.world
            .type_idx::<T>()
            .and_then(|t| self.world.position_of(self.entity, t))
            .is_some()
    }

    /// Queue of structural changes, applied in order when the current
    /// [`World::update`] finishes, or by [`World::apply_commands`] for
    /// changes queued by hooks outside an update.
    pub fn commands(&mut self) -> &mut Commands {
        &mut self.world.commands
    }

    /// The first sibling that is-a `T`, and `T`'s index.
    #[inline]
    fn locate<T: Component>(&self) -> Result<(crate::entity::CompRef, TypeIdx), Error> {
        let Some(t) = self.world.type_idx::<T>() else {
            return Err(self.missing::<T>());
        };
        let info = &self.world.types[t as usize];
        // A single type nothing derives from: the entity's only `T` is the
        // one at our row, if that row is the entity's.
        if t != self.busy && !info.has_descendants && !info.multiple {
            let aligned = self.world.columns[t as usize]
                .as_deref()
                .is_some_and(|c| typed::<T>(c).owners.get(self.row as usize) == Some(&self.entity));
            if aligned {
                return Ok((
                    crate::entity::CompRef {
                        ty: t,
                        row: self.row,
                    },
                    t,
                ));
            }
        }
        let found = self.world.first_isa(self.entity, t).map(|comp| (comp, t));
        let Some((comp, t)) = found else {
            return Err(self.missing::<T>());
        };
        if comp.ty == self.busy {
            return Err(Error::InUse {
                wanted: T::NAME,
                running: self.world.types[self.busy as usize].key.name(),
            });
        }
        Ok((comp, t))
    }

    #[cold]
    fn missing<T: Component>(&self) -> Error {
        Error::MissingComponent {
            entity: self.id,
            wanted: T::NAME,
        }
    }
}

type Command = Box<dyn FnOnce(&mut World) -> Result<(), Error> + Send + Sync>;

/// Structural changes queued by behaviours, applied later in queue order
/// (see [`World::apply_commands`]).
///
/// A change that fails when applied (say, despawning an entity already
/// gone) is kept for [`World::take_command_errors`].
#[derive(Default)]
pub struct Commands {
    queue: VecDeque<Command>,
}

impl Commands {
    /// Queues any change to the world.
    pub fn run(
        &mut self,
        change: impl FnOnce(&mut World) -> Result<(), Error> + Send + Sync + 'static,
    ) {
        self.queue.push_back(Box::new(change));
    }

    /// Queues spawning an entity with `bundle`.
    pub fn spawn<B: Bundle>(&mut self, bundle: B) {
        self.run(move |world| world.spawn_with(bundle).map(drop));
    }

    /// Queues spawning a named entity with `bundle`.
    pub fn spawn_named<B: Bundle>(&mut self, name: &str, bundle: B) {
        let name = name.to_owned();
        self.run(move |world| {
            let id = world.spawn_with(bundle)?;
            world.entity_mut(id)?.set_name(Some(&name));
            Ok(())
        });
    }

    /// Queues despawning `id`.
    pub fn despawn(&mut self, id: EntityId) {
        self.run(move |world| world.despawn(id));
    }

    /// Queues adding `component` to `id`.
    pub fn add<C: Component>(&mut self, id: EntityId, component: C) {
        self.run(move |world| world.entity_mut(id)?.add(component).map(drop));
    }

    /// Queues removing the first component of exactly type `T` from `id`.
    pub fn remove<T: Component>(&mut self, id: EntityId) {
        self.run(move |world| {
            world
                .entity_mut(id)?
                .remove::<T>()
                .map(drop)
                .ok_or(Error::MissingComponent {
                    entity: id,
                    wanted: T::NAME,
                })
        });
    }

    /// Queues killing `id`.
    pub fn kill(&mut self, id: EntityId) {
        self.run(move |world| {
            world.entity_mut(id)?.kill();
            Ok(())
        });
    }

    /// Queues reviving `id`.
    pub fn revive(&mut self, id: EntityId) {
        self.run(move |world| {
            world.entity_mut(id)?.revive();
            Ok(())
        });
    }

    /// Number of queued changes.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.queue.clear();
    }

    /// Drops the changes queued after the first `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.queue.truncate(len);
    }

    fn pop(&mut self) -> Option<Command> {
        self.queue.pop_front()
    }
}

impl World {
    /// Applies the changes behaviours queued, in queue order (changes queued
    /// while applying, by hooks, are applied too). [`World::update`] does
    /// this when it ends; call it after operations whose hooks queue changes
    /// outside an update. Failed changes go to
    /// [`World::take_command_errors`].
    ///
    /// Does nothing while an update runs.
    pub fn apply_commands(&mut self) {
        self.flush_commands();
    }

    pub(crate) fn flush_commands(&mut self) {
        if self.in_update || self.flushing {
            return;
        }
        self.flushing = true;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while let Some(command) = self.commands.pop() {
                if let Err(error) = command(self) {
                    self.command_errors.push(error);
                }
            }
        }));
        self.flushing = false;
        if let Err(panic) = result {
            self.commands.clear();
            std::panic::resume_unwind(panic);
        }
    }

    /// Errors of queued changes that failed when applied, oldest first.
    pub fn take_command_errors(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.command_errors)
    }
}
