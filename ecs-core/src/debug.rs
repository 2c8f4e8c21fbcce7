//! Autoref specialization: lets generated code ask "does this type implement
//! `Debug`?" without a bound, so `Debug` output of an entity shows each
//! component's own `Debug` where it has one.
//!
//! `(&&DebugProbe(value)).__ecs_debug()` picks [`ViaDebug`] (one autoref
//! away) when `T: Debug`, and falls back to [`NoDebug`] otherwise. Method
//! resolution happens where the probe is written, so for a generic component
//! only the bounds in scope count: generic components show their name.

use std::fmt::Debug;

#[doc(hidden)]
pub struct DebugProbe<'a, T>(pub &'a T);

#[doc(hidden)]
pub trait ViaDebug<'a> {
    fn __ecs_debug(&self) -> Option<&'a dyn Debug>;
}

impl<'a, T: Debug> ViaDebug<'a> for &DebugProbe<'a, T> {
    fn __ecs_debug(&self) -> Option<&'a dyn Debug> {
        Some(self.0)
    }
}

#[doc(hidden)]
pub trait NoDebug<'a> {
    fn __ecs_debug(&self) -> Option<&'a dyn Debug>;
}

impl<'a, T> NoDebug<'a> for DebugProbe<'a, T> {
    fn __ecs_debug(&self) -> Option<&'a dyn Debug> {
        None
    }
}
