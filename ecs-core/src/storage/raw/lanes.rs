//! Lockstep walks: the arrays a query reads in one table, advanced together
//! by one row counter instead of each checking its own end.
//!
//! A query over five components walks five arrays of the same length. With
//! a bounds check per array per row, a row costs five compares and the
//! loop holds ten pointers; here it costs one counter. Soundness rests on
//! one invariant of [`Lockstep`]: its counter never exceeds the rows any of
//! its lanes has left. [`Lockstep::new`] establishes it by taking the
//! minimum of the lanes' own counts, and every step or split lowers both
//! sides alike.

use std::ptr::NonNull;

use super::strided::{Strided, StridedMut};

mod sealed {
    /// Only this module's lane types walk without a check.
    pub trait Sealed {}
}

/// Cursors that advance one row at a time, all together; only this module
/// implements it.
#[doc(hidden)]
pub trait Lanes: sealed::Sealed + Sized {
    /// One row of every lane.
    type Item;
    /// How many rows every lane still has (`usize::MAX` when none reads).
    fn rows(&self) -> usize;
    /// `self.rows() >= rows`, without the division `rows` may cost.
    fn has(&self, rows: usize) -> bool;
    /// The current row of every lane, then a step to the next.
    ///
    /// # Safety
    /// `self.rows() > 0`: every lane has a row left.
    unsafe fn advance(&mut self) -> Self::Item;
    /// Whether each lane's rows sit exactly one item apart (the item is
    /// the row's whole value, not a part of a derived one), so that
    /// [`Lanes::advance_dense`] may step by a constant.
    fn dense(&self) -> bool;
    /// [`Lanes::advance`] by the item's size, a constant the compiler
    /// folds, instead of the stored step.
    ///
    /// # Safety
    /// As [`Lanes::advance`], and `self.dense()`.
    unsafe fn advance_dense(&mut self) -> Self::Item;
    /// The first `at` rows and the rest, for `at <= self.rows()`.
    fn split_at(self, at: usize) -> (Self, Self);
    /// Lanes with no row, for a walk that has not started.
    fn empty() -> Self;
}

impl<T> sealed::Sealed for Strided<'_, T> {}

impl<'a, T> Lanes for Strided<'a, T> {
    type Item = &'a T;
    #[inline(always)]
    fn rows(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn has(&self, rows: usize) -> bool {
        let span = self.end as usize - self.next.as_ptr() as usize;
        rows.checked_mul(self.step).is_some_and(|need| need <= span)
    }
    #[inline(always)]
    unsafe fn advance(&mut self) -> &'a T {
        // SAFETY: the caller guarantees a row is left, so `next` is below
        // `end`, a row not yet visited that holds a `T` (`BlobVec::iter`).
        let item = unsafe { self.next.cast::<T>().as_ref() };
        // SAFETY: one step from below `end` is at most `end`, never null.
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(self.step)) };
        item
    }
    #[inline(always)]
    fn dense(&self) -> bool {
        size_of::<T>() == 0 || self.step == size_of::<T>()
    }
    #[inline(always)]
    unsafe fn advance_dense(&mut self) -> &'a T {
        // Zero-sized values keep their stored step (the alignment).
        let step = if size_of::<T>() == 0 {
            self.step
        } else {
            size_of::<T>()
        };
        // SAFETY: the caller guarantees `dense()`, so `step` is the stored
        // step; the rest is `advance`'s proof.
        let item = unsafe { self.next.cast::<T>().as_ref() };
        // SAFETY: as in `advance`, the step being the same.
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(step)) };
        item
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        Strided::split_at(self, at)
    }
    fn empty() -> Self {
        Strided::from_slice(&[])
    }
}

impl<T> sealed::Sealed for StridedMut<'_, T> {}

impl<'a, T> Lanes for StridedMut<'a, T> {
    type Item = &'a mut T;
    #[inline(always)]
    fn rows(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn has(&self, rows: usize) -> bool {
        let span = self.end as usize - self.next.as_ptr() as usize;
        rows.checked_mul(self.step).is_some_and(|need| need <= span)
    }
    #[inline(always)]
    unsafe fn advance(&mut self) -> &'a mut T {
        // SAFETY: as for `Strided`; each row is handed out once, rows do
        // not overlap, and the array is borrowed mutably for `'a`.
        let item = unsafe { self.next.cast::<T>().as_mut() };
        // SAFETY: one step from below `end` is at most `end`, never null.
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(self.step)) };
        item
    }
    #[inline(always)]
    fn dense(&self) -> bool {
        size_of::<T>() == 0 || self.step == size_of::<T>()
    }
    #[inline(always)]
    unsafe fn advance_dense(&mut self) -> &'a mut T {
        // Zero-sized values keep their stored step (the alignment).
        let step = if size_of::<T>() == 0 {
            self.step
        } else {
            size_of::<T>()
        };
        // SAFETY: the caller guarantees `dense()`, so `step` is the stored
        // step; the rest is `advance`'s proof.
        let item = unsafe { self.next.cast::<T>().as_mut() };
        // SAFETY: as in `advance`, the step being the same.
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(step)) };
        item
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        StridedMut::split_at(self, at)
    }
    fn empty() -> Self {
        let next = NonNull::<T>::dangling().cast::<u8>();
        StridedMut {
            next,
            end: next.as_ptr(),
            step: size_of::<T>().max(align_of::<T>()),
            _borrow: std::marker::PhantomData,
        }
    }
}

impl<L: Lanes> sealed::Sealed for Option<L> {}

/// A lane the table may lack (an optional term): `None` on every row then.
impl<L: Lanes> Lanes for Option<L> {
    type Item = Option<L::Item>;
    #[inline(always)]
    fn rows(&self) -> usize {
        self.as_ref().map_or(usize::MAX, L::rows)
    }
    #[inline(always)]
    fn has(&self, rows: usize) -> bool {
        self.as_ref().is_none_or(|lane| lane.has(rows))
    }
    #[inline(always)]
    unsafe fn advance(&mut self) -> Option<L::Item> {
        // SAFETY: a present lane has `rows() == self.rows() > 0`.
        self.as_mut().map(|lane| unsafe { lane.advance() })
    }
    #[inline(always)]
    fn dense(&self) -> bool {
        self.as_ref().is_none_or(L::dense)
    }
    #[inline(always)]
    unsafe fn advance_dense(&mut self) -> Option<L::Item> {
        // SAFETY: a present lane has a row left and is dense.
        self.as_mut().map(|lane| unsafe { lane.advance_dense() })
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        match self {
            Some(lane) => {
                let (a, b) = lane.split_at(at);
                (Some(a), Some(b))
            }
            None => (None, None),
        }
    }
    fn empty() -> Self {
        None
    }
}

impl sealed::Sealed for () {}

/// No lane: a term that keeps its own checked cursors.
impl Lanes for () {
    type Item = ();
    #[inline(always)]
    fn rows(&self) -> usize {
        usize::MAX
    }
    #[inline(always)]
    fn has(&self, _: usize) -> bool {
        true
    }
    #[inline(always)]
    unsafe fn advance(&mut self) {}
    #[inline(always)]
    fn dense(&self) -> bool {
        true
    }
    #[inline(always)]
    unsafe fn advance_dense(&mut self) {}
    fn split_at(self, _: usize) -> (Self, Self) {
        ((), ())
    }
    fn empty() -> Self {}
}

macro_rules! tuple_lanes {
    ($($name:ident / $var:ident),+) => {
        impl<$($name: Lanes),+> sealed::Sealed for ($($name,)+) {}

        impl<$($name: Lanes),+> Lanes for ($($name,)+) {
            type Item = ($($name::Item,)+);
            #[inline(always)]
            #[allow(non_snake_case)]
            fn rows(&self) -> usize {
                let ($($var,)+) = self;
                usize::MAX$(.min($var.rows()))+
            }
            #[inline(always)]
            #[allow(non_snake_case)]
            fn has(&self, rows: usize) -> bool {
                let ($($var,)+) = self;
                true $(&& $var.has(rows))+
            }
            #[inline(always)]
            #[allow(non_snake_case)]
            unsafe fn advance(&mut self) -> Self::Item {
                let ($($var,)+) = self;
                // SAFETY: the tuple's rows are the minimum of its lanes', so
                // each lane has a row left.
                unsafe { ($($var.advance(),)+) }
            }
            #[inline(always)]
            #[allow(non_snake_case)]
            fn dense(&self) -> bool {
                let ($($var,)+) = self;
                true $(&& $var.dense())+
            }
            #[inline(always)]
            #[allow(non_snake_case)]
            unsafe fn advance_dense(&mut self) -> Self::Item {
                let ($($var,)+) = self;
                // SAFETY: every lane has a row left (as in `advance`) and
                // the tuple is dense only when each lane is.
                unsafe { ($($var.advance_dense(),)+) }
            }
            #[allow(non_snake_case)]
            fn split_at(self, at: usize) -> (Self, Self) {
                let ($($var,)+) = self;
                $(let $var = $var.split_at(at);)+
                (($($var.0,)+), ($($var.1,)+))
            }
            fn empty() -> Self {
                ($($name::empty(),)+)
            }
        }
    };
}

for_each_tuple!(tuple_lanes);

/// Lanes and the number of rows they advance together.
///
/// The rows left are counted in one of three counters, the others being 0,
/// so that a loop tests one counter per row: `dense` when the lanes are
/// dense, `strided` when they are not, `guarded` when the caller asked for
/// every row to go through [`Lockstep::next_guarded`] (where it checks each
/// row before using it).
///
/// Invariants: `dense + strided + guarded <= lanes.rows()`; `dense > 0`
/// only when `lanes.dense()`.
pub struct Lockstep<L> {
    lanes: L,
    dense: usize,
    strided: usize,
    guarded: usize,
}

/// How a [`Lockstep`]'s rows are handed out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Dense,
    Strided,
    Guarded,
}

impl Mode {
    /// How `lanes` are walked: every row checked with `guarded`, else with
    /// a constant step when they are dense.
    fn of(lanes: &impl Lanes, guarded: bool) -> Mode {
        if guarded {
            Mode::Guarded
        } else if lanes.dense() {
            Mode::Dense
        } else {
            Mode::Strided
        }
    }
}

impl<L: Lanes> Lockstep<L> {
    /// Walks `rows` rows of `lanes`, or fewer when a lane is shorter (a
    /// lent array reads as empty). With `guarded` every row is handed out
    /// by [`Lockstep::next_guarded`] alone.
    pub fn new(lanes: L, rows: usize, guarded: bool) -> Self {
        let left = if lanes.has(rows) {
            rows
        } else {
            rows.min(lanes.rows())
        };
        let mode = Mode::of(&lanes, guarded);
        Self::with(lanes, left, mode)
    }

    fn with(lanes: L, left: usize, mode: Mode) -> Self {
        let count = |m| if mode == m { left } else { 0 };
        Lockstep {
            dense: count(Mode::Dense),
            strided: count(Mode::Strided),
            guarded: count(Mode::Guarded),
            lanes,
        }
    }

    fn mode(&self) -> Mode {
        if self.dense > 0 {
            Mode::Dense
        } else if self.strided > 0 {
            Mode::Strided
        } else {
            Mode::Guarded
        }
    }

    /// No rows.
    pub fn empty() -> Self {
        Self::with(L::empty(), 0, Mode::Strided)
    }

    /// The rows left.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.dense + self.strided + self.guarded
    }

    /// The next row of a dense walk; `None` when the walk is of another
    /// kind or over.
    #[inline(always)]
    pub fn next_dense(&mut self) -> Option<L::Item> {
        if self.dense == 0 {
            return None;
        }
        self.dense -= 1;
        // SAFETY: `dense` was above 0, so the lanes are dense and have a row
        // left (invariants); `dense` and `rows()` both drop by one.
        Some(unsafe { self.lanes.advance_dense() })
    }

    /// The next row of a strided walk; `None` when the walk is of another
    /// kind or over.
    #[inline(always)]
    pub fn next_strided(&mut self) -> Option<L::Item> {
        if self.strided == 0 {
            return None;
        }
        self.strided -= 1;
        // SAFETY: `strided` was above 0, so the lanes have a row left
        // (invariant); `strided` and `rows()` both drop by one.
        Some(unsafe { self.lanes.advance() })
    }

    /// The next row of a guarded walk; `None` when the walk is of another
    /// kind or over.
    #[inline(always)]
    pub fn next_guarded(&mut self) -> Option<L::Item> {
        if self.guarded == 0 {
            return None;
        }
        self.guarded -= 1;
        // SAFETY: `guarded` was above 0, so the lanes have a row left
        // (invariant); `guarded` and `rows()` both drop by one.
        Some(unsafe { self.lanes.advance() })
    }

    /// Passes over `skip` rows from where the lanes stand (rows counted
    /// but not handed out are among them) and walks the `take` rows after
    /// them, fewer when the lanes end; `guarded` as in [`Lockstep::new`].
    pub fn skip_then(self, skip: usize, take: usize, guarded: bool) -> Self {
        let rows = self.lanes.rows();
        let skip = skip.min(rows);
        let (_, lanes) = self.lanes.split_at(skip);
        let take = take.min(rows - skip);
        let mode = Mode::of(&lanes, guarded);
        // `take <= rows - skip`, the rows the lanes keep; dense only when
        // they are.
        Self::with(lanes, take, mode)
    }

    /// Folds every row left into `acc`, with the choice between a constant
    /// and a stored step made once rather than per row.
    #[inline(always)]
    pub fn fold<B>(mut self, mut acc: B, mut f: impl FnMut(B, L::Item) -> B) -> B {
        while let Some(row) = self.next_dense() {
            acc = f(acc, row);
        }
        while let Some(row) = self.next_strided() {
            acc = f(acc, row);
        }
        acc
    }

    /// The first `at` rows (at most all) and the rest.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let left = self.len();
        let mode = self.mode();
        let at = at.min(left);
        let (a, b) = self.lanes.split_at(at);
        // The halves' lanes have `at` and `rows() - at >= left - at` rows,
        // and are dense when the whole was.
        (Self::with(a, at, mode), Self::with(b, left - at, mode))
    }
}
