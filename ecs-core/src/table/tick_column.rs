//! One kind of change tick (added or changed) of a segment's rows, stored
//! once while every row has the same one.
//!
//! Rows spawned together, or loaded from one save, all carry the tick they
//! arrived at, and most of a game's entities (its scenery) are never
//! handed out one by one after that. Kept as one value, their ticks cost
//! nothing per row: 8 bytes less per component, and a row moving between
//! tables with the ticks the rows there already have writes no tick. The
//! column spreads into one tick per row the first time a row differs.

use std::ops::Range;

use super::ticks::Ticks;

/// Each row's tick of one kind. Invariant: `rows` is empty (every one of
/// the segment's rows has `shared`) or holds one tick per row.
#[derive(Debug, Default)]
pub(crate) struct TickColumn {
    rows: Vec<u32>,
    shared: u32,
}

impl TickColumn {
    /// Whether every row has one tick (kept once).
    #[inline]
    fn is_shared(&self) -> bool {
        self.rows.is_empty()
    }

    /// One tick per row from now on, for a segment of `len` rows.
    #[cold]
    fn spread(&mut self, len: usize) {
        self.rows.reserve(len + 1);
        self.rows.resize(len, self.shared);
    }

    /// Row `row`'s tick; `row` is below the segment's rows.
    #[inline(always)]
    pub fn get(&self, row: usize) -> u32 {
        if self.is_shared() {
            self.shared
        } else {
            self.rows[row]
        }
    }

    /// Appends a row's tick to a segment of `len` rows.
    #[inline(always)]
    pub fn push(&mut self, len: usize, tick: u32) {
        if self.is_shared() {
            if tick == self.shared {
                return;
            }
            if len == 0 {
                self.shared = tick;
                return;
            }
            self.spread(len);
        }
        self.rows.push(tick);
    }

    /// Removes row `row`'s tick (the last takes its place) and returns it.
    #[inline(always)]
    pub fn swap_remove(&mut self, row: usize) -> u32 {
        if self.is_shared() {
            self.shared
        } else {
            self.rows.swap_remove(row)
        }
    }

    /// Sets row `row`'s tick (`row` below `len`, the segment's rows).
    #[inline(always)]
    pub fn set(&mut self, len: usize, row: usize, tick: u32) {
        if !self.is_shared() {
            self.rows[row] = tick;
        } else if tick != self.shared {
            self.set_spread(len, row, tick);
        }
    }

    /// [`TickColumn::set`] of a shared column, which the row's new tick
    /// spreads: out of line, so that marking a row stays small.
    #[cold]
    #[inline(never)]
    fn set_spread(&mut self, len: usize, row: usize, tick: u32) {
        if len == 1 {
            self.shared = tick;
            return;
        }
        self.spread(len);
        self.rows[row] = tick;
    }

    /// Sets the ticks of the rows in `range` (below `len`, the segment's
    /// rows) to `tick`.
    #[inline]
    pub fn fill(&mut self, len: usize, range: Range<usize>, tick: u32) {
        let range = range.start.min(len)..range.end.min(len);
        if range.is_empty() {
            return;
        }
        if self.is_shared() {
            if tick == self.shared {
                return;
            }
            if range == (0..len) {
                self.shared = tick;
                return;
            }
            self.spread(len);
        }
        self.rows[range].fill(tick);
    }

    /// Keeps the first `len` rows' ticks.
    pub fn truncate(&mut self, len: usize) {
        self.rows.truncate(len);
    }

    /// Room for `additional` more rows, when ticks are kept per row.
    pub fn reserve(&mut self, additional: usize) {
        if !self.is_shared() {
            self.rows.reserve(additional);
        }
    }

    /// Rewrites every row's tick with `f`, which maps equal ticks to equal
    /// ticks (a shared tick stays shared).
    pub fn rewrite(&mut self, mut f: impl FnMut(u32) -> u32) {
        if self.is_shared() {
            self.shared = f(self.shared);
        }
        for tick in &mut self.rows {
            *tick = f(*tick);
        }
    }

    /// This column as `len` rows' ticks, with `all` the tick at which every
    /// row was handed out at once.
    #[inline]
    pub fn view(&self, len: usize, all: u64) -> Ticks<'_> {
        Ticks {
            rows: &self.rows,
            shared: self.shared,
            len,
            all,
        }
    }
}

impl Clone for TickColumn {
    fn clone(&self) -> Self {
        TickColumn {
            rows: self.rows.clone(),
            shared: self.shared,
        }
    }

    /// Reuses this column's buffer (a restore into the same world).
    fn clone_from(&mut self, other: &Self) {
        self.rows.clone_from(&other.rows);
        self.shared = other.shared;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_tick_is_kept_once_until_a_row_differs() {
        let mut column = TickColumn::default();
        for len in 0..4 {
            column.push(len, 7);
        }
        assert!(column.is_shared());
        assert_eq!(column.swap_remove(1), 7);
        column.push(3, 9);
        assert!(!column.is_shared());
        assert_eq!(
            (0..4).map(|r| column.get(r)).collect::<Vec<_>>(),
            [7, 7, 7, 9]
        );
        assert_eq!(column.swap_remove(0), 7);
        assert_eq!((0..3).map(|r| column.get(r)).collect::<Vec<_>>(), [9, 7, 7]);
    }

    #[test]
    fn filling_every_row_keeps_one_tick_and_part_spreads() {
        let mut column = TickColumn::default();
        (0..5).for_each(|len| column.push(len, 1));
        column.fill(5, 0..5, 4);
        assert!(column.is_shared());
        assert_eq!(column.get(3), 4);
        column.fill(5, 1..3, 6);
        assert_eq!(
            (0..5).map(|r| column.get(r)).collect::<Vec<_>>(),
            [4, 6, 6, 4, 4]
        );
        column.rewrite(|t| t + 1);
        assert_eq!(
            (0..5).map(|r| column.get(r)).collect::<Vec<_>>(),
            [5, 7, 7, 5, 5]
        );
    }
}
