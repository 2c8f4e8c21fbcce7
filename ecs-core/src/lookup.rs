//! Component lookups on one entity, shared by [`EntityRef`](crate::EntityRef)
//! and [`EntityMut`](crate::EntityMut).

use std::any::TypeId;

use crate::entity::{CompRef, TypeIdx};
use crate::storage::{typed, typed_mut};
use crate::table::Place;
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

    #[inline]
    pub(crate) fn find<T: Component>(&self, index: u32) -> Option<&T> {
        let t = self.type_idx::<T>()?;
        let comp = self.first_isa(index, t)?;
        self.view_as(comp, t)
    }

    #[inline]
    pub(crate) fn find_mut<T: Component>(&mut self, index: u32) -> Option<&mut T> {
        let t = self.type_idx::<T>()?;
        let comp = self.first_isa(index, t)?;
        self.view_as_mut(comp, t)
    }

    /// Every component of the entity that is-a `T`, in insertion order.
    pub(crate) fn find_all<T: Component>(&self, index: u32) -> impl Iterator<Item = &T> + '_ {
        let t = self.type_idx::<T>();
        let list = match t {
            Some(_) => self.comps(index),
            None => self.comps_none(),
        };
        // `T`'s own column, downcast once for all its rows.
        let own = t
            .and_then(|t| self.columns[t as usize].as_deref())
            .map(typed::<T>);
        let bits = t.map_or(&[][..], |t| &self.types[t as usize].descendant_bits[..]);
        list.filter(move |c| crate::world::has_bit(bits, c.ty))
            .filter_map(move |c| match own {
                Some(own) if Some(c.ty) == t => Some(own.get(c.seg, c.row)),
                _ => self.columns[c.ty as usize]
                    .as_deref()?
                    .upcast_ref(c.seg, c.row, TypeId::of::<T>())?
                    .downcast_ref(),
            })
    }

    /// Every component of the entity that is-a `T`, mutably, in insertion order.
    pub(crate) fn find_all_mut<T: Component>(&mut self, index: u32) -> Vec<&mut T> {
        let Some(t) = self.type_idx::<T>() else {
            return Vec::new();
        };
        // (type, segment, row, position in insertion order), grouped by column.
        let mut wanted: Vec<(TypeIdx, u32, u32, usize)> = self
            .comps(index)
            .filter(|c| self.types[c.ty as usize].is_a(c.ty, t))
            .enumerate()
            .map(|(pos, c)| (c.ty, c.seg, c.row, pos))
            .collect();
        wanted.sort_unstable();
        let mut found: Vec<(usize, &mut dyn std::any::Any)> = Vec::with_capacity(wanted.len());
        let mut rows: Vec<(u32, u32, usize)> = Vec::new();
        let mut next = 0;
        for (ty, column) in self.columns.iter_mut().enumerate() {
            let ty = ty as TypeIdx;
            rows.clear();
            while next < wanted.len() && wanted[next].0 == ty {
                rows.push((wanted[next].1, wanted[next].2, wanted[next].3));
                next += 1;
            }
            if let (false, Some(column)) = (rows.is_empty(), column.as_deref_mut()) {
                column.upcast_rows_mut(&rows, TypeId::of::<T>(), &mut found);
            }
        }
        found.sort_unstable_by_key(|(pos, _)| *pos);
        found
            .into_iter()
            .filter_map(|(_, any)| any.downcast_mut::<T>())
            .collect()
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
        let column =
            typed_mut::<C>(&mut **self.columns[comp.ty as usize].as_mut().expect("registered"));
        Ok(column.get_mut(comp.seg, comp.row))
    }

    /// [`World::insert`] without hooks: checks the single rule, appends the
    /// component at position `before` (the entity's old length) and then its
    /// requirements; on error nothing is left added.
    pub(crate) fn insert_inner<C: Component>(&mut self, index: u32, value: C) -> Result<(), Error> {
        let ty = self.register::<C>();
        self.check_single::<C>(index, ty)?;
        let before = self.comp_count(index);
        self.append(index, ty, value);

        let mut requirements = crate::require::Requirements::default();
        C::__requirements(&mut requirements);
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
        value: crate::ops::BoxedComponent,
    ) {
        let place = self.make_room_for(index, ty);
        (self.ops(ty).push)(self, ty, place.seg, value);
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
        let column = typed_mut::<C>(
            &mut **self.columns[place.ty as usize]
                .as_mut()
                .expect("registered"),
        );
        let info = &mut self.types[place.ty as usize];
        let row = column.push(place.seg, info.take_serial(), value);
        column.get_mut(place.seg, row)
    }

    /// [`World::push_value`] onto a column the caller holds.
    #[inline]
    pub(crate) fn push_into<C: Component>(
        &mut self,
        column: &mut crate::storage::Column<C>,
        place: Place,
        value: C,
    ) {
        let serial = self.types[place.ty as usize].take_serial();
        column.push(place.seg, serial, value);
    }

    /// Whether adding a component of `ty` is just a push: no requirements,
    /// no hooks.
    pub(crate) fn is_plain_ty(&self, ty: TypeIdx) -> bool {
        let info = &self.types[ty as usize];
        !info.has_requirements && info.behaviour.is_none()
    }

    /// Whether adding `C` is just a push: no requirements, no hooks.
    pub(crate) fn is_plain<C: Component>(&self) -> bool {
        let mut requirements = crate::require::Requirements::default();
        C::__requirements(&mut requirements);
        requirements.is_empty() && C::__BEHAVIOUR.is_none()
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
