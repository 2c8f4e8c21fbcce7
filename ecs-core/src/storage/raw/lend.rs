//! A slice whose elements are lent out one by one for the slice's whole
//! borrow: what lets a writing query borrow a segment when it first
//! reaches its table, rather than splitting every segment it may read off
//! the world's slice before it starts.

use std::marker::PhantomData;
use std::ptr::NonNull;

/// Elements a [`LendOnce`] keeps its record of in place; one beyond needs
/// a heap record.
const IN_PLACE: usize = 64;

/// The elements of a `&'a mut [T]`, each lent at most once mutably, or
/// shared any number of times, never both, for all of `'a`.
///
/// Splitting the slice up front (as `split_first_mut` does) costs every
/// call a pass over each element it may lend and a list to find them in;
/// here a call pays for the elements it reaches, and finds each by index.
pub struct LendOnce<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    /// Per element: [`FREE`], [`MUT`] or [`SHARED`].
    lent: Record,
    _borrow: PhantomData<&'a mut [T]>,
}

enum Record {
    InPlace([u8; IN_PLACE]),
    Heap(Box<[u8]>),
}

const FREE: u8 = 0;
const MUT: u8 = 1;
const SHARED: u8 = 2;

impl Record {
    fn for_len(len: usize) -> Self {
        if len <= IN_PLACE {
            Record::InPlace([FREE; IN_PLACE])
        } else {
            Record::Heap(vec![FREE; len].into_boxed_slice())
        }
    }

    /// The record, one entry an element (in place: more than the slice
    /// has, the rest never read).
    #[inline(always)]
    fn entries(&self) -> &[u8] {
        match self {
            Record::InPlace(entries) => entries,
            Record::Heap(entries) => entries,
        }
    }

    #[inline(always)]
    fn entries_mut(&mut self) -> &mut [u8] {
        match self {
            Record::InPlace(entries) => entries,
            Record::Heap(entries) => entries,
        }
    }
}

// SAFETY: a `LendOnce` stands for the `&'a mut [T]` it was made from (it
// hands out only references to that slice's elements, under the rules
// `&mut [T]` keeps), so it may cross threads when that borrow may.
unsafe impl<T: Send> Send for LendOnce<'_, T> {}
// SAFETY: through `&LendOnce` only shared references to elements not lent
// mutably are handed out ([`LendOnce::peek`]), as `&&mut [T]` allows.
unsafe impl<T: Sync> Sync for LendOnce<'_, T> {}

impl<'a, T> LendOnce<'a, T> {
    /// Nothing lent yet.
    pub fn new(slice: &'a mut [T]) -> Self {
        LendOnce {
            len: slice.len(),
            lent: Record::for_len(slice.len()),
            ptr: NonNull::from(slice).cast(),
            _borrow: PhantomData,
        }
    }

    /// Element `i` for the rest of `'a`, mutably: `None` when there is no
    /// such element or it was lent before, in either way.
    #[inline(always)]
    pub fn take_mut(&mut self, i: usize) -> Option<&'a mut T> {
        if i >= self.len {
            return None;
        }
        let entry = self.lent.entries_mut().get_mut(i)?;
        if *entry != FREE {
            return None;
        }
        *entry = MUT;
        // SAFETY: `i < len`: an element of the slice borrowed mutably for
        // `'a`. Its entry was `FREE` (never lent) and stays `MUT` (`share`
        // refuses it), so this is the only reference to it for all of `'a`.
        Some(unsafe { &mut *self.ptr.as_ptr().add(i) })
    }

    /// Element `i` for the rest of `'a`, shared: `None` when there is no
    /// such element or it was lent mutably.
    #[inline(always)]
    pub fn share(&mut self, i: usize) -> Option<&'a T> {
        if i >= self.len {
            return None;
        }
        let entry = self.lent.entries_mut().get_mut(i)?;
        if *entry == MUT {
            return None;
        }
        *entry = SHARED;
        // SAFETY: `i < len`: an element of the slice borrowed for `'a`.
        // Never lent mutably (not `MUT`), and never will be (now `SHARED`;
        // `take_mut` takes only `FREE`): every reference to it is shared.
        Some(unsafe { &*self.ptr.as_ptr().add(i) })
    }

    /// Element `i` while `self` is borrowed: `None` when there is no such
    /// element or it was lent mutably.
    #[inline(always)]
    pub fn peek(&self, i: usize) -> Option<&T> {
        if i >= self.len || self.lent.entries().get(i).is_none_or(|&e| e == MUT) {
            return None;
        }
        // SAFETY: `i < len`; not lent mutably (not `MUT`), and it cannot be
        // while `self` is borrowed (`take_mut` needs `&mut self`).
        Some(unsafe { &*self.ptr.as_ptr().add(i) })
    }
}

#[cfg(test)]
mod tests {
    use super::LendOnce;

    #[test]
    fn an_element_is_lent_mutably_once_and_then_not_shared() {
        let mut values = [1, 2, 3];
        let mut lend = LendOnce::new(&mut values);
        let a = lend.take_mut(0).unwrap();
        assert!(lend.take_mut(0).is_none());
        assert!(lend.share(0).is_none());
        assert!(lend.peek(0).is_none());
        *a += 10;
        let b = lend.take_mut(2).unwrap();
        *b += 30;
        assert_eq!(*lend.peek(1).unwrap(), 2);
        assert_eq!(values, [11, 2, 33]);
    }

    #[test]
    fn a_shared_element_is_shared_again_but_never_lent_mutably() {
        let mut values = vec![5; 300];
        let mut lend = LendOnce::new(&mut values);
        let a = lend.share(299).unwrap();
        let b = lend.share(299).unwrap();
        assert!(lend.take_mut(299).is_none());
        assert_eq!(*a + *b, 10);
        assert!(lend.take_mut(300).is_none());
        assert!(lend.share(300).is_none());
        assert!(lend.take_mut(298).is_some());
    }
}
