//! Components by name, with no registration call: with the `catalog`
//! feature (on by default) every non-generic derived component has an
//! entry in a collection the linker builds. On Linux, Android and FreeBSD
//! the entries are the statics that cache each type's number, gathered in
//! one linker section; on macOS, iOS, Windows, WebAssembly and other
//! targets, static constructors (the `inventory` crate) submit them.
//! Without the feature, a type enters the catalog when a world first
//! stores one, or through [`register`]. Generic components are found by
//! type only.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{LazyLock, PoisonError, RwLock};

use crate::component::ComponentVTable;
use crate::{Component, ComponentKey, Error};

/// One derived component type's entry where static constructors build
/// the catalog; built in the derive's catalog entry.
#[cfg(all(feature = "catalog", not(linked_catalog)))]
#[doc(hidden)]
pub struct Registration {
    vtable: &'static ComponentVTable,
}

#[cfg(all(feature = "catalog", not(linked_catalog)))]
impl Registration {
    /// The entry for `T`.
    pub const fn of<T: Component>() -> Self {
        Registration {
            vtable: T::__VTABLE,
        }
    }
}

#[cfg(all(feature = "catalog", not(linked_catalog)))]
inventory::collect!(Registration);

/// The entry of `T` in the link-time catalog's section. A generic function
/// rather than a literal in the derive's output, so a type that cannot be
/// a component (not `Send`, say) is reported once, at its impl, not again
/// where its table is named.
#[cfg(linked_catalog)]
#[doc(hidden)]
pub const fn linked_entry<T: Component>() -> crate::storage::raw::LinkedEntry {
    crate::storage::raw::LinkedEntry {
        number: crate::storage::numbers::TypeNumberCell::EMPTY,
        table: Some(T::__VTABLE),
    }
}

/// The tables of the types linked into the program.
#[cfg(all(feature = "catalog", not(linked_catalog)))]
fn linked() -> impl Iterator<Item = &'static ComponentVTable> {
    inventory::iter::<Registration>
        .into_iter()
        .map(|entry| entry.vtable)
}

/// The tables of the types linked into the program.
#[cfg(linked_catalog)]
fn linked() -> impl Iterator<Item = &'static ComponentVTable> {
    crate::storage::raw::linked_entries()
        .iter()
        .filter_map(|entry| entry.table?.downcast_ref::<ComponentVTable>())
}

/// The tables of the types linked into the program: none without the
/// `catalog` feature.
#[cfg(not(feature = "catalog"))]
fn linked() -> impl Iterator<Item = &'static ComponentVTable> {
    std::iter::empty()
}

/// A component type found by name: what `registered_components` lists.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// #[component(multiple, name = "collider")]
/// struct Collider(f32);
/// let ty: ecs_core::ComponentType = ecs_core::component_type("collider")?;
/// assert_eq!(ty.name(), "collider");
/// assert!(ty.is_multiple());
/// assert_eq!(ty.key_stack(), [ComponentKey::of::<Collider>()]);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ComponentType {
    vtable: &'static ComponentVTable,
}

impl ComponentType {
    /// The stable name (`#[component(name = "...")]` or the identifier).
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// assert_eq!(ecs_core::component_type("hp")?.name(), "hp");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> &'static str {
        self.vtable.keys()[0].name()
    }

    /// Whether an entity may hold several.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider(f32);
    /// #[derive(Component)]
    /// struct Health(u32);
    /// assert!(ecs_core::component_type("Collider")?.is_multiple());
    /// assert!(!ecs_core::component_type("Health")?.is_multiple());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_multiple(&self) -> bool {
        self.vtable.chain.multiple_flags()[0]
    }

    /// The Rust type's module path and identifier, for messages.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// let ty = ecs_core::component_type("hp")?;
    /// assert!(ty.type_name().ends_with("::Health"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn type_name(&self) -> &'static str {
        type_name(self.vtable)
    }

    /// The key stack: this type first, then its ancestors.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving;
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving(Moving);
    /// let ty = ecs_core::component_type("AxisMoving")?;
    /// assert_eq!(ty.key_stack(), AxisMoving::key_stack());
    /// assert_eq!(ty.key_stack()[1], ComponentKey::of::<Moving>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn key_stack(&self) -> &'static [ComponentKey] {
        self.vtable.keys()
    }

    /// The names of the ancestors, nearest first.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving;
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving(Moving);
    /// #[derive(Component)]
    /// #[component(parent = AxisMoving)]
    /// struct Sliding(AxisMoving);
    /// let ty = ecs_core::component_type("Sliding")?;
    /// assert_eq!(ty.parents().collect::<Vec<_>>(), ["AxisMoving", "Moving"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn parents(&self) -> impl Iterator<Item = &'static str> {
        self.key_stack().iter().skip(1).map(|k| k.name())
    }

    pub(crate) fn type_id(&self) -> TypeId {
        self.key_stack()[0].type_id()
    }

    /// The type's table.
    pub(crate) fn vtable(&self) -> &'static ComponentVTable {
        self.vtable
    }

    /// The type's capabilities.
    pub(crate) fn ops(&self) -> &'static crate::component::ops::ComponentOps {
        self.vtable.ops
    }
}

/// The derived, non-generic component type in the catalog whose `TypeId`
/// is `id`, if any (what finds a resource's name and serde support; a
/// world has few resources, so a walk of the catalog serves).
pub(crate) fn component_type_of(id: TypeId) -> Option<ComponentType> {
    by_name()
        .values()
        .flatten()
        .find(|vtable| vtable.type_id() == id)
        .map(|&vtable| ComponentType { vtable })
}

impl std::fmt::Debug for ComponentType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name(), self.type_name())
    }
}

/// The types' tables by name.
type ByName = HashMap<&'static str, Vec<&'static ComponentVTable>>;

static BY_NAME: LazyLock<RwLock<ByName>> = LazyLock::new(|| {
    let mut map = ByName::new();
    for vtable in linked() {
        add_entry(&mut map, vtable);
    }
    RwLock::new(map)
});

/// Adds the type `vtable` describes under its name unless it is there
/// already.
fn add_entry(map: &mut ByName, vtable: &'static ComponentVTable) {
    let same = map.entry(vtable.keys()[0].name()).or_default();
    if !same.iter().any(|e| e.type_id() == vtable.type_id()) {
        same.push(vtable);
    }
}

/// The type's module path and identifier, from its key: written by the
/// derive as text, so no function per type is built to tell it.
fn type_name(vtable: &'static ComponentVTable) -> &'static str {
    let path = vtable.keys()[0].path();
    path.split_once('@').map_or(path, |(name, _)| name)
}

/// The catalog, to read.
fn by_name() -> std::sync::RwLockReadGuard<'static, ByName> {
    BY_NAME.read().unwrap_or_else(PoisonError::into_inner)
}

/// Puts `T` in the catalog, so blueprints, saved worlds and
/// `add_by_name` find it by name before any world has stored one. Only
/// needed without the `catalog` feature (with it, every non-generic
/// derived type is there from the start); a generic type stays by-type.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// #[derive(Component, Default)]
/// struct Health(u32);
/// ecs_core::register::<Health>();
/// assert_eq!(ecs_core::component_type("Health")?.name(), "Health");
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub fn register<T: Component>() {
    note_stored(T::__VTABLE);
}

/// Puts the type `vtable` describes in the catalog, once a world stores
/// it: without the `catalog` feature, the way types get there.
pub(crate) fn note_stored(vtable: &'static ComponentVTable) {
    // With the catalog every non-generic derived type is there already.
    if cfg!(feature = "catalog") {
        return;
    }
    if vtable.keys()[0].is_generic() {
        return;
    }
    let known = by_name()
        .get(vtable.keys()[0].name())
        .is_some_and(|same| same.iter().any(|e| e.type_id() == vtable.type_id()));
    if known {
        return;
    }
    let mut map = BY_NAME.write().unwrap_or_else(PoisonError::into_inner);
    add_entry(&mut map, vtable);
}

/// Every derived, non-generic component type in the program, sorted by name.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Moving;
/// #[derive(Component)]
/// #[component(parent = Moving)]
/// struct AxisMoving(Moving);
/// let axis = ecs_core::registered_components().find(|c| c.name() == "AxisMoving").unwrap();
/// assert_eq!(axis.parents().collect::<Vec<_>>(), ["Moving"]);
/// ```
pub fn registered_components() -> impl Iterator<Item = ComponentType> {
    let mut all: Vec<ComponentType> = by_name()
        .values()
        .flatten()
        .map(|&vtable| ComponentType { vtable })
        .collect();
    all.sort_by_key(|c| (c.name(), c.type_name()));
    all.into_iter()
}

/// Names claimed by more than one type, with every type path: a build with
/// any is misconfigured (`#[component(name = "...")]` tells them apart).
///
/// ```
/// # use ecs_core::prelude::*;
/// mod ui {
///     #[derive(ecs_core::Component)]
///     pub struct Button;
/// }
/// mod input {
///     #[derive(ecs_core::Component)]
///     pub struct Button;
/// }
/// let conflicts = ecs_core::name_conflicts();
/// let (name, paths) = conflicts.iter().find(|(name, _)| *name == "Button").unwrap();
/// assert_eq!((*name, paths.len()), ("Button", 2));
/// assert!(matches!(ecs_core::component_type("Button"), Err(Error::AmbiguousName { .. })));
/// ```
pub fn name_conflicts() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut out: Vec<_> = by_name()
        .iter()
        .filter(|(_, entries)| entries.len() > 1)
        .map(|(name, entries)| (*name, entries.iter().map(|&e| type_name(e)).collect()))
        .collect();
    out.sort();
    out
}

/// The component type called `name`.
///
/// # Errors
/// [`Error::UnknownComponent`] (with the closest registered name) or
/// [`Error::AmbiguousName`] when two types claim the name.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Health(u32);
/// assert_eq!(ecs_core::component_type("Health")?.key_stack()[0], ComponentKey::of::<Health>());
/// let err = ecs_core::component_type("Helth").unwrap_err();
/// assert!(matches!(err, Error::UnknownComponent { suggestion: Some("Health"), .. }));
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub fn component_type(name: &str) -> Result<ComponentType, Error> {
    let found = by_name().get(name).cloned().unwrap_or_default();
    match found.as_slice() {
        [vtable] => Ok(ComponentType { vtable }),
        [first, ..] => Err(Error::AmbiguousName {
            name: first.keys()[0].name(),
            types: found.iter().map(|&e| type_name(e)).collect(),
        }),
        [] => Err(Error::UnknownComponent {
            name: name.to_owned(),
            suggestion: closest(name),
        }),
    }
}

/// Names longer than this (in bytes) get no suggestion: no registered
/// name is that long, and a typo of one is not either. Checked before
/// anything else, so refusing a name of any length costs no more than
/// copying it into the error.
const SUGGEST_MAX_LEN: usize = 256;

/// The most edit-distance table cells one refusal computes: a catalog of
/// many long names cannot make a suggestion expensive either. Typos of
/// real names take a few hundred cells per candidate.
const SUGGEST_BUDGET: usize = 1 << 20;

/// The registered name nearest to `name` by edit distance, if any is close.
fn closest(name: &str) -> Option<&'static str> {
    let catalog = by_name();
    suggest(name, catalog.keys().copied(), &mut 0)
}

/// The candidate nearest to `name` by edit distance (case aside), if one
/// is within a third of the longer name's length (plus one); ties go to the
/// first in byte order. Adds to `work` the table cells it computed, never
/// past [`SUGGEST_BUDGET`]: a candidate whose length alone puts it out of
/// reach costs none, and neither does a name over [`SUGGEST_MAX_LEN`].
fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    work: &mut usize,
) -> Option<&'a str> {
    if name.len() > SUGGEST_MAX_LEN {
        return None;
    }
    let lower: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let limit = candidate.len().max(name.len()) / 3 + 1;
        let other_len = candidate.chars().flat_map(char::to_lowercase).count();
        // The distance is at least the difference in length.
        if lower.len().abs_diff(other_len) > limit {
            continue;
        }
        let other: Vec<char> = candidate.chars().flat_map(char::to_lowercase).collect();
        let cells = (lower.len() + 1) * (other.len() + 1);
        if *work + cells > SUGGEST_BUDGET {
            break;
        }
        let Some(d) = edit_distance_within(&lower, &other, limit, work) else {
            continue;
        };
        if best.is_none_or(|b| (d, candidate) < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The edit distance between `a` and `b` when it is at most `limit`,
/// stopping at the first row past it; adds the cells computed to `work`.
fn edit_distance_within(a: &[char], b: &[char], limit: usize, work: &mut usize) -> Option<usize> {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
        *work += b.len() + 1;
        // Every later row is at least this row's least value.
        if row.iter().min().is_some_and(|&least| least > limit) {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= limit)
}

#[cfg(test)]
mod tests {
    use super::{suggest, SUGGEST_BUDGET};

    const CATALOG: [&str; 4] = ["Health", "Position", "Velocity", "collider"];

    #[test]
    fn typos_still_get_their_suggestion() {
        let mut work = 0;
        assert_eq!(suggest("Helth", CATALOG, &mut work), Some("Health"));
        assert_eq!(suggest("positon", CATALOG, &mut work), Some("Position"));
        assert_eq!(suggest("COLLIDER", CATALOG, &mut work), Some("collider"));
        assert_eq!(suggest("Zebra", CATALOG, &mut work), None);
        assert!(work > 0);
    }

    #[test]
    fn a_huge_name_is_refused_without_any_work() {
        let huge = "x".repeat(400 * 1024);
        let mut work = 0;
        assert_eq!(suggest(&huge, CATALOG, &mut work), None);
        // Also when a candidate is as long: the name is not looked at.
        let long: &str = &huge;
        assert_eq!(suggest(&huge, [long], &mut work), None);
        assert_eq!(work, 0);
    }

    #[test]
    fn names_far_longer_than_every_candidate_cost_nothing() {
        let mut work = 0;
        for i in 0..10_000 {
            let name = format!("{i:0>200}");
            assert_eq!(suggest(&name, CATALOG, &mut work), None);
        }
        assert_eq!(work, 0, "each candidate is out of reach by length alone");
    }

    #[test]
    fn the_work_per_refusal_is_capped() {
        // A catalog of many long, similar names: the worst case for a
        // name just under the length bound.
        let names: Vec<String> = (0..10_000).map(|i| format!("{i:a>250}")).collect();
        let catalog: Vec<&str> = names.iter().map(String::as_str).collect();
        let name = "b".repeat(250);
        let mut work = 0;
        suggest(&name, catalog.iter().copied(), &mut work);
        assert!(work <= SUGGEST_BUDGET, "{work}");
        // A near miss is still found when the work allows.
        let mut work = 0;
        let near = format!("{:a>249}", 7);
        assert_eq!(
            suggest(&near, catalog[..10].iter().copied(), &mut work),
            Some(catalog[7])
        );
    }
}
