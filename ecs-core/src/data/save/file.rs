//! A saved world as read, before its hierarchy, names and hooks are put
//! together, and putting them together; with the catalog look-ups a read
//! makes (update order entries, resources, component types).

use std::any::TypeId;

use crate::component::catalog::component_type;
use crate::component::ops::BoxedComponent;
use crate::data::codec::DeserializeFns;
use crate::data::refs::{self, IdMap};
use crate::entity::TypeIdx;
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::Error;

use super::decode::Known;
use super::{bad, Loaded, FORMAT, VERSION};

/// A saved world as read: its entities are spawned already (with their
/// components), the rest waits for [`File::build`].
pub(super) struct File {
    pub(super) format: Option<String>,
    pub(super) version: Option<u64>,
    pub(super) update_order: Vec<TypeIdx>,
    pub(super) resources: Vec<(TypeId, BoxedComponent)>,
    /// Saved ids in naming order, as read (checked by `build`).
    pub(super) name_order: Option<Vec<u64>>,
    pub(super) entities: Vec<LoadedEntity>,
    /// Children by saved id, per entity.
    pub(super) children: Vec<Vec<u32>>,
    /// The largest saved id read so far and where (built into a path only
    /// if it is out of range), for the reference check.
    max_ref: Option<(u64, RefAt)>,
    /// Where the format keeps component `k` of entity `i`'s value.
    value_path: fn(usize, usize) -> String,
}

/// Where a reference was read.
#[derive(Clone, Copy)]
pub(super) enum RefAt {
    /// In resource `i`.
    Resource(usize),
    /// In component `k` of entity `i`.
    Component(usize, usize),
}

/// The largest saved id the load has read so far.
pub(super) fn current_max() -> Option<u64> {
    refs::load_max()
}

impl File {
    /// An empty file of a format that keeps values where `value_path`
    /// says.
    pub(super) fn new(value_path: fn(usize, usize) -> String) -> Self {
        File {
            format: None,
            version: None,
            update_order: Vec::new(),
            resources: Vec::new(),
            name_order: None,
            entities: Vec::new(),
            children: Vec::new(),
            max_ref: None,
            value_path,
        }
    }

    /// Notes where the largest reference so far was read, if the value
    /// just read (when the largest was `before`) raised it.
    pub(super) fn note_refs(&mut self, before: Option<u64>, at: RefAt) {
        let now = current_max();
        if now != before
            && let Some(max) = now
        {
            self.max_ref = Some((max, at));
        }
    }

    /// Checks that every reference read names an entity of the file.
    pub(super) fn check_refs(&self) -> Result<(), Error> {
        match &self.max_ref {
            Some((max, at)) if *max >= self.entities.len() as u64 => Err(Error::UnknownEntity {
                path: match *at {
                    RefAt::Resource(i) => format!("resources[{i}].data"),
                    RefAt::Component(i, k) => (self.value_path)(i, k),
                },
                saved: *max,
                count: self.entities.len(),
            }),
            _ => Ok(()),
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
        let has_parent = self.check_children()?;
        let tree_order = self.tree_order(&has_parent)?;
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
            stack.extend(self.children[i as usize].iter().rev());
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
