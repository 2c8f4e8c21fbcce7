//! A saved world as read, before its hierarchy, names and hooks are put
//! together, and putting them together; with the catalog look-ups a read
//! makes (update order entries, resources, component types).

use std::any::TypeId;

use crate::component::catalog::{component_type, component_type_of};
use crate::component::ops::{BoxedComponent, ComponentOps};
use crate::data::codec::{deserialize_fns, serialize_fns, DeserializeFns, Stored};
use crate::data::refs::{self, with_context, IdMap, RefContext};
use crate::entity::TypeIdx;
use crate::scene::spawn::ChildLists;
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::Error;

use super::decode::Known;
use super::{bad, Loaded, FORMAT, VERSION};

/// A saved world as read: its entities are spawned already (with their
/// components), the rest waits for [`File::build`]. `'a` is the input's.
pub(super) struct File<'a> {
    pub(super) format: Option<String>,
    pub(super) version: Option<u64>,
    pub(super) update_order: Vec<TypeIdx>,
    pub(super) resources: Vec<(TypeId, BoxedComponent)>,
    /// Saved ids in naming order, as read (checked by `build`).
    pub(super) name_order: Option<Vec<u64>>,
    pub(super) entities: Vec<LoadedEntity>,
    /// Children by saved id, per entity.
    pub(super) children: ChildLists,
    /// The largest saved id read so far and where (built into a path only
    /// if it is out of range), for the reference check.
    max_ref: Option<MaxRef<'a>>,
    /// Where the format keeps component `k` of entity `i`'s value.
    value_path: fn(usize, usize) -> String,
    /// Whether values are JSON (else MessagePack).
    json: bool,
}

/// The largest saved id a load has read, and where: kept by position, so
/// that noting it allocates nothing; [`File::check_refs`] builds the path
/// only if the id is past the file's last entity.
struct MaxRef<'a> {
    saved: u64,
    at: RefAt,
    /// The bytes of the value that holds it, read again for the path.
    data: &'a [u8],
}

/// Where a reference was read.
#[derive(Clone, Copy)]
pub(super) enum RefAt {
    /// In resource `i`.
    Resource(usize),
    /// In component `k` (of type `ty`) of entity `i`.
    Component(usize, usize, TypeIdx),
}

/// The largest saved id the load has read so far.
pub(super) fn current_max() -> Option<u64> {
    refs::load_max()
}

impl<'a> File<'a> {
    /// An empty file of a format that keeps values where `value_path`
    /// says, as JSON if `json`, else as MessagePack.
    pub(super) fn new(value_path: fn(usize, usize) -> String, json: bool) -> Self {
        File {
            format: None,
            version: None,
            update_order: Vec::new(),
            resources: Vec::new(),
            name_order: None,
            entities: Vec::new(),
            children: ChildLists::default(),
            max_ref: None,
            value_path,
            json,
        }
    }

    /// Notes where the largest reference so far was read, if the value
    /// just read (when the largest was `before`) raised it: `at`, and the
    /// value's bytes, which `data` gives (asked for only then).
    #[inline]
    pub(super) fn note_refs(
        &mut self,
        before: Option<u64>,
        at: RefAt,
        data: impl FnOnce() -> &'a [u8],
    ) {
        let now = current_max();
        if now != before
            && let Some(saved) = now
        {
            let data = data();
            self.max_ref = Some(MaxRef { saved, at, data });
        }
    }

    /// Checks that every reference read names an entity of the file
    /// (`world`, the world being loaded, names the types).
    pub(super) fn check_refs(&self, world: &World) -> Result<(), Error> {
        match &self.max_ref {
            Some(max) if max.saved >= self.entities.len() as u64 => Err(self.unknown(world, max)),
            _ => Ok(()),
        }
    }

    /// The error of a reference past the last entity: the value that holds
    /// it is read again, seeking it, for the field's path and the type.
    #[cold]
    fn unknown(&self, world: &World, max: &MaxRef<'_>) -> Error {
        let (path, ty) = match max.at {
            RefAt::Resource(i) => {
                let ty = self.resources.get(i).and_then(|r| component_type_of(r.0));
                let ty = ty.map(|ty| (ty.name(), ty.ops()));
                (format!("resources[{i}].data"), ty)
            }
            RefAt::Component(i, k, ty) => {
                let name = world.storage().info(ty).key().name();
                ((self.value_path)(i, k), Some((name, world.vtable(ty).ops)))
            }
        };
        let tag = world.entities().tag();
        let inner = ty.map_or_else(String::new, |(_, ops)| {
            seek(ops, max.data, self.json, tag, max.saved)
        });
        Error::UnknownEntity {
            path: join(path, &inner),
            component: ty.map_or("(a resource of an unknown type)", |(name, _)| name),
            saved: max.saved,
            count: self.entities.len(),
        }
    }

    pub(super) fn check_header(&self) -> Result<(), Error> {
        if self.format.as_deref() != Some(FORMAT) {
            return Err(bad(
                "format",
                format!("expected \"{FORMAT}\": this is not a saved world"),
            ));
        }
        match self.version {
            Some(1 | 2) => Ok(()),
            Some(v) if v > VERSION => Err(bad(
                "version",
                format!("version {v} is newer than this build reads (1 and {VERSION}): load it with a newer ecs-core"),
            )),
            _ => Err(bad(
                "version",
                format!("expected {VERSION} (or 1), the versions this build reads"),
            )),
        }
    }

    /// Checks the hierarchy and the naming order, then puts the world
    /// together: update order, resources, children, names, hooks.
    pub(super) fn build(self, mut world: World) -> Result<Loaded, Error> {
        // A world without links (the common save) has nothing to check,
        // and its tree order is file order.
        let tree_order = match self.children.no_links() {
            true => (0..self.entities.len() as u32).collect(),
            false => self.tree_order(&self.check_children()?)?,
        };
        let name_order = self.checked_name_order()?;
        world.set_update_order_of(self.update_order);
        for (ty, value) in self.resources {
            world.resources_mut().insert_boxed(ty, value);
        }
        let ids = crate::scene::spawn::finish_loaded(
            &mut world,
            &self.entities,
            &self.children,
            &tree_order,
            name_order,
        );
        Ok(Loaded {
            world,
            ids: IdMap::new(ids),
        })
    }

    /// Checks each child is another entity of the file and has one
    /// parent; gives which entities have one (all the checks and the walk
    /// need, in an eighth of the room of the parents).
    fn check_children(&self) -> Result<Vec<bool>, Error> {
        let n = self.entities.len();
        let mut has_parent = vec![false; n];
        for (i, children) in self.children.iter().enumerate() {
            for (k, &c) in children.iter().enumerate() {
                // The path is built only for an error: a load checks every
                // child of every entity.
                let here = || format!("entities[{i}].children[{k}]");
                let cu = c as usize;
                if cu >= n || cu == i {
                    return Err(bad(
                        here(),
                        "expected the id of another entity in this file",
                    ));
                }
                if std::mem::replace(&mut has_parent[cu], true) {
                    return Err(bad(
                        here(),
                        format!("entity {c} is listed as a child twice"),
                    ));
                }
            }
        }
        Ok(has_parent)
    }

    /// The saved ids from the roots down, parents first: the order hooks
    /// fire in. A cycle leaves entities that no root reaches.
    fn tree_order(&self, has_parent: &[bool]) -> Result<Vec<u32>, Error> {
        let n = self.entities.len();
        let mut tree_order = Vec::with_capacity(n);
        let mut stack: Vec<u32> = (0..n as u32)
            .rev()
            .filter(|&i| !has_parent[i as usize])
            .collect();
        while let Some(i) = stack.pop() {
            tree_order.push(i);
            stack.extend(self.children.of(i as usize).iter().rev());
        }
        if tree_order.len() != n {
            let mut reached = vec![false; n];
            for &i in &tree_order {
                reached[i as usize] = true;
            }
            let i = reached.iter().position(|r| !r).expect("one is unreached");
            return Err(bad(
                format!("entities[{i}]"),
                "this entity is its own ancestor (a parent cycle)",
            ));
        }
        Ok(tree_order)
    }

    /// The naming order, checked: every named entity's saved id, once.
    fn checked_name_order(&self) -> Result<Option<Vec<u32>>, Error> {
        let Some(order) = &self.name_order else {
            return Ok(None);
        };
        let n = self.entities.len();
        let mut seen = vec![false; n];
        for (k, &saved) in order.iter().enumerate() {
            let ok = usize::try_from(saved).ok().filter(|&s| {
                s < n && self.entities[s].name.is_some() && !std::mem::replace(&mut seen[s], true)
            });
            if ok.is_none() {
                return Err(bad(
                    format!("name_order[{k}]"),
                    "expected the saved id of a named entity, each once",
                ));
            }
        }
        let named = self.entities.iter().filter(|e| e.name.is_some()).count();
        if order.len() != named {
            return Err(bad("name_order", "expected every named entity's saved id"));
        }
        Ok(Some(order.iter().map(|&s| s as u32).collect()))
    }
}

/// Where in `data`, a value of the type whose capabilities are `ops` (JSON
/// if `json`, else MessagePack), saved id `saved` is held: the path down
/// from the value (`target`, `targets[2]`), empty if it is the value
/// itself or is not found. Ids read back as in the load (world `tag`'s).
#[cold]
fn seek(ops: &ComponentOps, data: &[u8], json: bool, tag: u32, saved: u64) -> String {
    let Some(read) = deserialize_fns(ops) else {
        return String::new();
    };
    let sought = RefContext::Seek {
        tag,
        sought: Some(saved),
    };
    if json {
        // Read again, the path tracked: reading the id fails, and the
        // path stops there.
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
            return String::new();
        };
        let (read, _) = with_context(sought, || (read.boxed)(&value));
        return read.err().map(|(path, _)| path).unwrap_or_default();
    }
    // MessagePack lists a struct's fields by position, unnamed: read the
    // value back, then write it again, the path tracked, which names them
    // as a binary save's errors do (for a type that can be written).
    let Some(write) = serialize_fns(ops) else {
        return String::new();
    };
    let back = RefContext::Seek { tag, sought: None };
    let (value, _) = with_context(back, || (read.binary)(data));
    let Ok(value) = value else {
        return String::new();
    };
    let (path, _) = with_context(sought, || (write.locate)(Stored::Any(&*value), false));
    path
}

/// `inner` (a path inside a value) appended to `path`, the value's.
fn join(path: String, inner: &str) -> String {
    match inner {
        "" => path,
        s if s.starts_with('[') => format!("{path}{s}"),
        s => format!("{path}.{s}"),
    }
}

/// Adds behaviour type `name` (at `path`) to the update order, once.
pub(super) fn update_order_entry(
    world: &mut World,
    name: &str,
    path: &str,
    order: &mut Vec<TypeIdx>,
) -> Result<(), Error> {
    let ty = component_type(name)
        .map_err(|e| bad(path, e.to_string()))?
        .register(world);
    if !world.storage().info(ty).has_hooks() {
        return Err(bad(path, format!("`{name}` is not a behaviour type")));
    }
    if !order.contains(&ty) {
        order.push(ty);
    }
    Ok(())
}

/// The type and readers of resource type `name`, for the resource at
/// `path`.
pub(super) fn resource_entry(
    name: &str,
    path: &str,
) -> Result<(TypeId, &'static DeserializeFns), Error> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns =
        crate::data::codec::deserialize_fns(found.ops()).ok_or_else(|| not_readable(path, name))?;
    Ok((found.type_id(), fns))
}

/// Component type `name`, for the component (or types table entry) at
/// `path`, registered in `world`.
pub(super) fn resolve_type(world: &mut World, name: &str, path: &str) -> Result<Known, Error> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns = crate::data::codec::deserialize_fns(found.ops())
        .ok_or_else(|| not_readable(path, found.name()))?;
    Ok(Known {
        ty: found.register(world),
        fns,
    })
}

fn not_readable(path: &str, name: &str) -> Error {
    bad(
        path,
        format!("`{name}` cannot be read from data: it does not implement `serde::Deserialize`"),
    )
}
