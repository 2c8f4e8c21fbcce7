//! Change ticks: the world's clock, and the two ticks every stored
//! component carries (when it was added, when it was last handed out
//! mutably).
//!
//! The clock is a `u64` that moves only when a reader has looked at it
//! ([`Clock::look`]) and something is then written: writes between two
//! looks share one tick, so a reader's answer is exact and the counter
//! grows with the number of looks, not of writes. A row keeps the low 32
//! bits of its ticks (8 bytes per component, as bevy_ecs keeps, while a
//! segment's rows' ticks differ; one value per segment while they are
//! all the same, see `tick_column`); a tick is read as an age below the
//! clock. Ages are capped at [`MAX_AGE`] every
//! [`CLAMP_EVERY`] ticks, so a 32-bit row tick never aliases one of
//! another wrap of the counter: a reader whose tick is younger than
//! `MAX_AGE` gets exact answers across any number of wraps, and an older
//! one is told that everything older than `MAX_AGE` changed.

use std::sync::atomic::{AtomicBool, Ordering};

/// A point in a world's history of changes: what
/// [`World::change_tick`](crate::World::change_tick) hands a reader, to
/// ask later what was added or changed since.
///
/// Ticks of one world are ordered: a later look has a greater or equal
/// tick. [`Tick::default`] is before anything a world ever held, so a
/// reader starting from it is told that everything was added.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Tick(pub(crate) u64);

impl Tick {
    /// The tick as a number (the count of looks followed by a write, for
    /// logs and tests).
    pub fn get(self) -> u64 {
        self.0
    }
}

/// The largest age a row tick keeps: older ticks are raised to it.
pub(crate) const MAX_AGE: u32 = 1 << 31;
/// How often (in ticks) row ticks are capped: well below `2^32 - MAX_AGE`,
/// so no row tick ages past `u32::MAX` between two passes.
pub(crate) const CLAMP_EVERY: u64 = 1 << 30;

/// A world's change clock.
#[derive(Debug)]
pub(crate) struct Clock {
    now: u64,
    /// Set by a look, cleared by the next write (which moves the clock).
    looked: AtomicBool,
    /// When row ticks were last capped.
    clamped: u64,
}

impl Default for Clock {
    fn default() -> Self {
        // Tick 0 is `Tick::default()`: before every row.
        Clock {
            now: 1,
            looked: AtomicBool::new(false),
            clamped: 1,
        }
    }
}

impl Clone for Clock {
    fn clone(&self) -> Self {
        Clock {
            now: self.now,
            looked: AtomicBool::new(self.looked.load(Ordering::Relaxed)),
            clamped: self.clamped,
        }
    }
}

impl Clock {
    /// The tick a reader keeps: writes from now on are later than it.
    pub fn look(&self) -> Tick {
        self.looked.store(true, Ordering::Relaxed);
        Tick(self.now)
    }

    /// The current tick, without looking (for answers, not for readers).
    #[inline]
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Whether a reader looked since the last write (the next write
    /// moves the clock).
    pub fn looked(&self) -> bool {
        self.looked.load(Ordering::Relaxed)
    }

    /// The tick of a write about to happen: the clock moves when a reader
    /// looked since the last write. `true` beside it when row ticks are due
    /// to be capped.
    #[inline]
    pub fn write(&mut self) -> (u64, bool) {
        let looked = self.looked.get_mut();
        if *looked {
            *looked = false;
            self.now += 1;
        }
        (self.now, self.now - self.clamped >= CLAMP_EVERY)
    }

    /// The latest tick no write made after now can carry: a later write
    /// moves the clock when a reader looked since the last write, and
    /// otherwise shares the current tick.
    pub fn settled(&self) -> Tick {
        if self.looked.load(Ordering::Relaxed) {
            Tick(self.now)
        } else {
            Tick(self.now - 1)
        }
    }

    /// Records that row ticks were capped at the current tick.
    pub fn clamped(&mut self) {
        self.clamped = self.now;
    }

    /// Moves the clock `ticks` on as that many looks, each followed by a
    /// write, would (for tests of the wrap). The caller caps row ticks
    /// when the second value is `true`.
    pub fn skip(&mut self, ticks: u64) -> bool {
        self.now += ticks;
        *self.looked.get_mut() = false;
        self.now - self.clamped >= CLAMP_EVERY
    }
}

/// When one stored component was added and last handed out mutably, as
/// the low 32 bits of their ticks (a row of a segment's two tick arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowTicks {
    pub added: u32,
    pub changed: u32,
}

impl RowTicks {
    /// A component added (and so changed) at `now`.
    #[inline]
    pub fn new(now: u64) -> Self {
        RowTicks {
            added: now as u32,
            changed: now as u32,
        }
    }
}

/// One kind of tick of a segment's `len` rows: each row's own (in `rows`,
/// or `shared` by every row when `rows` is empty), and the tick at which
/// every row was handed out at once (0: never), a row's tick being the
/// later of the two.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ticks<'a> {
    pub rows: &'a [u32],
    pub shared: u32,
    pub len: usize,
    pub all: u64,
}

impl Ticks<'_> {
    /// Whether every row is later than `since`.
    #[inline]
    pub fn all_after(&self, since: Tick) -> bool {
        self.all > since.0
    }

    /// Whether every row is later than `since` because they all share one
    /// tick that is, the clock being at `now`.
    #[inline]
    pub fn shared_after(&self, since: Tick, now: u64) -> bool {
        self.rows.is_empty() && self.len > 0 && is_after(self.shared, since, now)
    }

    /// Whether every row is later than `since`, known without reading a
    /// row: handed out at once since, or sharing a later tick.
    #[inline]
    pub fn every_row_after(&self, since: Tick, now: u64) -> bool {
        self.all_after(since) || self.shared_after(since, now)
    }

    /// Row `row`'s own tick, `None` past the last row.
    #[inline]
    pub fn own(&self, row: usize) -> Option<u32> {
        if self.rows.is_empty() {
            (row < self.len).then_some(self.shared)
        } else {
            self.rows.get(row).copied()
        }
    }

    /// Whether row `row` is later than `since`, the clock being at `now`.
    #[inline]
    pub fn after(&self, row: usize, since: Tick, now: u64) -> bool {
        self.all_after(since) || self.own(row).is_some_and(|t| is_after(t, since, now))
    }
}

/// `tick`, or the tick [`MAX_AGE`] before `now` when it is older.
#[inline]
pub(crate) fn clamp(tick: u32, now: u64) -> u32 {
    let now = now as u32;
    if now.wrapping_sub(tick) > MAX_AGE {
        now.wrapping_sub(MAX_AGE)
    } else {
        tick
    }
}

/// Which of a component's ticks a question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ChangeKind {
    /// Attached since.
    Added,
    /// Attached, replaced or handed out mutably since.
    Changed,
}

/// Whether a row tick `tick` is later than `since`, the clock being at
/// `now`: its age is below the reader's.
#[inline]
pub(crate) fn is_after(tick: u32, since: Tick, now: u64) -> bool {
    let age = u64::from((now as u32).wrapping_sub(tick));
    age < now.saturating_sub(since.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_across_the_wrap_of_the_row_ticks() {
        let now = u64::from(u32::MAX) + 10;
        // Written at `u32::MAX + 5`: its low bits are 4.
        let tick = (u64::from(u32::MAX) + 5) as u32;
        assert!(is_after(tick, Tick(u64::from(u32::MAX)), now));
        assert!(!is_after(tick, Tick(u64::from(u32::MAX) + 5), now));
        assert!(!is_after(tick, Tick(now + 3), now));
    }

    #[test]
    fn a_clamped_tick_is_reported_only_to_readers_older_than_the_cap() {
        let now = 3 * u64::from(u32::MAX);
        let tick = clamp(5, now);
        assert!(!is_after(tick, Tick(now - 10), now));
        assert!(is_after(tick, Tick(now - u64::from(MAX_AGE) - 1), now));
    }

    #[test]
    fn the_clock_moves_only_for_a_write_after_a_look() {
        let mut clock = Clock::default();
        assert_eq!(clock.write().0, 1);
        assert_eq!(clock.write().0, 1);
        let seen = clock.look();
        assert_eq!(seen, Tick(1));
        assert_eq!(clock.write().0, 2);
        assert_eq!(clock.write().0, 2);
    }
}
