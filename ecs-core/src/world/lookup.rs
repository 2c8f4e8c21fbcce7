//! Component lookups on one entity, shared by [`EntityRef`](crate::EntityRef)
//! and [`EntityMut`](crate::EntityMut).

use crate::entity::{EntityIndex, SegId, TypeIdx};
use crate::table::tables::Place;
use crate::world::hooks::HookSet;
use crate::world::World;
use crate::{Component, Error};

impl World {
    /// The capabilities of `ty`, a type with stored components.
    pub(crate) fn ops(&self, ty: TypeIdx) -> crate::component::ops::ComponentOps {
        *self
            .storage
            .info(ty)
            .ops()
            .expect("a type with stored components was registered by its own type")
    }

    #[inline(always)]
    pub(crate) fn find<T: Component>(&self, index: EntityIndex) -> Option<&T> {
        self.storage.find(self.entities.slot(index))
    }

    #[inline(always)]
    pub(crate) fn find_mut<T: Component>(&mut self, index: EntityIndex) -> Option<&mut T> {
        self.storage.find_mut(self.entities.slot(index))
    }

    /// Every component of the entity that is-a `T`, in insertion order.
    pub(crate) fn find_all<T: Component>(
        &self,
        index: EntityIndex,
    ) -> impl Iterator<Item = &T> + '_ {
        let slot = self.entities.slot(index);
        self.storage.find_all_at(slot.table, slot.row)
    }

    /// Every component of the entity that is-a `T`, mutably, in insertion order.
    pub(crate) fn find_all_mut<T: Component>(&mut self, index: EntityIndex) -> Vec<&mut T> {
        let Some(t) = self.type_idx::<T>() else {
            return Vec::new();
        };
        let types = self.storage.types();
        // Each is a distinct segment, since all of an entity's components
        // sit at one row.
        let wanted: Vec<(TypeIdx, SegId)> = self
            .comps(index)
            .filter(|c| types.info(c.ty).is_a(c.ty, t))
            .map(|c| (c.ty, c.seg))
            .collect();
        let row = self.entities.slot(index).row;
        self.storage.views_as_mut::<T>(t, row, &wanted)
    }

    /// Adds `value` (and what it requires) to entity `index`, firing the
    /// attach and enable hooks of everything added: requirements first, then
    /// the component itself.
    pub(crate) fn insert<C: Component>(
        &mut self,
        index: EntityIndex,
        value: C,
    ) -> Result<&mut C, Error> {
        let ty = self.register::<C>();
        if self.storage.info(ty).is_plain() {
            // No requirements and no hooks of its own: check, append, and
            // tell the listeners, if any hear it.
            self.check_single::<C>(index, ty)?;
            if !self.heard(ty) {
                return Ok(self.append(index, ty, value));
            }
            let place = self.make_room_for(index, ty);
            let row = self.storage.push_value(place, value);
            let comp = crate::entity::CompRef {
                ty,
                seg: place.seg,
                row,
            };
            self.fire_attached_on(index, comp);
            let now = self.storage.write_tick();
            return Ok(self.storage.segment_mut(place.seg).get_mut(row, now));
        }
        let before = self.comp_count(index);
        self.insert_inner(index, value)?;
        self.fire_added_hooks(index, before);
        let comp = self.comp_at(index, before);
        let now = self.storage.write_tick();
        Ok(self
            .storage
            .segment_mut(comp.seg)
            .get_mut::<C>(comp.row, now))
    }

    /// [`World::insert`] without hooks: checks the single rule, appends the
    /// component at position `before` (the entity's old length) and then its
    /// requirements; on error nothing is left added.
    pub(crate) fn insert_inner<C: Component>(
        &mut self,
        index: EntityIndex,
        value: C,
    ) -> Result<(), Error> {
        let before = self.comp_count(index);
        self.append_checked(index, value)?;
        let requirements = crate::component::require::Requirements::of(C::__VTABLE);
        self.apply_requirements_or_take_back(&requirements, index, before)
    }

    /// Checks the single rule for `value` and appends it, without its
    /// requirements or hooks.
    pub(crate) fn append_checked<C: Component>(
        &mut self,
        index: EntityIndex,
        value: C,
    ) -> Result<(), Error> {
        let ty = self.register::<C>();
        self.check_single::<C>(index, ty)?;
        self.append(index, ty, value);
        Ok(())
    }

    /// Ends adding several components as one operation (a bundle): the
    /// entity's components from position `before` on were appended, and
    /// `appended` says whether all of them could be. Then the requirements
    /// of all of them are met (so a bundle may list a required component
    /// after what requires it), and only then do hooks fire, once
    /// everything is in place. On error nothing is left added and no hook
    /// has run.
    pub(crate) fn finish_insert(
        &mut self,
        index: EntityIndex,
        before: usize,
        appended: Result<(), Error>,
        requirements: &crate::component::require::Requirements,
    ) -> Result<(), Error> {
        if let Err(error) = appended {
            self.truncate_components(index, before);
            return Err(error);
        }
        self.apply_requirements_or_take_back(requirements, index, before)?;
        self.fire_added_hooks(index, before);
        Ok(())
    }

    /// Appends `value` (of registered concrete type `ty`) to entity `index`
    /// without checks: the entity moves to the table with `ty` appended.
    /// Returns the value in place.
    #[inline]
    pub(crate) fn append<C: Component>(
        &mut self,
        index: EntityIndex,
        ty: TypeIdx,
        value: C,
    ) -> &mut C {
        let place = self.make_room_for(index, ty);
        self.push_value(place, value)
    }

    /// [`World::append`] for a boxed value of type `ty`.
    pub(crate) fn append_boxed(
        &mut self,
        index: EntityIndex,
        ty: TypeIdx,
        value: crate::component::ops::BoxedComponent,
    ) {
        let place = self.make_room_for(index, ty);
        self.push_boxed(place, value);
    }

    /// Moves entity `index` to the table of its layout with `ty` appended;
    /// returns the place its new value goes, which the caller fills.
    #[inline]
    fn make_room_for(&mut self, index: EntityIndex, ty: TypeIdx) -> Place {
        let to = self
            .storage
            .table_adding(self.entities.slot(index).table, ty);
        self.relocate(index, to, None);
        *self
            .storage
            .table(to)
            .layout()
            .last()
            .expect("the new table holds the appended type")
    }

    /// Pushes `value` onto segment `place` with a fresh serial; returns it
    /// in place.
    #[inline]
    pub(crate) fn push_value<C: Component>(&mut self, place: Place, value: C) -> &mut C {
        let row = self.storage.push_value(place, value);
        self.storage.segment_mut(place.seg).pushed_mut(row)
    }

    /// [`World::push_value`] for a boxed value of the place's type.
    pub(crate) fn push_boxed(
        &mut self,
        place: Place,
        value: crate::component::ops::BoxedComponent,
    ) {
        self.storage.push_boxed(place, value);
    }

    /// Whether adding a component of `ty` is just a push: no requirements,
    /// no hooks.
    pub(crate) fn is_plain_ty(&self, ty: TypeIdx) -> bool {
        self.storage.info(ty).is_plain() && !self.heard(ty)
    }

    /// Whether adding `C` is just a push: no requirements, no hooks.
    pub(crate) fn is_plain<C: Component>(&self) -> bool {
        let requirements = crate::component::require::Requirements::of(C::__VTABLE);
        requirements.is_empty()
            && C::__VTABLE.behaviour.is_none()
            && !self.heard_vtable(C::__VTABLE)
    }

    /// For every single type `C` is-a, the entity must not hold another
    /// component that is-a that type.
    fn check_single<C: Component>(&self, index: EntityIndex, ty: TypeIdx) -> Result<(), Error> {
        self.check_single_ty(index, ty, C::NAME)
    }

    /// [`World::check_single`] for a type known by index.
    #[inline]
    pub(crate) fn check_single_ty(
        &self,
        index: EntityIndex,
        ty: TypeIdx,
        adding: &'static str,
    ) -> Result<(), Error> {
        let table = self.storage.table(self.entities.slot(index).table);
        if !table.overlaps(self.storage.info(ty)) {
            // Nothing the entity holds is-a anything `ty` is.
            return Ok(());
        }
        self.check_single_clash(index, ty, adding)
    }

    /// [`World::check_single_ty`] once the entity holds something that
    /// shares a type with `ty`: out of line, the common add never gets here.
    #[cold]
    #[inline(never)]
    fn check_single_clash(
        &self,
        index: EntityIndex,
        ty: TypeIdx,
        adding: &'static str,
    ) -> Result<(), Error> {
        let clash = self
            .layout_of(index)
            .iter()
            .find_map(|p| Some((p.ty, self.single_clash(ty, p.ty)?)));
        match clash {
            Some((existing, single)) => Err(Error::Duplicate {
                entity: self.id_at(index),
                adding,
                existing: self.storage.info(existing).key().name(),
                single: self.storage.info(single).key().name(),
            }),
            None => Ok(()),
        }
    }

    /// See [`Types::single_clash`](crate::table::Types::single_clash).
    pub(crate) fn single_clash(&self, a: TypeIdx, b: TypeIdx) -> Option<TypeIdx> {
        self.storage.types().single_clash(a, b)
    }

    /// Removes the first component whose concrete type is exactly `T`.
    pub(crate) fn remove_exact<T: Component>(&mut self, index: EntityIndex) -> Option<T> {
        let t = self.type_idx::<T>()?;
        let pos = self
            .storage
            .position_exact(self.entities.slot(index).table, t)?;
        // Hooks run first, while the component is still attached; they
        // cannot change the entity's structure, so `pos` stays valid.
        if self.hooks_of(t).meets(HookSet::REMOVAL) {
            self.fire_removal_hooks(&[self.comp_at(index, pos)]);
        }
        Some(self.take_at::<T>(index, pos))
    }
}
