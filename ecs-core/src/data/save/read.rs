//! A saved world as read, before anything is spawned, and spawning it.

use std::any::TypeId;
use std::collections::HashSet;

use crate::component::ops::BoxedComponent;
use crate::data::catalog::component_type;
use crate::data::codec::DeserializeFns;
use crate::data::refs::{self, IdMap};
use crate::entity::{TableId, TypeIdx};
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::Error;

use super::json::{check_single_rule, Listed};
use super::{bad, Loaded, FORMAT, VERSION};

/// A saved world as read, before anything is spawned.
#[derive(Default)]
pub(super) struct File {
    pub(super) format: Option<String>,
    pub(super) version: Option<u64>,
    pub(super) update_order: Vec<TypeIdx>,
    pub(super) resources: Vec<(TypeId, BoxedComponent)>,
    pub(super) name_order: Option<(Vec<u64>, String)>,
    pub(super) entities: Vec<LoadedEntity>,
    /// Children by saved id, per entity.
    pub(super) children: Vec<Vec<u32>>,
    /// The largest saved id read so far and where (built into a path only
    /// if it is out of range), for the reference check.
    pub(super) max_ref: Option<(u64, RefAt)>,
    /// The component types of the entity being read.
    pub(super) types: Vec<TypeIdx>,
    /// Tables whose type list passed the single rule.
    pub(super) checked: HashSet<TableId>,
    /// Scratch for the JSON reader's first pass over a component list.
    pub(super) listed: Vec<Listed>,
    /// The last table found, with its types.
    pub(super) last_table: Option<(Vec<TypeIdx>, TableId)>,
}

/// Where a reference was read.
#[derive(Clone, Copy)]
pub(super) enum RefAt {
    Resource(usize),
    Component(usize, usize),
    /// A binary snapshot's `data[k]` of entity `i`.
    Data(usize, usize),
}

impl RefAt {
    pub(super) fn path(self) -> String {
        match self {
            RefAt::Resource(i) => format!("resources[{i}].data"),
            RefAt::Component(i, k) => format!("{}.data", component_path(i, k)),
            RefAt::Data(i, k) => format!("entities[{i}].data[{k}]"),
        }
    }
}

/// Where an error is, built only when there is one.
pub(super) fn entity_path(i: usize) -> String {
    format!("entities[{i}]")
}

pub(super) fn component_path(i: usize, k: usize) -> String {
    format!("entities[{i}].components[{k}]")
}

/// A component type resolved once per load.
#[derive(Clone, Copy)]
pub(super) struct Known {
    pub(super) ty: TypeIdx,
    pub(super) fns: DeserializeFns,
}

pub(super) fn resolve_type(world: &mut World, name: &str, path: &str) -> Result<Known, Error> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns = crate::data::codec::deserialize_fns(found.ops()).ok_or_else(|| {
        bad(
            path,
            format!(
                "`{}` cannot be read from data: it does not implement `serde::Deserialize`",
                found.name()
            ),
        )
    })?;
    Ok(Known {
        ty: found.register(world),
        fns: *fns,
    })
}

pub(super) fn current_max() -> Option<u64> {
    refs::load_max()
}

impl File {
    /// The table of entity `i`, whose component types are in
    /// `self.types`, checked against the single rule once per table.
    pub(super) fn table_of(&mut self, world: &mut World, i: usize) -> Result<TableId, Error> {
        // Neighbours in a file are often alike.
        if let Some((types, table)) = &self.last_table {
            if *types == self.types {
                return Ok(*table);
            }
        }
        let table = world.table_for(&self.types);
        if !self.checked.contains(&table) {
            check_single_rule(world, &self.types, i)?;
            self.checked.insert(table);
        }
        self.last_table = Some((self.types.clone(), table));
        Ok(table)
    }

    /// Notes where the largest reference so far was read.
    pub(super) fn note_refs(&mut self, before: Option<u64>, at: RefAt) {
        let now = current_max();
        if now != before {
            if let Some(max) = now {
                self.max_ref = Some((max, at));
            }
        }
    }

    pub(super) fn check_refs(&self) -> Result<(), Error> {
        match &self.max_ref {
            Some((max, at)) if *max >= self.entities.len() as u64 => Err(Error::UnknownEntity {
                path: at.path(),
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

    /// Checks the hierarchy, then spawns everything into `world`.
    pub(super) fn build(self, mut world: World) -> Result<Loaded, Error> {
        let n = self.entities.len();
        // Which entities some entity lists as a child: all the checks and
        // the walk below need, in an eighth of the room of the parents.
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
        // A cycle leaves entities that no root reaches; walking from the
        // roots also gives the order hooks fire in (parents first).
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
        let name_order = match self.name_order {
            None => None,
            Some((order, path)) => {
                let mut seen = vec![false; n];
                for (k, &saved) in order.iter().enumerate() {
                    let ok = usize::try_from(saved).ok().filter(|&s| {
                        s < n
                            && self.entities[s].name.is_some()
                            && !std::mem::replace(&mut seen[s], true)
                    });
                    if ok.is_none() {
                        return Err(bad(
                            format!("{path}[{k}]"),
                            "expected the saved id of a named entity, each once",
                        ));
                    }
                }
                let named = self.entities.iter().filter(|e| e.name.is_some()).count();
                if order.len() != named {
                    return Err(bad(path, "expected every named entity's saved id"));
                }
                Some(order.into_iter().map(|s| s as u32).collect())
            }
        };
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
}

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

pub(super) fn resource_entry(
    name: &str,
    path: &str,
) -> Result<
    (
        TypeId,
        crate::data::codec::DeserializeFn,
        crate::data::codec::BinaryReadFn,
    ),
    Error,
> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns = crate::data::codec::deserialize_fns(found.ops()).ok_or_else(|| {
        bad(
            path,
            format!(
                "`{name}` cannot be read from data: it does not implement `serde::Deserialize`"
            ),
        )
    })?;
    Ok((found.type_id(), fns.boxed, fns.binary))
}
