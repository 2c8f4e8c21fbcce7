//! The rows of one table that pass a query's per-row filters (change
//! filters, `child_of`), kept as runs of consecutive rows. Inside a run the
//! walk is the same unchecked loop as an unfiltered table's; only moving
//! from one run to the next is out of line. A table where one row in a
//! thousand changed thus costs one run, not a thousand checked rows.

use std::ops::Range;

use crate::table::Ticks;

/// Runs of rows of one table, walked in order.
pub(crate) struct Runs {
    /// The runs, in row order, none empty.
    ranges: Vec<Range<usize>>,
    /// The index in `ranges` of the run to walk next.
    next: usize,
    /// The row the table's lanes stand at once the current run is walked.
    end: usize,
    /// Whether rows of the table are also checked one by one (disabled
    /// components, inactive entities).
    guarded: bool,
}

/// Where the next run starts, as a jump from where the lanes stand.
pub(crate) struct Jump {
    /// Rows to pass over.
    pub skip: usize,
    /// Rows to walk after them.
    pub take: usize,
    /// Whether they are checked one by one.
    pub guarded: bool,
}

impl Runs {
    /// `ranges` (sorted, disjoint, none empty) cut to the first `rows`
    /// rows; `None` when no row is left.
    pub fn new(mut ranges: Vec<Range<usize>>, rows: usize, guarded: bool) -> Option<Runs> {
        ranges.retain_mut(|run| {
            run.end = run.end.min(rows);
            run.start < run.end
        });
        (!ranges.is_empty()).then_some(Runs {
            ranges,
            next: 0,
            end: 0,
            guarded,
        })
    }

    /// The jump to the next run, once the current one is walked; `None`
    /// when it was the last.
    #[inline]
    pub fn next_jump(&mut self) -> Option<Jump> {
        let run = self.ranges.get(self.next)?.clone();
        self.next += 1;
        let skip = run.start - self.end;
        self.end = run.end;
        Some(Jump {
            skip,
            take: run.len(),
            guarded: self.guarded,
        })
    }

    /// The rows of the runs not yet started.
    pub fn rows_left(&self) -> usize {
        self.ranges[self.next..].iter().map(Range::len).sum()
    }
}

/// Appends to `out` the runs of rows in `within` for which `pass` holds.
pub(crate) fn runs_where(
    within: Range<usize>,
    out: &mut Vec<Range<usize>>,
    mut pass: impl FnMut(usize) -> bool,
) {
    let mut row = within.start;
    while row < within.end {
        if !pass(row) {
            row += 1;
            continue;
        }
        let start = row;
        row += 1;
        while row < within.end && pass(row) {
            row += 1;
        }
        out.push(start..row);
    }
}

/// The rows of `ranges` (every row of a table of `rows` rows when `None`:
/// a walk with no runs yet) for which `pass` holds, as runs.
pub(crate) fn refine(
    ranges: Option<&[Range<usize>]>,
    rows: usize,
    mut pass: impl FnMut(usize) -> bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    match ranges {
        Some(ranges) => {
            for run in ranges {
                runs_where(run.clone(), &mut out, &mut pass);
            }
        }
        None => runs_where(0..rows, &mut out, pass),
    }
    out
}

/// One change filter's reading of one segment: its row ticks and the
/// reader's tick.
pub(crate) struct TickLane<'a> {
    /// Which of the query's filters it serves.
    pub filter: usize,
    pub ticks: Ticks<'a>,
    pub since: crate::table::Tick,
}

/// The runs of the first `rows` rows that pass every filter (`filters` of
/// them), a row passing a filter when one of that filter's lanes says it
/// changed after the reader's tick. `now` is the clock's tick.
pub(crate) fn changed_runs(
    rows: usize,
    lanes: &[TickLane<'_>],
    filters: usize,
    now: u64,
) -> Vec<Range<usize>> {
    let after = |lane: &TickLane<'_>, row: usize| lane.ticks.after(row, lane.since, now);
    let mut out = Vec::new();
    // Every filter passed by a segment whose rows were all handed out
    // since, or share one tick that is later: the whole table, without
    // reading a row.
    if (0..filters).all(|f| {
        lanes
            .iter()
            .any(|l| l.filter == f && l.ticks.every_row_after(l.since, now))
    }) {
        out.push(0..rows);
        return out;
    }
    match lanes {
        // The common case, a filter on a type one segment holds: one
        // comparison a row.
        [lane] if filters == 1 => runs_where(0..rows, &mut out, |row| after(lane, row)),
        _ => runs_where(0..rows, &mut out, |row| {
            (0..filters).all(|f| lanes.iter().any(|l| l.filter == f && after(l, row)))
        }),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_gather_consecutive_passing_rows() {
        let pass = [true, true, false, true, false, false, true];
        let mut out = Vec::new();
        runs_where(0..pass.len(), &mut out, |row| pass[row]);
        assert_eq!(out, [0..2, 3..4, 6..7]);
        assert_eq!(refine(Some(&out), 0, |row| row != 1), [0..1, 3..4, 6..7]);
    }

    #[test]
    fn jumps_pass_over_the_rows_between_runs() {
        let mut runs = Runs::new(vec![2..4, 7..9, 12..20], 13, false).unwrap();
        assert_eq!(runs.rows_left(), 5);
        let jumps: Vec<(usize, usize)> = std::iter::from_fn(|| runs.next_jump())
            .map(|j| (j.skip, j.take))
            .collect();
        // The last run is cut to the 13 rows the lanes hold.
        assert_eq!(jumps, [(2, 2), (3, 2), (3, 1)]);
        assert!(Runs::new(vec![3..4, 5..6], 4, false).is_some_and(|r| r.rows_left() == 1));
        assert!(Runs::new(vec![5..6, 7..9], 5, false).is_none());
    }
}
