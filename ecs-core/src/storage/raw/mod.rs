//! The crate's only `unsafe`: type-erased, growable arrays of component
//! values, and the memory facts about a component type that make reading
//! them sound.
//!
//! Everything else in the crate sees two safe types:
//! - [`ErasedType`]: a component type's layout, drop function, and the byte
//!   offset of every ancestor inside it (`AxisMoving` holds its `Moving` at
//!   some offset). Built only by [`ErasedType::of`] (a type is its own
//!   ancestor at offset 0) and by the `unsafe` [`ErasedType::with_parent`],
//!   whose caller (the derive, through `offset_of!`) vouches for the offset.
//! - [`BlobVec`]: a `Vec` whose element type is only known at run time.
//!   Every typed access names a type and a chain level, and is checked
//!   against the `TypeId` recorded at that level before any pointer is
//!   formed, so a wrong type is `None` or a panic, never a misread.
//!
//! Beside them: the walks a query makes over those arrays ([`Strided`],
//! [`Lockstep`]), and [`LendOnce`], which lends a writing query each
//! segment of the world once, when the query first reaches it.
//!
//! Why not `Vec<T>` behind `dyn Any`: every component type would compile a
//! full generic column, every access would pay a virtual `type_id` call, and
//! a base-type view of a derived column would need a generated upcast per
//! value. Here a base-type view is the same memory read at an offset.
#![allow(unsafe_code)]

use std::alloc::{self, Layout};
use std::any::{Any, TypeId};
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

mod lanes;
mod lend;
#[cfg(linked_catalog)]
mod linked;
mod strided;

pub use lanes::{Lanes, Lockstep};
pub use lend::LendOnce;
#[cfg(linked_catalog)]
pub(crate) use linked::linked_entries;
#[cfg(linked_catalog)]
pub use linked::LinkedEntry;
pub use strided::{Strided, StridedMut};

/// The deepest parent chain, the type itself included.
pub(crate) const MAX_DEPTH: usize = 16;

/// What storage must know about one component type's memory.
///
/// A type with a parent links to the parent's own description rather than
/// copying the chain into arrays: the description is evaluated by rustc for
/// every derived type, and a few words cost it far less than arrays sized
/// for the deepest chain. The reads that must be fast (the type itself and
/// its direct parent) are served by copies kept beside each column's values.
#[derive(Clone, Copy, Debug)]
pub struct ErasedType {
    id: TypeId,
    /// The type's size and alignment: two words rather than a `Layout`,
    /// whose constructor is several more calls for rustc to evaluate.
    size: usize,
    align: usize,
    drop: Option<unsafe fn(*mut u8)>,
    /// How many types the chain holds, this one included.
    depth: usize,
    parent: Option<ParentLink>,
}

/// Where a type holds its parent, and the parent's own description.
#[derive(Clone, Copy, Debug)]
struct ParentLink {
    /// The parent's `TypeId`: the type the offset was vouched for.
    id: TypeId,
    /// Where the parent sits inside a value of the type.
    offset: usize,
    /// The parent's description. It comes from safe code (the parent's
    /// trait constant), so [`BlobVec::new`] checks that each level's
    /// description is of the type `id` says before trusting an offset.
    erased: &'static ErasedType,
}

/// The description of `$ty`, whose parent `$parent` is its field `$field`:
/// what the derive emits for `#[component(parent = ..)]`. Safe to use: the
/// closure proves the field's type is the parent, and `offset_of!` gives
/// its offset, which is exactly what [`ErasedType::with_parent`] asks for.
#[doc(hidden)]
#[macro_export]
macro_rules! __erased_with_parent {
    ($ty:ty, $parent:ty, $field:tt) => {{
        let _: fn(&$ty) -> &$parent = |this| &this.$field;
        // SAFETY: `$field` is a field of type `$parent` (checked just
        // above), held at the offset `offset_of!` gives in every `$ty`.
        unsafe {
            $crate::__private::ErasedType::with_parent::<$ty, $parent>(
                $crate::__private::erased_of::<$parent>(),
                ::core::mem::offset_of!($ty, $field),
            )
        }
    }};
}

/// Copies one value of `size` bytes from `src` to `dst`: the common
/// component sizes as one or two fixed-size loads and stores rather than a
/// call to `memcpy` with a run-time length, which is most of the cost of
/// moving a small component between tables.
///
/// # Safety
/// `src` is valid for reads and `dst` for writes of `size` bytes, and the
/// two ranges do not overlap (alignment is not required: unaligned loads
/// and stores are used).
#[inline(always)]
unsafe fn copy_value(src: *const u8, dst: *mut u8, size: usize) {
    /// Copies `N` bytes as one unaligned load and store. The bytes are
    /// moved as `MaybeUninit`, which keeps them exactly as they were: a
    /// padding byte stays uninitialised, and a pointer inside the value
    /// keeps its provenance (read as `[u8; N]`, the first would be
    /// undefined behaviour and the second would leave a pointer that may
    /// not be used).
    ///
    /// # Safety
    /// As for `copy_value`, with `size == N`.
    #[inline(always)]
    unsafe fn fixed<const N: usize>(src: *const u8, dst: *mut u8) {
        type Bytes<const N: usize> = std::mem::MaybeUninit<[u8; N]>;
        // SAFETY: the caller vouches for `N` readable bytes at `src` and
        // `N` writable bytes at `dst`; the unaligned forms need no
        // alignment, and `MaybeUninit` accepts any bytes.
        unsafe {
            dst.cast::<Bytes<N>>()
                .write_unaligned(src.cast::<Bytes<N>>().read_unaligned())
        }
    }
    // SAFETY: each arm copies exactly `size` bytes, which the caller
    // vouches for, between ranges it vouches do not overlap.
    unsafe {
        match size {
            0 => {}
            4 => fixed::<4>(src, dst),
            8 => fixed::<8>(src, dst),
            12 => fixed::<12>(src, dst),
            16 => fixed::<16>(src, dst),
            _ => ptr::copy_nonoverlapping(src, dst, size),
        }
    }
}

/// Drops the `T` at `ptr`.
///
/// # Safety
/// `ptr` points at a valid, aligned `T` that is never used again.
unsafe fn drop_erased<T>(ptr: *mut u8) {
    // SAFETY: the caller hands over a valid `T` it will not touch again.
    unsafe { ptr::drop_in_place(ptr.cast::<T>()) }
}

impl ErasedType {
    /// A type with no parent: itself at offset 0. `Send + Sync` because the
    /// arrays built from it are shared between threads.
    pub const fn of<T: Send + Sync + 'static>() -> Self {
        ErasedType {
            id: TypeId::of::<T>(),
            size: size_of::<T>(),
            align: align_of::<T>(),
            drop: if std::mem::needs_drop::<T>() {
                Some(drop_erased::<T>)
            } else {
                None
            },
            depth: 1,
            parent: None,
        }
    }

    /// `T`, whose parent `P` is described by `parent`, held at byte `offset`.
    ///
    /// # Panics
    /// At compile time when used in a constant: the chain would be deeper
    /// than `MAX_DEPTH`, or the parent would not fit at `offset`.
    ///
    /// # Safety
    /// Every `T` holds a field of type `P` at byte `offset` (what
    /// `offset_of!(T, field)` gives), so reading a `P` there is valid for
    /// as long as the `T` is, and writing a valid `P` there keeps the `T`
    /// valid. (`parent` need not be trusted: it is checked against `P`
    /// before any offset is used.)
    pub const unsafe fn with_parent<T: Send + Sync + 'static, P: 'static>(
        parent: &'static ErasedType,
        offset: usize,
    ) -> Self {
        assert!(
            parent.depth < MAX_DEPTH,
            "component parent chain is deeper than ecs_core::MAX_CHAIN_DEPTH (16)"
        );
        assert!(
            offset + parent.size <= size_of::<T>() && offset.is_multiple_of(parent.align),
            "the parent field does not fit where its offset says"
        );
        assert!(
            align_of::<T>() >= parent.align,
            "a packed component cannot hold its parent at an aligned address"
        );
        ErasedType {
            depth: parent.depth + 1,
            parent: Some(ParentLink {
                id: TypeId::of::<P>(),
                offset,
                erased: parent,
            }),
            ..Self::of::<T>()
        }
    }

    /// The type's layout.
    fn layout(&self) -> Layout {
        Layout::from_size_align(self.size, self.align).expect("a Rust type's layout is valid")
    }

    /// The type's own `TypeId`.
    pub(crate) fn type_id(&self) -> TypeId {
        self.id
    }

    /// The parent links, nearest first.
    fn links(&self) -> impl Iterator<Item = &ParentLink> {
        std::iter::successors(self.parent.as_ref(), |link| link.erased.parent.as_ref())
    }

    /// Whether every ancestor level's description is of the type the
    /// offset at that level was vouched for.
    fn is_consistent(&self) -> bool {
        self.links().all(|link| link.erased.id == link.id)
    }

    /// The level of `id` in the chain: 0 for the type itself, 1 for its
    /// parent, and so on.
    pub(crate) fn level_of(&self, id: TypeId) -> Option<usize> {
        if self.id == id {
            return Some(0);
        }
        self.links().position(|link| link.id == id).map(|at| at + 1)
    }

    /// The offset of level `level`'s value when it is a `T`.
    #[inline]
    fn offset_as<T: 'static>(&self, level: usize) -> Option<usize> {
        let (mut id, mut offset) = (self.id, 0);
        let mut links = self.links();
        for _ in 0..level {
            let link = links.next()?;
            (id, offset) = (link.id, offset + link.offset);
        }
        (id == TypeId::of::<T>()).then_some(offset)
    }
}

/// What [`BlobVec`] keeps as the parent's `TypeId` of a type without a
/// parent: the id of a type private to this module, so no read asks for it
/// and a parent read fails the type check without a separate test.
struct Unused;
const UNUSED: TypeId = TypeId::of::<Unused>();

/// A growable array of values of one component type, known at run time.
///
/// `pub` only because the erased functions in a component's table take
/// one; this module is not reachable from outside the crate.
#[doc(hidden)]
pub struct BlobVec {
    ptr: NonNull<u8>,
    len: usize,
    cap: usize,
    ty: &'static ErasedType,
    /// `ty`'s size, the stride between rows: kept here so addressing a row
    /// does not wait on a load of the type description.
    size: usize,
    /// `ty`'s own `TypeId`, kept here so an exact-type read checks it
    /// without another load.
    id: TypeId,
    /// Level 1 of `ty`'s chain (the parent's `TypeId`, `UNUSED` without
    /// one) and where the parent sits inside a value: a read through the
    /// direct parent, the common base-type read, checks it here too.
    parent_id: TypeId,
    parent_offset: usize,
}

// A `BlobVec` owns values of the type `ty` describes, and `ErasedType` is
// only built for `Send + Sync` types (`of` and `with_parent` require both).
// SAFETY: moving the array across threads moves only such values.
unsafe impl Send for BlobVec {}
// SAFETY: as for `Send`; `&BlobVec` hands out only `&T` of a `Sync` `T`.
unsafe impl Sync for BlobVec {}

impl BlobVec {
    /// An empty array of the type `ty` describes.
    ///
    /// # Panics
    /// When `ty` was built from a parent description that is not the
    /// parent's (a hand-written `Component` impl that borrowed another
    /// type's table): its offsets cannot be trusted.
    pub fn new(ty: &'static ErasedType) -> Self {
        assert!(
            ty.is_consistent(),
            "a component's parent description belongs to another type"
        );
        let align = ty.align;
        BlobVec {
            // A dangling pointer aligned for the type: what an empty `Vec`
            // holds.
            ptr: NonNull::new(ptr::without_provenance_mut(align)).expect("alignment is nonzero"),
            len: 0,
            cap: if ty.size == 0 { usize::MAX } else { 0 },
            ty,
            size: ty.size,
            id: ty.type_id(),
            parent_id: ty.parent.map_or(UNUSED, |link| link.id),
            parent_offset: ty.parent.map_or(0, |link| link.offset),
        }
    }

    /// Takes every value out, leaving this array empty (with no
    /// allocation) and of the same type.
    #[inline]
    pub fn take(&mut self) -> BlobVec {
        let empty = BlobVec {
            ptr: NonNull::new(ptr::without_provenance_mut(self.ty.align))
                .expect("alignment is nonzero"),
            len: 0,
            cap: if self.size == 0 { usize::MAX } else { 0 },
            ..*self
        };
        std::mem::replace(self, empty)
    }

    /// An empty array of the same type, with no allocation.
    pub fn empty_like(&self) -> BlobVec {
        BlobVec::new(self.ty)
    }

    /// Whether `other` holds values of the same type.
    pub fn same_type(&self, other: &BlobVec) -> bool {
        self.id == other.id
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn size(&self) -> usize {
        self.size
    }

    /// Makes room for `additional` more values.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        let needed = self.len.checked_add(additional).expect("capacity overflow");
        if needed > self.cap {
            self.grow(needed);
        }
    }

    /// Reallocates for at least `needed` values: out of line, so the check
    /// in [`BlobVec::reserve`] is all a push pays while there is room.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, needed: usize) {
        let cap = needed.max(self.cap.saturating_mul(2)).max(4);
        let size = self.size().checked_mul(cap).expect("capacity overflow");
        let new_layout = Layout::from_size_align(size, self.ty.align).expect("capacity overflow");
        let ptr = if self.cap == 0 {
            // SAFETY: `new_layout` has a nonzero size (the type is not a
            // ZST: a ZST's `cap` is `usize::MAX`, so it never gets here).
            unsafe { alloc::alloc(new_layout) }
        } else {
            let old = Layout::from_size_align(self.size() * self.cap, self.ty.align)
                .expect("the current allocation's layout was valid");
            // SAFETY: `self.ptr` was allocated with `old` (same align), and
            // the new size is nonzero and was checked not to overflow.
            unsafe { alloc::realloc(self.ptr.as_ptr(), old, size) }
        };
        self.ptr = NonNull::new(ptr).unwrap_or_else(|| alloc::handle_alloc_error(new_layout));
        self.cap = cap;
    }

    /// The address of row `row` (which may be one past the end).
    #[inline]
    fn at(&self, row: usize) -> *mut u8 {
        debug_assert!(row <= self.len);
        // SAFETY: `row <= len <= cap`, so the offset stays inside the
        // allocation or one past it (for a ZST it is 0).
        unsafe { self.ptr.as_ptr().add(row * self.size()) }
    }

    /// Where level `level` of each row is a `T`: level 0 is the array's own
    /// type, checked against the copy of its `TypeId` kept here.
    #[inline(always)]
    fn offset_as<T: 'static>(&self, level: usize) -> Option<usize> {
        if level == 0 {
            (self.id == TypeId::of::<T>()).then_some(0)
        } else {
            self.ty.offset_as::<T>(level)
        }
    }

    /// Where a value's level-`level` part sits when it is a `T` (level
    /// above 0): the direct parent from the copy kept here, the rest from
    /// the type description.
    #[inline(always)]
    fn level_offset<T: 'static>(&self, level: usize) -> Option<usize> {
        if level == 1 {
            return (self.parent_id == TypeId::of::<T>()).then_some(self.parent_offset);
        }
        self.ty.offset_as::<T>(level)
    }

    /// `Some` when the array holds `T`s: one compare with the `TypeId` kept
    /// beside the pointer, no load of the type description.
    #[inline(always)]
    fn check_is<T: 'static>(&self) -> Option<()> {
        (self.id == TypeId::of::<T>()).then_some(())
    }

    /// Panics unless the array holds `T`s.
    #[inline]
    fn check<T: 'static>(&self) {
        assert!(
            self.id == TypeId::of::<T>(),
            "a column was accessed as `{}`, which is not its type",
            std::any::type_name::<T>()
        );
    }

    /// Appends `value`.
    #[inline(always)]
    pub fn push<T: 'static>(&mut self, value: T) {
        self.check::<T>();
        self.reserve(1);
        // SAFETY: the array holds `T`s (checked), so rows are
        // `size_of::<T>()` apart in an allocation aligned for `T`; row `len`
        // is within the capacity just reserved.
        unsafe { self.ptr.as_ptr().cast::<T>().add(self.len).write(value) };
        self.len += 1;
    }

    /// Appends a clone of every value of `from`, in order: the type is
    /// checked once and room made once, then std's `Vec::extend_from_slice`
    /// does the copying over this array's buffer, which is a `memcpy` for
    /// `Copy` types (std specializes it) and a counted clone loop for the
    /// rest. When a `clone` panics, the values cloned before it stay
    /// (counted), and `from` is untouched.
    ///
    /// # Panics
    /// Unless both arrays hold `T`s.
    pub fn extend_cloned<T: Clone + 'static>(&mut self, from: &BlobVec) {
        self.check::<T>();
        from.check::<T>();
        if self.size == 0 {
            return self.extend_cloned_zst::<T>(from);
        }
        // Room for every value first: the `Vec` below never reallocates,
        // so the pointer and capacity this array keeps stay right.
        self.reserve(from.len);
        // SAFETY: `from` holds `T`s (checked): `from.len` initialised values
        // `size_of::<T>()` apart at an aligned `from.ptr`, borrowed shared
        // (a different array from `self`, which is borrowed mutably).
        let values = unsafe { std::slice::from_raw_parts(from.ptr.as_ptr().cast::<T>(), from.len) };
        // The buffer lent to a `Vec<T>`: this array holds `T`s, which are
        // not zero-sized (both checked), so it is null-free, aligned for
        // `T`, and, when `cap` is nonzero, came from the global allocator
        // with the layout of `cap` `T`s (`grow`), which is what `Vec<T>`
        // allocates; its first `len <= cap` values are initialised.
        let (ptr, len, cap) = (self.ptr.as_ptr().cast::<T>(), self.len, self.cap);
        // SAFETY: `ptr`, `len`, `cap` as above; the `Vec` is never dropped
        // (`ManuallyDrop`) nor grown (room made above): the buffer stays ours.
        let vec = unsafe { Vec::from_raw_parts(ptr, len, cap) };
        let mut lent = LentVec {
            vec: std::mem::ManuallyDrop::new(vec),
            len: &mut self.len,
        };
        lent.vec.extend_from_slice(values);
    }

    /// [`BlobVec::extend_cloned`] for zero-sized values: each `clone` still
    /// runs (it may count), and only the length moves.
    fn extend_cloned_zst<T: Clone + 'static>(&mut self, from: &BlobVec) {
        let base = self.ptr.as_ptr().cast::<T>();
        for row in 0..from.len {
            let value = from.get::<T>(row, 0).expect("a row below len").clone();
            // SAFETY: `T` is zero-sized (checked by the caller), so writing
            // one at the aligned, non-null `base` touches no memory; it
            // moves the value into the array, which counts it next.
            unsafe { base.write(value) };
            self.len += 1;
        }
    }

    /// Appends a boxed value; gives it back when it is of another type.
    pub fn push_boxed(
        &mut self,
        value: Box<dyn Any + Send + Sync>,
    ) -> Result<(), Box<dyn Any + Send + Sync>> {
        if (*value).type_id() != self.ty.type_id() {
            return Err(value);
        }
        self.reserve(1);
        let raw = Box::into_raw(value).cast::<u8>();
        // The bytes are moved: the box's memory is freed below without
        // dropping its value.
        // SAFETY: the box holds a value of this array's type (checked
        // above), so `size` bytes at `raw`; row `len` has room for them.
        unsafe { ptr::copy_nonoverlapping(raw, self.at(self.len), self.size()) };
        self.len += 1;
        if self.size() != 0 {
            // SAFETY: `raw` came from a `Box` of this type, allocated with
            // its layout, which `layout()` rebuilds from the type's own
            // `size_of` and `align_of`; its value now lives in the array.
            unsafe { alloc::dealloc(raw, self.ty.layout()) };
        }
        Ok(())
    }

    /// The values as a mutable slice of `T`.
    #[inline]
    pub fn as_mut_slice<T: 'static>(&mut self) -> &mut [T] {
        self.check::<T>();
        // SAFETY: as for `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr().cast::<T>(), self.len) }
    }

    /// The `T` at chain level `level` of row `row`: the value itself at
    /// level 0, its parent at level 1, ... `None` when that level is not a
    /// `T` or the array has no row `row` (an array lent out leaves an
    /// empty one in its place, and a read there finds nothing).
    #[inline(always)]
    pub fn get<T: 'static>(&self, row: usize, level: usize) -> Option<&T> {
        if row >= self.len {
            return None;
        }
        if level == 0 {
            self.check_is::<T>()?;
            // SAFETY: the array holds `T`s (checked just above), so its
            // stride is `size_of::<T>()` and row `row < len` is a valid `T`.
            return Some(unsafe { &*self.ptr.as_ptr().cast::<T>().add(row) });
        }
        let offset = self.level_offset::<T>(level)?;
        // SAFETY: row `row` holds a valid value of this array's type, which
        // holds a `T` at `offset` (the `ErasedType` contract; the level's
        // `TypeId` was checked to be `T`'s).
        Some(unsafe { &*self.at(row).add(offset).cast::<T>() })
    }

    /// Mutable twin of [`BlobVec::get`].
    #[inline(always)]
    pub fn get_mut<T: 'static>(&mut self, row: usize, level: usize) -> Option<&mut T> {
        if row >= self.len {
            return None;
        }
        if level == 0 {
            self.check_is::<T>()?;
            // SAFETY: as in `get`; `&mut self` makes the borrow unique.
            return Some(unsafe { &mut *self.ptr.as_ptr().cast::<T>().add(row) });
        }
        let offset = self.level_offset::<T>(level)?;
        // SAFETY: as for `get`; `&mut self` makes the borrow unique, and
        // writing a valid `T` there keeps the whole value valid.
        Some(unsafe { &mut *self.at(row).add(offset).cast::<T>() })
    }

    /// Every row's `T` at chain level `level`, in row order.
    #[inline]
    pub fn iter<T: 'static>(&self, level: usize) -> Option<Strided<'_, T>> {
        let offset = self.offset_as::<T>(level)?;
        let (next, end, step) = self.walk(offset);
        Some(Strided {
            next,
            end,
            step,
            _borrow: PhantomData,
        })
    }

    /// Mutable twin of [`BlobVec::iter`].
    #[inline]
    pub fn iter_mut<T: 'static>(&mut self, level: usize) -> Option<StridedMut<'_, T>> {
        let offset = self.offset_as::<T>(level)?;
        let (next, end, step) = self.walk(offset);
        Some(StridedMut {
            next,
            end,
            step,
            _borrow: PhantomData,
        })
    }

    /// Where a walk of every row's part at `offset` starts and ends, and
    /// its step: the stride, or for zero-sized values the alignment, so
    /// the walk still counts rows and every address is aligned.
    #[inline]
    fn walk(&self, offset: usize) -> (NonNull<u8>, *mut u8, usize) {
        let step = if self.size == 0 {
            self.ty.align
        } else {
            self.size
        };
        let span = self
            .len
            .checked_mul(step)
            .expect("rows fit the address space");
        // The walk's addresses run from the first row's part up to one past
        // the last row (for zero-sized values, aligned addresses above the
        // non-null base); checked not to wrap, none of them is null, which
        // is what the walks' `new_unchecked` rely on.
        (self.ptr.as_ptr() as usize)
            .checked_add(offset)
            .and_then(|a| a.checked_add(span))
            .expect("rows fit the address space");
        let next = self.ptr.as_ptr().wrapping_add(offset);
        // `wrapping_add`: the end is never read.
        let next = NonNull::new(next).expect("a row's address is not null");
        (next, next.as_ptr().wrapping_add(span), step)
    }

    /// Removes row `row`, moving the last row into its place, and returns
    /// it as a `T`.
    pub fn swap_remove<T: 'static>(&mut self, row: usize) -> T {
        self.check::<T>();
        assert!(row < self.len, "row {row} out of bounds ({})", self.len);
        let last = self.len - 1;
        // SAFETY: rows `row` and `last` hold valid `T`s; the value at `row`
        // is read out, then the last row's bytes take its place and `len`
        // drops, so each value is owned exactly once.
        unsafe {
            let value = self.at(row).cast::<T>().read();
            if row != last {
                ptr::copy_nonoverlapping(self.at(last).cast::<T>(), self.at(row).cast::<T>(), 1);
            }
            self.len = last;
            value
        }
    }

    /// Moves row `row` to the end of `to` (the last row takes its place).
    ///
    /// # Panics
    /// When `to` holds another type or `row` is out of bounds.
    #[inline]
    pub fn swap_remove_into(&mut self, row: usize, to: &mut BlobVec) {
        assert!(self.id == to.id, "rows move between arrays of one type");
        assert!(row < self.len, "row {row} out of bounds ({})", self.len);
        to.reserve(1);
        let last = self.len - 1;
        let size = self.size;
        // The source's last row fills the gap and its `len` drops, so the
        // moved value is owned only by `to`. Both arrays hold the same type
        // (same `TypeId`, checked), so they have the same `size`, and the
        // row's bytes are a valid value there.
        // SAFETY: `row < self.len`; `to` has room for row `to.len` (reserved);
        // two distinct arrays (`to` is borrowed mutably beside `self`).
        unsafe { copy_value(self.at(row), to.at(to.len), size) };
        if row != last {
            // SAFETY: rows `last` and `row` are below `self.len` and differ,
            // so their `size`-byte ranges do not overlap.
            unsafe { copy_value(self.at(last), self.at(row), size) };
        }
        to.len += 1;
        self.len = last;
    }

    /// Moves the rows from `len` on to the end of `to`, in order.
    ///
    /// # Panics
    /// When `to` holds another type.
    pub fn truncate_into(&mut self, len: usize, to: &mut BlobVec) {
        assert!(
            self.ty.type_id() == to.ty.type_id(),
            "rows move between arrays of one type"
        );
        if len >= self.len {
            return;
        }
        let count = self.len - len;
        to.reserve(count);
        // SAFETY: same type (checked); rows `len..self.len` are valid values
        // and `to` has room for `count` more. Ownership passes to `to` when
        // `self.len` drops to `len`.
        unsafe { ptr::copy_nonoverlapping(self.at(len), to.at(to.len), count * self.size()) };
        to.len += count;
        self.len = len;
    }

    /// Drops every value. When a value's `Drop` panics, the values after it
    /// are still dropped (as a slice's are), each once, and the array is
    /// left empty; a second panic while doing so aborts, as it does for a
    /// slice.
    pub fn clear(&mut self) {
        let len = self.len;
        // First forget the values, so a panic below cannot reach them again.
        self.len = 0;
        let Some(drop) = self.ty.drop else {
            return;
        };
        let mut rest = DropRest {
            base: self.ptr.as_ptr(),
            size: self.size(),
            next: 0,
            len,
            drop,
        };
        rest.run();
    }
}

/// The values of rows `next..len` of a [`BlobVec`]'s allocation, which the
/// array no longer counts: dropped by [`DropRest::run`], and by its own
/// `Drop` when one of them panics, so the rest are dropped while the panic
/// unwinds.
struct DropRest {
    base: *mut u8,
    size: usize,
    next: usize,
    len: usize,
    drop: unsafe fn(*mut u8),
}

impl DropRest {
    fn run(&mut self) {
        while self.next < self.len {
            let row = self.next;
            // Counted as dropped before its `Drop` runs: one that panics
            // is not dropped again.
            self.next += 1;
            // Rows below `len` held valid values that the array no longer
            // counts; `next` moves past each row before it is handed on, and
            // the array frees the allocation only after `clear` returns or
            // unwinds.
            // SAFETY: row `row` is a valid value dropped exactly once, at an offset inside the live allocation (see above).
            unsafe { (self.drop)(self.base.add(row * self.size)) };
        }
    }
}

impl Drop for DropRest {
    fn drop(&mut self) {
        // Nothing left after a `run` that returned; after one that
        // panicked, the rows past the one that panicked.
        self.run();
    }
}

/// An array's buffer lent to a `Vec` by [`BlobVec::extend_cloned`]; its
/// length is written back to the array when the extend ends or a `clone`
/// panics (std's extend counts each value it has written), so the array
/// never counts a row that was not written.
struct LentVec<'a, T> {
    vec: std::mem::ManuallyDrop<Vec<T>>,
    len: &'a mut usize,
}

impl<T> Drop for LentVec<'_, T> {
    fn drop(&mut self) {
        *self.len = self.vec.len();
    }
}

impl Drop for BlobVec {
    fn drop(&mut self) {
        /// Frees the allocation even when a value's `Drop` panics.
        struct Free<'a>(&'a mut BlobVec);
        impl Drop for Free<'_> {
            fn drop(&mut self) {
                let blob = &mut *self.0;
                if blob.size() != 0 && blob.cap != 0 {
                    let layout = Layout::from_size_align(blob.size() * blob.cap, blob.ty.align)
                        .expect("the current allocation's layout was valid");
                    // SAFETY: allocated with this layout by `reserve`.
                    unsafe { alloc::dealloc(blob.ptr.as_ptr(), layout) };
                }
            }
        }
        let free = Free(self);
        free.0.clear();
    }
}
