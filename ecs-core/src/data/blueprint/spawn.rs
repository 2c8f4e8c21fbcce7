//! Spawning a blueprint: its component types resolved once against the
//! world, room made for every copy, then the copies written in, all or
//! nothing.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use serde_json::{Map, Value};

use crate::component::catalog::component_type;
use crate::data::codec::{DataErrorParts, DeserializeFns};
use crate::data::refs::{with_context, RefContext};
use crate::entity::{SegId, TableId, TypeIdx};
use crate::world::World;
use crate::{EntityId, Error};

use super::{data_error, data_path, join, Blueprint};

impl Blueprint {
    /// The blueprint with every component type looked up and checked
    /// (registered, deserializable, single rule); touches nothing but the
    /// world's type table.
    fn resolve(&self, world: &mut World, path: &str) -> Result<Resolved<'_>, Error> {
        let mut components = Vec::with_capacity(self.components.len());
        for (i, spec) in self.components.iter().enumerate() {
            let here = join(path, &format!("components[{i}]"));
            let found = component_type(&spec.type_name)
                .map_err(|e| data_error(&join(&here, "type"), e.to_string()))?;
            let ty = found.register(world);
            let fns = crate::data::codec::deserialize_fns(&world.ops(ty)).ok_or_else(|| {
                data_error(
                    &here,
                    format!(
                        "`{}` cannot be read from data: it does not implement `serde::Deserialize`",
                        found.name()
                    ),
                )
            })?;
            components.push(ResolvedComponent {
                ty,
                fns: *fns,
                type_name: &spec.type_name,
                data: &spec.data,
                enabled: spec.enabled.unwrap_or(true),
            });
        }
        let types: Vec<TypeIdx> = components.iter().map(|c| c.ty).collect();
        if let Some((second, message)) = world.single_rule_message(&types) {
            return Err(data_error(
                &join(path, &format!("components[{second}]")),
                message,
            ));
        }
        let mut children = Vec::with_capacity(self.children.len());
        for (i, child) in self.children.iter().enumerate() {
            children.push(child.resolve(world, &join(path, &format!("children[{i}]")))?);
        }
        let name = self.name.as_deref().or(self.tag.as_deref());
        Ok(Resolved {
            name_id: name.map(|n| world.names_mut().intern(n)),
            path: path.to_owned(),
            table: world.table_for(&types),
            components,
            children,
        })
    }
}

/// A blueprint checked against one world's types, ready to spawn many times.
struct Resolved<'b> {
    /// The name, interned in the world's names once for every copy.
    name_id: Option<u32>,
    path: String,
    components: Vec<ResolvedComponent<'b>>,
    /// The table of `components`' types, in order.
    table: TableId,
    children: Vec<Resolved<'b>>,
}

struct ResolvedComponent<'b> {
    ty: TypeIdx,
    fns: DeserializeFns,
    /// The name the blueprint gives the type, for error paths.
    type_name: &'b str,
    data: &'b Value,
    enabled: bool,
}

impl Resolved<'_> {
    fn entity_count(&self) -> usize {
        1 + self
            .children
            .iter()
            .map(Resolved::entity_count)
            .sum::<usize>()
    }

    /// How many components of each type one copy of the tree holds.
    fn count_types(&self, out: &mut Vec<(TypeIdx, usize)>) {
        for c in &self.components {
            match out.iter_mut().find(|(ty, _)| *ty == c.ty) {
                Some((_, n)) => *n += 1,
                None => out.push((c.ty, 1)),
            }
        }
        for child in &self.children {
            child.count_types(out);
        }
    }

    fn data_error(&self, i: usize, (inner, message): DataErrorParts) -> Error {
        let at = data_path(&self.path, i, self.components[i].type_name, &inner);
        data_error(&at, message)
    }
}

/// Reads `data` with `f`; a missing `data` suits a unit struct (`null`) or
/// a struct whose fields all have defaults (`{}`): the latter's error is
/// the one reported.
fn read<R>(
    data: &Value,
    mut f: impl FnMut(&Value) -> Result<R, DataErrorParts>,
) -> Result<R, DataErrorParts> {
    if data.is_null() {
        f(&Value::Null).or_else(|_| f(&Value::Object(Map::new())))
    } else {
        f(data)
    }
}

/// Makes room for `count` copies of the tree in each node's table.
fn reserve_resolved(world: &mut World, r: &Resolved<'_>, count: usize) {
    world.reserve_table(r.table, count);
    for child in &r.children {
        reserve_resolved(world, child, count);
    }
}

/// `count` copies of a blueprint without children, a column at a time:
/// every component's values are read straight into its segment of the
/// entity's table (one downcast per column, not per value), then the
/// entities are made. If a value fails or panics, every segment is
/// trimmed back and nothing was created.
fn spawn_flat(world: &mut World, r: &Resolved<'_>, count: usize) -> Result<Vec<EntityId>, Error> {
    let start = world.storage().table(r.table).owners().len();
    let filled = catch_unwind(AssertUnwindSafe(|| {
        for (i, c) in r.components.iter().enumerate() {
            let seg = world.storage().table(r.table).layout()[i].seg;
            read(c.data, |data| {
                // A first attempt that failed may have pushed some.
                trim_segment(world, c.ty, seg, start);
                (c.fns.push_many)(world, c.ty, seg, data, count, !c.enabled)
            })
            .map_err(|parts| r.data_error(i, parts))?;
        }
        Ok(())
    }));
    let failed = match filled {
        Ok(Ok(())) => None,
        Ok(Err(error)) => Some(Ok(error)),
        Err(panic) => Some(Err(panic)),
    };
    if let Some(failure) = failed {
        for place in world.storage().table(r.table).layout().to_vec().iter() {
            trim_segment(world, place.ty, place.seg, start);
        }
        world.empty_trash();
        match failure {
            Ok(error) => return Err(error),
            Err(panic) => resume_unwind(panic),
        }
    }
    let created = world.spawn_run_in(r.table, count);
    if let Some(name) = r.name_id {
        world.names_mut().give_all(&created, name);
    }
    Ok(created)
}

/// Moves the rows of segment `seg` of `ty`'s column from `len` on to
/// the trash.
fn trim_segment(world: &mut World, ty: TypeIdx, seg: SegId, len: usize) {
    world.storage_mut().trash_from(ty, seg, len);
}

/// Spawns one resolved blueprint (and its children) without checks or
/// hooks; every entity made is pushed to `created`.
fn spawn_resolved(
    world: &mut World,
    r: &Resolved<'_>,
    parent: Option<EntityId>,
    created: &mut Vec<EntityId>,
) -> Result<EntityId, Error> {
    let id = world.spawn_in(r.table);
    created.push(id);
    if let Some(name) = r.name_id {
        world.names_mut().give(id.index, name);
    }
    // Values are read straight into the entity's row of its final table;
    // if one fails (or its `Deserialize` panics) the row is taken back
    // first, so the caller's clean-up sees a consistent world.
    let mut filled = 0;
    let read_all = catch_unwind(AssertUnwindSafe(|| {
        for (i, c) in r.components.iter().enumerate() {
            let seg = world.storage().table(r.table).layout()[i].seg;
            read(c.data, |data| (c.fns.push)(world, c.ty, seg, data))
                .map_err(|parts| r.data_error(i, parts))?;
            filled += 1;
            if !c.enabled {
                world.disable_raw(id.index, i);
            }
        }
        Ok(())
    }));
    match read_all {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            world.abandon_row(id.index, filled);
            return Err(error);
        }
        Err(panic) => {
            world.abandon_row(id.index, filled);
            resume_unwind(panic);
        }
    }
    if let Some(parent) = parent {
        world
            .set_parent(id, parent)
            .expect("a fresh entity under a live parent");
    }
    for child in &r.children {
        spawn_resolved(world, child, Some(id), created)?;
    }
    Ok(id)
}

/// [`World::spawn_blueprints`]: the blueprint resolved once against the
/// world's types, room made for every copy, then a column at a time when
/// the tree is one entity without references, else copy by copy.
pub(crate) fn spawn_blueprints(
    world: &mut World,
    blueprint: &Blueprint,
    count: usize,
) -> Result<Vec<EntityId>, Error> {
    if let Some(base) = &blueprint.extend {
        return Err(data_error(
            "extend",
            format!("this blueprint is a variant of `{base}`: get it from the `BlueprintLibrary` that holds both, which resolves it"),
        ));
    }
    let resolved = blueprint.resolve(world, "")?;
    let per_tree = resolved.entity_count();
    let entities = count * per_tree;
    world.reserve_entities(entities);
    if let Some(name) = resolved.name_id {
        let top = world.entities().slot_count() + entities;
        world.names_mut().reserve(name, count, top);
    }
    reserve_resolved(world, &resolved, count);
    let mut per_type = Vec::new();
    resolved.count_types(&mut per_type);
    // Without children every entity made is a root: one list serves.
    let flat = resolved.children.is_empty();
    if flat && !blueprint.has_refs {
        let created = spawn_flat(world, &resolved, count)?;
        if !per_type.iter().all(|&(ty, _)| world.is_plain_ty(ty)) {
            world.finish_spawn(&created)?;
        }
        return Ok(created);
    }
    let mut roots = Vec::with_capacity(count);
    let mut created = Vec::with_capacity(entities);
    // A user `Deserialize` may panic: take back what was made, then let
    // the panic go on.
    let spawned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for _ in 0..count {
            let root = if blueprint.has_refs {
                // Local ids in the data name this copy's entities,
                // which are made in tree order: known in advance.
                let ids = world.entities().next_ids(per_tree);
                let context = RefContext::Local {
                    ids,
                    count: per_tree,
                    seen: false,
                };
                with_context(context, || {
                    spawn_resolved(world, &resolved, None, &mut created)
                })
                .0?
            } else {
                spawn_resolved(world, &resolved, None, &mut created)?
            };
            roots.push(root);
        }
        Ok(())
    }));
    match spawned {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            world.take_back(&created);
            return Err(error);
        }
        Err(panic) => {
            world.take_back(&created);
            std::panic::resume_unwind(panic);
        }
    }
    // Types without requirements or hooks need no second pass.
    if !per_type.iter().all(|&(ty, _)| world.is_plain_ty(ty)) {
        world.finish_spawn(&created)?;
    }
    Ok(roots)
}
