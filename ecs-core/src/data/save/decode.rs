//! What a format's reader answers, and in which words: the [`Decode`]
//! trait the format-neutral reader (`read.rs`, `components.rs`) drives,
//! the parts and fields of a saved world it names, and the component
//! types and columns a decoder reads values into.

use std::any::TypeId;
use std::borrow::Cow;

use crate::component::ops::BoxedComponent;
use crate::data::codec::DeserializeFns;
use crate::entity::TypeIdx;
use crate::table::tables::Place;
use crate::world::World;
use crate::Error;

/// One format's reading. [`read`](super::read::read) asks for the pieces of a saved world in
/// the order the file holds them ([`Decode::next_part`]); a decoder
/// decodes and nothing else. Most pieces fail with a message, placed by
/// the reader at the path it is reading; pieces whose paths are the
/// format's own fail with the whole error.
pub(super) trait Decode<'a> {
    /// Whether the header is checked as soon as it is read: a positional
    /// format cannot be read past a version it does not know. A keyed
    /// format is read to its end first, so that a damaged file reports
    /// the first damage.
    const HEADER_FIRST: bool;
    /// Whether a component's value comes with its type (JSON's one object
    /// per component), so it can be read into the previous entity's table
    /// as soon as its type is known to match it; where an entity's types
    /// all come first, its table is known before any value.
    const VALUE_WITH_TYPE: bool;
    /// Whether values are JSON (else MessagePack), for reading one again
    /// to find where it failed.
    const JSON: bool;

    /// A list being read.
    type Seq;

    /// Opens the saved world.
    fn begin(&mut self) -> Result<(), String>;
    /// The next part of the saved world, `None` after the last.
    fn next_part(&mut self) -> Result<Option<Part>, Error>;
    /// Checks that nothing follows the saved world.
    fn end(&mut self) -> Result<(), String>;
    /// The bytes not read yet.
    fn remaining(&self) -> usize;

    /// A string; `what` says what it is, for a message.
    fn string(&mut self, what: &str) -> Result<Cow<'a, str>, String>;
    /// An unsigned integer; `what` says what it is, for a message.
    fn uint(&mut self, what: &str) -> Result<u64, String>;
    /// Opens one of the saved world's lists.
    fn begin_list(&mut self, list: List) -> Result<Self::Seq, String>;
    /// Whether the list has another item (and moves to it).
    fn next_item(&mut self, seq: &mut Self::Seq) -> Result<bool, String>;
    /// How many items the list says it holds, where the format says so
    /// before them (asked before any is read).
    fn declared_len(seq: &Self::Seq) -> Option<usize>;
    /// How many items to make room for: at most as many as the bytes
    /// left could hold, so a file lying about its length gets no more.
    fn room(&self, seq: &Self::Seq) -> usize;

    /// The resource at `path`: its type's name, given to `resolve` as soon
    /// as it is read, and its value read with the functions `resolve`
    /// gives back.
    fn resource(
        &mut self,
        path: &str,
        resolve: impl FnMut(&str) -> Result<(TypeId, &'static DeserializeFns), Error>,
    ) -> Result<(TypeId, BoxedComponent), Error>;

    /// Opens entity `i`.
    fn begin_entity(&mut self, i: usize) -> Result<(), Error>;
    /// Entity `i`'s next field, `None` after its last; `names` is the
    /// names table (see [`Part::Names`]), for a format that names an
    /// entity by its index there.
    fn next_entity_field(
        &mut self,
        i: usize,
        names: &[u32],
    ) -> Result<Option<EntityField<'a>>, Error>;

    /// Whether entity `i`'s component types are those `encoded` (what
    /// [`Decode::types_read`] gave for an earlier entity) spells, in the
    /// same order with the same flags; consumed if so. A decoder that
    /// cannot tell at a glance answers `false`.
    fn same_types_as(&mut self, encoded: &[u8]) -> bool;
    /// The bytes of the type list last read, which always read the same
    /// way: given back to [`Decode::same_types_as`]. Empty for a decoder
    /// that cannot compare them.
    fn types_read(&self) -> &'a [u8];
    /// Opens entity `i`'s components (or its list of component types).
    fn begin_components(&mut self, i: usize) -> Result<Self::Seq, Error>;
    /// Whether entity `i` has another component (and moves to it).
    fn next_component(&mut self, i: usize, seq: &mut Self::Seq) -> Result<bool, Error>;
    /// Component `k` of entity `i`: its type and flag, and, when
    /// [`Decode::VALUE_WITH_TYPE`] and it is of `cx.guess`'s type, its
    /// value read into `cx.guess`'s column.
    fn component(&mut self, i: usize, k: usize, cx: &mut EntryCx<'_>) -> Result<Head, Error>;
    /// Starts the values of entity `i`'s `count` components, whose types
    /// have all been read and found a table.
    fn begin_values(&mut self, i: usize, count: usize) -> Result<(), Error>;
    /// Component `k`'s value, read into `column`.
    fn value(&mut self, world: &mut World, i: usize, k: usize, column: Column)
        -> Result<(), Error>;
    /// Ends the values of an entity.
    fn end_values(&mut self);
    /// Where component `k` of entity `i` has its value in the file.
    fn value_path(i: usize, k: usize) -> String;
    /// The bytes of the value last read (a component's or a resource's),
    /// for reading it again on an error. Keeping them is a store of a
    /// position per value: nothing is copied or allocated.
    fn last_value(&self) -> &'a [u8];
}

/// A part of a saved world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    Format,
    Version,
    UpdateOrder,
    Resources,
    NameOrder,
    /// The component type names a format lists once (see
    /// [`super::write::Encode::INTERNS`]).
    Types,
    /// The entity names a format lists once.
    Names,
    Entities,
}

/// A list of a saved world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum List {
    UpdateOrder,
    Resources,
    NameOrder,
    Types,
    Names,
    Entities,
    Children,
}

/// A field of an entity.
pub(super) enum EntityField<'a> {
    /// Its saved id, which must be its position.
    Id(u64),
    Name(Option<NameRef<'a>>),
    Enabled(bool),
    Killed(bool),
    /// Its layer mask, checked to fit 32 bits by the reader.
    Layers(u64),
    /// Its name, flags and layers at once: a positional format's fixed
    /// fields, read in one go.
    Fixed {
        name: Option<NameRef<'a>>,
        enabled: bool,
        killed: bool,
        layers: u64,
    },
    /// Its children's saved ids come next: the reader reads them as a
    /// list ([`List::Children`]).
    Children,
    /// Its components come next.
    Components,
}

/// An entity's name as a file gives it.
pub(super) enum NameRef<'a> {
    Text(Cow<'a, str>),
    /// Interned already (a names table's entry).
    Interned(u32),
}

/// A component type resolved once per load.
#[derive(Clone, Copy)]
pub(super) struct Known {
    pub(super) ty: TypeIdx,
    /// Its readers (the catalog's own, so a copy of `Known` is small).
    pub(super) fns: &'static DeserializeFns,
}

/// Where one of an entity's values goes, and how to read it.
#[derive(Clone, Copy)]
pub(super) struct Column {
    pub(super) kind: Known,
    pub(super) place: Place,
}

/// A component as its decoder read it, before its value (unless
/// `pushed`).
#[derive(Clone, Copy)]
pub(super) struct Head {
    pub(super) kind: Known,
    pub(super) enabled: bool,
    /// Its value is already in the guessed column ([`EntryCx::guess`]).
    pub(super) pushed: bool,
}

/// What a decoder reads a component with.
pub(super) struct EntryCx<'c> {
    pub(super) world: &'c mut World,
    pub(super) types: &'c mut Types,
    /// The column this component's value goes into if it is of the
    /// previous entity's type at its place: a decoder whose value follows
    /// its type reads it in on the spot.
    pub(super) guess: Option<Column>,
}

/// The component types a load has resolved, by name and by index.
#[derive(Default)]
pub(super) struct Types {
    /// Each name as the file spells it, resolved.
    pub(super) named: Vec<(Vec<u8>, Known)>,
    /// The types table of a format that lists types once (see
    /// [`Part::Types`]), by index.
    pub(super) table: Vec<Known>,
}
