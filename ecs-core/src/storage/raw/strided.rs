//! Walks over one array's rows, each row's part at a fixed offset: the
//! typed views that query cursors and single-type loops are built on.

use std::marker::PhantomData;
use std::ptr::NonNull;

/// Shared `T`s, one per row, `step` bytes apart, from `next` up to `end`.
#[doc(hidden)]
pub struct Strided<'a, T> {
    // `step` first: a walk's cursor comes back from the out-of-line code
    // that opens tables in 16-byte pieces, and with `step` paired with
    // `end` the compiler kept it in a vector register and moved it out on
    // every row (a one-term write took 7 instructions a row; 6 this way).
    pub(super) step: usize,
    pub(super) next: NonNull<u8>,
    pub(super) end: *mut u8,
    pub(super) _borrow: PhantomData<&'a T>,
}

impl<'a, T> Iterator for Strided<'a, T> {
    type Item = &'a T;
    #[inline(always)]
    fn next(&mut self) -> Option<&'a T> {
        if self.next.as_ptr() == self.end {
            return None;
        }
        // For zero-sized values `next` is an aligned non-null address, all a
        // zero-sized read needs.
        // SAFETY: `BlobVec::iter` checked every row holds a `T` at the start
        // offset; `next` is below `end`, a row not yet visited; borrowed 'a.
        let item = unsafe { self.next.cast::<T>().as_ref() };
        // SAFETY: `next` was below `end`, so one step on is at most `end`,
        // and no address from the walk's start to `end` is null (`walk`).
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(self.step)) };
        Some(item)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end as usize - self.next.as_ptr() as usize) / self.step;
        (left, Some(left))
    }
}

impl<T> ExactSizeIterator for Strided<'_, T> {}

// SAFETY: a `Strided` hands out `&'a T` only, like `&'a [T]`, which is
// `Send` and `Sync` when `T` is `Sync`.
unsafe impl<T: Sync> Send for Strided<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Sync> Sync for Strided<'_, T> {}

impl<T> Clone for Strided<'_, T> {
    fn clone(&self) -> Self {
        Strided { ..*self }
    }
}

impl<'a, T> Strided<'a, T> {
    /// Row `row` of the rows not yet walked, `None` past the last: random
    /// access for readers that jump between rows (the ancestor term).
    #[inline(always)]
    pub fn get(&self, row: usize) -> Option<&'a T> {
        let span = self.end as usize - self.next.as_ptr() as usize;
        let offset = row.checked_mul(self.step).filter(|&o| o < span)?;
        let at = self.next.as_ptr().wrapping_add(offset);
        // SAFETY: `offset` is a whole number of steps below the walk's
        // span, so `at` is a row not yet walked, below `end`, which holds a
        // `T` at this offset (`BlobVec::iter`, `from_slice`), borrowed 'a.
        Some(unsafe { &*at.cast::<T>() })
    }

    /// The first `at` rows (at most all), and the rest.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let at = at.min(self.len());
        let middle = self.next.as_ptr().wrapping_add(at * self.step);
        // SAFETY: `at` rows on is at most `end`, and no address of the walk
        // is null (`walk`).
        let middle = unsafe { NonNull::new_unchecked(middle) };
        let first = Strided {
            end: middle.as_ptr(),
            ..self
        };
        (
            first,
            Strided {
                next: middle,
                ..self
            },
        )
    }
}

/// Mutable `T`s, one per row, `step` bytes apart, from `next` up to `end`.
#[doc(hidden)]
pub struct StridedMut<'a, T> {
    // `step` first, as in `Strided`.
    pub(super) step: usize,
    pub(super) next: NonNull<u8>,
    pub(super) end: *mut u8,
    pub(super) _borrow: PhantomData<&'a mut T>,
}

impl<'a, T> Iterator for StridedMut<'a, T> {
    type Item = &'a mut T;
    #[inline(always)]
    fn next(&mut self) -> Option<&'a mut T> {
        if self.next.as_ptr() == self.end {
            return None;
        }
        // SAFETY: as for `Strided`; each row is yielded once and rows do not
        // overlap (`step` is the size of the value holding the `T`), and
        // the array is borrowed mutably for `'a`, so the borrows are unique.
        let item = unsafe { self.next.cast::<T>().as_mut() };
        // SAFETY: as in `Strided::next`.
        self.next = unsafe { NonNull::new_unchecked(self.next.as_ptr().wrapping_add(self.step)) };
        Some(item)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end as usize - self.next.as_ptr() as usize) / self.step;
        (left, Some(left))
    }
}

impl<T> ExactSizeIterator for StridedMut<'_, T> {}

// SAFETY: a `StridedMut` hands out each `&'a mut T` once, like
// `&'a mut [T]`, which is `Send` when `T` is `Send` and `Sync` when `T` is
// `Sync`.
unsafe impl<T: Send> Send for StridedMut<'_, T> {}
// SAFETY: as for `Send`; `&StridedMut` hands out nothing.
unsafe impl<T: Sync> Sync for StridedMut<'_, T> {}

impl<T> StridedMut<'_, T> {
    /// The first `at` rows (at most all), and the rest: disjoint rows, so
    /// each half hands out its own unique borrows.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let at = at.min(self.len());
        let middle = self.next.as_ptr().wrapping_add(at * self.step);
        // SAFETY: as in `Strided::split_at`.
        let middle = unsafe { NonNull::new_unchecked(middle) };
        let first = StridedMut {
            next: self.next,
            end: middle.as_ptr(),
            step: self.step,
            _borrow: PhantomData,
        };
        let rest = StridedMut {
            next: middle,
            end: self.end,
            step: self.step,
            _borrow: PhantomData,
        };
        (first, rest)
    }
}

impl<T> Strided<'_, T> {
    /// The rows of a slice.
    pub fn from_slice(slice: &[T]) -> Strided<'_, T> {
        let step = size_of::<T>().max(align_of::<T>());
        let span = slice
            .len()
            .checked_mul(step)
            .expect("rows fit the address space");
        (slice.as_ptr() as usize)
            .checked_add(span)
            .expect("rows fit the address space");
        let next = NonNull::from(slice).cast::<u8>();
        Strided {
            next,
            end: next.as_ptr().wrapping_add(span),
            step,
            _borrow: PhantomData,
        }
    }
}
