//! The segments a writing query borrows, each once: kept in place for the
//! few a small query reads, so a call allocates nothing for them.

use crate::entity::SegId;
use crate::table::Segment;

/// One segment a writing query reads: lent mutably (`unique`) to the one
/// term that writes it, or shared by every term that reads it.
#[derive(Default)]
pub(crate) struct Borrowed<'w> {
    pub seg: SegId,
    pub unique: Option<&'w mut Segment>,
    pub shared: Option<&'w Segment>,
}

/// How many segments are kept in place: a query of two terms over one
/// table, or of one over two, borrows no more. (Four in place made every
/// query's walk state larger to move: a read-only query call, which
/// borrows nothing this way, took 4% more instructions.)
const IN_PLACE: usize = 2;

/// A writing query's segments, sorted by segment, each once. In place up
/// to [`IN_PLACE`]: a `Vec` would cost every query call an allocation and
/// a free (about 130 of the 1,290 instructions a call over 10 entities).
pub(crate) enum Borrows<'w> {
    /// The first `len` of `items`; the rest hold nothing.
    InPlace {
        items: [Borrowed<'w>; IN_PLACE],
        len: usize,
    },
    Heap(Vec<Borrowed<'w>>),
}

impl<'w> Borrows<'w> {
    /// Room for `count` segments.
    pub fn with_capacity(count: usize) -> Self {
        if count <= IN_PLACE {
            Borrows::InPlace {
                items: Default::default(),
                len: 0,
            }
        } else {
            Borrows::Heap(Vec::with_capacity(count))
        }
    }

    /// Adds `borrowed` after the others (the caller keeps them sorted).
    ///
    /// # Panics
    /// When more are pushed than [`Borrows::with_capacity`] made room for
    /// in place.
    pub fn push(&mut self, borrowed: Borrowed<'w>) {
        match self {
            Borrows::InPlace { items, len } => {
                items[*len] = borrowed;
                *len += 1;
            }
            Borrows::Heap(all) => all.push(borrowed),
        }
    }

    /// The segments, sorted.
    #[inline]
    pub fn as_slice(&self) -> &[Borrowed<'w>] {
        match self {
            Borrows::InPlace { items, len } => &items[..*len],
            Borrows::Heap(all) => all,
        }
    }

    /// The segments, sorted, to lend out of.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Borrowed<'w>] {
        match self {
            Borrows::InPlace { items, len } => &mut items[..*len],
            Borrows::Heap(all) => all,
        }
    }
}

/// Where segment `seg` is among `borrowed`, looking at `hint` first:
/// tables are opened in the order of their segments, so the next segment
/// asked for is usually the next one kept.
#[inline]
pub(crate) fn position(borrowed: &[Borrowed<'_>], seg: SegId, hint: usize) -> Option<usize> {
    match borrowed.get(hint) {
        Some(b) if b.seg == seg => Some(hint),
        _ => borrowed.binary_search_by_key(&seg, |b| b.seg).ok(),
    }
}
