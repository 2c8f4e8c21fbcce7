//! Many segments borrowed at once, some mutably: what a loop joining
//! several component types needs. Each segment belongs to one table and one
//! type, so segments asked for distinct (table, type) places are disjoint.

use crate::entity::{SegId, TableId, TypeIdx};
use crate::storage::{Segment, Storage, Table};

/// How a loop uses one segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Shared,
    Mut,
}

/// One segment as picked by [`Storage::pick`].
pub(crate) enum Picked<'s> {
    Shared(&'s Segment),
    Mut(&'s mut Segment),
}

/// One step of a pair loop (see [`Storage::pair_plan`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairStep {
    pub table: TableId,
    /// A segment of exactly the first type.
    pub a: SegId,
    /// The same table's first segment whose type is-a the second type.
    pub b: SegId,
    /// The chain level at which `b`'s type holds the second type.
    pub level: usize,
}

impl Storage {
    /// The segments `wants` names, in its order, each borrowed as asked,
    /// with the tables beside them (for owners and layouts).
    ///
    /// # Panics
    /// When one segment is asked for mutably twice, or both mutably and
    /// shared: the callers' conflict checks rule that out.
    pub fn pick(&mut self, wants: &[(SegId, Access)]) -> (&[Table], Vec<Picked<'_>>) {
        let mut slots: Vec<Option<&mut Segment>> = self.segments.iter_mut().map(Some).collect();
        let mut shared: Vec<Option<&Segment>> = vec![None; slots.len()];
        let picked = wants
            .iter()
            .map(|&(seg, access)| {
                let slot = slots[seg.index()].take();
                match access {
                    Access::Mut => Picked::Mut(slot.expect("a segment is borrowed mutably once")),
                    Access::Shared => {
                        let segment = match slot {
                            Some(segment) => &*segment,
                            None => shared[seg.index()]
                                .expect("a segment borrowed mutably is not also shared"),
                        };
                        shared[seg.index()] = Some(segment);
                        Picked::Shared(segment)
                    }
                }
            })
            .collect();
        (&self.tables, picked)
    }

    /// For each segment of exactly type `a`, where its table keeps the first
    /// component that is-a `b`; tables with none are left out.
    pub fn pair_plan(&self, a: TypeIdx, b: TypeIdx) -> Vec<PairStep> {
        let Some(column) = self.try_column(a) else {
            return Vec::new();
        };
        column
            .segs
            .iter()
            .filter_map(|&a| {
                let table = self.segments[a.index()].table;
                let (place, level) = self.first_isa_level(table, b)?;
                Some(PairStep {
                    table,
                    a,
                    b: place.seg,
                    level,
                })
            })
            .collect()
    }
}
