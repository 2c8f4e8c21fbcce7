//! Required components (`#[component(requires(Transform, Health))]`): adding
//! a component also adds the `Default` of each required type the entity
//! lacks. The component layer says what is required; this is where it is
//! met.

use crate::component::require::{Required, Requirements};
use crate::entity::{EntityIndex, TypeIdx};
use crate::{Error, World};

impl World {
    /// Adds the `Default` of each type in `requirements` that the entity in
    /// slot `index` lacks (no component that is-a it), with that type's own
    /// requirements in turn.
    pub(crate) fn apply_requirements(
        &mut self,
        requirements: &Requirements,
        index: EntityIndex,
    ) -> Result<(), Error> {
        requirements
            .iter()
            .try_for_each(|required| self.add_required(required, index))
    }

    /// [`World::apply_requirements`], and on error or panic the entity
    /// keeps only its first `before` components, so nothing is left added.
    pub(crate) fn apply_requirements_or_take_back(
        &mut self,
        requirements: &Requirements,
        index: EntityIndex,
        before: usize,
    ) -> Result<(), Error> {
        if requirements.is_empty() {
            return Ok(());
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.apply_requirements(requirements, index)
        }));
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => {
                self.truncate_components(index, before);
                Err(error)
            }
            Err(panic) => {
                self.truncate_components(index, before);
                std::panic::resume_unwind(panic)
            }
        }
    }

    /// Adds a default of `required` to the entity unless it already holds a
    /// component that is-a that type.
    fn add_required(&mut self, required: Required, index: EntityIndex) -> Result<(), Error> {
        let ty = self.register_vtable(required.vtable);
        if self.position_of(index, ty).is_some() {
            return Ok(());
        }
        self.insert_boxed_inner(index, ty, (required.make)())
    }

    /// Appends the boxed `value` of type `ty` after checking the single
    /// rule, then its requirements; on error nothing is left added. No hook
    /// fires: the caller fires them once the whole operation is in place.
    pub(crate) fn insert_boxed_inner(
        &mut self,
        index: EntityIndex,
        ty: TypeIdx,
        value: crate::component::ops::BoxedComponent,
    ) -> Result<(), Error> {
        let name = self.storage.info(ty).key().name();
        self.check_single_ty(index, ty, name)?;
        let before = self.comp_count(index);
        self.append_boxed(index, ty, value);
        let requirements = Requirements::of(self.vtable(ty));
        self.apply_requirements_or_take_back(&requirements, index, before)
    }
}
