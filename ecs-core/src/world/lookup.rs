//! Component lookups on one entity, shared by [`EntityRef`](crate::EntityRef)
//! and [`EntityMut`](crate::EntityMut).

use std::any::TypeId;

use crate::entity::{CompRef, TypeIdx};
use crate::storage::table::Place;
use crate::world::World;
use crate::{Component, Error};

impl World {
    /// Position in the entity's layout of the first component that is-a `t`.
    #[inline]
    pub(crate) fn position_of(&self, index: u32, t: TypeIdx) -> Option<usize> {
        self.tables[self.entities[index as usize].table as usize].position_of(t)
    }

    /// The entity's first component that is-a `t`.
    #[inline]
    pub(crate) fn first_isa(&self, index: u32, t: TypeIdx) -> Option<CompRef> {
        let slot = &self.entities[index as usize];
        let table = &self.tables[slot.table as usize];
        let place = table.first_isa(t)?;
        Some(CompRef {
            ty: place.ty,
            seg: place.seg,
            row: slot.row,
        })
    }

    #[inline(always)]
    pub(crate) fn find<T: Component>(&self, index: u32) -> Option<&T> {
        let t = self.type_idx::<T>()?;
        let slot = &self.entities[index as usize];
        let (place, level) = self.tables[slot.table as usize].first_isa_level(t)?;
        self.columns[place.ty as usize].as_ref()?.segs[place.seg as usize].get_as(slot.row, level)
    }

    #[inline(always)]
    pub(crate) fn find_mut<T: Component>(&mut self, index: u32) -> Option<&mut T> {
        let t = self.type_idx::<T>()?;
        let slot = &self.entities[index as usize];
        let (place, level) = self.tables[slot.table as usize].first_isa_level(t)?;
        self.columns[place.ty as usize].as_mut()?.segs[place.seg as usize]
            .get_as_mut(slot.row, level)
    }

    /// The chain level at which a component of type `ty` holds a `T`
    /// (whose index is `t`): 0 when `ty` is `T`.
    #[inline]
    pub(crate) fn level_of<T: 'static>(&self, ty: TypeIdx, t: TypeIdx) -> Option<usize> {
        if ty == t {
            return Some(0);
        }
        self.types[ty as usize]
            .vtable?
            .erased
            .level_of(TypeId::of::<T>())
    }

    /// Every component of the entity that is-a `T`, in insertion order.
    pub(crate) fn find_all<T: Component>(&self, index: u32) -> impl Iterator<Item = &T> + '_ {
        let t = self.type_idx::<T>();
        let list = match t {
            Some(_) => self.comps(index),
            None => self.comps_none(),
        };
        let bits = t.map_or(&[][..], |t| &self.types[t as usize].descendant_bits[..]);
        list.filter(move |c| crate::world::has_bit(bits, c.ty))
            .filter_map(move |c| self.view_as::<T>(c, t?))
    }

    /// Every component of the entity that is-a `T`, mutably, in insertion order.
    pub(crate) fn find_all_mut<T: Component>(&mut self, index: u32) -> Vec<&mut T> {
        let Some(t) = self.type_idx::<T>() else {
            return Vec::new();
        };
        // (type, segment, position in insertion order): each is a distinct
        // segment, since all of an entity's components sit at one row.
        let row = self.entities[index as usize].row;
        let mut wanted: Vec<(TypeIdx, u32, usize)> = self
            .comps(index)
            .filter(|c| self.types[c.ty as usize].is_a(c.ty, t))
            .enumerate()
            .map(|(pos, c)| (c.ty, c.seg, pos))
            .collect();
        wanted.sort_unstable();
        let levels: Vec<Option<usize>> = wanted
            .iter()
            .map(|&(ty, _, _)| self.level_of::<T>(ty, t))
            .collect();
        let mut found: Vec<(usize, &mut T)> = Vec::with_capacity(wanted.len());
        let mut wanted = wanted.iter().zip(levels).peekable();
        for (ty, column) in self.columns.iter_mut().enumerate() {
            let Some(column) = column.as_mut() else {
                continue;
            };
            // Disjoint segments of one column, borrowed one by one.
            let mut segs = column.segs.iter_mut().enumerate();
            while let Some(&(&(wty, seg, pos), level)) = wanted.peek() {
                if wty as usize != ty {
                    break;
                }
                wanted.next();
                let segment = segs
                    .find(|(s, _)| *s == seg as usize)
                    .map(|(_, segment)| segment);
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

    /// Adds `value` (and what it requires) to entity `index`, firing the
    /// attach and enable hooks of everything added: requirements first, then
    /// the component itself.
    pub(crate) fn insert<C: Component>(&mut self, index: u32, value: C) -> Result<&mut C, Error> {
        let ty = self.register::<C>();
        if self.is_plain_ty(ty) {
            // No requirements and no hooks: check, append, done.
            self.check_single::<C>(index, ty)?;
            return Ok(self.append(index, ty, value));
        }
        let before = self.comp_count(index);
        self.insert_inner(index, value)?;
        self.fire_added_hooks(index, before);
        let comp = self.comp_at(index, before);
        Ok(self.column_mut(comp.ty).get_mut::<C>(comp.seg, comp.row))
    }

    /// [`World::insert`] without hooks: checks the single rule, appends the
    /// component at position `before` (the entity's old length) and then its
    /// requirements; on error nothing is left added.
    pub(crate) fn insert_inner<C: Component>(&mut self, index: u32, value: C) -> Result<(), Error> {
        let ty = self.register::<C>();
        self.check_single::<C>(index, ty)?;
        let before = self.comp_count(index);
        self.append(index, ty, value);

        let mut requirements = crate::world::require::Requirements::default();
        C::__VTABLE.add_requirements(&mut requirements);
        requirements.apply_or_take_back(self, index, before)
    }

    /// Appends `value` (of registered concrete type `ty`) to entity `index`
    /// without checks: the entity moves to the table with `ty` appended.
    /// Returns the value in place.
    #[inline]
    pub(crate) fn append<C: Component>(&mut self, index: u32, ty: TypeIdx, value: C) -> &mut C {
        let place = self.make_room_for(index, ty);
        self.push_value(place, value)
    }

    /// [`World::append`] for a boxed value of type `ty`.
    pub(crate) fn append_boxed(
        &mut self,
        index: u32,
        ty: TypeIdx,
        value: crate::component::ops::BoxedComponent,
    ) {
        let place = self.make_room_for(index, ty);
        self.push_boxed(place, value);
    }

    /// Moves entity `index` to the table of its layout with `ty` appended;
    /// returns the place its new value goes, which the caller fills.
    #[inline]
    fn make_room_for(&mut self, index: u32, ty: TypeIdx) -> Place {
        let to = self.table_adding(self.entities[index as usize].table, ty);
        self.relocate(index, to, None);
        *self.tables[to as usize]
            .layout
            .last()
            .expect("the new table holds the appended type")
    }

    /// Pushes `value` onto segment `place` with a fresh serial; returns it
    /// in place.
    #[inline]
    pub(crate) fn push_value<C: Component>(&mut self, place: Place, value: C) -> &mut C {
        let serial = self.types[place.ty as usize].take_serial();
        let column = self.column_mut(place.ty);
        let row = column.push(place.seg, serial, value);
        column.get_mut(place.seg, row)
    }

    /// [`World::push_value`] onto a column the caller holds (taken out of
    /// the world for a batch).
    #[inline]
    pub(crate) fn push_into<C: Component>(
        &mut self,
        column: &mut crate::storage::Column,
        place: Place,
        value: C,
    ) {
        let serial = self.types[place.ty as usize].take_serial();
        column.push(place.seg, serial, value);
    }

    /// [`World::push_value`] for a boxed value of the place's type.
    pub(crate) fn push_boxed(
        &mut self,
        place: Place,
        value: crate::component::ops::BoxedComponent,
    ) {
        let serial = self.types[place.ty as usize].take_serial();
        self.column_mut(place.ty)
            .push_boxed(place.seg, serial, value);
    }

    /// Whether adding a component of `ty` is just a push: no requirements,
    /// no hooks.
    pub(crate) fn is_plain_ty(&self, ty: TypeIdx) -> bool {
        let info = &self.types[ty as usize];
        !info.has_requirements && info.behaviour.is_none()
    }

    /// Whether adding `C` is just a push: no requirements, no hooks.
    pub(crate) fn is_plain<C: Component>(&self) -> bool {
        let mut requirements = crate::world::require::Requirements::default();
        C::__VTABLE.add_requirements(&mut requirements);
        requirements.is_empty() && C::__VTABLE.behaviour.is_none()
    }

    /// For every single type `C` is-a, the entity must not hold another
    /// component that is-a that type.
    fn check_single<C: Component>(&self, index: u32, ty: TypeIdx) -> Result<(), Error> {
        self.check_single_ty(index, ty, C::NAME)
    }

    /// [`World::check_single`] for a type known by index.
    pub(crate) fn check_single_ty(
        &self,
        index: u32,
        ty: TypeIdx,
        adding: &'static str,
    ) -> Result<(), Error> {
        let info = &self.types[ty as usize];
        let table = &self.tables[self.entities[index as usize].table as usize];
        let overlap = table
            .isa
            .iter()
            .zip(info.is_a_bits.iter())
            .any(|(a, b)| a & b != 0);
        if !overlap {
            // Nothing the entity holds is-a anything `ty` is.
            return Ok(());
        }
        let clash = self
            .layout_of(index)
            .iter()
            .find_map(|p| Some((p.ty, self.single_clash(ty, p.ty)?)));
        match clash {
            Some((existing, single)) => Err(Error::Duplicate {
                entity: self.id_at(index),
                adding,
                existing: self.types[existing as usize].key.name(),
                single: self.types[single as usize].key.name(),
            }),
            None => Ok(()),
        }
    }

    /// The single rule for two components: the first single type in `a`'s
    /// chain (`a`, then its ancestors) that `b` is-a too, which one entity
    /// cannot hold both of. Every single-rule check (adding, bundles,
    /// blueprints, clones, loads) comes down to this.
    pub(crate) fn single_clash(&self, a: TypeIdx, b: TypeIdx) -> Option<TypeIdx> {
        std::iter::once(a)
            .chain(self.types[a as usize].ancestors.iter().copied())
            .filter(|&k| !self.types[k as usize].multiple)
            .find(|&k| self.types[b as usize].is_a(b, k))
    }

    /// Removes the first component whose concrete type is exactly `T`.
    pub(crate) fn remove_exact<T: Component>(&mut self, index: u32) -> Option<T> {
        let t = self.type_idx::<T>()?;
        let pos = self.tables[self.entities[index as usize].table as usize].position_exact(t)?;
        // Hooks run first, while the component is still attached; they
        // cannot change the entity's structure, so `pos` stays valid.
        if self.has_hooks(t) {
            self.fire_removal_hooks(&[self.comp_at(index, pos)]);
        }
        Some(self.take_at::<T>(index, pos))
    }
}
