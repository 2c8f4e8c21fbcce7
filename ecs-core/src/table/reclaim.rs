//! Giving back tables no entity uses any more. A table is made for every
//! sequence of component types an entity passes through, so an entity that
//! gathers `multiple` components one `add` at a time leaves a trail of
//! tables behind it, each as long as the entity was then. Reclaiming the
//! empty ones once they weigh more than the tables in use keeps the
//! storage proportional to what the world holds now, not to everything it
//! ever held.

use crate::entity::{SegId, TableId, TypeIdx};
use crate::table::tables::{FirstIsa, Table, EMPTY_TABLE};
use crate::table::Storage;

/// Empty tables are reclaimed once they weigh (one per table, one per
/// segment) more than this plus the tables in use. The scan a reclaim
/// takes is proportional to the tables and segments there are, so it is
/// paid for by the moves that emptied that weight (a move of an entity
/// costs its component count); the slack keeps a loop that adds and
/// removes a component from making and reclaiming a table each time; and
/// the memory empty tables hold stays within a constant of what the world
/// uses, so a world that empties gives back what it held at once.
const RECLAIM_AFTER: usize = 128;

impl Storage {
    /// Whether the empty tables weigh enough to reclaim them: one
    /// comparison, checked wherever a table may have emptied.
    #[inline]
    fn worth_reclaiming(&self) -> bool {
        let in_use = self.tables.weight - self.tables.empty_weight;
        self.tables.empty_weight > RECLAIM_AFTER + in_use
    }

    /// Reclaims every empty table (the empty layout's aside) once enough
    /// have piled up, with their segments; `true` when some were, which
    /// invalidates every table and segment id held outside the storage but
    /// those in entity slots (a reclaimed table has no entity).
    ///
    /// The caller holds no other table or segment id, and no segment is
    /// lent out (checked: nothing is reclaimed then).
    #[inline]
    pub fn reclaim_empty_tables(&mut self) -> bool {
        self.worth_reclaiming() && self.reclaim_now()
    }

    /// [`Storage::reclaim_empty_tables`] past its threshold.
    #[cold]
    fn reclaim_now(&mut self) -> bool {
        if self.columns.iter().flatten().any(|c| c.lent) {
            return false;
        }
        let mut reclaimed = vec![false; self.tables.len()];
        let mut freed_segments = vec![false; self.segments.len()];
        for (i, table) in self.tables.list.iter_mut().enumerate() {
            let id = TableId::from_index(i);
            if id == EMPTY_TABLE || !table.owners.is_empty() || table.layout.is_empty() {
                continue;
            }
            reclaimed[i] = true;
            let gone = std::mem::replace(table, Table::vacant());
            self.tables.weight -= gone.weight();
            for place in gone.layout.iter() {
                freed_segments[place.seg.index()] = true;
            }
            let types: Vec<TypeIdx> = gone.layout.iter().map(|p| p.ty).collect();
            self.tables.by_layout.remove(types.as_slice());
            forget_in_isa_index(&mut self.first, &self.types, &types, id);
            self.tables.vacant.push(id);
        }
        self.tables.empty_weight = 0;
        self.tables.epoch += 1;
        // Moves cached towards a reclaimed table would land in a vacant slot.
        for table in self.tables.list.iter_mut() {
            table.adding.retain(|&(_, to)| !reclaimed[to.index()]);
            table.removing.retain(|&(_, to)| !reclaimed[to.index()]);
        }
        for column in self.columns.iter_mut().flatten() {
            column.segs.retain(|s| !freed_segments[s.index()]);
        }
        for (i, segment) in self.segments.iter_mut().enumerate() {
            if freed_segments[i] {
                // Empty (its table had no entity), so no value is dropped:
                // only the buffers go.
                debug_assert_eq!(segment.len(), 0);
                drop(segment.take());
                self.vacant_segments.push(SegId::from_index(i));
            }
        }
        true
    }
}

/// Clears `table`'s entries in the is-a index for each of `types` and the
/// types they are-a.
fn forget_in_isa_index(
    first: &mut [Vec<FirstIsa>],
    types: &crate::table::Types,
    layout: &[TypeIdx],
    table: TableId,
) {
    for &ty in layout {
        let chain = std::iter::once(&ty).chain(types.info(ty).ancestors().iter());
        for t in chain {
            if let Some(entry) = first
                .get_mut(t.index())
                .and_then(|by_table| by_table.get_mut(table.index()))
            {
                *entry = FirstIsa::default();
            }
        }
    }
}
