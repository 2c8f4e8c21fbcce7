//! The [`Component`] trait, its [`ComponentKey`], and the compile-time key stack.

use std::any::TypeId;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

pub(crate) mod catalog;
pub(crate) mod ops;
pub(crate) mod require;
mod vtable;

pub(crate) use vtable::Capability;
pub use vtable::{erased_of, ComponentVTable, Runtime};

/// The deepest parent chain a component may declare (the type itself included).
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Moving;
/// #[derive(Component)]
/// #[component(parent = Moving)]
/// struct AxisMoving(Moving);
/// assert_eq!(ecs_core::MAX_CHAIN_DEPTH, 16);
/// assert!(AxisMoving::key_stack().len() <= ecs_core::MAX_CHAIN_DEPTH);
/// ```
pub const MAX_CHAIN_DEPTH: usize = 16;

/// A value that can live on an entity.
///
/// Implement it with `#[derive(Component)]`; the derive generates the key stack
/// (own key first, then the parent's stack) and the `is_derived_from` chain at
/// compile time, so nothing is ever registered at run time.
///
/// | attribute | meaning |
/// |---|---|
/// | `#[component(parent = P)]` | this type *is-a* `P`: it embeds one field of type `P`, and `get::<P>()` finds it |
/// | `#[component(parent)]` on a field | that field is the parent (its type is `P`); alone it is enough |
/// | `#[component(multiple)]` | an entity may hold several of this type |
/// | `#[component(name = "...")]` | the stable name (default: the type's identifier) |
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Moving { speed: f32 }
///
/// #[derive(Component)]
/// #[component(parent = Moving)]
/// struct AxisMoving { base: Moving, vertical: bool }
///
/// assert_eq!(AxisMoving::key_stack(), &[ComponentKey::of::<AxisMoving>(), ComponentKey::of::<Moving>()]);
/// assert!(AxisMoving::is_derived_from(ComponentKey::of::<Moving>()));
/// assert!(!Moving::is_derived_from(ComponentKey::of::<AxisMoving>()));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component",
    label = "`{Self}` does not implement `Component`",
    // One wording for every `Self`, since it cannot depend on the type: a
    // type of the user's, one from another crate, a reference, a tuple.
    note = "if `{Self}` is a type of yours, add `#[derive(Component)]` to its definition; a type from another crate (`f32`, `String`, ...) cannot derive it: wrap it in one of yours, such as `#[derive(Component)] struct Speed(f32);`",
    note = "a reference or a tuple is never a component: `add`, `get` and the derive's attributes take one component type, by value (`add(Health(3))`, `get::<Health>()`); several are spawned together by `spawn_with((Health(3), Mana(2)))` and read together by `query::<(&Health, &Mana)>()`"
)]
pub trait Component: Send + Sync + 'static + Sized {
    /// The stable name used by name lookups and blueprints.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(name = "armor")]
    /// struct Armor;
    /// assert_eq!(Health::NAME, "Health");
    /// assert_eq!(Armor::NAME, "armor");
    /// ```
    const NAME: &'static str;
    /// Whether an entity may hold several components of this type:
    /// `#[component(multiple)]`, and `false` (this default) without it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider(f32);
    /// assert!(!Health::MULTIPLE);
    /// assert!(Collider::MULTIPLE);
    /// ```
    const MULTIPLE: bool = false;

    #[doc(hidden)]
    /// The type's path (module and name, `<>` for a generic type, and the
    /// line and column of its derive, which tell apart same-named types
    /// declared in two function bodies of one module): unique to the type,
    /// or to a generic type's instantiations together; what compile-time
    /// checks compare, since `TypeId`s cannot be compared in constants.
    const __PATH: &'static str;

    #[doc(hidden)]
    /// What the derive finds per type for the runtime: capabilities and the
    /// number cache, in one constant (one body fewer per type for rustc).
    const __RUNTIME: vtable::Runtime = vtable::Runtime::NONE;

    #[doc(hidden)]
    /// Everything the runtime knows about the type. A plain type keeps this
    /// default, built by generic code here, so the derive emits no body per
    /// type to type-check and const-check, and the table is evaluated only
    /// where something reads it (the catalog entry, the type's first use);
    /// the derive overrides it for a parent, a behaviour, receivers,
    /// requirements or `transient`. One literal: each `const fn` call would
    /// cost every type's evaluation about as much as a page of MIR.
    const __VTABLE: &'static ComponentVTable = &ComponentVTable {
        chain: KeyChain {
            keys: &[ComponentKey {
                id: TypeId::of::<Self>(),
                name: Self::NAME,
                path: Self::__PATH,
            }],
            // Two constants shared by every type, not one array per type.
            multiple: if Self::MULTIPLE { &[true] } else { &[false] },
        },
        erased: crate::storage::ErasedType::of::<Self>(),
        behaviour: None,
        receiver: vtable::no_receiver,
        parent: None,
        requirements: vtable::no_requirements,
        ops: Self::__RUNTIME.ops,
        transient: false,
    };

    /// The key stack: this type's key first, then its parent's, up to the root.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving;
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving(Moving);
    /// let names: Vec<&str> = AxisMoving::key_stack().iter().map(|k| k.name()).collect();
    /// assert_eq!(names, ["AxisMoving", "Moving"]);
    /// assert_eq!(Moving::key_stack(), [ComponentKey::of::<Moving>()]);
    /// ```
    fn key_stack() -> &'static [ComponentKey] {
        Self::__VTABLE.chain.keys()
    }

    /// `true` when `key` is this type or one of its ancestors.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving;
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving(Moving);
    /// assert!(AxisMoving::is_derived_from(ComponentKey::of::<AxisMoving>()));
    /// assert!(AxisMoving::is_derived_from(ComponentKey::of::<Moving>()));
    /// assert!(!Moving::is_derived_from(ComponentKey::of::<AxisMoving>()));
    /// ```
    fn is_derived_from(key: ComponentKey) -> bool {
        Self::key_stack().contains(&key)
    }

    #[doc(hidden)]
    /// The type's process-wide number, when the derive could cache it in a
    /// `static` (non-generic types).
    #[inline]
    fn __type_number() -> Option<u32> {
        Self::__RUNTIME.number.map(|cell| cell.get::<Self>())
    }
}

/// Implemented by the derive for every `multiple` type. A `multiple` type
/// whose parent is single could never be held twice by one entity (it holds
/// at most one component that is-a the parent), so the derive of a
/// `multiple` type names `<Parent as MultipleParent>::OK`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is single, so a `multiple` type cannot derive from it: an entity holds at most one component that is-a `{Self}`, and so could never hold two of the derived type",
    label = "`{Self}` is single",
    note = "mark `{Self}` `#[component(multiple)]` too, or drop `multiple` from the type that derives from it"
)]
pub trait MultipleParent {
    /// Named by the derive's check; the value means nothing.
    const OK: () = ();
}

/// Identifies one component type: `Copy + Eq + Hash + Debug`, comparable in O(1).
///
/// Equality and hashing use the type's [`TypeId`] only; the name rides along
/// for messages and `Debug`.
///
/// ```
/// # use ecs_core::prelude::*;
/// # use std::collections::HashSet;
/// #[derive(Component)]
/// struct Health(u32);
/// #[derive(Component)]
/// struct Armor;
/// let keys: HashSet<ComponentKey> =
///     [ComponentKey::of::<Health>(), ComponentKey::of::<Armor>()].into();
/// assert!(keys.contains(&ComponentKey::of::<Health>()));
/// assert_ne!(ComponentKey::of::<Health>(), ComponentKey::of::<Armor>());
/// assert_eq!(format!("{:?}", ComponentKey::of::<Armor>()), "ComponentKey(Armor)");
/// ```
#[derive(Clone, Copy)]
pub struct ComponentKey {
    id: TypeId,
    name: &'static str,
    path: &'static str,
}

impl ComponentKey {
    /// The key of component type `T`, usable in constants.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// const KEY: ComponentKey = ComponentKey::of::<Health>();
    /// assert_eq!(KEY.name(), "Health");
    /// ```
    pub const fn of<T: Component>() -> Self {
        ComponentKey {
            id: TypeId::of::<T>(),
            name: T::NAME,
            path: T::__PATH,
        }
    }

    /// The type's path (module and name), shared by a generic type's
    /// instantiations.
    #[doc(hidden)]
    pub const fn path(self) -> &'static str {
        self.path
    }

    /// Whether `self` and `other` are the same type, as far as a constant
    /// can tell: `Some(true)` or `Some(false)` when it can, `None` for two
    /// instantiations of one generic type (their `TypeId`s, which cannot be
    /// compared in constants, decide).
    #[doc(hidden)]
    pub const fn same_type(self, other: ComponentKey) -> Option<bool> {
        if !str_eq(self.path, other.path) {
            return Some(false);
        }
        // Equal paths: both generic or neither.
        if ends_with_generic_mark(self.path) {
            return None;
        }
        Some(true)
    }

    /// Whether the type is an instantiation of a generic type.
    pub(crate) fn is_generic(self) -> bool {
        ends_with_generic_mark(self.path)
    }

    /// The component's stable name.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// assert_eq!(ComponentKey::of::<Health>().name(), "hp");
    /// ```
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The component's [`TypeId`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use std::any::TypeId;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// assert_eq!(ComponentKey::of::<Health>().type_id(), TypeId::of::<Health>());
    /// ```
    pub const fn type_id(self) -> TypeId {
        self.id
    }
}

/// Whether a derived type's path carries the mark of a generic type (`<>`
/// before the `@line:column` of its derive).
const fn ends_with_generic_mark(path: &str) -> bool {
    let bytes = path.as_bytes();
    let mut at = bytes.len();
    while at > 0 && bytes[at - 1] != b'@' {
        at -= 1;
    }
    at >= 3 && bytes[at - 3] == b'<' && bytes[at - 2] == b'>'
}

/// `a == b`, in constants.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl PartialEq for ComponentKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for ComponentKey {}
impl Hash for ComponentKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}
impl fmt::Debug for ComponentKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ComponentKey({})", self.name)
    }
}

/// A component type's ancestry, computed in `const` by the derive.
///
/// Not constructed by hand: `#[derive(Component)]` builds it.
///
/// Two slices into constants of their own rather than arrays of
/// [`MAX_CHAIN_DEPTH`] entries: every derived type evaluates, checks and
/// emits its table in the crate that defines it, and a type without a
/// parent (most of them) then carries one key, not sixteen.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct KeyChain {
    keys: &'static [ComponentKey],
    multiple: &'static [bool],
}

impl KeyChain {
    /// The chain of a component without a parent.
    pub const fn root<T: Component>() -> Self {
        KeyChain {
            keys: Root::<T>::KEYS,
            multiple: if T::MULTIPLE { &[true] } else { &[false] },
        }
    }

    /// The chain of `T`, whose parent is `P`.
    pub const fn with_parent<T: Component, P: Component>() -> Self {
        KeyChain {
            keys: Derived::<T, P>::KEYS,
            multiple: Derived::<T, P>::MULTIPLE,
        }
    }

    /// Own key first, then the ancestors'.
    pub const fn keys(&self) -> &'static [ComponentKey] {
        self.keys
    }

    /// The `multiple` flag of each key in [`KeyChain::keys`].
    pub const fn multiple_flags(&self) -> &'static [bool] {
        self.multiple
    }
}

/// The `'static` key slice of a type without a parent.
struct Root<T>(PhantomData<T>);

impl<T: Component> Root<T> {
    const KEYS: &'static [ComponentKey] = &[ComponentKey::of::<T>()];
}

/// The `'static` slices of `T`, whose parent is `P`: full-length arrays,
/// cut to the chain's length.
struct Derived<T, P>(PhantomData<(T, P)>);

impl<T: Component, P: Component> Derived<T, P> {
    const LEN: usize = {
        let parent = P::__VTABLE.chain.keys.len();
        assert!(
            parent < MAX_CHAIN_DEPTH,
            "component parent chain is deeper than ecs_core::MAX_CHAIN_DEPTH (16)"
        );
        parent + 1
    };
    const ALL_KEYS: &'static [ComponentKey; MAX_CHAIN_DEPTH] = &{
        let parent = P::__VTABLE.chain.keys;
        let mut keys = [ComponentKey::of::<T>(); MAX_CHAIN_DEPTH];
        let mut i = 0;
        while i < parent.len() {
            keys[i + 1] = parent[i];
            i += 1;
        }
        keys
    };
    const ALL_MULTIPLE: &'static [bool; MAX_CHAIN_DEPTH] = &{
        let parent = P::__VTABLE.chain.multiple;
        let mut multiple = [T::MULTIPLE; MAX_CHAIN_DEPTH];
        let mut i = 0;
        while i < parent.len() {
            multiple[i + 1] = parent[i];
            i += 1;
        }
        multiple
    };
    const KEYS: &'static [ComponentKey] = Self::ALL_KEYS.split_at(Self::LEN).0;
    const MULTIPLE: &'static [bool] = Self::ALL_MULTIPLE.split_at(Self::LEN).0;
}
