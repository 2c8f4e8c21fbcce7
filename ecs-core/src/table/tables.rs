//! Tables: entities that hold the same component types in the same order
//! share one table, and each of their components sits at the entity's row
//! of that type's segment. An entity's bookkeeping is one `(table, row)`
//! pair however many components it holds, and a row's owner is stored once
//! per entity rather than once per component.

use std::collections::HashMap;
use std::ops::Deref;

use crate::entity::{CompRef, EntityIndex, RowId, SegId, TableId, TypeIdx};
use crate::table::Storage;

/// One component of a table's layout: its concrete type and the segment
/// holding the table's rows of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    pub ty: TypeIdx,
    pub seg: SegId,
}

/// A component of a table that is-a some type, with the chain level at
/// which its type meets that type.
pub(crate) type IsaMatch = (Place, u32);

/// The entities that hold exactly one sequence of component types.
#[derive(Clone)]
pub(crate) struct Table {
    /// Component types in insertion order, each with its segment.
    pub(super) layout: Box<[Place]>,
    /// Bit `t` is set when some component of the layout is-a type `t`: the
    /// single-rule check of `add` clears a whole parent chain with one AND
    /// per word of bits.
    pub(super) isa: Box<[u64]>,
    /// The entity at each row.
    pub(super) owners: Vec<EntityIndex>,
    /// Each row's entity's parent link (as
    /// [`Entities::parent_link`](crate::entity::Entities::parent_link)
    /// gives it), kept beside the owners so that a query term reading up
    /// the tree walks it as one more array, with no lookup per row.
    pub(super) links: Vec<EntityIndex>,
    /// How many of those entities are disabled or killed: while none is,
    /// a query skips the per-row check.
    pub(super) inactive: u32,
    /// For each type some component of the layout is-a, every such
    /// component in layout order with the chain level at which its type
    /// meets that type; the is-a index names each type's run.
    pub(super) matches: Box<[IsaMatch]>,
    /// Cached moves: the table reached by appending a type.
    pub(super) adding: Vec<(TypeIdx, TableId)>,
    /// Cached moves: the table reached by removing the component at a position.
    pub(super) removing: Vec<(usize, TableId)>,
}

/// Where the first component of a table that is-a some type sits: one
/// entry of the storage's is-a index, by type then by table.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FirstIsa {
    /// One plus the position in the layout; 0 when no component is-a the type.
    pos: u32,
    /// How far up its chain the component's type meets the type (0: it is
    /// the type), which says where inside the component that part sits.
    level: u32,
    place: Place,
    /// This type's run in the table's `matches`.
    start: u32,
    count: u32,
}

/// Every table of a world; table 0 is the empty layout new entities start in.
#[derive(Clone)]
pub(crate) struct Tables {
    pub(super) list: Vec<Table>,
    pub(super) by_layout: HashMap<Box<[TypeIdx]>, TableId>,
    /// Slots of `list` whose tables were reclaimed, reused by the next
    /// tables made (see [`Storage::reclaim_empty_tables`]).
    pub(super) vacant: Vec<TableId>,
    /// The weight of the tables in use, the empty layout's aside: one per
    /// table and one per segment (see [`Table::weight`]), what their
    /// memory is proportional to.
    pub(super) weight: usize,
    /// The weight of those that hold no entity: what reclaiming would give
    /// back.
    pub(super) empty_weight: usize,
    /// Changes whenever a table id stops naming the table it named (a
    /// table reclaimed or its slot reused), so what was derived from ids
    /// (query plans) is rebuilt rather than updated.
    pub(super) epoch: u64,
}

/// The empty layout's table.
pub(crate) const EMPTY_TABLE: TableId = TableId(0);

impl Default for Tables {
    fn default() -> Self {
        let mut by_layout = HashMap::new();
        by_layout.insert(Box::default(), EMPTY_TABLE);
        Tables {
            // The empty layout's table: as a vacant slot, no layout.
            list: vec![Table::vacant()],
            by_layout,
            vacant: Vec::new(),
            weight: 0,
            empty_weight: 0,
            epoch: 0,
        }
    }
}

impl Table {
    /// What stands in a slot no table uses: no layout, no entity.
    pub(super) fn vacant() -> Self {
        Table {
            layout: Box::default(),
            isa: Box::default(),
            owners: Vec::new(),
            links: Vec::new(),
            inactive: 0,
            matches: Box::default(),
            adding: Vec::new(),
            removing: Vec::new(),
        }
    }

    /// What the table counts for in [`Tables::weight`]: the table itself
    /// and each of its segments.
    #[inline]
    pub(super) fn weight(&self) -> usize {
        1 + self.layout.len()
    }

    /// Component types in insertion order, each with its segment.
    #[inline]
    pub fn layout(&self) -> &[Place] {
        &self.layout
    }

    /// The entity at each row.
    #[inline]
    pub fn owners(&self) -> &[EntityIndex] {
        &self.owners
    }

    /// Each row's entity's parent link
    /// ([`Entities::NO_PARENT`](crate::entity::Entities::NO_PARENT) for
    /// none).
    #[inline]
    pub fn parent_links(&self) -> &[EntityIndex] {
        &self.links
    }

    /// Whether some entity of the table is disabled or killed.
    #[inline]
    pub fn any_inactive(&self) -> bool {
        self.inactive != 0
    }

    /// Whether some component of the layout is-a something `info` is-a:
    /// the one-AND-per-word test that clears most single-rule checks.
    #[inline]
    pub fn overlaps(&self, info: &super::TypeInfo) -> bool {
        self.isa
            .iter()
            .zip(info.is_a_bits())
            .any(|(a, b)| a & b != 0)
    }

    /// The components of the entity at `row`, in insertion order.
    #[inline]
    pub fn comps(&self, row: RowId) -> Comps<'_> {
        Comps {
            places: self.layout.iter(),
            row,
        }
    }
}

impl Tables {
    /// Makes room for `additional` more owners in `table`.
    pub fn reserve_owners(&mut self, table: TableId, additional: usize) {
        let table = &mut self.list[table.index()];
        table.owners.reserve(additional);
        table.links.reserve(additional);
    }
}

impl Deref for Tables {
    type Target = [Table];
    fn deref(&self) -> &[Table] {
        &self.list
    }
}

/// An entity's components in insertion order.
#[derive(Clone)]
pub(crate) struct Comps<'w> {
    places: std::slice::Iter<'w, Place>,
    row: RowId,
}

impl Iterator for Comps<'_> {
    type Item = CompRef;
    #[inline]
    fn next(&mut self) -> Option<CompRef> {
        self.places.next().map(|p| CompRef {
            ty: p.ty,
            seg: p.seg,
            row: self.row,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.places.size_hint()
    }
}

impl DoubleEndedIterator for Comps<'_> {
    fn next_back(&mut self) -> Option<CompRef> {
        self.places.next_back().map(|p| CompRef {
            ty: p.ty,
            seg: p.seg,
            row: self.row,
        })
    }
}

impl ExactSizeIterator for Comps<'_> {}

impl FirstIsa {
    /// The entry, when a component is-a the type.
    #[inline(always)]
    fn found(self) -> Option<Self> {
        (self.pos != 0).then_some(self)
    }
}

impl Storage {
    /// Table `table`'s entry in the is-a index of type `t`. The index is
    /// kept by type, then by table, so the load that depends on the entity
    /// (its table) is the last one: the type's row is found in parallel.
    #[inline(always)]
    fn first_entry(&self, table: TableId, t: TypeIdx) -> Option<FirstIsa> {
        self.first.get(t.index())?.get(table.index())?.found()
    }

    /// The position in `table`'s layout of the first component that is-a
    /// type `t`.
    #[inline]
    pub fn position_of(&self, table: TableId, t: TypeIdx) -> Option<usize> {
        self.first_entry(table, t).map(|f| f.pos as usize - 1)
    }

    /// The position of the first component of exactly type `t`.
    #[inline]
    pub fn position_exact(&self, table: TableId, t: TypeIdx) -> Option<usize> {
        let f = self.first_entry(table, t)?;
        if f.place.ty == t {
            return Some(f.pos as usize - 1);
        }
        // The first is-a `t` is a derived type; an exact one may follow.
        self.tables[table.index()]
            .layout
            .iter()
            .position(|p| p.ty == t)
    }

    /// Every component of `table` that is-a type `t`, in layout order, with
    /// the chain level at which its type meets `t`.
    #[inline]
    pub fn all_isa(&self, table: TableId, t: TypeIdx) -> &[IsaMatch] {
        match self.first_entry(table, t) {
            Some(f) => {
                let start = f.start as usize;
                &self.tables[table.index()].matches[start..start + f.count as usize]
            }
            None => &[],
        }
    }

    /// The first component of `table` that is-a type `t`, with the chain
    /// level at which its type meets `t`.
    #[inline(always)]
    pub fn first_isa_level(&self, table: TableId, t: TypeIdx) -> Option<(Place, usize)> {
        self.first_entry(table, t)
            .map(|f| (f.place, f.level as usize))
    }

    /// The table holding `types` in this order, created on first use. Every
    /// type must have a column.
    pub(crate) fn table_for(&mut self, types: &[TypeIdx]) -> TableId {
        if let Some(&table) = self.tables.by_layout.get(types) {
            return table;
        }
        let table = match self.tables.vacant.pop() {
            Some(slot) => {
                self.tables.epoch += 1;
                slot
            }
            None => {
                self.tables.list.push(Table::vacant());
                TableId::from_index(self.tables.list.len() - 1)
            }
        };
        let layout: Box<[Place]> = types
            .iter()
            .map(|&ty| Place {
                ty,
                seg: self.add_segment(ty, table),
            })
            .collect();
        let mut isa: Vec<u64> = Vec::new();
        for &ty in types {
            let bits = &self.types.info(ty).is_a_bits();
            if isa.len() < bits.len() {
                isa.resize(bits.len(), 0);
            }
            for (word, &b) in isa.iter_mut().zip(bits.iter()) {
                *word |= b;
            }
        }
        // Each type's matches, grouped by type in order of first match.
        let mut runs: Vec<(TypeIdx, usize, Vec<IsaMatch>)> = Vec::new();
        for (pos, place) in layout.iter().enumerate() {
            let info = self.types.info(place.ty);
            let chain = std::iter::once(&place.ty).chain(info.ancestors().iter());
            for (level, &t) in chain.enumerate() {
                let level = u32::try_from(level).expect("a key chain is at most 16 deep");
                match runs.iter_mut().find(|run| run.0 == t) {
                    Some(run) => run.2.push((*place, level)),
                    None => runs.push((t, pos, vec![(*place, level)])),
                }
            }
        }
        let mut matches = Vec::new();
        for (t, pos, run) in runs {
            if self.first.len() <= t.index() {
                self.first.resize_with(t.index() + 1, Vec::new);
            }
            let by_table = &mut self.first[t.index()];
            if by_table.len() <= table.index() {
                by_table.resize(table.index() + 1, FirstIsa::default());
            }
            let (place, level) = run[0];
            let fits = "a table holds fewer than 2^32 components";
            by_table[table.index()] = FirstIsa {
                pos: u32::try_from(pos + 1).expect(fits),
                level,
                place,
                start: u32::try_from(matches.len()).expect(fits),
                count: u32::try_from(run.len()).expect(fits),
            };
            matches.extend(run);
        }
        self.tables.list[table.index()] = Table {
            layout,
            isa: isa.into_boxed_slice(),
            owners: Vec::new(),
            links: Vec::new(),
            inactive: 0,
            matches: matches.into_boxed_slice(),
            adding: Vec::new(),
            removing: Vec::new(),
        };
        self.tables.by_layout.insert(types.into(), table);
        let weight = self.tables.list[table.index()].weight();
        self.tables.weight += weight;
        self.tables.empty_weight += weight;
        table
    }

    /// Adds an empty segment of `ty` (which has a column) for `table`, in a
    /// reclaimed segment's slot when there is one.
    fn add_segment(&mut self, ty: TypeIdx, table: TableId) -> SegId {
        let column = self.columns[ty.index()]
            .as_mut()
            .expect("a stored type has a column");
        let segment = crate::table::Segment::new(column.vtable().erased(), table, ty);
        let seg = match self.vacant_segments.pop() {
            Some(seg) => {
                self.segments[seg.index()] = segment;
                seg
            }
            None => {
                self.segments.push(segment);
                SegId::from_index(self.segments.len() - 1)
            }
        };
        column.segs.push(seg);
        seg
    }

    /// The table of `from`'s layout with `ty` appended.
    #[inline]
    pub(crate) fn table_adding(&mut self, from: TableId, ty: TypeIdx) -> TableId {
        let cached = self.tables[from.index()].adding.iter().find(|e| e.0 == ty);
        match cached {
            Some(&(_, to)) => to,
            None => self.make_table_adding(from, ty),
        }
    }

    /// [`Storage::table_adding`] the first time: the table is found or
    /// made, and the edge kept.
    #[cold]
    #[inline(never)]
    fn make_table_adding(&mut self, from: TableId, ty: TypeIdx) -> TableId {
        let types: Vec<TypeIdx> = self.tables[from.index()]
            .layout
            .iter()
            .map(|p| p.ty)
            .chain([ty])
            .collect();
        let to = self.table_for(&types);
        self.tables.list[from.index()].adding.push((ty, to));
        to
    }

    /// The table of `from`'s layout without its component at `pos`.
    #[inline]
    pub(crate) fn table_removing(&mut self, from: TableId, pos: usize) -> TableId {
        let cached = self.tables[from.index()]
            .removing
            .iter()
            .find(|e| e.0 == pos);
        match cached {
            Some(&(_, to)) => to,
            None => self.make_table_removing(from, pos),
        }
    }

    /// [`Storage::table_removing`] the first time: the table is found or
    /// made, and the edge kept.
    #[cold]
    #[inline(never)]
    fn make_table_removing(&mut self, from: TableId, pos: usize) -> TableId {
        let layout = &self.tables[from.index()].layout;
        let types: Vec<TypeIdx> = layout[..pos]
            .iter()
            .chain(&layout[pos + 1..])
            .map(|p| p.ty)
            .collect();
        let to = self.table_for(&types);
        self.tables.list[from.index()].removing.push((pos, to));
        to
    }
}
