//! Spawning an entity with several components at once.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use crate::entity::{EntityIndex, TableId, TypeIdx};
use crate::{Component, EntityId, Error, World};

/// A tuple of components spawned together by [`World::spawn_with`] and
/// [`World::spawn_batch`]; implemented for tuples of up to 16 components.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Velocity(f32);
/// fn spawn_moving<B: Bundle>(world: &mut World, extra: B) -> Result<EntityId, Error> {
///     let id = world.spawn_with(extra)?;
///     world.entity_mut(id)?.add(Velocity(1.0))?;
///     Ok(id)
/// }
/// let mut world = World::new();
/// let id = spawn_moving(&mut world, (Position(0.0),))?;
/// assert_eq!(world.entity(id)?.len(), 2);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a bundle of components",
    label = "expected a tuple of components",
    note = "pass a tuple such as `(Position(0.0), Velocity(1.0))`; every element must `#[derive(Component)]`; a single component is written `(Health(3),)`"
)]
pub trait Bundle: Send + Sync + 'static {
    /// Adds every component to the entity in slot `index`, in tuple order,
    /// as one operation (see [`World::finish_insert`]).
    #[doc(hidden)]
    fn __insert(self, world: &mut World, index: EntityIndex) -> Result<(), Error>;

    /// Registers the types, in tuple order; `false` when one of them has
    /// requirements or hooks (then only [`Bundle::__insert`] is right).
    #[doc(hidden)]
    fn __plan(world: &mut World, types: &mut Vec<TypeIdx>) -> bool;

    /// Pushes every component, in order, onto the segments of `table` (whose
    /// layout is the bundle's), for an entity that has just entered it; the
    /// bundle was found conflict-free by [`Bundle::__plan`].
    #[doc(hidden)]
    fn __push(self, world: &mut World, table: TableId);

    /// Spawns one entity per bundle into `table` (the bundle's layout), with
    /// the segments looked up once for the whole batch.
    #[doc(hidden)]
    fn __spawn_all<I: Iterator<Item = Self>>(
        world: &mut World,
        table: TableId,
        bundles: I,
        ids: &mut Vec<EntityId>,
    ) where
        Self: Sized;
}

macro_rules! tuple_bundle {
    ($($name:ident / $col:ident),+) => {
        impl<$($name: Component),+> Bundle for ($($name,)+) {
            #[allow(non_snake_case)]
            fn __insert(self, world: &mut World, index: EntityIndex) -> Result<(), Error> {
                let ($($name,)+) = self;
                let before = world.comp_count(index);
                let appended = (|| {
                    $(world.append_checked(index, $name)?;)+
                    Ok(())
                })();
                let mut requirements = crate::component::require::Requirements::default();
                $(<$name as Component>::__VTABLE.add_requirements(&mut requirements);)+
                world.finish_insert(index, before, appended, &requirements)
            }

            fn __plan(world: &mut World, types: &mut Vec<TypeIdx>) -> bool {
                let mut plain = true;
                $(
                    types.push(world.register::<$name>());
                    plain &= world.is_plain::<$name>();
                )+
                plain
            }

            #[allow(non_snake_case)]
            fn __push(self, world: &mut World, table: TableId) {
                let ($($name,)+) = self;
                let mut positions = 0..;
                $(
                    let pos = positions.next().expect("an endless range");
                    let place = world.storage.table(table).layout()[pos];
                    world.push_value(place, $name);
                )+
            }

            #[allow(non_snake_case)]
            fn __spawn_all<It: Iterator<Item = Self>>(
                world: &mut World,
                table: TableId,
                bundles: It,
                ids: &mut Vec<EntityId>,
            ) {
                let places = world.storage.table(table).layout().to_vec();
                let mut places = places.into_iter();
                $(let $col = places.next().expect("one place per element");)+
                for bundle in bundles {
                    let ($($name,)+) = bundle;
                    let id = world.spawn_in(table);
                    $(world.storage.push_value($col, $name);)+
                    ids.push(id);
                }
            }
        }
    };
}

for_each_tuple!(tuple_bundle);

impl World {
    /// Spawns an entity holding every component of `bundle`, added in tuple
    /// order.
    ///
    /// # Errors
    /// [`Error::Duplicate`] when the bundle holds two components that are-a
    /// the same single type; then no entity is created.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// assert!(world.entity(id)?.has::<Velocity>());
    /// assert!(world.spawn_with((Position(0.0), Position(1.0))).is_err());
    /// assert_eq!(world.len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_with<B: Bundle>(&mut self, bundle: B) -> Result<EntityId, Error> {
        self.reclaim_tables();
        if let Some(table) = self.bundle_table::<B>() {
            let id = self.spawn_in(table);
            bundle.__push(self, table);
            return Ok(id);
        }
        self.spawn_checked(bundle)
    }

    /// Component by component, with every check, hook and requirement.
    fn spawn_checked<B: Bundle>(&mut self, bundle: B) -> Result<EntityId, Error> {
        let id = self.spawn();
        let inserted = catch_unwind(AssertUnwindSafe(|| bundle.__insert(self, id.index)));
        match inserted {
            Ok(Ok(())) => Ok(id),
            Ok(Err(error)) => {
                self.despawn_one(id.index, true);
                self.reclaim_tables();
                Err(error)
            }
            // A panic that took the components back (a requirement's
            // `Default`) leaves the entity empty: the spawn did not happen.
            // One from a hook leaves them attached: it did.
            Err(panic) => {
                if self.comp_count(id.index) == 0 {
                    self.despawn_one(id.index, true);
                    self.reclaim_tables();
                }
                resume_unwind(panic)
            }
        }
    }

    /// Spawns one entity per bundle, reserving storage up front from the
    /// iterator's size hint so columns are not over-allocated.
    ///
    /// # Errors
    /// As [`World::spawn_with`]; on error, every entity this call spawned is
    /// despawned again.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let ids = world.spawn_batch((0..3).map(|i| (Position(i as f32), Velocity(1.0))))?;
    /// assert_eq!(ids.len(), 3);
    /// assert_eq!(world.entity(ids[2])?.get::<Position>().unwrap().0, 2.0);
    /// let bad = world.spawn_batch([(Position(0.0), Position(1.0))]);
    /// assert!(bad.is_err());
    /// assert_eq!(world.len(), 3); // nothing from the failed batch remains
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_batch<B, I>(&mut self, bundles: I) -> Result<Vec<EntityId>, Error>
    where
        B: Bundle,
        I: IntoIterator<Item = B>,
    {
        self.reclaim_tables();
        let bundles = bundles.into_iter();
        let additional = bundles.size_hint().0;
        self.reserve_entities(additional);
        let mut ids = Vec::with_capacity(additional);
        // Work the hooks of a batch taken back queued goes with it.
        let queued = self.extensions.checkpoint();
        let spawned = catch_unwind(AssertUnwindSafe(|| {
            if let Some(table) = self.bundle_table::<B>() {
                self.reserve_table(table, additional);
                B::__spawn_all(self, table, bundles, &mut ids);
                return Ok(());
            }
            for bundle in bundles {
                ids.push(self.spawn_checked(bundle)?);
            }
            Ok(())
        }));
        match spawned {
            Ok(Ok(())) => Ok(ids),
            Ok(Err(error)) => {
                for id in ids {
                    self.take_out_one(id.index, true);
                }
                self.empty_trash();
                self.reclaim_tables();
                self.extensions.roll_back(&queued);
                Err(error)
            }
            // A panic in user code (the iterator, a `Default`, a hook)
            // takes the whole batch back, as an error does, but without
            // running more user code while the panic is on its way.
            Err(panic) => {
                for id in ids {
                    if self.contains(id) {
                        self.take_out_one(id.index, false);
                    }
                }
                self.extensions.roll_back(&queued);
                // A `Drop` panicking now gives way to the panic on its way.
                let _ = catch_unwind(AssertUnwindSafe(|| self.empty_trash()));
                resume_unwind(panic)
            }
        }
    }
}

impl World {
    /// The table every entity spawned with bundle `B` goes to, when the
    /// bundle can be pushed without checks (see [`World::plan`]); worked
    /// out once per bundle type and world.
    #[inline]
    fn bundle_table<B: Bundle>(&mut self) -> Option<TableId> {
        let key = std::any::TypeId::of::<B>();
        if let Some(&table) = self.bundle_tables.get(&key) {
            return table;
        }
        let table = self.plan::<B>().map(|types| self.table_for(&types));
        self.bundle_tables.insert(key, table);
        table
    }

    /// The bundle's column indices when it can be pushed without checks:
    /// no requirements or hooks, and no two elements that are-a the same
    /// single type. `None` sends the caller down the checked path, which
    /// reports the precise error.
    fn plan<B: Bundle>(&mut self) -> Option<Vec<TypeIdx>> {
        let mut types = Vec::new();
        if !B::__plan(self, &mut types) {
            return None;
        }
        self.single_rule_clash(&types).is_none().then_some(types)
    }
}

impl World {
    /// Makes room for `additional` more entities spawned with bundle `B`
    /// (their table and each of its segments grow once).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// let mut world = World::new();
    /// world.reserve::<(Position,)>(100);
    /// assert!(world.is_empty()); // room is made, nothing is spawned
    /// let ids = world.spawn_batch((0..100).map(|i| (Position(i as f32),)))?;
    /// assert_eq!(world.entity(ids[99])?.get::<Position>().unwrap().0, 99.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn reserve<B: Bundle>(&mut self, additional: usize) {
        let mut types = Vec::new();
        B::__plan(self, &mut types);
        let table = self.table_for(&types);
        self.reserve_table(table, additional);
    }
}
