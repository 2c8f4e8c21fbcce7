//! Query plans kept between calls, like prepared statements: a query's
//! tables are matched on its first call, and later calls only match the
//! tables made since.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex, PoisonError};

use crate::query::plan::{Filters, Plan};
use crate::query::term::TermInfo;
use crate::storage::{Storage, TypeIdHasher};

/// A query's identity: its terms and its filters. The terms are named by
/// the address of the query type's constant term list, which costs no
/// `'static` bound on the query type; equal addresses mean equal terms,
/// and two addresses for one query type (a copy per codegen unit) only
/// mean two entries with equal plans.
type Key = (usize, Filters);

type Plans = HashMap<Key, Arc<Plan>, BuildHasherDefault<TypeIdHasher>>;

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
    let key = (terms.as_ptr() as usize, filters.clone());
    let plan = plans
        .entry(key)
        .or_insert_with(|| Arc::new(Plan::empty(terms.len())));
    if plan.is_stale(storage) {
        Arc::make_mut(plan).update(storage, terms, filters);
    }
    Arc::clone(plan)
}
