//! Queries spread over rayon's thread pool.

use rayon::prelude::*;

use crate::query::data::QueryData;
use crate::query::rows::TableRows;
use crate::query::QueryMut;

/// Rows visited on the calling thread first, at most, to measure what one
/// costs; the clock is read after 8 and 64 rows (few reads: each costs
/// more than a light row), and the probe stops once it has run
/// [`PROBE_NS`], so a heavy loop keeps the other threads waiting for a few
/// rows only.
const PROBE_ROWS: usize = 64;
const PROBE_NS: u128 = 2_000;
/// Below this estimated time (in nanoseconds) for the rest, splitting the
/// work would cost more than it saves: the rest runs on the calling thread.
const PARALLEL_ABOVE_NS: u128 = 200_000;

impl<'w, Q: QueryData> QueryMut<'w, Q> {
    /// Calls `f` with every matching entity's items, spread over rayon's
    /// global thread pool, in no particular order.
    ///
    /// The first rows (up to 64, or 2 µs of work) run on the calling thread
    /// and are timed: a light loop (the rest estimated under 200 µs)
    /// finishes there, so it never pays
    /// for waking threads; a heavier one is cut into chunks, about four per
    /// thread, which the pool balances.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// world.spawn_batch((0..1000).map(|i| (Position(0.0), Velocity(i as f32))))?;
    /// world.query_mut::<(&mut Position, &Velocity)>().par_for_each(|(p, v)| p.0 += v.0);
    /// let sum: f32 = world.query::<(&Position,)>().into_iter().map(|(p,)| p.0).sum();
    /// assert_eq!(sum, 499_500.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn par_for_each<F>(self, f: F)
    where
        F: Fn(Q::Item<'_>) + Sync + Send,
    {
        let (mut tables, ups) = self.into_iter().into_tables();
        // The probe: the first rows, on this thread.
        let start = std::time::Instant::now();
        let mut probed = 0;
        let mut next_look = 8;
        while probed < PROBE_ROWS {
            let Some(rows) = tables.last_mut() else { break };
            match rows.next(&ups) {
                Some(item) => {
                    probed += 1;
                    f(item);
                }
                None => {
                    tables.pop();
                    continue;
                }
            }
            if probed == next_look {
                if start.elapsed().as_nanos() >= PROBE_NS {
                    break;
                }
                next_look *= 8;
            }
        }
        // An estimate: skipped rows are not counted, and the probed table's
        // own count is from before the probe.
        let total = tables.iter().map(TableRows::len).sum::<usize>() + probed;
        let rest = total - probed;
        let per_row = start.elapsed().as_nanos() / probed.max(1) as u128;
        let threads = rayon::current_num_threads();
        if threads < 2 || per_row * (rest as u128) < PARALLEL_ABOVE_NS {
            for rows in tables {
                rows.fold((), &mut |(), item| f(item), &ups);
            }
            return;
        }
        let chunk = rest.div_ceil(threads * 4).max(1);
        let mut chunks = Vec::new();
        for mut rows in tables {
            while rows.len() > chunk {
                let (head, tail) = rows.split(chunk);
                chunks.push(head);
                rows = tail;
            }
            chunks.push(rows);
        }
        chunks
            .into_par_iter()
            .for_each(|rows| rows.fold((), &mut |(), item| f(item), &ups));
    }
}
