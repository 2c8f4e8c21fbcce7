//! What a behaviour sees while it runs: its entity's other components, the
//! world's resources, and a queue for structural changes.

use crate::entity::{EntityIndex, TypeIdx};
use crate::runtime::runtime_mut;
use crate::world::World;
use crate::{Commands, Component, EntityId, Error, SourceError, Via};

/// Access to the running component's entity during `update`, hooks and
/// message receivers.
///
/// The component itself is `&mut self`; its siblings are reached here. The
/// storage of the running component's type is lent out while it runs, so a
/// component kept there (itself, or another component of the same type)
/// cannot be handed out again: it is not there to lend, like a missing one.
///
/// The accessors answer in one shape, the one [`EntityRef`] and
/// [`EntityMut`] use: a lookup that may find nothing returns an `Option`
/// ([`get`](Context::get), [`get_mut`](Context::get_mut),
/// [`resource`](Context::resource), [`name`](Context::name)), `None` when
/// there is nothing to hand out, a component being absent or lent out
/// alike; the `try_` twins
/// ([`try_get`](Context::try_get), [`try_get_mut`](Context::try_get_mut))
/// return a `Result` whose error says which
/// ([`Error::MissingComponent`] or [`Error::InUse`]), for `?`.
/// [`query_mut`](Context::query_mut) returns a `Result` as it stands: a
/// query finds nothing by yielding nothing, so its one failure,
/// [`Error::InUse`], is always a term that cannot be lent. Other entities,
/// the parent and the children are read through [`Context::world`], under
/// the world's own rules (a stale id is [`Error::NoSuchEntity`] there).
///
/// [`EntityRef`]: crate::EntityRef
/// [`EntityMut`]: crate::EntityMut
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
///         assert!(ctx.get::<Velocity>().is_none()); // that is `self`
///         assert!(matches!(ctx.try_get::<Velocity>(), Err(Error::InUse { .. })));
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

    /// The tick the running type's previous update started at
    /// ([`Tick::default`](crate::Tick::default) during its first): what
    /// changed since then, others' writes and this type's own, is what
    /// [`changed_since`](crate::EntityRef::changed_since) reports for it.
    /// In a hook or receiver, that of the type's last update but one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Target(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Aim(u32);
    /// impl Behaviour for Aim {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let since = ctx.last_update();
    ///         if ctx.world().entity(ctx.id()).unwrap().changed_since::<Target>(since) {
    ///             self.0 += 1; // re-aim only when the target moved
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Aim(0), Target(1)))?;
    /// world.update(1.0); // first update: everything is new
    /// world.update(1.0); // nothing changed since
    /// world.entity_mut(id)?.get_mut::<Target>().unwrap().0 = 2;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Aim>().unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn last_update(&self) -> crate::Tick {
        crate::runtime::runtime(self.world)
            .map_or(crate::Tick::default(), |r| r.previous_update(self.busy))
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

    /// The world's resource of type `R` (see [`World::insert_resource`]).
    /// Resources are not kept in columns, so none is ever lent out: no
    /// [`Error::InUse`] here.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Gravity(f32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Falling(f32);
    /// impl Behaviour for Falling {
    ///     fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
    ///         self.0 += ctx.resource::<Gravity>().map_or(0.0, |g| g.0) * dt;
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.insert_resource(Gravity(-10.0));
    /// let id = world.spawn_with((Falling(0.0),))?;
    /// world.update(0.5);
    /// assert_eq!(world.entity(id)?.get::<Falling>().unwrap().0, -5.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn resource<R: Send + Sync + 'static>(&self) -> Option<&R> {
        self.world.get_resource()
    }

    /// Mutable twin of [`Context::resource`]. To insert or remove a
    /// resource, queue it: [`Commands::insert_resource`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Kills(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Doomed;
    /// impl Behaviour for Doomed {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         if let Some(kills) = ctx.resource_mut::<Kills>() {
    ///             kills.0 += 1;
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.insert_resource(Kills(0));
    /// world.spawn_with((Doomed,))?;
    /// world.spawn_with((Doomed,))?;
    /// world.update(1.0);
    /// assert_eq!(world.get_resource::<Kills>().unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn resource_mut<R: Send + Sync + 'static>(&mut self) -> Option<&mut R> {
        self.world.get_resource_mut()
    }

    /// The first sibling that is-a `T`, or `None` when there is none to
    /// lend: the entity holds no `T`, or the first match is stored with the
    /// running component (the running component itself, another component
    /// of its type, or in `update_with` the sibling type handed in). The
    /// same shape as
    /// [`EntityRef::get`](crate::EntityRef::get); [`Context::try_get`]
    /// tells the two cases apart, for `?`.
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
    ///         assert!(ctx.get::<Odometer>().is_none()); // that is `self`
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Speed(3.0), Odometer(0.0)))?;
    /// world.update(2.0);
    /// assert_eq!(world.entity(id)?.get::<Odometer>().unwrap().0, 6.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get<T: Component>(&self) -> Option<&T> {
        let (comp, level) = self.locate::<T>().ok()?;
        self.world.storage().at_level(comp, level)
    }

    /// Mutable twin of [`Context::get`], the same shape as
    /// [`EntityMut::get_mut`](crate::EntityMut::get_mut).
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
    ///         if let Some(health) = ctx.get_mut::<Health>() {
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
    pub fn get_mut<T: Component>(&mut self) -> Option<&mut T> {
        let (comp, level) = self.locate::<T>().ok()?;
        self.world.storage_mut().at_level_mut(comp, level)
    }

    /// [`Context::get`] with the reason when there is nothing to lend, for
    /// `?` in code that returns a `Result` (see [`Context::attempt`]).
    ///
    /// # Errors
    /// [`Error::MissingComponent`] when the entity holds no `T`;
    /// [`Error::InUse`] when the first match is stored with the running
    /// component (for instance the running component itself), or with the
    /// sibling [`UpdateWith::update_with`](crate::UpdateWith::update_with)
    /// is handed (`sibling: true`).
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
    ///         match ctx.try_get::<Speed>() {
    ///             Ok(speed) => self.0 += speed.0 * dt,
    ///             Err(Error::MissingComponent { .. }) => {} // parked: no engine yet
    ///             Err(other) => panic!("{other}"),
    ///         }
    ///         assert!(matches!(ctx.try_get::<Odometer>(), Err(Error::InUse { .. })));
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Speed(3.0), Odometer(0.0)))?;
    /// world.update(2.0);
    /// assert_eq!(world.entity(id)?.get::<Odometer>().unwrap().0, 6.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn try_get<T: Component>(&self) -> Result<&T, Error> {
        let (comp, level) = self.locate::<T>().map_err(|miss| self.error::<T>(miss))?;
        self.world
            .storage()
            .at_level(comp, level)
            .ok_or_else(|| self.error::<T>(Miss::Missing))
    }

    /// Mutable twin of [`Context::try_get`].
    ///
    /// # Errors
    /// As [`Context::try_get`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Poison(Option<String>);
    /// impl Behaviour for Poison {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         match ctx.try_get_mut::<Health>() {
    ///             Ok(health) => health.0 = health.0.saturating_sub(1),
    ///             Err(error) => self.0 = Some(error.to_string()),
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Poison(None),))?;
    /// world.update(1.0);
    /// let why = world.entity(id)?.get::<Poison>().unwrap().0.clone().unwrap();
    /// assert!(why.contains("has no component that is-a `Health`"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn try_get_mut<T: Component>(&mut self) -> Result<&mut T, Error> {
        let (comp, level) = self.locate::<T>().map_err(|miss| self.error::<T>(miss))?;
        let entity = self.id;
        self.world
            .storage_mut()
            .at_level_mut(comp, level)
            .ok_or_else(|| missing::<T>(entity))
    }

    /// Runs `f`, the fallible part of a behaviour, hook or receiver, so it
    /// can use `?` while the trait method itself returns nothing. `Ok(v)`
    /// is `Some(v)`. An `Err` is `None` and is not lost: it is kept, as
    /// [`Error::Attempt`] naming this entity and the running component's
    /// type with the error as its `source()`, for
    /// [`World::take_command_errors`] beside the changes that failed.
    ///
    /// Anything `?` turns into a `Box<dyn std::error::Error + Send + Sync>`
    /// will do for `E`: [`Error`] (from [`Context::try_get`] and the rest),
    /// your own error types, a `String` or a `&str`. A method or function
    /// returning `Result` names its error type; a closure using `?` in
    /// place must name it too, since `?` can convert into many:
    /// `ctx.attempt(|ctx| -> Result<(), Error> { .. })`.
    ///
    /// Nothing is undone: what `f` changed and queued before the error
    /// stays, and the rest of `f` does not run.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Fuel(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Engine { revs: u32 }
    /// impl Engine {
    ///     fn burn(&mut self, ctx: &mut Context<'_>) -> Result<(), Error> {
    ///         let fuel = ctx.try_get_mut::<Fuel>()?; // no Fuel: gives up here
    ///         fuel.0 -= 1;
    ///         self.revs += 1;
    ///         Ok(())
    ///     }
    /// }
    /// impl Behaviour for Engine {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.attempt(|ctx| self.burn(ctx));
    ///     }
    /// }
    /// let mut world = World::new();
    /// let running = world.spawn_with((Fuel(5), Engine { revs: 0 }))?;
    /// let dry = world.spawn_with((Engine { revs: 0 },))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(running)?.get::<Engine>().unwrap().revs, 1);
    /// let errors = world.take_command_errors();
    /// assert!(matches!(errors[..], [Error::Attempt { entity, running: "Engine", .. }] if entity == dry));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    ///
    /// In place, with a value handed back:
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Target(EntityId);
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Tracker { distance: f32 }
    /// impl Behaviour for Tracker {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let found = ctx.attempt(|ctx| -> Result<f32, Error> {
    ///             let target = ctx.try_get::<Target>()?.0;
    ///             let there = ctx.world().entity(target)?.get::<Position>().map_or(0.0, |p| p.0);
    ///             Ok(there - ctx.try_get::<Position>()?.0)
    ///         });
    ///         if let Some(distance) = found {
    ///             self.distance = distance;
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let goal = world.spawn_with((Position(10.0),))?;
    /// let id = world.spawn_with((Position(4.0), Target(goal), Tracker { distance: 0.0 }))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Tracker>().unwrap().distance, 6.0);
    /// world.despawn(goal)?;
    /// world.update(1.0); // the target is gone: the distance is kept, the error too
    /// assert_eq!(world.entity(id)?.get::<Tracker>().unwrap().distance, 6.0);
    /// assert_eq!(world.take_command_errors().len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn attempt<R, E>(&mut self, f: impl FnOnce(&mut Context<'_>) -> Result<R, E>) -> Option<R>
    where
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        match f(self) {
            Ok(value) => Some(value),
            Err(error) => {
                self.keep_failure(error.into());
                None
            }
        }
    }

    /// Keeps the error of a failed [`Context::attempt`] where the world
    /// keeps failed changes: no caller is waiting for either.
    #[cold]
    fn keep_failure(&mut self, source: Box<dyn std::error::Error + Send + Sync + 'static>) {
        let error = Error::Attempt {
            entity: self.id,
            running: self.world.storage().info(self.busy).key().name(),
            source: SourceError::new(source),
        };
        runtime_mut(self.world).command_errors.push(error);
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

    /// The world's queue of structural changes (the one [`World::commands`]
    /// returns), applied in order when the current [`World::update`]
    /// finishes or a [`World::send`] returns, or by
    /// [`World::apply_commands`] for changes queued by hooks outside those.
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
        &mut runtime_mut(self.world).commands
    }

    /// The whole world, read-only: other entities (by id, the entity's
    /// parent and children, by name), resources, and read-only queries.
    /// The components of the running type are lent out while it runs, so
    /// they read as absent here (a query over that type skips them); ask
    /// [`Context::try_get`] for a clear [`Error::InUse`] instead.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Follower(u32);
    /// impl Behaviour for Follower {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         let world = ctx.world();
    ///         let parent = world.entity(ctx.id()).unwrap().parent();
    ///         self.0 = parent.and_then(|p| world.entity(p).ok()?.get::<Health>().map(|h| h.0)).unwrap_or(0);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let leader = world.spawn_with((Health(7),))?;
    /// let follower = world.spawn_with((Follower(0),))?;
    /// world.set_parent(follower, leader)?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(follower)?.get::<Follower>().unwrap().0, 7);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn world(&self) -> &World {
        self.world
    }

    /// A query over the world from inside a behaviour, under the rules of
    /// [`World::query_mut`], for terms that do not touch the running type.
    ///
    /// # Errors
    /// [`Error::InUse`] when a term's type is the running type, one of its
    /// ancestors or one derived from it, or is-a or is the sibling type of
    /// `behaviour(with = S)` (`sibling: true`): those components are lent
    /// out.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Plague;
    /// impl Behaviour for Plague {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         for (health,) in ctx.query_mut::<(&mut Health,)>().unwrap() {
    ///             health.0 = health.0.saturating_sub(1);
    ///         }
    ///         assert!(matches!(ctx.query_mut::<(&Plague,)>(), Err(Error::InUse { .. })));
    ///     }
    /// }
    /// let mut world = World::new();
    /// world.spawn_with((Plague,))?;
    /// let a = world.spawn_with((Health(5),))?;
    /// world.update(1.0);
    /// assert_eq!(world.entity(a)?.get::<Health>().unwrap().0, 4);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn query_mut<Q: crate::QueryData>(&mut self) -> Result<crate::QueryMut<'_, Q>, Error> {
        let storage = self.world.storage();
        let running = storage.info(self.busy).key().name();
        for ty in [self.busy, self.lent] {
            let info = storage.info(ty);
            let chain = info.vtable().map_or(&[][..], |v| v.chain.keys());
            for term in Q::TERMS {
                let Some(key) = term.key else { continue };
                if term.chain.contains(&info.key()) || chain.contains(&key) {
                    return Err(Error::InUse {
                        wanted: key.name(),
                        running,
                        sibling: ty != self.busy,
                        via: Via::ContextQuery,
                    });
                }
            }
        }
        Ok(self.world.query_mut::<Q>())
    }

    /// The first sibling that is-a `T`, and the chain level at which its
    /// type meets `T`; or why there is none to lend. Builds no [`Error`]:
    /// `get` and `get_mut` are on the update hot path, and an eagerly built
    /// `Error` (it has `Drop` glue) cost about 20 instructions per call.
    #[inline]
    fn locate<T: Component>(&self) -> Result<(crate::entity::CompRef, usize), Miss> {
        let t = self.world.type_idx::<T>().ok_or(Miss::Missing)?;
        let (comp, level) = self
            .world
            .first_isa_level(self.entity, t)
            .ok_or(Miss::Missing)?;
        if comp.ty == self.busy {
            return Err(Miss::InUse);
        }
        if comp.ty == self.lent {
            return Err(Miss::Sibling);
        }
        Ok((comp, level))
    }

    /// The [`Error`] for a `T` that [`Context::locate`] could not lend.
    #[cold]
    fn error<T: Component>(&self, miss: Miss) -> Error {
        match miss {
            Miss::Missing => missing::<T>(self.id),
            Miss::InUse | Miss::Sibling => Error::InUse {
                wanted: T::NAME,
                running: self.world.storage().info(self.busy).key().name(),
                sibling: matches!(miss, Miss::Sibling),
                via: Via::Context,
            },
        }
    }
}

/// Why [`Context::locate`] found no component to lend.
#[derive(Clone, Copy)]
enum Miss {
    /// The entity holds none.
    Missing,
    /// The first match is stored with the running component.
    InUse,
    /// The first match is stored with the sibling `update_with` is handed.
    Sibling,
}

#[cold]
fn missing<T: Component>(entity: EntityId) -> Error {
    Error::MissingComponent {
        entity,
        wanted: T::NAME,
        via: Via::Context,
    }
}
