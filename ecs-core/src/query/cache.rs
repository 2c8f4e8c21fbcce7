//! Query plans kept between calls, like prepared statements: a query's
//! tables are matched on its first call, and later calls only match the
//! tables made since.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex, PoisonError};

use crate::query::plan::{Filters, Plan};
use crate::query::term::TermInfo;
use crate::table::{Storage, TypeIdHasher};

/// Plans by query terms, then by filters. The terms are named by the
/// address of the query type's constant term list, which costs no
/// `'static` bound on the query type; equal addresses mean equal terms,
/// and two addresses for one query type (a copy per codegen unit) only
/// mean two entries with equal plans. The filters of one query are few
/// and compared in place, so a call clones them only the first time.
type Plans = HashMap<usize, Vec<(Filters, Arc<Plan>)>, BuildHasherDefault<TypeIdHasher>>;

/// The plans of the queries run on one world.
#[derive(Default)]
pub(crate) struct PlanCache {
    plans: Mutex<Plans>,
}

impl PlanCache {
    /// The plan of the query with `terms` and `filters`, up to date with
    /// `storage`'s tables.
    pub fn plan(
        &self,
        storage: &Storage,
        terms: &'static [TermInfo],
        filters: &Filters,
    ) -> Arc<Plan> {
        let mut plans = self.plans.lock().unwrap_or_else(PoisonError::into_inner);
        current(&mut plans, storage, terms, filters)
    }

    /// [`PlanCache::plan`] without the lock, for a world borrowed mutably.
    pub fn plan_mut(
        &mut self,
        storage: &Storage,
        terms: &'static [TermInfo],
        filters: &Filters,
    ) -> Arc<Plan> {
        let plans = self.plans.get_mut().unwrap_or_else(PoisonError::into_inner);
        current(plans, storage, terms, filters)
    }
}

fn current(
    plans: &mut Plans,
    storage: &Storage,
    terms: &'static [TermInfo],
    filters: &Filters,
) -> Arc<Plan> {
    let variants = plans.entry(terms.as_ptr() as usize).or_default();
    let at = match variants.iter().position(|(f, _)| f == filters) {
        Some(at) => at,
        None => {
            variants.push((filters.clone(), Arc::new(Plan::empty(terms.len()))));
            variants.len() - 1
        }
    };
    let plan = &mut variants[at].1;
    if plan.is_stale(storage) {
        Arc::make_mut(plan).update(storage, terms, filters);
    }
    Arc::clone(plan)
}
