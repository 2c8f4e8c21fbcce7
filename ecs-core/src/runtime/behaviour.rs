//! Behaviour: per-frame `update` and lifecycle hooks, opted into with
//! `#[component(behaviour)]` and run by [`World::update`] type by type.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use std::marker::PhantomData;

use crate::component::ops::Codec;
use crate::entity::{CompRef, RowId, TypeIdx};
use crate::runtime::commands::flush_commands;
use crate::runtime::context::Context;
use crate::runtime::{runtime, runtime_mut};
use crate::table::{LentColumn, Meta, Segment};
use crate::world::hooks::{BehaviourEntryPoints, Hook};
use crate::world::World;
use crate::Component;

/// Per-frame logic and lifecycle hooks of a component.
///
/// Mark the type `#[component(behaviour)]` and implement this trait; the
/// world then updates it in [`World::update`] with no registration call.
/// Either half alone is a compile error: the mark without the impl, and the
/// impl without the mark (it would never run).
/// Hooks default to doing nothing. Order for one component (as in Unity):
/// `on_attach`, `on_enable`, `start` (before its first update), `update`
/// every frame, then `on_disable` (if enabled) and `on_detach` when removed
/// or despawned. `on_kill`/`on_revive` fire on [`EntityMut::kill`] and
/// [`EntityMut::revive`](crate::EntityMut::revive). `on_enable` and
/// `on_disable` alternate, bracketing the time the component is enabled on
/// an enabled entity: while the entity is disabled, only its
/// [`set_enabled`](crate::EntityMut::set_enabled) fires them.
///
/// Inside any of them, `ctx` reaches the entity's other components; asking
/// for a component stored with the one being run is [`Error::InUse`], and
/// structural changes go through [`Context::commands`] (applied when
/// [`World::update`] finishes, or by [`World::apply_commands`]). The
/// methods return nothing; for `?`, run the fallible part in
/// [`Context::attempt`], which keeps its error for
/// [`World::take_command_errors`].
///
/// A behaviour is inherited like a virtual method: a type declared
/// `parent = P` runs its nearest ancestor's `update` and hooks on the
/// ancestor part it embeds, until it declares `#[component(behaviour)]`
/// and implements `Behaviour` itself, which replaces the whole behaviour
/// (and may call the ancestor's, `self.base.update(ctx, dt)`).
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component, Default)]
/// #[component(behaviour)]
/// struct Enemy { steps: u32 }
/// impl Behaviour for Enemy {
///     fn update(&mut self, _: &mut Context<'_>, _: f32) { self.steps += 1 }
/// }
/// #[derive(Component, Default)]
/// #[component(parent = Enemy)]                // inherits Enemy's update
/// struct Soldier { base: Enemy }
/// #[derive(Component, Default)]
/// #[component(parent = Enemy, behaviour)]     // overrides it
/// struct Runner { base: Enemy }
/// impl Behaviour for Runner {
///     fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
///         self.base.update(ctx, dt);           // Enemy's step, then two more
///         self.base.steps += 2;
///     }
/// }
/// let mut world = World::new();
/// let soldier = world.spawn_with((Soldier::default(),))?;
/// let runner = world.spawn_with((Runner::default(),))?;
/// world.update(1.0);
/// assert_eq!(world.entity(soldier)?.get::<Enemy>().unwrap().steps, 1);
/// assert_eq!(world.entity(runner)?.get::<Enemy>().unwrap().steps, 3);
/// # Ok::<(), ecs_core::Error>(())
/// ```
///
/// [`EntityMut::kill`]: crate::EntityMut::kill
/// [`Error::InUse`]: crate::Error::InUse
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Position(f32);
///
/// #[derive(Component)]
/// #[component(behaviour)]
/// struct Velocity(f32);
///
/// impl Behaviour for Velocity {
///     fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
///         if let Some(pos) = ctx.get_mut::<Position>() {
///             pos.0 += self.0 * dt;
///         }
///     }
/// }
///
/// let mut world = World::new();
/// let id = world.spawn_with((Position(0.0), Velocity(2.0)))?;
/// world.update(0.5);
/// assert_eq!(world.entity(id)?.get::<Position>().unwrap().0, 1.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a behaviour: it does not implement `Behaviour`",
    label = "`{Self}` needs an `impl Behaviour`",
    note = "mark the type `#[component(behaviour)]` and add `impl ecs_core::Behaviour for {Self} {{ fn update(&mut self, ctx: &mut ecs_core::Context<'_>, dt: f32) {{ /* ... */ }} }}`; only behaviours are updated and may be named in `set_update_order`"
)]
pub trait Behaviour: Component + DeclaresBehaviour {
    /// Called once per [`World::update`] while the component is enabled and
    /// its entity is alive, enabled and not killed.
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
    /// let id = world.spawn_with((Timer(0.0),))?;
    /// world.update(0.25);
    /// world.entity_mut(id)?.kill(); // killed entities are not updated
    /// world.update(0.25);
    /// assert_eq!(world.entity(id)?.get::<Timer>().unwrap().0, 0.25);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32);

    /// Called once, right before the component's first update.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Log(Vec<&'static str>);
    /// impl Behaviour for Log {
    ///     fn start(&mut self, _ctx: &mut Context<'_>) {
    ///         self.0.push("start");
    ///     }
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {
    ///         self.0.push("update");
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Log(Vec::new()),))?;
    /// world.update(1.0);
    /// world.update(1.0);
    /// assert_eq!(world.entity(id)?.get::<Log>().unwrap().0, ["start", "update", "update"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn start(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the component is added to an entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Log(Vec<&'static str>);
    /// impl Behaviour for Log {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_attach(&mut self, _ctx: &mut Context<'_>) {
    ///         self.0.push("attach");
    ///     }
    ///     fn on_enable(&mut self, _ctx: &mut Context<'_>) {
    ///         self.0.push("enable");
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Log(Vec::new()),))?;
    /// assert_eq!(world.entity(id)?.get::<Log>().unwrap().0, ["attach", "enable"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the component is removed, or its entity despawned.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Removed(u32);
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Shield;
    /// impl Behaviour for Shield {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_detach(&mut self, ctx: &mut Context<'_>) {
    ///         if let Some(removed) = ctx.get_mut::<Removed>() {
    ///             removed.0 += 1;
    ///         }
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Removed(0), Shield))?;
    /// world.entity_mut(id)?.remove::<Shield>();
    /// assert_eq!(world.entity(id)?.get::<Removed>().unwrap().0, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_detach(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the component (or its entity) becomes enabled, and after
    /// `on_attach`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Lamp { lit: bool }
    /// impl Behaviour for Lamp {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_enable(&mut self, _ctx: &mut Context<'_>) {
    ///         self.lit = true;
    ///     }
    ///     fn on_disable(&mut self, _ctx: &mut Context<'_>) {
    ///         self.lit = false;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Lamp { lit: false },))?;
    /// assert!(world.entity(id)?.get::<Lamp>().unwrap().lit); // enabled when attached
    /// world.entity_mut(id)?.set_enabled(false);
    /// world.entity_mut(id)?.set_enabled(true);
    /// assert!(world.entity(id)?.get::<Lamp>().unwrap().lit);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_enable(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the component (or its entity) becomes disabled, and
    /// before `on_detach` of an enabled component.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Lamp { lit: bool }
    /// impl Behaviour for Lamp {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_enable(&mut self, _ctx: &mut Context<'_>) {
    ///         self.lit = true;
    ///     }
    ///     fn on_disable(&mut self, _ctx: &mut Context<'_>) {
    ///         self.lit = false;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Lamp { lit: false },))?;
    /// assert_eq!(world.entity_mut(id)?.disable::<Lamp>(), 1);
    /// assert!(!world.entity(id)?.get::<Lamp>().unwrap().lit);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_disable(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the entity is killed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Lives(u32);
    /// impl Behaviour for Lives {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_kill(&mut self, _ctx: &mut Context<'_>) {
    ///         self.0 -= 1;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Lives(3),))?;
    /// world.entity_mut(id)?.kill();
    /// world.entity_mut(id)?.kill(); // already dead: no second hook
    /// assert_eq!(world.entity(id)?.get::<Lives>().unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_kill(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }

    /// Called when the entity is revived.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Revivals(u32);
    /// impl Behaviour for Revivals {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    ///     fn on_revive(&mut self, _ctx: &mut Context<'_>) {
    ///         self.0 += 1;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Revivals(0),))?;
    /// world.entity_mut(id)?.kill();
    /// world.entity_mut(id)?.revive();
    /// assert_eq!(world.entity(id)?.get::<Revivals>().unwrap().0, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        let _ = ctx;
    }
}

/// Implemented by the derive for a type marked `#[component(behaviour)]`:
/// only those are updated, so an `impl Behaviour` without the mark, which
/// would never run, does not compile.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` implements `Behaviour` but is not marked `#[component(behaviour)]`, so it would never be updated",
    label = "not marked `#[component(behaviour)]`",
    note = "add `#[component(behaviour)]` next to `#[derive(Component)]` on `{Self}` (or `#[component(behaviour(with = S))]` if it implements `UpdateWith<S>`), so the derive registers its update and hooks"
)]
pub trait DeclaresBehaviour {}

/// A behaviour that updates with one sibling component handed to it, so the
/// update loop can fetch the sibling in bulk instead of looking it up through
/// the entity: opt in with `#[component(behaviour(with = S))]`. An impl for
/// an `S` the mark does not name is a compile error (it would never be
/// called).
///
/// For every entity whose component is updated, the world calls
/// `update_with` with the entity's first component of exactly type `S`
/// (found once per table: an entity's components share its row), or plain
/// [`Behaviour::update`] when the entity has none.
/// Inside, `S`'s storage is lent out like the running component's: asking
/// `ctx` for an `S` is [`Error::InUse`](crate::Error::InUse).
///
/// ```
/// # use ecs_core::prelude::*;
/// use ecs_core::UpdateWith;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// #[derive(Component)]
/// #[component(behaviour(with = Position))]
/// struct Velocity(f32);
///
/// impl Behaviour for Velocity {
///     fn update(&mut self, _: &mut Context<'_>, _: f32) {} // entities without a Position
/// }
///
/// impl UpdateWith<Position> for Velocity {
///     fn update_with(&mut self, _: &mut Context<'_>, pos: &mut Position, dt: f32) {
///         pos.0 += self.0 * dt;
///     }
/// }
///
/// let mut world = World::new();
/// let id = world.spawn_with((Position(0.0), Velocity(2.0)))?;
/// world.update(0.5);
/// assert_eq!(world.entity(id)?.get::<Position>().unwrap().0, 1.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is marked `behaviour(with = {S})` but does not implement `UpdateWith<{S}>`",
    label = "`{Self}` needs `impl UpdateWith<{S}>`",
    note = "add `impl ecs_core::UpdateWith<{S}> for {Self} {{ fn update_with(&mut self, ctx: &mut ecs_core::Context<'_>, sibling: &mut {S}, dt: f32) {{ /* ... */ }} }}`, or write plain `behaviour`"
)]
pub trait UpdateWith<S: Component>: Behaviour + DeclaresUpdateWith<S> {
    /// Called instead of [`Behaviour::update`] when the entity has an `S`.
    fn update_with(&mut self, ctx: &mut Context<'_>, sibling: &mut S, dt: f32);
}

/// Implemented by the derive for a type marked `behaviour(with = S)`: only
/// that sibling is handed in, so an `impl UpdateWith<T>` for another `T`,
/// which would never be called, does not compile.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` implements `UpdateWith<{S}>` but is not marked `behaviour(with = {S})`, so `update_with` would never be called",
    label = "not marked `#[component(behaviour(with = {S}))]`",
    note = "write `#[component(behaviour(with = {S}))]` on `{Self}` in place of its `behaviour` mark; a behaviour is handed one sibling type, and reaches others through `ctx.get_mut::<T>()`"
)]
pub trait DeclaresUpdateWith<S> {}

/// Finds the entry points of behaviour types for the derive: each is a
/// constant, made once per type, that a type's table carries erased.
struct EntryPoints<T, S>(PhantomData<fn() -> (T, S)>);

impl<T: Behaviour> EntryPoints<T, ()> {
    const PLAIN: &'static BehaviourEntryPoints = &BehaviourEntryPoints {
        update: update_type::<T>,
        hook: run_hook::<T>,
    };
}

impl<T: UpdateWith<S>, S: Component> EntryPoints<T, S> {
    const WITH: &'static BehaviourEntryPoints = &BehaviourEntryPoints {
        update: update_with_type::<T, S>,
        hook: run_hook::<T>,
    };
}

/// Where the derive finds a behaviour type's entry points.
#[doc(hidden)]
pub struct BehaviourFns;

impl BehaviourFns {
    /// The entry points of `T`, for its table.
    pub const fn of<T: Behaviour>() -> Codec {
        EntryPoints::<T, ()>::PLAIN
    }

    /// The entry points of `T`, updated with its sibling `S`, for its table.
    pub const fn with<T: UpdateWith<S>, S: Component>() -> Codec {
        EntryPoints::<T, S>::WITH
    }
}

/// Runs `f` with every segment of type `ty` taken out of the world, so `f`
/// can hand the world to a [`Context`] while holding `&mut T`; puts them
/// back even when `f` panics.
pub(crate) fn with_column_out<R>(
    world: &mut World,
    ty: TypeIdx,
    f: impl FnOnce(&mut World, &mut LentColumn) -> R,
) -> Option<R> {
    let mut column = world.storage_mut().lend_column(ty)?;
    let result = catch_unwind(AssertUnwindSafe(|| f(world, &mut column)));
    world.storage_mut().return_column(column);
    match result {
        Ok(value) => Some(value),
        Err(panic) => resume_unwind(panic),
    }
}

/// [`with_column_out`] for the one segment holding `comp`: what a hook or a
/// message to one component needs. The type counts as lent out as a whole.
pub(crate) fn with_segment_out<R>(
    world: &mut World,
    comp: CompRef,
    f: impl FnOnce(&mut World, &mut Segment) -> R,
) -> Option<R> {
    let mut lent = world.storage_mut().lend_segment(comp.ty, comp.seg)?;
    let result = catch_unwind(AssertUnwindSafe(|| f(world, &mut lent.segment)));
    world.storage_mut().return_segment(lent);
    match result {
        Ok(value) => Some(value),
        Err(panic) => resume_unwind(panic),
    }
}

/// The update loop shared by plain and typed-sibling behaviours: every
/// enabled `T` of an active entity, in storage order, with `start` first
/// when due. With `siblings = Some((s, lent))`, `visit` also gets the
/// segment of `lent` (the segments of type `s`, taken out of the world by
/// the caller) holding the entity's first component of exactly type `s`:
/// found once per table, since every entity of a table holds its
/// components at the same row.
fn update_rows<T: Behaviour>(
    world: &mut World,
    column: &mut LentColumn,
    (ty, level): (TypeIdx, usize),
    mut siblings: Option<(TypeIdx, &mut LentColumn)>,
    mut visit: impl FnMut(&mut T, &mut Context<'_>, Option<&mut Segment>, RowId),
) -> usize {
    let mut updated = 0;
    let tag = world.tag();
    // Every row the loop hands out counts as changed (the behaviour's
    // `self`; the sibling is marked where it is handed out).
    let now = world.storage_mut().write_tick();
    let lent_type = siblings.as_ref().map(|(s, _)| *s);
    // No structural change can happen while the column is out (they are
    // deferred), so tables and rows stay where they are during the loop.
    for seg in column.segments_mut() {
        let table = seg.table();
        let mut sibling = siblings.as_mut().and_then(|(s, lent)| {
            let layout = world.storage().table(table).layout();
            let seg = layout.iter().find(|p| p.ty == *s)?.seg;
            let at = lent.position(seg)?;
            Some(&mut lent.segments_mut()[at])
        });
        // A type's own behaviour walks plain slices; an inherited one reads
        // the ancestor part of each value, a stride apart.
        let rows = if level == 0 {
            let (values, metas) = seg.values_meta_mut::<T>(now);
            Rows::Own(values.iter_mut().zip(metas.iter_mut()))
        } else {
            let Some((values, metas)) = seg.values_as_meta_mut::<T>(level, now) else {
                continue;
            };
            Rows::Inherited(values.zip(metas.iter_mut()))
        };
        for (row, (component, meta)) in rows.enumerate() {
            let owner = world.storage().table(table).owners()[row];
            let slot = &world.slot(owner);
            if !meta.is_enabled() || !slot.is_active() {
                continue;
            }
            let id = crate::EntityId {
                world: tag,
                index: owner,
                generation: slot.generation,
            };
            let mut ctx = Context::with_id(world, id, ty);
            if let Some(s) = lent_type {
                ctx = ctx.lending(s);
            }
            if !meta.is_started() {
                *meta = meta.started();
                component.start(&mut ctx);
            }
            visit(
                component,
                &mut ctx,
                sibling.as_deref_mut(),
                RowId::from_index(row),
            );
            updated += 1;
        }
    }
    updated
}

/// The rows of one segment as the update loop walks them: one loop body
/// for both kinds, so the body is compiled once.
enum Rows<'a, T> {
    Own(std::iter::Zip<std::slice::IterMut<'a, T>, std::slice::IterMut<'a, Meta>>),
    Inherited(
        std::iter::Zip<crate::storage::raw::StridedMut<'a, T>, std::slice::IterMut<'a, Meta>>,
    ),
}

impl<'a, T> Iterator for Rows<'a, T> {
    type Item = (&'a mut T, &'a mut Meta);
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Rows::Own(rows) => rows.next(),
            Rows::Inherited(rows) => rows.next(),
        }
    }
}

/// Updates every enabled component of type `ty` of every active entity, in
/// storage order, through the `T` it holds at chain level `level` (`T`
/// itself at level 0).
fn update_type<T: Behaviour>(world: &mut World, ty: TypeIdx, level: usize, dt: f32) -> usize {
    with_column_out(world, ty, |world, column| {
        update_rows(
            world,
            column,
            (ty, level),
            None,
            |component: &mut T, ctx, _, _| component.update(ctx, dt),
        )
    })
    .unwrap_or(0)
}

/// [`update_type`] for `behaviour(with = S)`: `S`'s segments are taken out
/// beside `T`'s, and each `T` gets its entity's first `S` as an argument.
fn update_with_type<T: UpdateWith<S>, S: Component>(
    world: &mut World,
    ty: TypeIdx,
    level: usize,
    dt: f32,
) -> usize {
    let related = T::is_derived_from(crate::ComponentKey::of::<S>())
        || S::is_derived_from(crate::ComponentKey::of::<T>());
    let s = match world.type_idx::<S>() {
        Some(s) if !related && s != ty && world.storage().try_column(s).is_some() => s,
        // No `S` anywhere (or `S` shares `T`'s storage): plain updates.
        _ => return update_type::<T>(world, ty, level, dt),
    };
    let now = world.storage_mut().write_tick();
    with_column_out(world, ty, |world, column| {
        with_column_out(world, s, |world, siblings| {
            update_rows(
                world,
                column,
                (ty, level),
                Some((s, siblings)),
                |component: &mut T, ctx, sibling, row| match sibling {
                    Some(segment) => component.update_with(ctx, segment.get_mut::<S>(row, now), dt),
                    None => component.update(ctx, dt),
                },
            )
        })
        .unwrap_or(0)
    })
    .unwrap_or(0)
}

fn run_hook<T: Behaviour>(world: &mut World, comp: CompRef, level: usize, hook: Hook) {
    with_segment_out(world, comp, |world, segment| {
        let owner = world.storage().table(segment.table()).owners()[comp.row.index()];
        let now = world.storage_mut().write_tick();
        let mut ctx = Context::new(world, owner, comp.ty);
        let Some(component) = segment.get_as_mut::<T>(comp.row, level, now) else {
            return;
        };
        match hook {
            Hook::Attach => component.on_attach(&mut ctx),
            Hook::Detach => component.on_detach(&mut ctx),
            Hook::Enable => component.on_enable(&mut ctx),
            Hook::Disable => component.on_disable(&mut ctx),
            Hook::Kill => component.on_kill(&mut ctx),
            Hook::Revive => component.on_revive(&mut ctx),
        }
    });
}

/// A tuple of behaviour types, for [`World::set_update_order`]; implemented
/// for tuples of up to 16 types.
///
/// ```
/// # use ecs_core::prelude::*;
/// # use std::sync::Mutex;
/// static LOG: Mutex<Vec<&str>> = Mutex::new(Vec::new());
/// #[derive(Component)]
/// #[component(behaviour)]
/// struct Physics;
/// impl Behaviour for Physics {
///     fn update(&mut self, _: &mut Context<'_>, _: f32) { LOG.lock().unwrap().push("physics") }
/// }
/// #[derive(Component)]
/// #[component(behaviour)]
/// struct Render;
/// impl Behaviour for Render {
///     fn update(&mut self, _: &mut Context<'_>, _: f32) { LOG.lock().unwrap().push("render") }
/// }
/// let mut world = World::new();
/// world.spawn_with((Render, Physics))?;
/// world.set_update_order::<(Physics, Render)>(); // any tuple of behaviours is an UpdateOrder
/// world.update(1.0);
/// assert_eq!(*LOG.lock().unwrap(), ["physics", "render"]);
/// # Ok::<(), ecs_core::Error>(())
/// ```
///
/// One type is a one-element tuple: `set_update_order::<(Physics,)>()`.
// Reached when no tuple impl applies, most often one type without the
// tuple; a tuple of a type that is not a behaviour fails on `Behaviour`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of behaviour types: `set_update_order` takes a tuple, even for one type",
    label = "write `({Self},)`: one type is a one-element tuple",
    note = "write `world.set_update_order::<({Self},)>()`, with the comma; for several types, `world.set_update_order::<(First, Second)>()`, at most 16"
)]
pub trait UpdateOrder {
    #[doc(hidden)]
    fn __register(world: &mut World, out: &mut Vec<TypeIdx>);
}

macro_rules! update_order {
    ($($name:ident / $unused:ident),+) => {
        impl<$($name: Behaviour),+> UpdateOrder for ($($name,)+) {
            fn __register(world: &mut World, out: &mut Vec<TypeIdx>) {
                $(out.push(world.register::<$name>());)+
            }
        }
    };
}

for_each_tuple!(update_order);

/// [`World::set_update_order`]: the types of `O`, each kept where it is
/// first named.
pub(crate) fn set_update_order<O: UpdateOrder>(world: &mut World) {
    let mut order = Vec::new();
    O::__register(world, &mut order);
    let mut seen = Vec::with_capacity(order.len());
    order.retain(|ty| {
        let first = !seen.contains(ty);
        seen.push(*ty);
        first
    });
    runtime_mut(world).update_order = order;
}

/// [`World::effective_update_order`]: the named types, then the others by
/// their first attach.
pub(crate) fn effective_update_order(world: &World) -> Vec<TypeIdx> {
    let mut order = runtime(world).map_or_else(Vec::new, |r| r.update_order.clone());
    for &ty in world.first_attached() {
        if !order.contains(&ty) {
            order.push(ty);
        }
    }
    order
}

/// [`World::update`]: every behaviour type's update, in the effective
/// order, then the changes they queued; on a panic, those changes go.
pub(crate) fn update(world: &mut World, dt: f32) -> usize {
    let order = effective_update_order(world);
    let queued = runtime_mut(world).commands.len();
    runtime_mut(world).in_update = true;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut updated = 0;
        for ty in order {
            if let Some((fns, level)) = world.behaviour_fns(ty) {
                let now = world.change_tick();
                runtime_mut(world).start_update(ty, now);
                updated += (fns.update)(world, ty, level, dt);
            }
        }
        updated
    }));
    runtime_mut(world).in_update = false;
    match result {
        Ok(updated) => {
            flush_commands(world);
            updated
        }
        Err(panic) => {
            runtime_mut(world).commands.truncate(queued);
            resume_unwind(panic)
        }
    }
}
