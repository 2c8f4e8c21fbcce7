//! What a behaviour sees while it runs: its entity's other components, and a
//! queue for structural changes.

use std::collections::VecDeque;

use crate::entity::{EntityIndex, TypeIdx};
use crate::world::World;
use crate::{Bundle, Component, EntityId, Error};

/// Access to the running component's entity during `update` and hooks.
///
/// The component itself is `&mut self`; its siblings are reached here. The
/// storage of the running component's type is lent out while it runs, so
/// asking for a component kept there (itself, or another component of the
/// same type) is [`Error::InUse`] rather than an aliasing borrow.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// #[component(behaviour)]
/// struct Velocity(f32);
/// impl Behaviour for Velocity {
///     fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
///         assert!(matches!(ctx.get::<Velocity>(), Err(Error::InUse { .. }))); // that is `self`
///         ctx.get_mut::<Position>().unwrap().0 += self.0 * dt;
///     }
/// }
/// let mut world = World::new();
/// let id = world.spawn_with((Position(0.0), Velocity(2.0)))?;
/// world.update(1.0);
/// assert_eq!(world.entity(id)?.get::<Position>().unwrap().0, 2.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Context<'w> {
    world: &'w mut World,
    entity: EntityIndex,
    id: EntityId,
    busy: TypeIdx,
    /// A second lent type: the typed sibling of `behaviour(with = S)`.
    lent: TypeIdx,
}

impl<'w> Context<'w> {
    pub(crate) fn new(world: &'w mut World, entity: EntityIndex, busy: TypeIdx) -> Self {
        let id = world.id_at(entity);
        Self::with_id(world, id, busy)
    }

    /// [`Context::new`] when the caller already read the entity's id.
    #[inline]
    pub(crate) fn with_id(world: &'w mut World, id: EntityId, busy: TypeIdx) -> Self {
        Context {
            world,
            entity: id.index,
            id,
            busy,
            lent: busy,
        }
    }

    /// A context whose entity's `lent` storage is lent out too.
    #[inline]
    pub(crate) fn lending(mut self, lent: TypeIdx) -> Self {
        self.lent = lent;
        self
    }

    /// The entity's id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Me(Option<EntityId>);
    /// impl Behaviour for Me {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         self.0 = Some(ctx.id());
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Me(None),))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Me>().unwrap().0, Some(id));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The entity's name.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Greeter(String);
    /// impl Behaviour for Greeter {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         self.0 = format!("hello, {}", ctx.name().unwrap_or("nobody"));
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_named("player");
    /// world.entity_mut(id)?.add(Greeter(String::new()))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Greeter>().unwrap().0, "hello, player");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.world.name_of(self.entity)
    }

    /// The first sibling that is-a `T`.
    ///
    /// # Errors
    /// [`Error::MissingComponent`] when the entity holds none;
    /// [`Error::InUse`] when the first match is stored with the running
    /// component (for instance the running component itself).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Speed(f32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Odometer(f32);
    /// impl Behaviour for Odometer {
    ///     fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
    ///         self.0 += ctx.get::<Speed>().map_or(0.0, |s| s.0) * dt;
    ///         assert!(matches!(ctx.get::<Odometer>(), Err(Error::InUse { .. })));
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Speed(3.0), Odometer(0.0)))?;
    /// world.update(2.0);
    /// assert_eq!(world.entity(id)?.get::<Odometer>().unwrap().0, 6.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get<T: Component>(&self) -> Result<&T, Error> {
        let (comp, level) = self.locate::<T>()?;
        self.world
            .storage()
            .at_level(comp, level)
            .ok_or_else(|| self.missing::<T>())
    }

    /// Mutable twin of [`Context::get`].
    ///
    /// # Errors
    /// As [`Context::get`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Poison;
    /// impl Behaviour for Poison {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         if let Ok(health) = ctx.get_mut::<Health>() {
    ///             health.0 = health.0.saturating_sub(1);
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3), Poison))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get_mut<T: Component>(&mut self) -> Result<&mut T, Error> {
        let (comp, level) = self.locate::<T>()?;
        let entity = self.id;
        // Lazy on purpose: an eagerly built `Error` (it has `Drop` glue) cost
        // about 20 instructions per call on the update hot path.
        #[allow(clippy::unnecessary_lazy_evaluations)]
        self.world
            .storage_mut()
            .at_level_mut(comp, level)
            .ok_or_else(|| Error::MissingComponent {
                entity,
                wanted: T::NAME,
            })
    }

    /// Whether the entity holds a component that is-a `T` (the running one
    /// included).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Armor;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Check(Option<(bool, bool)>);
    /// impl Behaviour for Check {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         self.0 = Some((ctx.has::<Armor>(), ctx.has::<Check>())); // itself counts
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Check(None),))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Check>().unwrap().0, Some((false, true)));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn has<T: Component>(&self) -> bool {
        self.world
            .type_idx::<T>()
            .and_then(|t| self.world.position_of(self.entity, t))
            .is_some()
    }

    /// Queue of structural changes, applied in order when the current
    /// [`World::update`] finishes, or by [`World::apply_commands`] for
    /// changes queued by hooks outside an update.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct SelfDestruct;
    /// impl Behaviour for SelfDestruct {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let me = ctx.id();
    ///         ctx.commands().despawn(me); // applied when the update ends
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((SelfDestruct,))?;
    /// world.update(1.0);
    /// assert!(!world.contains(id));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn commands(&mut self) -> &mut Commands {
        &mut self.world.runtime_mut().commands
    }

    /// The first sibling that is-a `T`, and the chain level at which its
    /// type meets `T`.
    #[inline]
    fn locate<T: Component>(&self) -> Result<(crate::entity::CompRef, usize), Error> {
        let Some(t) = self.world.type_idx::<T>() else {
            return Err(self.missing::<T>());
        };
        let Some((comp, level)) = self.world.first_isa_level(self.entity, t) else {
            return Err(self.missing::<T>());
        };
        if comp.ty == self.busy || comp.ty == self.lent {
            return Err(Error::InUse {
                wanted: T::NAME,
                running: self.world.storage().info(self.busy).key().name(),
            });
        }
        Ok((comp, level))
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
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Bullet;
/// #[derive(Component)]
/// #[component(behaviour)]
/// struct Gun;
/// impl Behaviour for Gun {
///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
///         ctx.commands().spawn((Bullet,));
///     }
/// }
/// let mut world = World::new();
/// world.spawn_with((Gun,))?;
/// world.update(1.0);
/// world.update(1.0);
/// assert_eq!(world.len(), 3); // the gun and two bullets
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Default)]
pub struct Commands {
    queue: VecDeque<Command>,
}

impl Commands {
    /// Queues any change to the world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Renamer;
    /// impl Behaviour for Renamer {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let me = ctx.id();
    ///         ctx.commands().run(move |world| {
    ///             world.entity_mut(me)?.set_name(Some("renamed"));
    ///             Ok(())
    ///         });
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Renamer,))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.name(), Some("renamed"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn run(
        &mut self,
        change: impl FnOnce(&mut World) -> Result<(), Error> + Send + Sync + 'static,
    ) {
        self.queue.push_back(Box::new(change));
    }

    /// Queues spawning an entity with `bundle`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Bullet;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Gun;
    /// impl Behaviour for Gun {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.commands().spawn((Bullet,));
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.spawn_with((Gun,))?;
    /// world.update(1.0);
    /// let bullets = world.iter_ids().filter(|&id| world.entity(id).unwrap().has::<Bullet>());
    /// assert_eq!(bullets.count(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn<B: Bundle>(&mut self, bundle: B) {
        self.run(move |world| world.spawn_with(bundle).map(drop));
    }

    /// Queues spawning a named entity with `bundle`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Bullet;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Gun;
    /// impl Behaviour for Gun {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.commands().spawn_named("bullet", (Bullet,));
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.spawn_with((Gun,))?;
    /// world.update(1.0);
    /// let bullet = world.find_by_name("bullet").unwrap();
    /// assert!(world.entity(bullet)?.has::<Bullet>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_named<B: Bundle>(&mut self, name: &str, bundle: B) {
        let name = name.to_owned();
        self.run(move |world| {
            let id = world.spawn_with(bundle)?;
            world.entity_mut(id)?.set_name(Some(&name));
            Ok(())
        });
    }

    /// Queues despawning `id`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Fuse(u32);
    /// impl Behaviour for Fuse {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         self.0 -= 1;
    ///         if self.0 == 0 {
    ///             let me = ctx.id();
    ///             ctx.commands().despawn(me);
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let bomb = world.spawn_with((Fuse(2),))?;
    /// world.update(1.0);
    /// assert!(world.contains(bomb));
    /// world.update(1.0);
    /// assert!(!world.contains(bomb));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn despawn(&mut self, id: EntityId) {
        self.run(move |world| world.despawn(id));
    }

    /// Queues adding `component` to `id`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Burning;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Igniter;
    /// impl Behaviour for Igniter {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let me = ctx.id();
    ///         ctx.commands().add(me, Burning);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Igniter,))?;
    /// world.update(1.0);
    /// assert!(world.entity(id)?.has::<Burning>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn add<C: Component>(&mut self, id: EntityId, component: C) {
        self.run(move |world| world.entity_mut(id)?.add(component).map(drop));
    }

    /// Queues removing the first component of exactly type `T` from `id`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Shield;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Breaker;
    /// impl Behaviour for Breaker {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let me = ctx.id();
    ///         ctx.commands().remove::<Shield>(me);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Shield, Breaker))?;
    /// world.update(1.0);
    /// assert!(!world.entity(id)?.has::<Shield>());
    /// world.update(1.0); // nothing left to remove: the failure is recorded
    /// assert!(matches!(world.take_command_errors()[..], [Error::MissingComponent { .. }]));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
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
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Mortal;
    /// impl Behaviour for Mortal {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let me = ctx.id();
    ///         ctx.commands().kill(me);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Mortal,))?;
    /// world.update(1.0);
    /// assert!(world.entity(id)?.is_dead());
    /// assert_eq!(world.update(1.0), 0); // dead entities are not updated
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn kill(&mut self, id: EntityId) {
        self.run(move |world| {
            world.entity_mut(id)?.kill();
            Ok(())
        });
    }

    /// Queues reviving `id`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Healer(EntityId);
    /// impl Behaviour for Healer {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.commands().revive(self.0);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let patient = world.spawn();
    /// world.entity_mut(patient)?.kill();
    /// world.spawn_with((Healer(patient),))?;
    /// world.update(1.0);
    /// assert!(!world.entity(patient)?.is_dead());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn revive(&mut self, id: EntityId) {
        self.run(move |world| {
            world.entity_mut(id)?.revive();
            Ok(())
        });
    }

    /// Number of queued changes.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut commands = Commands::default();
    /// commands.kill(id);
    /// commands.despawn(id);
    /// assert_eq!(commands.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut commands = Commands::default();
    /// assert!(commands.is_empty());
    /// commands.despawn(id);
    /// assert!(!commands.is_empty());
    /// ```
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
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Spark;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Emitter;
    /// impl Behaviour for Emitter {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_attach(&mut self, ctx: &mut Context<'_>) {
    ///         ctx.commands().spawn((Spark,)); // queued by a hook, outside an update
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.spawn_with((Emitter,))?;
    /// assert_eq!(world.len(), 1);
    /// world.apply_commands();
    /// assert_eq!(world.len(), 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn apply_commands(&mut self) {
        self.flush_commands();
    }

    pub(crate) fn flush_commands(&mut self) {
        if self.runtime_mut().in_update || self.runtime_mut().flushing {
            return;
        }
        self.runtime_mut().flushing = true;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while let Some(command) = self.runtime_mut().commands.pop() {
                if let Err(error) = command(self) {
                    self.runtime_mut().command_errors.push(error);
                }
            }
        }));
        self.runtime_mut().flushing = false;
        if let Err(panic) = result {
            self.runtime_mut().commands.clear();
            std::panic::resume_unwind(panic);
        }
    }

    /// Errors of queued changes that failed when applied, oldest first.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Despawner(EntityId);
    /// impl Behaviour for Despawner {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.commands().despawn(self.0);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let target = world.spawn();
    /// world.spawn_with((Despawner(target),))?;
    /// world.update(1.0); // despawns the target
    /// world.update(1.0); // the target is already gone
    /// let errors = world.take_command_errors();
    /// assert!(matches!(errors[..], [Error::NoSuchEntity(id)] if id == target));
    /// assert!(world.take_command_errors().is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn take_command_errors(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.runtime_mut().command_errors)
    }
}
