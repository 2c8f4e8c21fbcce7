//! What changed since a reader last looked: the world's change clock.

use crate::table::Tick;
use crate::world::World;

impl World {
    /// The tick a reader keeps to ask later what changed: components
    /// attached, replaced or handed out mutably after this call are
    /// reported for it (by the [`changed_since`](crate::Query::changed_since)
    /// and [`added_since`](crate::Query::added_since) query filters and by
    /// [`EntityRef::changed_since`](crate::EntityRef::changed_since)), and
    /// those before it are not. Any number of readers each keep their own
    /// tick; looking does not disturb another reader.
    ///
    /// What counts as changed is a component handed out mutably, whether
    /// or not it was written: a `&mut T` or `Option<&mut T>` or
    /// `All<&mut T>` query term (every row of each table the walk opens,
    /// or, with change filters, each row that passes them; one row for
    /// `query_one_mut`), [`EntityMut::get_mut`](crate::EntityMut::get_mut)
    /// and `get_all_mut`, a behaviour's `self` and its `with` sibling each
    /// update, the component a hook or receiver runs on, and
    /// `Context::get_mut`. A component moved to another table (because
    /// another was added or removed) keeps its ticks.
    ///
    /// A world loaded from a save, a blueprint spawn and a cloned entity
    /// hold components added when they were made: a reader's tick from
    /// before reports them all as added, one taken afterwards none. A new
    /// world's readers start at [`Tick::default`], before everything.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// world.spawn_with((Position(0.0),))?;
    /// let seen = world.change_tick();
    /// for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
    ///     p.0 += v.0;
    /// }
    /// let moved = world.query::<(&Position,)>().changed_since::<Position>(seen).count();
    /// assert_eq!(moved, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn change_tick(&self) -> Tick {
        self.storage.look()
    }

    /// Moves the change clock `ticks` on, as that many looks each followed
    /// by a write would: for tests of the clock's wrap.
    #[doc(hidden)]
    pub fn skip_change_ticks(&mut self, ticks: u64) {
        self.storage.skip_ticks(ticks);
    }
}
