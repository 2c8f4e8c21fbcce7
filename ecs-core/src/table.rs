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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    pub ty: TypeIdx,
    pub seg: u32,
}

/// The entities that hold exactly one sequence of component types.
pub(crate) struct Table {
    /// Component types in insertion order, each with its segment.
    pub layout: Box<[Place]>,
    /// The entity at each row.
    pub owners: Vec<u32>,
    /// Cached moves: the table reached by appending a type.
    adding: Vec<(TypeIdx, u32)>,
    /// Cached moves: the table reached by removing the component at a position.
    removing: Vec<(u32, u32)>,
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
                owners: Vec::new(),
                adding: Vec::new(),
                removing: Vec::new(),
            }],
            by_layout,
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
        let layout = types
            .iter()
            .map(|&ty| Place {
                ty,
                seg: self.columns[ty as usize]
                    .as_mut()
                    .expect("a stored type has a column")
                    .add_segment(table),
            })
            .collect();
        self.tables.list.push(Table {
            layout,
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

    /// Moves every component of entity `index` except the one at `skip`
    /// (which the caller has already taken out of its segment) to table
    /// `to`, whose layout is the entity's layout without `skip`, possibly
    /// with more types appended for the caller to push.
    pub(crate) fn relocate(&mut self, index: u32, to: u32, skip: Option<usize>) {
        let slot = &self.entities[index as usize];
        let (from, row) = (slot.table, slot.row);
        let World {
            tables, columns, ..
        } = self;
        let source = &tables[from as usize].layout;
        let target = &tables[to as usize].layout;
        let mut next = 0;
        for (pos, place) in source.iter().enumerate() {
            if Some(pos) == skip {
                continue;
            }
            let dest = target[next];
            debug_assert_eq!(dest.ty, place.ty);
            next += 1;
            columns[place.ty as usize]
                .as_mut()
                .expect("a stored type has a column")
                .move_row(place.seg, row, dest.seg);
        }
        self.leave_table(index);
        self.enter_table(index, to);
    }
}
