//! Tables: entities that hold the same component types in the same order
//! share one table, and each of their components sits at the entity's row
//! of that type's segment. An entity's bookkeeping is one `(table, row)`
//! pair however many components it holds, and a row's owner is stored once
//! per entity rather than once per component.

use std::collections::HashMap;
use std::ops::Deref;

use crate::entity::{CompRef, TypeIdx};
use crate::world::World;

/// One component of a table's layout: its concrete type and the segment of
/// that type's column holding the table's rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    pub ty: TypeIdx,
    pub seg: u32,
}

/// The entities that hold exactly one sequence of component types.
pub(crate) struct Table {
    /// Component types in insertion order, each with its segment.
    pub layout: Box<[Place]>,
    /// Bit `t` is set when some component of the layout is-a type `t`: the
    /// single-rule check of `add` clears a whole parent chain with one AND
    /// per word of bits.
    pub isa: Box<[u64]>,
    /// By type index: where the first component that is-a that type sits,
    /// so `get` and its is-a rule are one load wherever the component is in
    /// the layout. Types registered after the table are past the end: they
    /// cannot be ancestors of its types, which are registered after their
    /// own ancestors.
    pub first: Box<[FirstIsa]>,
    /// The entity at each row.
    pub owners: Vec<u32>,
    /// Cached moves: the table reached by appending a type.
    adding: Vec<(TypeIdx, u32)>,
    /// Cached moves: the table reached by removing the component at a position.
    removing: Vec<(u32, u32)>,
}

/// One entry of [`Table::first`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FirstIsa {
    /// One plus the position in the layout; 0 when no component is-a the type.
    pos: u32,
    /// How far up its chain the component's type meets the type (0: it is
    /// the type), which says where inside the component that part sits.
    level: u32,
    place: Place,
}

/// Every table of a world; table 0 is the empty layout new entities start in.
pub(crate) struct Tables {
    list: Vec<Table>,
    by_layout: HashMap<Box<[TypeIdx]>, u32>,
}

/// The empty layout's table.
pub(crate) const EMPTY_TABLE: u32 = 0;

impl Default for Tables {
    fn default() -> Self {
        let mut by_layout = HashMap::new();
        by_layout.insert(Box::default(), EMPTY_TABLE);
        Tables {
            list: vec![Table {
                layout: Box::default(),
                isa: Box::default(),
                first: Box::default(),
                owners: Vec::new(),
                adding: Vec::new(),
                removing: Vec::new(),
            }],
            by_layout,
        }
    }
}

impl Table {
    /// The position of the first component that is-a type `t`.
    #[inline]
    pub fn position_of(&self, t: TypeIdx) -> Option<usize> {
        match self.first.get(t as usize) {
            Some(f) if f.pos != 0 => Some(f.pos as usize - 1),
            _ => None,
        }
    }

    /// The position of the first component of exactly type `t`.
    #[inline]
    pub fn position_exact(&self, t: TypeIdx) -> Option<usize> {
        match self.first.get(t as usize) {
            // No component before it is-a `t`, so none is exactly `t`.
            Some(f) if f.pos != 0 && f.place.ty == t => Some(f.pos as usize - 1),
            Some(f) if f.pos != 0 => self.layout.iter().position(|p| p.ty == t),
            _ => None,
        }
    }

    /// The first component that is-a type `t`.
    #[inline]
    pub fn first_isa(&self, t: TypeIdx) -> Option<Place> {
        match self.first.get(t as usize) {
            Some(f) if f.pos != 0 => Some(f.place),
            _ => None,
        }
    }

    /// The first component that is-a type `t`, with the chain level at
    /// which its type meets `t`.
    #[inline]
    pub fn first_isa_level(&self, t: TypeIdx) -> Option<(Place, usize)> {
        match self.first.get(t as usize) {
            Some(f) if f.pos != 0 => Some((f.place, f.level as usize)),
            _ => None,
        }
    }
}

impl Tables {
    /// Makes room for `additional` more owners in `table`.
    pub fn reserve_owners(&mut self, table: u32, additional: usize) {
        self.list[table as usize].owners.reserve(additional);
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
    row: u32,
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

impl World {
    /// How many tables the world has made, the empty layout's included: one
    /// per distinct sequence of component types any entity has held. Tables
    /// live as long as the world, so a count that keeps growing points at
    /// entities gathering components one `add` at a time.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// assert_eq!(world.table_count(), 1); // the empty layout
    /// world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// world.spawn_with((Position(5.0), Velocity(2.0)))?; // same layout, same table
    /// assert_eq!(world.table_count(), 2);
    /// world.spawn_with((Velocity(1.0), Position(0.0)))?; // order counts
    /// assert_eq!(world.table_count(), 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// The components of entity `index`, in insertion order.
    #[inline]
    pub(crate) fn comps(&self, index: u32) -> Comps<'_> {
        let slot = &self.entities[index as usize];
        Comps {
            places: self.tables[slot.table as usize].layout.iter(),
            row: slot.row,
        }
    }

    /// No components: what lookups of a type the world never saw scan.
    #[inline]
    pub(crate) fn comps_none(&self) -> Comps<'_> {
        Comps {
            places: [].iter(),
            row: 0,
        }
    }

    /// The layout of entity `index`'s table.
    #[inline]
    pub(crate) fn layout_of(&self, index: u32) -> &[Place] {
        &self.tables[self.entities[index as usize].table as usize].layout
    }

    /// How many components entity `index` holds.
    #[inline]
    pub(crate) fn comp_count(&self, index: u32) -> usize {
        self.layout_of(index).len()
    }

    /// The component at position `pos` of entity `index`.
    #[inline]
    pub(crate) fn comp_at(&self, index: u32, pos: usize) -> CompRef {
        let slot = &self.entities[index as usize];
        let place = self.tables[slot.table as usize].layout[pos];
        CompRef {
            ty: place.ty,
            seg: place.seg,
            row: slot.row,
        }
    }

    /// The table holding `types` in this order, created on first use. Every
    /// type must have a column.
    pub(crate) fn table_for(&mut self, types: &[TypeIdx]) -> u32 {
        if let Some(&table) = self.tables.by_layout.get(types) {
            return table;
        }
        let table = self.tables.list.len() as u32;
        let layout: Box<[Place]> = types
            .iter()
            .map(|&ty| Place {
                ty,
                seg: self.columns[ty as usize]
                    .as_mut()
                    .expect("a stored type has a column")
                    .add_segment(table),
            })
            .collect();
        let mut isa: Vec<u64> = Vec::new();
        for &ty in types {
            let bits = &self.types[ty as usize].is_a_bits;
            if isa.len() < bits.len() {
                isa.resize(bits.len(), 0);
            }
            for (word, &b) in isa.iter_mut().zip(bits.iter()) {
                *word |= b;
            }
        }
        let mut first: Vec<FirstIsa> = Vec::new();
        for (pos, place) in layout.iter().enumerate() {
            let info = &self.types[place.ty as usize];
            let chain = std::iter::once(&place.ty).chain(info.ancestors.iter());
            for (level, &t) in chain.enumerate() {
                if first.len() <= t as usize {
                    first.resize(t as usize + 1, FirstIsa::default());
                }
                if first[t as usize].pos == 0 {
                    first[t as usize] = FirstIsa {
                        pos: pos as u32 + 1,
                        level: level as u32,
                        place: *place,
                    };
                }
            }
        }
        self.tables.list.push(Table {
            layout,
            isa: isa.into_boxed_slice(),
            first: first.into_boxed_slice(),
            owners: Vec::new(),
            adding: Vec::new(),
            removing: Vec::new(),
        });
        self.tables.by_layout.insert(types.into(), table);
        table
    }

    /// The table of `from`'s layout with `ty` appended.
    pub(crate) fn table_adding(&mut self, from: u32, ty: TypeIdx) -> u32 {
        let cached = self.tables[from as usize].adding.iter().find(|e| e.0 == ty);
        if let Some(&(_, to)) = cached {
            return to;
        }
        let types: Vec<TypeIdx> = self.tables[from as usize]
            .layout
            .iter()
            .map(|p| p.ty)
            .chain([ty])
            .collect();
        let to = self.table_for(&types);
        self.tables.list[from as usize].adding.push((ty, to));
        to
    }

    /// The table of `from`'s layout without its component at `pos`.
    pub(crate) fn table_removing(&mut self, from: u32, pos: usize) -> u32 {
        let cached = self.tables[from as usize]
            .removing
            .iter()
            .find(|e| e.0 as usize == pos);
        if let Some(&(_, to)) = cached {
            return to;
        }
        let layout = &self.tables[from as usize].layout;
        let types: Vec<TypeIdx> = layout[..pos]
            .iter()
            .chain(&layout[pos + 1..])
            .map(|p| p.ty)
            .collect();
        let to = self.table_for(&types);
        self.tables.list[from as usize]
            .removing
            .push((pos as u32, to));
        to
    }

    /// Appends entity `index` to `table`'s owners and points its slot there;
    /// the caller pushes one value onto each of the table's segments.
    #[inline]
    pub(crate) fn enter_table(&mut self, index: u32, table: u32) -> u32 {
        let owners = &mut self.tables.list[table as usize].owners;
        let row = owners.len() as u32;
        owners.push(index);
        let slot = &mut self.entities[index as usize];
        slot.table = table;
        slot.row = row;
        row
    }

    /// Removes entity `index` from its table's owners once every segment of
    /// the table has dropped or moved the entity's row; the table's last
    /// entity takes that row.
    #[inline]
    pub(crate) fn leave_table(&mut self, index: u32) {
        let slot = &self.entities[index as usize];
        let (table, row) = (slot.table, slot.row);
        let owners = &mut self.tables.list[table as usize].owners;
        owners.swap_remove(row as usize);
        if let Some(&moved) = owners.get(row as usize) {
            self.entities[moved as usize].row = row;
        }
    }

    /// Moves entity `index`'s row of each segment whose position `pick`
    /// picks into that column's trash, and notes the column for
    /// [`World::empty_trash`]. The table's owners are left to the caller.
    pub(crate) fn trash_rows_of(&mut self, index: u32, pick: impl Fn(usize) -> bool) {
        let slot = &self.entities[index as usize];
        let World {
            tables,
            columns,
            trashed,
            ..
        } = self;
        for (pos, place) in tables[slot.table as usize].layout.iter().enumerate() {
            if !pick(pos) {
                continue;
            }
            if let Some(column) = columns[place.ty as usize].as_mut() {
                column.trash_row(place.seg, slot.row);
                if !trashed.contains(&place.ty) {
                    trashed.push(place.ty);
                }
            }
        }
    }

    /// Takes back a row that entity `index` entered last in its table with
    /// only its first `filled` components pushed: those go to the trash and
    /// the entity is left with no components, in the empty table.
    pub(crate) fn abandon_row(&mut self, index: u32, filled: usize) {
        let table = self.entities[index as usize].table;
        self.trash_rows_of(index, |pos| pos < filled);
        let owners = &mut self.tables.list[table as usize].owners;
        debug_assert_eq!(owners.last(), Some(&index));
        owners.pop();
        self.enter_table(index, EMPTY_TABLE);
    }

    /// Moves every component of entity `index` except the one at `skip`
    /// (which the caller has already taken out of its segment) to table
    /// `to`, whose layout is the entity's layout without `skip`, possibly
    /// with more types appended for the caller to push.
    #[inline]
    pub(crate) fn relocate(&mut self, index: u32, to: u32, skip: Option<usize>) {
        match skip {
            Some(pos) => self.relocate_skipping(index, to, |p| p == pos),
            None => self.relocate_skipping(index, to, |_| false),
        }
    }

    /// Removes the components of entity `index` at the positions `doomed`
    /// picks, into their columns' trash, and moves the rest to the table of
    /// the remaining layout in one step (so clearing a long entity makes
    /// one table, not one per component).
    pub(crate) fn trash_where(&mut self, index: u32, doomed: impl Fn(usize) -> bool) {
        let layout = self.layout_of(index);
        let kept: Vec<TypeIdx> = (0..layout.len())
            .filter(|&pos| !doomed(pos))
            .map(|pos| layout[pos].ty)
            .collect();
        if kept.len() == layout.len() {
            return;
        }
        let to = self.table_for(&kept);
        self.trash_rows_of(index, &doomed);
        self.relocate_skipping(index, to, doomed);
    }

    /// [`World::relocate`] skipping every position `skip` picks (already
    /// taken out of their segments by the caller).
    fn relocate_skipping(&mut self, index: u32, to: u32, skip: impl Fn(usize) -> bool) {
        let slot = &self.entities[index as usize];
        let (from, row) = (slot.table, slot.row);
        let World {
            tables, columns, ..
        } = self;
        let source = &tables[from as usize].layout;
        let target = &tables[to as usize].layout;
        // The target holds the kept places in order, then maybe more.
        let kept = source
            .iter()
            .enumerate()
            .filter(|&(pos, _)| !skip(pos))
            .map(|(_, place)| place);
        for (place, dest) in kept.zip(target.iter()) {
            debug_assert_eq!(dest.ty, place.ty);
            if let Some(column) = columns[place.ty as usize].as_mut() {
                column.move_row(place.seg, row, dest.seg);
            }
        }
        self.leave_table(index);
        self.enter_table(index, to);
    }
}
