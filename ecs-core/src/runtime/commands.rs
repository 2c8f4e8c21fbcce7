//! Deferred structural changes: the queue behaviours, hooks and receivers
//! fill through `ctx.commands()`, the world's own queue, and queues a user
//! fills and applies by hand.

use std::collections::VecDeque;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use crate::runtime::runtime_mut;
use crate::world::World;
use crate::{Bundle, Component, EntityId, Error};

type Command = Box<dyn FnOnce(&mut World) -> Result<(), Error> + Send + Sync>;

/// Changes to a world, queued now and applied later, in queue order.
///
/// Behaviours, hooks and receivers fill the world's own queue through
/// [`Context::commands`](crate::Context::commands), and code holding the
/// world reaches the same queue through [`World::commands`]. The world
/// applies it when an update ends, when a message send returns, or on
/// [`World::apply_commands`], and keeps the failures for
/// [`World::take_command_errors`]. A queue of your own, from
/// [`Commands::new`], is applied by [`Commands::apply`], which returns its
/// failures instead, as one [`Error::Commands`] that `?` passes on.
///
/// A change that fails when applied (say, despawning an entity already
/// gone) does not stop the changes queued after it.
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
///
/// Filled and applied by hand:
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Bullet;
/// struct Score(u32);
/// let mut world = World::new();
/// let mut commands = Commands::new();
/// commands.spawn((Bullet,));
/// commands.insert_resource(Score(0));
/// assert!(world.is_empty()); // nothing happens until applied
/// commands.apply(&mut world)?; // every change applied, or the failures returned
/// assert_eq!(world.len(), 1);
/// assert!(world.contains_resource::<Score>());
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Default)]
pub struct Commands {
    queue: VecDeque<Command>,
}

impl Commands {
    /// An empty queue, to fill anywhere and apply with [`Commands::apply`]
    /// (or hand to the world with [`Commands::append`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let commands = Commands::new();
    /// assert!(commands.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies the queued changes to `world` now, first queued first, and
    /// leaves the queue empty. A change that fails does not stop the ones
    /// after it.
    ///
    /// This is the same as making those calls on `world` yourself, in
    /// order: changes that hooks queue meanwhile go to the world's queue,
    /// as from any direct call ([`World::apply_commands`] applies them).
    /// Inside a [`Commands::run`] change that the world is applying, it
    /// applies at once too: that change holds the whole world, with no
    /// column lent out (the world applies its queue after an update's
    /// behaviours have run, never during).
    ///
    /// # Errors
    /// [`Error::Commands`] holding every change's error, oldest first, when
    /// any failed (they are not kept for [`World::take_command_errors`]).
    ///
    /// # Panics
    /// A panicking change propagates: the changes before it stay applied,
    /// the ones after it are dropped unapplied, and the world is consistent.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut commands = Commands::new();
    /// commands.add(id, Health(3));
    /// commands.despawn(id);
    /// commands.despawn(id); // fails: already gone
    /// commands.spawn((Health(5),)); // still applied
    /// let failed = commands.apply(&mut world);
    /// assert_eq!(failed, Err(Error::Commands { errors: vec![Error::NoSuchEntity(id)] }));
    /// assert!(commands.is_empty());
    /// assert_eq!(world.len(), 1);
    /// ```
    pub fn apply(&mut self, world: &mut World) -> Result<(), Error> {
        let mut errors = Vec::new();
        let applied = apply_in_order(world, |_| self.pop(), |_, error| errors.push(error));
        if let Err(panic) = applied {
            resume_unwind(panic);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Commands { errors })
        }
    }

    /// Moves every change of `other` to the end of this queue, leaving
    /// `other` empty. `world.commands().append(&mut mine)` hands your queue
    /// to the world, behind its own: applied when the next update ends, its
    /// failures kept for [`World::take_command_errors`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let mut mine = Commands::new();
    /// mine.run(|world| { world.spawn(); Ok(()) });
    /// world.commands().append(&mut mine);
    /// assert!(mine.is_empty());
    /// world.update(1.0);
    /// assert_eq!(world.len(), 1);
    /// ```
    pub fn append(&mut self, other: &mut Commands) {
        self.queue.append(&mut other.queue);
    }

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
                    via: crate::Via::Commands,
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

    /// Queues [`World::insert_resource`]; the value it replaces, if any, is
    /// dropped.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct GameOver;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Player(u32);
    /// impl Behaviour for Player {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         if self.0 == 0 {
    ///             ctx.commands().insert_resource(GameOver);
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.spawn_with((Player(0),))?;
    /// world.update(1.0);
    /// assert!(world.contains_resource::<GameOver>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn insert_resource<R: Send + Sync + 'static>(&mut self, resource: R) {
        self.run(move |world| {
            world.insert_resource(resource);
            Ok(())
        });
    }

    /// Queues [`World::remove_resource`]; the value is dropped. Removing a
    /// resource the world does not have is not a failure (the value is
    /// gone either way).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Paused;
    /// let mut world = World::new();
    /// world.insert_resource(Paused);
    /// let mut commands = Commands::new();
    /// commands.remove_resource::<Paused>();
    /// commands.remove_resource::<Paused>(); // already gone: no error
    /// commands.apply(&mut world)?;
    /// assert!(!world.contains_resource::<Paused>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn remove_resource<R: Send + Sync + 'static>(&mut self) {
        self.run(|world| {
            world.remove_resource::<R>();
            Ok(())
        });
    }

    /// Number of queued changes.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut commands = Commands::new();
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
    /// let mut commands = Commands::new();
    /// assert!(commands.is_empty());
    /// commands.despawn(id);
    /// assert!(!commands.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Drops the changes queued after the first `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.queue.truncate(len);
    }

    fn pop(&mut self) -> Option<Command> {
        self.queue.pop_front()
    }
}

impl std::fmt::Debug for Commands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Commands")
            .field("len", &self.queue.len())
            .finish_non_exhaustive()
    }
}

/// The one loop that applies changes, for the world's queue and for a
/// queue of the user's alike: `next` hands out the changes in order (the
/// world's queue may grow while it runs), `failed` takes each failure, and
/// a failure does not stop the loop. On a panic, what is left in the queue
/// is dropped unapplied, since it was queued to follow a change that did
/// not finish; the panic is returned for the caller to resume once its own
/// state is restored.
fn apply_in_order(
    world: &mut World,
    mut next: impl FnMut(&mut World) -> Option<Command>,
    mut failed: impl FnMut(&mut World, Error),
) -> std::thread::Result<()> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        while let Some(command) = next(world) {
            if let Err(error) = command(world) {
                failed(world, error);
            }
        }
    }));
    if result.is_err() {
        while next(world).is_some() {}
    }
    result
}

/// Applies the world's queue, as [`World::apply_commands`] does but without
/// reclaiming tables: what an update's end and a send's return run. Not
/// while an update runs (its changes wait for its end), nor inside a flush
/// (the running one applies what is queued meanwhile).
pub(crate) fn flush_commands(world: &mut World) {
    if runtime_mut(world).in_update || runtime_mut(world).flushing {
        return;
    }
    runtime_mut(world).flushing = true;
    let applied = apply_in_order(
        world,
        |world| runtime_mut(world).commands.pop(),
        |world, error| runtime_mut(world).command_errors.push(error),
    );
    runtime_mut(world).flushing = false;
    if let Err(panic) = applied {
        resume_unwind(panic);
    }
}
