//! Components by name, with no registration call: every non-generic derived
//! component submits an entry to a link-time collection (the `inventory`
//! crate: static constructors, on Linux, macOS, iOS, Windows, Android,
//! FreeBSD and WebAssembly). Generic components are found by type only.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::LazyLock;

use crate::component::ComponentVTable;
use crate::entity::TypeIdx;
use crate::world::World;
use crate::{Component, ComponentKey, Error};

/// One derived component type, as the catalog knows it.
#[doc(hidden)]
pub struct Registration {
    vtable: &'static ComponentVTable,
    type_name: fn() -> &'static str,
}

impl Registration {
    /// The entry for `T`; built in the derive's `inventory::submit!`.
    pub const fn of<T: Component>() -> Self {
        Registration {
            vtable: T::__VTABLE,
            type_name: std::any::type_name::<T>,
        }
    }
}

inventory::collect!(Registration);

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
    entry: &'static Registration,
}

impl ComponentType {
    /// The stable name (`#[component(name = "...")]` or the identifier).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// assert_eq!(ecs_core::component_type("hp")?.name(), "hp");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> &'static str {
        self.entry.vtable.keys()[0].name()
    }

    /// Whether an entity may hold several.
    ///
    /// ```
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
        self.entry.vtable.chain.multiple_flags()[0]
    }

    /// The Rust type path, for messages.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// let ty = ecs_core::component_type("hp")?;
    /// assert_eq!(ty.type_name(), std::any::type_name::<Health>());
    /// assert!(ty.type_name().ends_with("::Health"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn type_name(&self) -> &'static str {
        (self.entry.type_name)()
    }

    /// The key stack: this type first, then its ancestors.
    ///
    /// ```
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
        self.entry.vtable.keys()
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

    pub(crate) fn register(&self, world: &mut World) -> TypeIdx {
        world.register_vtable(self.entry.vtable)
    }

    /// The type's capabilities.
    pub(crate) fn ops(&self) -> &'static crate::component::ops::ComponentOps {
        &self.entry.vtable.ops
    }
}

static BY_TYPE: LazyLock<HashMap<TypeId, &'static Registration>> = LazyLock::new(|| {
    inventory::iter::<Registration>
        .into_iter()
        .map(|entry| (entry.vtable.type_id(), entry))
        .collect()
});

/// The derived, non-generic component type whose `TypeId` is `id`, if any
/// (what finds a resource's name and serde support).
pub(crate) fn component_type_of(id: TypeId) -> Option<ComponentType> {
    BY_TYPE.get(&id).map(|&entry| ComponentType { entry })
}

impl std::fmt::Debug for ComponentType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name(), self.type_name())
    }
}

static BY_NAME: LazyLock<HashMap<&'static str, Vec<&'static Registration>>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Vec<&'static Registration>> = HashMap::new();
    for entry in inventory::iter::<Registration> {
        let same = map.entry(entry.vtable.keys()[0].name()).or_default();
        // The derive submits each type once; stay correct if a type ever
        // shows up twice.
        if !same
            .iter()
            .any(|e| e.vtable.type_id() == entry.vtable.type_id())
        {
            same.push(entry);
        }
    }
    map
});

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
    let mut all: Vec<ComponentType> = BY_NAME
        .values()
        .flatten()
        .map(|&entry| ComponentType { entry })
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
    let mut out: Vec<_> = BY_NAME
        .iter()
        .filter(|(_, entries)| entries.len() > 1)
        .map(|(name, entries)| (*name, entries.iter().map(|e| (e.type_name)()).collect()))
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
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Health(u32);
/// assert_eq!(ecs_core::component_type("Health")?.key_stack()[0], ComponentKey::of::<Health>());
/// let err = ecs_core::component_type("Helth").unwrap_err();
/// assert!(matches!(err, Error::UnknownComponent { suggestion: Some("Health"), .. }));
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub fn component_type(name: &str) -> Result<ComponentType, Error> {
    match BY_NAME.get(name).map(Vec::as_slice) {
        Some([entry]) => Ok(ComponentType { entry }),
        Some(entries) if !entries.is_empty() => Err(Error::AmbiguousName {
            name: entries[0].vtable.keys()[0].name(),
            types: entries.iter().map(|e| (e.type_name)()).collect(),
        }),
        _ => Err(Error::UnknownComponent {
            name: name.to_owned(),
            suggestion: closest(name),
        }),
    }
}

/// The registered name nearest to `name` by edit distance, if any is close.
fn closest(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    BY_NAME
        .keys()
        .map(|&candidate| (edit_distance(&lower, &candidate.to_lowercase()), candidate))
        .filter(|&(d, candidate)| d <= candidate.len().max(name.len()) / 3 + 1)
        .min()
        .map(|(_, candidate)| candidate)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
