//! What a diff reads of a storage and of a copy of it: the tick the copy
//! was taken at, the segments some row of which changed since, and the
//! types some component of which was enabled or disabled since. Each
//! question is answered per segment or per type first, so what did not
//! change costs one comparison, not a walk of its rows.

use crate::entity::{RowId, SegId, TypeIdx};
use crate::table::{is_after, ChangeKind, Segment, Storage, Tick};

/// Rows whose ticks are tested together, with no branch.
const RUN: usize = 64;

impl Storage {
    /// The tick of this storage's state: every change made to it later
    /// is reported for this tick (see `Clock::settled`).
    pub fn settled(&self) -> Tick {
        self.clock.settled()
    }

    /// Every segment holding a row added (or, by `kind`, handed out
    /// mutably or added) after `since`, with its id, in segment order.
    /// Segments of types lent out (none between operations) are left out.
    pub fn segments_after(
        &self,
        kind: ChangeKind,
        since: Tick,
    ) -> impl Iterator<Item = (SegId, &Segment)> + '_ {
        self.segments
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.len() != 0 && s.maybe_after(kind, since))
            .map(|(i, s)| (SegId::from_index(i), s))
    }

    /// Whether some component of type `ty` may have been enabled or
    /// disabled after `since`.
    pub fn toggled_after(&self, ty: TypeIdx, since: Tick) -> bool {
        self.columns
            .get(ty.index())
            .and_then(Option::as_ref)
            .is_some_and(|c| c.toggled > since.0)
    }

    /// The segments of type `ty`, in the order their tables were made.
    pub fn segments_of(&self, ty: TypeIdx) -> &[SegId] {
        self.columns
            .get(ty.index())
            .and_then(Option::as_ref)
            .map_or(&[], |c| &c.segs)
    }
}

impl Segment {
    /// The concrete type of its values.
    #[inline]
    pub fn ty(&self) -> TypeIdx {
        self.ty
    }

    /// The rows added (or, by `kind`, handed out mutably or added) after
    /// `since`, the clock being at `now`. Ticks are tested 64 at a time
    /// with no branch, so a segment with few such rows costs about one
    /// pass over its ticks; a segment handed out whole since has every row.
    pub fn rows_after(
        &self,
        kind: ChangeKind,
        since: Tick,
        now: u64,
    ) -> impl Iterator<Item = RowId> + '_ {
        let ticks = self.ticks(kind);
        let all = ticks.all_after(since);
        let fresh = move |tick: u32| all || is_after(tick, since, now);
        // Rows sharing one tick are all fresh or none is; rows with their
        // own ticks are read below.
        let shared = if ticks.rows.is_empty() && ticks.every_row_after(since, now) {
            0..ticks.len
        } else {
            0..0
        };
        shared.map(RowId::from_index).chain(
            ticks
                .rows
                .chunks(RUN)
                .enumerate()
                .filter(move |(_, run)| run.iter().fold(false, |any, &t| any | fresh(t)))
                .flat_map(move |(k, run)| {
                    run.iter()
                        .enumerate()
                        .filter(move |&(_, &t)| fresh(t))
                        .map(move |(i, _)| RowId::from_index(k * RUN + i))
                }),
        )
    }
}
