//! What a behaviour sees while it runs: its entity's other components, and a
//! queue for structural changes.

use std::collections::VecDeque;

use crate::entity::TypeIdx;
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
    busy: TypeIdx,
}

impl<'w> Context<'w> {
    pub(crate) fn new(world: &'w mut World, entity: u32, busy: TypeIdx) -> Self {
        Context {
            world,
            entity,
            busy,
        }
    }

    /// The entity's id.
    pub fn id(&self) -> EntityId {
        self.world.id_at(self.entity)
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
    pub fn get<T: Component>(&self) -> Result<&T, Error> {
        let comp = self.locate::<T>()?;
        self.world.view(comp).ok_or_else(|| self.missing::<T>())
    }

    /// Mutable twin of [`Context::get`].
    ///
    /// # Errors
    /// As [`Context::get`].
    pub fn get_mut<T: Component>(&mut self) -> Result<&mut T, Error> {
        let comp = self.locate::<T>()?;
        let missing = self.missing::<T>();
        self.world.view_mut(comp).ok_or(missing)
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

    fn locate<T: Component>(&self) -> Result<crate::entity::CompRef, Error> {
        let t = self
            .world
            .type_idx::<T>()
            .ok_or_else(|| self.missing::<T>())?;
        let pos = self
            .world
            .position_of(self.entity, t)
            .ok_or_else(|| self.missing::<T>())?;
        let comp = self.world.entities[self.entity as usize]
            .components
            .as_slice()[pos];
        if comp.ty == self.busy {
            return Err(Error::InUse {
                wanted: T::NAME,
                running: self.world.types[self.busy as usize].key.name(),
            });
        }
        Ok(comp)
    }

    fn missing<T: Component>(&self) -> Error {
        Error::MissingComponent {
            entity: self.id(),
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
