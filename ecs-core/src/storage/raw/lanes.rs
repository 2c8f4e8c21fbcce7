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
    /// How many arrays the lanes walk.
    const WIDTH: usize;
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
    /// [`Lanes::dense_at`] may address rows by a constant size.
    fn dense(&self) -> bool;
    /// Row `row` of every lane, counted from where the lanes stand, found
    /// as the row's index times the item's size: a constant the compiler
    /// folds into the address, so a dense walk keeps one row index for
    /// all its lanes instead of a pointer per lane that moves every row.
    ///
    /// # Safety
    /// `self.dense()`, `row < self.rows()`, and no row is handed out twice
    /// while its item lives (the lanes do not move during a dense walk).
    unsafe fn dense_at(&self, row: usize) -> Self::Item;
    /// [`Lanes::advance`] by the item's size, a constant the compiler
    /// folds, instead of the stored step: a closure's walk, where each lane
    /// keeps its own pointer in a register.
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
    const WIDTH: usize = 1;
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
    unsafe fn dense_at(&self, row: usize) -> &'a T {
        let at = if size_of::<T>() == 0 {
            // Zero-sized values keep their stored step (the alignment), and
            // their walk's addresses need not lie in an allocation.
            self.next.as_ptr().wrapping_add(row * self.step)
        } else {
            // `dense()` makes the stored step the item's size.
            // SAFETY: `row < rows()` (caller), so the offset stays below
            // `end`, inside the array: the address is in bounds, non-null.
            unsafe { self.next.as_ptr().add(row * size_of::<T>()) }
        };
        // SAFETY: `at` is row `row` of the walk, below `end`, which holds a
        // `T` (`BlobVec::iter`), borrowed for 'a.
        unsafe { &*at.cast::<T>() }
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
    const WIDTH: usize = 1;
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
    unsafe fn dense_at(&self, row: usize) -> &'a mut T {
        let at = if size_of::<T>() == 0 {
            // Zero-sized values keep their stored step (the alignment), and
            // their walk's addresses need not lie in an allocation.
            self.next.as_ptr().wrapping_add(row * self.step)
        } else {
            // `dense()` makes the stored step the item's size.
            // SAFETY: `row < rows()` (caller), so the offset stays below
            // `end`, inside the array: the address is in bounds, non-null.
            unsafe { self.next.as_ptr().add(row * size_of::<T>()) }
        };
        // The caller hands each row out once, and the array is borrowed
        // mutably for 'a, so the borrow is unique.
        // SAFETY: `at` is row `row` of the walk, below `end`, which holds a
        // `T` (`BlobVec::iter`).
        unsafe { &mut *at.cast::<T>() }
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
    const WIDTH: usize = L::WIDTH;
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
    #[inline(always)]
    unsafe fn dense_at(&self, row: usize) -> Option<L::Item> {
        // SAFETY: a present lane has `row` below its rows and is dense.
        self.as_ref().map(|lane| unsafe { lane.dense_at(row) })
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
    const WIDTH: usize = 0;
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
    unsafe fn dense_at(&self, _: usize) {}
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
            const WIDTH: usize = 0 $(+ $name::WIDTH)+;
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
            unsafe fn dense_at(&self, row: usize) -> Self::Item {
                let ($($var,)+) = self;
                // SAFETY: every lane has `row` below its rows (as in
                // `advance`) and the tuple is dense only when each lane is.
                unsafe { ($($var.dense_at(row),)+) }
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
/// A dense walk hands out rows `at..end` counted from where the walk
/// started; with many lanes each is found by its index (the lanes stay
/// put: one index moves per row, not a pointer per lane, and the index
/// scales by constant sizes the compiler folds into addresses), with two
/// each lane's pointer moves by its item's size. A strided walk moves the
/// lanes a stored step per row, counting its rows left in `strided`. A
/// single lane counts both kinds in `end` and always moves by its stored
/// step (one add, as a constant step is), so a base type's rows cost what
/// an exact type's do. `guarded` counts the rows of a walk where the
/// caller asked for every row to go through [`Lockstep::next_guarded`]
/// (where it checks each row before using it). A walk is of one kind: the
/// other counters are 0.
///
/// Invariants: when `end > 0`, `strided == guarded == 0`; `end > at` only
/// when `lanes.dense()`, unless `Lockstep::STEPPED`; an indexed walk
/// (`Lockstep::INDEXED`) has handed out the rows below `at` and `end <=
/// lanes.rows()` (the lanes stay put); an unindexed one has `at == 0` and
/// `end <= lanes.rows()` rows left from where the lanes stand; a stepped
/// one has `strided == 0`; otherwise `strided + guarded <= lanes.rows()`.
pub struct Lockstep<L> {
    lanes: L,
    at: usize,
    end: usize,
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

    /// `left` rows of `lanes` (at most `lanes.rows()`, and `Dense` only
    /// when `lanes.dense()`), walked from where the lanes stand.
    fn with(lanes: L, left: usize, mode: Mode) -> Self {
        let count = |m| if mode == m { left } else { 0 };
        let (end, strided) = match Self::STEPPED {
            true => (count(Mode::Dense) + count(Mode::Strided), 0),
            false => (count(Mode::Dense), count(Mode::Strided)),
        };
        Lockstep {
            at: 0,
            end,
            strided,
            guarded: count(Mode::Guarded),
            lanes,
        }
    }

    fn mode(&self) -> Mode {
        if self.end > self.at {
            match !Self::STEPPED || self.lanes.dense() {
                true => Mode::Dense,
                false => Mode::Strided,
            }
        } else if self.strided > 0 {
            Mode::Strided
        } else {
            Mode::Guarded
        }
    }

    /// Whether a dense walk finds rows by index rather than by moving
    /// each lane's pointer. With three arrays or more, one index instead of
    /// a pointer per array leaves the compiler the registers a loop body
    /// needs (a 5-term join: 28 instructions a row instead of 36); with
    /// fewer, moving the pointers is as cheap and keeps each address in one
    /// register (one array found by index took 11 instructions a row).
    const INDEXED: bool = L::WIDTH >= 3;

    /// Whether a walk counts strided rows with dense ones and moves by the
    /// stored step: with one lane, a stored step costs what a constant one
    /// does, and a base-type term's table is walked by the same loop as an
    /// exact one's (measured: 6 instructions a row for both, what the
    /// exact one took in a loop of its own, against 11 for the base type's
    /// second loop). With two lanes the stored steps cost one or two
    /// instructions a row more and 10-20% of a two-term loop's time.
    const STEPPED: bool = L::WIDTH == 1;

    /// The lanes moved past the rows a dense walk handed out, the rows
    /// left, and the walk's kind.
    fn settle(self) -> (L, usize, Mode) {
        let (left, mode) = (self.len(), self.mode());
        let lanes = match self.at {
            at if at > 0 && Self::INDEXED => self.lanes.split_at(at).1,
            _ => self.lanes,
        };
        (lanes, left, mode)
    }

    /// No rows.
    pub fn empty() -> Self {
        Self::with(L::empty(), 0, Mode::Strided)
    }

    /// The rows left.
    #[inline(always)]
    pub fn len(&self) -> usize {
        (self.end - self.at) + self.strided + self.guarded
    }

    /// The next row of a dense walk, or of a stepped one that is not
    /// guarded; `None` when the walk is of another kind or over.
    #[inline(always)]
    pub fn next_dense(&mut self) -> Option<L::Item> {
        if !Self::INDEXED {
            if self.end == 0 {
                return None;
            }
            self.end -= 1;
            if Self::STEPPED {
                // SAFETY: `end` was above 0, so the lanes have a row left
                // (invariants: unindexed, `at` is 0 and `end` counts the
                // rows left from where the lanes stand); both drop by one.
                return Some(unsafe { self.lanes.advance() });
            }
            // SAFETY: as above, and the lanes are dense (invariant: `end >
            // at` in a walk that is not stepped), as `advance_dense` needs.
            return Some(unsafe { self.lanes.advance_dense() });
        }
        if self.at >= self.end {
            return None;
        }
        let row = self.at;
        self.at += 1;
        // SAFETY: `row < end`, so the lanes are dense and `row` is below
        // their rows (invariants); `at` moved past it, so it is handed out
        // once, and an indexed walk does not move the lanes.
        Some(unsafe { self.lanes.dense_at(row) })
    }

    /// The next row of a strided walk; `None` when the walk is of another
    /// kind or over.
    #[inline(always)]
    pub fn next_strided(&mut self) -> Option<L::Item> {
        if self.strided == 0 {
            return None;
        }
        self.strided -= 1;
        // SAFETY: `strided` was above 0, so the walk is strided and the
        // lanes have a row left (invariants); `strided` and `rows()` both
        // drop by one.
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
        // SAFETY: `guarded` was above 0, so the walk is guarded and the
        // lanes have a row left (invariants); `guarded` and `rows()` both
        // drop by one.
        Some(unsafe { self.lanes.advance() })
    }

    /// Passes over `skip` rows from where the walk stands (rows counted
    /// but not handed out are among them) and walks the `take` rows after
    /// them, fewer when the lanes end; `guarded` as in [`Lockstep::new`].
    pub fn skip_then(self, skip: usize, take: usize, guarded: bool) -> Self {
        let (lanes, _, _) = self.settle();
        let rows = lanes.rows();
        let skip = skip.min(rows);
        let (_, lanes) = lanes.split_at(skip);
        let take = take.min(rows - skip);
        let mode = Mode::of(&lanes, guarded);
        // `take <= rows - skip`, the rows the lanes keep; dense only when
        // they are.
        Self::with(lanes, take, mode)
    }

    /// Folds every row left into `acc`, with the choice between a constant
    /// and a stored step made once rather than per row. Each lane moves its
    /// own pointer: in a loop the compiler sees whole, that is as cheap as
    /// an index and lets it vectorise.
    #[inline(always)]
    pub fn fold<B>(self, mut acc: B, mut f: impl FnMut(B, L::Item) -> B) -> B {
        let (mut lanes, left, mode) = self.settle();
        match mode {
            Mode::Dense => {
                for _ in 0..left {
                    // SAFETY: a dense walk's lanes are dense and have
                    // `left` rows from where they stand (invariants, and
                    // `settle` moved them past the rows handed out).
                    acc = f(acc, unsafe { lanes.advance_dense() });
                }
            }
            Mode::Strided => {
                for _ in 0..left {
                    // SAFETY: the lanes have `left` rows (invariant).
                    acc = f(acc, unsafe { lanes.advance() });
                }
            }
            // A guarded walk's rows are handed out by `next_guarded` only.
            Mode::Guarded => {}
        }
        acc
    }

    /// The first `at` rows (at most all) and the rest.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (lanes, left, mode) = self.settle();
        let at = at.min(left);
        let (a, b) = lanes.split_at(at);
        // The halves' lanes have `at` and `rows() - at >= left - at` rows,
        // and are dense when the whole was.
        (Self::with(a, at, mode), Self::with(b, left - at, mode))
    }
}
