//! The runtime layer's part of [`World`], all of it in this one block: the
//! update order and the update, the world's queue of changes and their
//! errors, and messages. A method whose body is more than a few lines
//! calls into the module it belongs to, so this file reads as the index.

use crate::entity::TypeIdx;
use crate::runtime::behaviour::{self, UpdateOrder};
use crate::runtime::commands::{self, Commands};
use crate::runtime::observe::{self, ComponentEvent, ObserverId};
use crate::runtime::{message, runtime_mut};
use crate::world::World;
use crate::{Component, Context};
use crate::{EntityId, Error};
use std::any::TypeId;

impl World {
    /// Declares which behaviour types update first, and in which order (the
    /// seed's variadic registration, as a tuple). Types not named update
    /// after these, in the order their first component was attached.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(Component)] #[component(behaviour)] struct Physics;
    /// # impl Behaviour for Physics { fn update(&mut self, _: &mut Context<'_>, _: f32) {} }
    /// # #[derive(Component)] #[component(behaviour)] struct Model;
    /// # impl Behaviour for Model { fn update(&mut self, _: &mut Context<'_>, _: f32) {} }
    /// let mut world = World::new();
    /// world.set_update_order::<(Physics, Model)>();
    /// ```
    pub fn set_update_order<O: UpdateOrder>(&mut self) {
        behaviour::set_update_order::<O>(self);
    }

    /// Runs one frame: every behaviour type's `update` (see
    /// [`World::set_update_order`] for the order between types; within a
    /// type, storage order), then applies the structural changes the
    /// updates queued, in the order they were queued. Returns how many
    /// components were updated.
    ///
    /// # Panics
    /// A panic inside a user's `update` or hook propagates to the caller;
    /// the world stays consistent and usable, and changes queued during this
    /// update are discarded (changes queued before it are kept).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Timer(f32);
    /// impl Behaviour for Timer {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, dt: f32) {
    ///         self.0 += dt;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let a = world.spawn_with((Timer(0.0),))?;
    /// world.spawn_with((Timer(0.0),))?;
    /// assert_eq!(world.update(0.5), 2); // two components updated
    /// assert_eq!(world.entity(a)?.get::<Timer>().unwrap().0, 0.5);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn update(&mut self, dt: f32) -> usize {
        let updated = behaviour::update(self, dt);
        observe::deliver_changes(self);
        updated
    }

    /// Calls `observer` with a [`Context`] on the entity whenever a
    /// component that is-a `T` meets `event`: an observer on a base type
    /// hears every derived one (on `Collider`, a `CircleCollider` added).
    /// Lifecycle events ([`ComponentEvent::Added`], [`ComponentEvent::Removed`],
    /// [`ComponentEvent::Enabled`], [`ComponentEvent::Disabled`]) are heard right after the
    /// component's own hook, wherever it fires (spawns, `add`, blueprints,
    /// loads into this world, despawns), in registration order;
    /// [`ComponentEvent::Changed`] is delivered when an [`update`](World::update)
    /// ends and on [`deliver_changes`](World::deliver_changes).
    ///
    /// An observer runs under a hook's rules: it reads the world and its
    /// entity's components through the context, and queues structural
    /// changes with [`Context::commands`], applied when the update ends or
    /// on [`apply_commands`](World::apply_commands). A panic in an observer
    /// propagates as a hook's does, leaving the world as a hook's panic
    /// does. An observer whose own work fires it again is not re-entered.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use std::sync::{Arc, Mutex};
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider { radius: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Collider, multiple)]
    /// struct CircleCollider { base: Collider }
    /// let mut world = World::new();
    /// let heard = Arc::new(Mutex::new(Vec::new()));
    /// let log = Arc::clone(&heard);
    /// world.observe::<Collider>(ComponentEvent::Added, move |ctx| log.lock().unwrap().push(ctx.id()));
    /// let id = world.spawn_with((CircleCollider { base: Collider { radius: 1.0 } },))?;
    /// assert_eq!(*heard.lock().unwrap(), [id]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn observe<T: Component>(
        &mut self,
        event: ComponentEvent,
        observer: impl FnMut(&mut Context<'_>) + Send + 'static,
    ) -> ObserverId {
        observe::observe(self, TypeId::of::<T>(), event, observer)
    }

    /// Removes an observer; `false` when it was removed already.
    pub fn unobserve(&mut self, observer: ObserverId) -> bool {
        observe::unobserve(self, observer)
    }

    /// Delivers [`ComponentEvent::Changed`] to its observers now (an
    /// [`update`](World::update) does when it ends): each hears every
    /// entity whose component that is-a its type was handed out mutably
    /// since its last delivery, once.
    pub fn deliver_changes(&mut self) {
        observe::deliver_changes(self);
    }

    /// The world's own queue of changes, the one behaviours fill through
    /// [`Context::commands`](crate::Context::commands): applied when the
    /// next [`World::update`] ends, or on [`World::apply_commands`], with
    /// its failures kept for [`World::take_command_errors`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Marker;
    /// let mut world = World::new();
    /// world.commands().spawn((Marker,));
    /// assert!(world.is_empty()); // queued, not applied
    /// world.apply_commands();
    /// assert_eq!(world.len(), 1);
    /// ```
    pub fn commands(&mut self) -> &mut Commands {
        &mut runtime_mut(self).commands
    }

    /// Applies the world's queue ([`World::commands`]), in queue order
    /// (changes queued while applying, by hooks, are applied too).
    /// [`World::update`] does this when it ends; call it after queueing
    /// through [`World::commands`], or after operations whose hooks queue
    /// changes outside an update. Failed changes go to
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
        commands::flush_commands(self);
        self.reclaim_tables();
    }

    /// Errors of queued changes that failed when applied, and of
    /// [`Context::attempt`](crate::Context::attempt)s that gave up
    /// ([`Error::Attempt`]), oldest first: an attempt's when it fails, a
    /// change's when it is applied.
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
        runtime_mut(self).command_errors.take()
    }

    /// Delivers `message` to every enabled component of `id` that receives
    /// `M`, in insertion order; returns how many handled it. Nothing is
    /// delivered to a disabled or killed entity. Changes receivers queue
    /// through `ctx.commands()` are applied before this returns.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    /// #[derive(Component)]
    /// #[component(receives(Ping))]
    /// struct Pings(u32);
    /// impl Receive<Ping> for Pings {
    ///     fn receive(&mut self, _: &mut Context<'_>, _: &Ping) { self.0 += 1 }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Pings(0),))?;
    /// assert_eq!(world.send(id, &Ping)?, 1);
    /// world.entity_mut(id)?.kill();
    /// assert_eq!(world.send(id, &Ping)?, 0); // killed: nothing delivered
    /// assert_eq!(world.entity(id)?.get::<Pings>().unwrap().0, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn send<M: 'static>(&mut self, id: EntityId, message: &M) -> Result<usize, Error> {
        message::send(self, id, message)
    }

    /// Like [`World::send`], to `id` and then its descendants, depth-first
    /// (the order of [`EntityRef::descendants`](crate::EntityRef::descendants)).
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    /// #[derive(Component)]
    /// #[component(receives(Ping))]
    /// struct Pings(u32);
    /// impl Receive<Ping> for Pings {
    ///     fn receive(&mut self, _: &mut Context<'_>, _: &Ping) { self.0 += 1 }
    /// }
    /// let mut world = World::new();
    /// let car = world.spawn_with((Pings(0),))?;
    /// let wheel = world.spawn_with((Pings(0),))?;
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.broadcast(car, &Ping)?, 2); // the car, then its wheel
    /// assert_eq!(world.send_upwards(car, &Ping)?, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn broadcast<M: 'static>(&mut self, id: EntityId, message: &M) -> Result<usize, Error> {
        message::broadcast(self, id, message)
    }

    /// Like [`World::send`], to `id` and then its parent, grandparent, ...
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    /// #[derive(Component)]
    /// #[component(receives(Ping))]
    /// struct Pings(u32);
    /// impl Receive<Ping> for Pings {
    ///     fn receive(&mut self, _: &mut Context<'_>, _: &Ping) { self.0 += 1 }
    /// }
    /// let mut world = World::new();
    /// let car = world.spawn_with((Pings(0),))?;
    /// let wheel = world.spawn_with((Pings(0),))?;
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.send_upwards(wheel, &Ping)?, 2); // the wheel, then the car
    /// assert_eq!(world.entity(car)?.get::<Pings>().unwrap().0, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn send_upwards<M: 'static>(&mut self, id: EntityId, message: &M) -> Result<usize, Error> {
        message::send_upwards(self, id, message)
    }

    /// The order in which behaviour types update: those named in
    /// [`World::set_update_order`], then every other one in the order its
    /// first component was attached.
    pub(crate) fn effective_update_order(&self) -> Vec<TypeIdx> {
        behaviour::effective_update_order(self)
    }

    /// Sets the update order from type indices (a loaded world's).
    pub(crate) fn set_update_order_of(&mut self, order: Vec<TypeIdx>) {
        runtime_mut(self).update_order = order;
    }
}
