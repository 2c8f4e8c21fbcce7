//! Typed reads: one component at an entity's location, and every component
//! that is-a `T` across the world. A derived type's values are read at the
//! parent part's offset, so a base-type read costs what an exact one does.

use crate::entity::{CompRef, EntityIndex, EntitySlot, RowId, SegId, TableId, TypeIdx};
use crate::table::{ChangeKind, Column, Row, Segment, Storage, Tick};
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
        let (place, level) = self.first_isa_level(table, t)?;
        // Were the entry wrong, the segment's type check refuses the read.
        self.segments.get(place.seg.index())?.get_as(row, level)
    }

    /// Every component that is-a `T` of the entity at `row` of `table`, in
    /// insertion order: the run the is-a index names, no search.
    pub fn find_all_at<T: Component>(
        &self,
        table: TableId,
        row: RowId,
    ) -> impl Iterator<Item = &T> + '_ {
        let run = match self.types.table_key_of::<T>() {
            Some(t) => self.all_isa(table, t),
            None => &[],
        };
        run.iter().filter_map(move |&(place, level)| {
            self.segments[place.seg.index()].get_as(row, level as usize)
        })
    }

    /// Whether a component that is-a `T` of the entity at `row` of
    /// `table` was added (or changed, by `kind`) after `since`.
    pub fn any_after<T: Component>(
        &self,
        table: TableId,
        row: RowId,
        kind: ChangeKind,
        since: Tick,
    ) -> bool {
        let Some(t) = self.types.table_key_of::<T>() else {
            return false;
        };
        let now = self.now();
        self.all_isa(table, t).iter().any(|&(place, _)| {
            let segment = &self.segments[place.seg.index()];
            segment.maybe_after(kind, since) && segment.ticks(kind).after(row.index(), since, now)
        })
    }

    /// The owners of every component that is-a `t` added (or changed, by
    /// `kind`) after `since`, each once, in storage order; segments with no
    /// such row are passed over without reading their rows.
    pub fn owners_after(&self, t: TypeIdx, kind: ChangeKind, since: Tick) -> Vec<EntityIndex> {
        let now = self.now();
        let mut owners = Vec::new();
        for (ty, column) in self.columns.iter().enumerate() {
            let ty = TypeIdx::from_index(ty);
            let Some(column) = column.as_ref().filter(|c| !c.lent) else {
                continue;
            };
            if !self.types.info(ty).is_a(ty, t) {
                continue;
            }
            for &s in &column.segs {
                let segment = &self.segments[s.index()];
                if !segment.maybe_after(kind, since) {
                    continue;
                }
                let table = &self.tables[segment.table.index()].owners;
                let ticks = segment.ticks(kind);
                owners.extend(
                    (0..segment.len())
                        .zip(table)
                        .filter(|&(row, _)| ticks.after(row, since, now))
                        .map(|(_, &owner)| owner),
                );
            }
        }
        owners.sort_unstable();
        owners.dedup();
        owners
    }

    /// Mutable twin of [`Storage::find`].
    #[inline(always)]
    pub fn find_mut<T: Component>(&mut self, slot: &EntitySlot) -> Option<&mut T> {
        let t = self.types.table_key_of::<T>()?;
        let (place, level) = self.first_isa_level(slot.table, t)?;
        let now = self.write_tick();
        self.segments[place.seg.index()].get_as_mut(slot.row, level, now)
    }

    /// The component `comp` (which is-a `T`, index `t`) as a `T`.
    #[inline]
    pub fn view_as<T: Component>(&self, comp: CompRef, t: TypeIdx) -> Option<&T> {
        let level = self.types.level_of::<T>(comp.ty, t)?;
        self.segments[comp.seg.index()].get_as(comp.row, level)
    }

    /// The component `comp` as a `T` found at chain level `level` of its
    /// type (what the is-a index gives: no search of the chain).
    #[inline]
    pub fn at_level<T: Component>(&self, comp: CompRef, level: usize) -> Option<&T> {
        self.segments[comp.seg.index()].get_as(comp.row, level)
    }

    /// Mutable twin of [`Storage::at_level`].
    #[inline]
    pub fn at_level_mut<T: Component>(&mut self, comp: CompRef, level: usize) -> Option<&mut T> {
        let now = self.write_tick();
        self.segments[comp.seg.index()].get_as_mut(comp.row, level, now)
    }

    /// Mutable twin of [`Storage::view_as`].
    #[inline]
    pub fn view_as_mut<T: Component>(&mut self, comp: CompRef, t: TypeIdx) -> Option<&mut T> {
        let level = self.types.level_of::<T>(comp.ty, t)?;
        let now = self.write_tick();
        self.segments[comp.seg.index()].get_as_mut(comp.row, level, now)
    }

    /// Several components of one entity (its `row`) as `T`s, each segment
    /// distinct, in the order given.
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
        order.sort_unstable_by_key(|&(_, _, seg)| seg);
        let now = self.write_tick();
        let mut found: Vec<(usize, &mut T)> = Vec::with_capacity(order.len());
        // Disjoint segments, borrowed one by one in index order.
        let mut segments = self.segments.iter_mut().enumerate();
        for (pos, ty, seg) in order {
            let segment = segments.find(|(s, _)| *s == seg.index()).map(|(_, s)| s);
            let level = self.types.level_of::<T>(ty, t);
            if let Some(value) = segment
                .zip(level)
                .and_then(|(segment, level)| segment.get_as_mut::<T>(row, level, now))
            {
                found.push((pos, value));
            }
        }
        found.sort_unstable_by_key(|(pos, _)| *pos);
        found.into_iter().map(|(_, value)| value).collect()
    }

    /// Every component that is-a `T`, with its owner and meta word: first
    /// `T`'s own segments, table by table, then the segments of types
    /// derived from `T` in registration order.
    pub fn rows<T: Component>(&self) -> impl Iterator<Item = Row<&T>> + '_ {
        self.isa_columns::<T>(self.type_idx::<T>())
            .flat_map(move |(column, level)| {
                column.segs.iter().flat_map(move |&s| {
                    let segment = &self.segments[s.index()];
                    let owners = &self.tables[segment.table.index()].owners;
                    segment.rows_as::<T>(owners, level)
                })
            })
    }

    /// Mutable twin of [`Storage::rows`].
    pub fn rows_mut<T: Component>(&mut self) -> impl Iterator<Item = Row<&mut T>> + '_ {
        // Each segment is borrowed once, so they are gathered first and
        // handed out in `rows`' order.
        let mut order: Vec<(usize, SegId, usize)> = Vec::new();
        for (rank, (column, level)) in self.isa_columns::<T>(self.type_idx::<T>()).enumerate() {
            order.extend(column.segs.iter().map(|&s| (rank, s, level)));
        }
        let levels: Vec<Option<(usize, usize)>> = {
            let mut by_seg = vec![None; self.segments.len()];
            for &(rank, s, level) in &order {
                by_seg[s.index()] = Some((rank, level));
            }
            by_seg
        };
        let now = self.write_tick();
        let Storage {
            segments, tables, ..
        } = self;
        let tables: &[crate::table::Table] = tables;
        let mut picked: Vec<(usize, &mut Segment, usize)> = segments
            .iter_mut()
            .zip(levels)
            .filter_map(|(segment, found)| found.map(|(rank, level)| (rank, segment, level)))
            .collect();
        // Stable: segments of one type stay in the order their tables were made.
        picked.sort_by_key(|(rank, _, _)| *rank);
        picked.into_iter().flat_map(move |(_, segment, level)| {
            let owners = &tables[segment.table.index()].owners;
            segment.rows_as_mut::<T>(owners, level, now)
        })
    }

    /// Calls `f` on every component that is-a `T`, in [`Storage::rows`]
    /// order.
    pub fn for_each_mut<T: Component>(&mut self, mut f: impl FnMut(&mut T)) {
        let Some(t) = self.type_idx::<T>() else {
            return;
        };
        let now = self.write_tick();
        let Storage {
            types,
            columns,
            segments,
            ..
        } = self;
        // Ancestors are registered before their descendants, so `T`'s own
        // column comes first, as in `rows`.
        for (ty, column) in columns.iter().enumerate() {
            let Some(column) = column.as_ref().filter(|c| !c.lent) else {
                continue;
            };
            let ty = TypeIdx::from_index(ty);
            if ty == t {
                for &s in &column.segs {
                    segments[s.index()]
                        .values_mut::<T>(now)
                        .iter_mut()
                        .for_each(&mut f);
                }
            } else if types.info(ty).is_a(ty, t)
                && let Some(level) = column.level_of::<T>()
            {
                for &s in &column.segs {
                    if let Some(values) = segments[s.index()].iter_as_mut::<T>(level, now) {
                        values.for_each(&mut f);
                    }
                }
            }
        }
    }

    /// The column of `t` itself, then those of every registered type
    /// derived from `t` in registration order, each with the chain level at
    /// which its type holds a `T`.
    fn isa_columns<T: Component>(
        &self,
        t: Option<TypeIdx>,
    ) -> impl Iterator<Item = (&Column, usize)> + '_ {
        let exact = t.and_then(|t| Some((self.try_column(t)?, 0)));
        let derived = self
            .columns
            .iter()
            .enumerate()
            .filter_map(move |(ty, column)| {
                let (t, ty) = (t?, TypeIdx::from_index(ty));
                let column = column.as_ref().filter(|c| !c.lent)?;
                let derived = ty != t && self.types.info(ty).is_a(ty, t);
                derived.then(|| Some((column, column.level_of::<T>()?)))?
            });
        exact.into_iter().chain(derived)
    }
}
