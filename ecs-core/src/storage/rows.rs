//! Typed reads: one component at an entity's location, and every component
//! that is-a `T` across the world. A derived type's values are read at the
//! parent part's offset, so a base-type read costs what an exact one does.

use crate::entity::{CompRef, EntitySlot, RowId, SegId, TableId, TypeIdx};
use crate::storage::{has_bit, Column, Row, Storage};
use crate::Component;

impl Storage {
    /// The first component that is-a `T` of the entity whose slot is `slot`.
    #[inline(always)]
    pub fn find<T: Component>(&self, slot: &EntitySlot) -> Option<&T> {
        self.find_at(slot.table, slot.row)
    }

    /// The first component that is-a `T` of the entity at `row` of `table`.
    #[inline(always)]
    pub fn find_at<T: Component>(&self, table: TableId, row: RowId) -> Option<&T> {
        let t = self.types.table_key_of::<T>()?;
        // `T`'s own column is found from `T` alone, while the entity's
        // table is still being read: for an exact hit (level 0, the common
        // case) the segment then waits on one load, not two. A derived hit
        // looks its column up from the index entry.
        let own = self.columns.get(t.index());
        let (place, level) = self.first_isa_level(table, t)?;
        let column = if level == 0 {
            own
        } else {
            self.columns.get(place.ty.index())
        };
        // Were the entry wrong, the segment's type check refuses the read.
        column?
            .as_ref()?
            .segs
            .get(place.seg.index())?
            .get_as(row, level)
    }

    /// Every component that is-a `T` of the entity at `row` of `table`, in
    /// insertion order. The walk starts at the first match the is-a index
    /// names, and each later component costs one bit test.
    pub fn find_all_at<T: Component>(
        &self,
        table: TableId,
        row: RowId,
    ) -> impl Iterator<Item = &T> + '_ {
        let found = self
            .type_idx::<T>()
            .and_then(|t| Some((t, self.position_of(table, t)?)));
        let (t, places, bits) = match found {
            Some((t, first)) => (
                t,
                &self.tables[table.index()].layout[first..],
                self.types.info(t).descendant_bits(),
            ),
            None => (TypeIdx(0), &[][..], &[][..]),
        };
        places
            .iter()
            .filter(move |p| has_bit(bits, p.ty))
            .filter_map(move |p| {
                let level = self.types.level_of::<T>(p.ty, t)?;
                self.columns[p.ty.index()]
                    .as_ref()?
                    .segs
                    .get(p.seg.index())?
                    .get_as(row, level)
            })
    }

    /// Mutable twin of [`Storage::find`].
    #[inline(always)]
    pub fn find_mut<T: Component>(&mut self, slot: &EntitySlot) -> Option<&mut T> {
        let t = self.types.table_key_of::<T>()?;
        let (place, level) = self.first_isa_level(slot.table, t)?;
        self.columns[place.ty.index()].as_mut()?.segs[place.seg.index()].get_as_mut(slot.row, level)
    }

    /// The component `comp` (which is-a `T`, index `t`) as a `T`.
    #[inline]
    pub fn view_as<T: Component>(&self, comp: CompRef, t: TypeIdx) -> Option<&T> {
        let level = self.types.level_of::<T>(comp.ty, t)?;
        self.columns[comp.ty.index()].as_ref()?.segs[comp.seg.index()].get_as(comp.row, level)
    }

    /// The component `comp` as a `T` found at chain level `level` of its
    /// type (what the is-a index gives: no search of the chain).
    #[inline]
    pub fn at_level<T: Component>(&self, comp: CompRef, level: usize) -> Option<&T> {
        self.columns[comp.ty.index()].as_ref()?.segs[comp.seg.index()].get_as(comp.row, level)
    }

    /// Mutable twin of [`Storage::at_level`].
    #[inline]
    pub fn at_level_mut<T: Component>(&mut self, comp: CompRef, level: usize) -> Option<&mut T> {
        self.columns[comp.ty.index()].as_mut()?.segs[comp.seg.index()].get_as_mut(comp.row, level)
    }

    /// Mutable twin of [`Storage::view_as`].
    #[inline]
    pub fn view_as_mut<T: Component>(&mut self, comp: CompRef, t: TypeIdx) -> Option<&mut T> {
        let level = self.types.level_of::<T>(comp.ty, t)?;
        self.columns[comp.ty.index()].as_mut()?.segs[comp.seg.index()].get_as_mut(comp.row, level)
    }

    /// Several components of one entity (its `row`) as `T`s, each
    /// `(type, segment)` distinct, in the order given.
    pub fn views_as_mut<T: Component>(
        &mut self,
        t: TypeIdx,
        row: RowId,
        wanted: &[(TypeIdx, SegId)],
    ) -> Vec<&mut T> {
        let mut order: Vec<(usize, TypeIdx, SegId)> = wanted
            .iter()
            .enumerate()
            .map(|(pos, &(ty, seg))| (pos, ty, seg))
            .collect();
        order.sort_unstable_by_key(|&(_, ty, seg)| (ty, seg));
        let mut found: Vec<(usize, &mut T)> = Vec::with_capacity(order.len());
        let mut order = order.into_iter().peekable();
        for (ty, column) in self.columns.iter_mut().enumerate() {
            let Some(column) = column.as_mut() else {
                continue;
            };
            let level = self.types.level_of::<T>(TypeIdx::from_index(ty), t);
            // Disjoint segments of one column, borrowed one by one.
            let mut segs = column.segs.iter_mut().enumerate();
            while let Some(&(pos, wty, seg)) = order.peek() {
                if wty.index() != ty {
                    break;
                }
                order.next();
                let segment = segs.find(|(s, _)| *s == seg.index()).map(|(_, s)| s);
                if let Some(value) = segment
                    .zip(level)
                    .and_then(|(segment, level)| segment.get_as_mut::<T>(row, level))
                {
                    found.push((pos, value));
                }
            }
        }
        found.sort_unstable_by_key(|(pos, _)| *pos);
        found.into_iter().map(|(_, value)| value).collect()
    }

    /// Every component that is-a `T`, with its owner and meta word: first
    /// `T`'s own column, table by table, then the columns of types derived
    /// from `T` in registration order.
    pub fn rows<T: Component>(&self) -> impl Iterator<Item = Row<&T>> + '_ {
        let t = self.type_idx::<T>();
        let exact = t
            .and_then(|t| self.try_column(t))
            .map(|column| column.rows_as::<T>(&self.tables, 0))
            .into_iter()
            .flatten();
        let derived = self.derived_columns(t).flat_map(|column| {
            let level = column.level_of::<T>();
            level
                .map(|level| column.rows_as::<T>(&self.tables, level))
                .into_iter()
                .flatten()
        });
        exact.chain(derived)
    }

    /// Mutable twin of [`Storage::rows`].
    pub fn rows_mut<T: Component>(&mut self) -> impl Iterator<Item = Row<&mut T>> + '_ {
        let t = self.type_idx::<T>();
        let Storage {
            types,
            columns,
            tables,
            ..
        } = self;
        let tables: &[crate::storage::Table] = tables;
        let mut exact = None;
        let mut derived = Vec::new();
        for (ty, column) in columns.iter_mut().enumerate() {
            let (Some(t), Some(column)) = (t, column.as_mut()) else {
                continue;
            };
            let ty = TypeIdx::from_index(ty);
            if ty == t {
                exact = Some(column);
            } else if types.info(ty).is_a(ty, t) {
                if let Some(level) = column.level_of::<T>() {
                    derived.push((column, level));
                }
            }
        }
        let exact = exact
            .into_iter()
            .flat_map(|column| column.rows_as_mut::<T>(tables, 0));
        let derived = derived
            .into_iter()
            .flat_map(|(column, level)| column.rows_as_mut::<T>(tables, level));
        exact.chain(derived)
    }

    /// Calls `f` on every component that is-a `T`, in [`Storage::rows`]
    /// order.
    pub fn for_each_mut<T: Component>(&mut self, mut f: impl FnMut(&mut T)) {
        let Some(t) = self.type_idx::<T>() else {
            return;
        };
        let Storage { types, columns, .. } = self;
        // Ancestors are registered before their descendants, so `T`'s own
        // column comes first, as in `rows`.
        for (ty, column) in columns.iter_mut().enumerate() {
            let Some(column) = column.as_mut() else {
                continue;
            };
            let ty = TypeIdx::from_index(ty);
            if ty == t {
                for seg in &mut column.segs {
                    seg.values_mut::<T>().iter_mut().for_each(&mut f);
                }
            } else if types.info(ty).is_a(ty, t) {
                if let Some(level) = column.level_of::<T>() {
                    column.values_as_mut::<T>(level).for_each(&mut f);
                }
            }
        }
    }

    /// Columns of every registered type strictly derived from `t`.
    fn derived_columns(&self, t: Option<TypeIdx>) -> impl Iterator<Item = &Column> {
        self.columns
            .iter()
            .enumerate()
            .filter_map(move |(ty, column)| {
                let (t, ty) = (t?, TypeIdx::from_index(ty));
                let derived = ty != t && self.types.info(ty).is_a(ty, t);
                derived.then_some(column.as_ref()).flatten()
            })
    }
}
