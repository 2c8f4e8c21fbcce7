//! JSON blueprints: designers describe an entity by naming its
//! components and giving their data; spawning is all or nothing.
//!
//! ```json
//! { "id": 10, "tag": "Hazmat", "name": "hazmat-1",
//!   "components": [ { "type": "Transform", "data": { "x": 0 } } ],
//!   "children": [ { "components": [ { "type": "Model", "data": {} } ] } ] }
//! ```
//!
//! `id` and `tag` identify the blueprint (a [`BlueprintLibrary`] finds it
//! by tag); `name` names the spawned entity (default: the tag). Component
//! `data` is read with the type's `serde::Deserialize`; a missing `data` is
//! `null`, then `{}`, and a type with `Default` (and `Serialize`) may leave
//! out `data` or any field, which then takes the default's value. An
//! optional `"enabled": false` spawns a component disabled. An `EntityId`
//! in the data is a local id: `0` is the blueprint's entity, then its
//! children depth-first. At the top, `"extend": "tag"` makes a variant and
//! `"remove": [types]` takes components out of its base (see
//! [`BlueprintLibrary`] and `variant.rs`).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::Path;

use serde_json::{Map, Value};

use crate::component::catalog::component_type;
use crate::data::codec::{DataErrorParts, DeserializeFns};
use crate::data::refs::{with_context, RefContext};
use crate::entity::{SegId, TableId, TypeIdx};
use crate::world::World;
use crate::{EntityId, Error};

/// A parsed, validated blueprint: every component type name resolved.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// #[derive(Component, serde::Deserialize)]
/// struct Health { hp: u32 }
/// let bp = Blueprint::from_json(r#"{"tag": "slime", "components": [{"type": "Health", "data": {"hp": 3}}]}"#)?;
/// let mut world = World::new();
/// let id = world.spawn_blueprint(&bp)?;
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().hp, 3);
/// assert_eq!(world.entity(id)?.name(), Some("slime"));
///
/// let typo = Blueprint::from_json(r#"{"components": [{"type": "Helth"}]}"#).unwrap_err();
/// assert_eq!(typo.to_string(), "components[0].type: no component is called `Helth` (did you mean `Health`?); names are the type's identifier or its `#[component(name = \"...\")]`, and generic components cannot be found by name");
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Blueprint {
    /// The blueprint's numeric id, if given.
    pub id: Option<u64>,
    /// The blueprint's tag, if given.
    pub tag: Option<String>,
    /// The spawned entity's name, if given (else the tag).
    pub name: Option<String>,
    /// The tag of the blueprint this one is a variant of, until a
    /// [`BlueprintLibrary`] resolves it.
    pub(crate) extend: Option<String>,
    /// Types a variant takes out of its base.
    pub(crate) remove: Vec<String>,
    pub(crate) components: Vec<ComponentSpec>,
    pub(crate) children: Vec<Blueprint>,
    /// Whether some component data holds an `EntityId` (a local id).
    pub(crate) has_refs: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ComponentSpec {
    pub type_name: String,
    pub data: Value,
    /// `None` when not given (a variant then keeps its base's).
    pub enabled: Option<bool>,
}

/// Deepest `children` nesting a blueprint may have.
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut json = String::from(r#"{"components": []}"#);
/// for _ in 0..=ecs_core::MAX_BLUEPRINT_DEPTH {
///     json = format!(r#"{{"components": [], "children": [{json}]}}"#);
/// }
/// assert!(matches!(Blueprint::from_json(&json), Err(Error::Data { .. })));
/// ```
pub const MAX_BLUEPRINT_DEPTH: usize = 64;

fn data_error(path: &str, message: impl Into<String>) -> Error {
    Error::Data {
        path: if path.is_empty() {
            "(root)".to_owned()
        } else {
            path.to_owned()
        },
        message: message.into(),
    }
}

/// The path of a value inside component `i`'s data at `path`, naming
/// the component's type: `children[0].components[1](Wheel).data.size`;
/// `inner` is serde's path inside the data (`size`, `[2]`, or empty).
pub(crate) fn data_path(path: &str, i: usize, type_name: &str, inner: &str) -> String {
    let at = join(path, &format!("components[{i}]({type_name}).data"));
    match inner {
        "" => at,
        s if s.starts_with('[') => format!("{at}{s}"),
        s => format!("{at}.{s}"),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Blueprint {
    /// Parses and validates a blueprint: everything that does not need a
    /// world is checked here, so a blueprint that parses fails to spawn
    /// only for the single rule (two components that are-a one single
    /// type). Every component's data is read with its type's
    /// `serde::Deserialize` (defaults filled in, local entity ids checked
    /// against the tree), except in a variant (`extend`), whose data is a
    /// patch that its [`BlueprintLibrary`] reads once merged onto the base.
    ///
    /// # Errors
    /// [`Error::Data`] with the JSON path of the first problem: bad JSON,
    /// a wrong field type, an unknown field, a component type no one
    /// registered (with the nearest name), a type without
    /// `serde::Deserialize`, data its type does not read (the path names
    /// the type: `components[0](Health).data.hp`), or nesting deeper than
    /// [`MAX_BLUEPRINT_DEPTH`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let json = r#"{"id": 7, "tag": "slime",
    ///     "components": [{"type": "Health", "data": {"hp": 3}}]}"#;
    /// let bp = Blueprint::from_json(json)?;
    /// assert_eq!((bp.id, bp.tag.as_deref()), (Some(7), Some("slime")));
    /// let err = Blueprint::from_json(r#"{"components": [{"type": "Health", "colour": 1}]}"#);
    /// assert!(matches!(err, Err(Error::Data { path, .. }) if path.starts_with("components[0]")));
    /// let err = Blueprint::from_json(r#"{"components": [{"type": "Health", "data": {"hp": "lots"}}]}"#);
    /// assert!(matches!(err, Err(Error::Data { path, .. }) if path == "components[0](Health).data.hp"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json)
            .map_err(|e| data_error("", format!("not valid JSON: {e}")))?;
        Self::from_value(&value)
    }

    /// Like [`Blueprint::from_json`], from an already parsed value.
    ///
    /// # Errors
    /// As [`Blueprint::from_json`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let value = serde_json::json!({
    ///     "name": "slime-1",
    ///     "components": [{ "type": "Health", "data": { "hp": 3 } }]
    /// });
    /// let bp = Blueprint::from_value(&value)?;
    /// assert_eq!(bp.name.as_deref(), Some("slime-1"));
    /// assert!(Blueprint::from_value(&serde_json::json!([1, 2])).is_err());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        let mut blueprint = Self::parse(value, "", 0)?;
        if blueprint.extend.is_none() {
            // Fills in defaults, notes references, and reads every value
            // with its type's `Deserialize`. A variant's data is a patch:
            // its library reads it once merged onto the base.
            blueprint
                .prepare_data()
                .map_err(|(path, message)| data_error(&path, message))?;
        }
        Ok(blueprint)
    }

    pub(crate) fn parse_top(value: &Value) -> Result<Self, Error> {
        Self::parse(value, "", 0)
    }

    pub(crate) fn parse(value: &Value, path: &str, depth: usize) -> Result<Self, Error> {
        if depth > MAX_BLUEPRINT_DEPTH {
            return Err(data_error(
                path,
                format!("children nested deeper than {MAX_BLUEPRINT_DEPTH}"),
            ));
        }
        let object = value.as_object().ok_or_else(|| {
            data_error(
                path,
                format!("expected a blueprint object, found {}", describe(value)),
            )
        })?;
        let mut blueprint = Blueprint {
            id: None,
            tag: None,
            name: None,
            extend: None,
            remove: Vec::new(),
            components: Vec::new(),
            children: Vec::new(),
            has_refs: false,
        };
        for (key, field) in object {
            let here = join(path, key);
            match key.as_str() {
                "id" => {
                    blueprint.id = Some(field.as_u64().ok_or_else(|| {
                        data_error(&here, format!("expected a non-negative integer, found {}", describe(field)))
                    })?)
                }
                "tag" => blueprint.tag = Some(string(field, &here)?),
                "name" => blueprint.name = Some(string(field, &here)?),
                "extend" if depth == 0 => blueprint.extend = Some(string(field, &here)?),
                "remove" if depth == 0 => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        let at = format!("{here}[{i}]");
                        let name = string(item, &at)?;
                        component_type(&name).map_err(|e| data_error(&at, e.to_string()))?;
                        blueprint.remove.push(name);
                    }
                }
                "components" => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        blueprint.components.push(ComponentSpec::parse(item, &format!("{here}[{i}]"))?);
                    }
                }
                "children" => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        blueprint.children.push(Self::parse(item, &format!("{here}[{i}]"), depth + 1)?);
                    }
                }
                other => {
                    return Err(data_error(
                        &here,
                        format!("unknown field `{other}`; a blueprint has `id`, `tag`, `name`, `components` and `children` (and at its top, `extend` and `remove`)"),
                    ))
                }
            }
        }
        Ok(blueprint)
    }

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

impl ComponentSpec {
    fn parse(value: &Value, path: &str) -> Result<Self, Error> {
        let object = value.as_object().ok_or_else(|| {
            data_error(
                path,
                format!("expected a component object, found {}", describe(value)),
            )
        })?;
        let mut type_name = None;
        let mut data = Value::Null;
        let mut enabled = None;
        for (key, field) in object {
            let here = join(path, key);
            match key.as_str() {
                "type" => type_name = Some(string(field, &here)?),
                "data" => data = field.clone(),
                "enabled" => {
                    enabled = Some(field
                        .as_bool()
                        .ok_or_else(|| data_error(&here, format!("expected true or false, found {}", describe(field))))?)
                }
                other => {
                    return Err(data_error(
                        &here,
                        format!("unknown field `{other}`; a component has `type`, `data` and optionally `enabled`"),
                    ))
                }
            }
        }
        let type_name = type_name.ok_or_else(|| {
            data_error(
                path,
                "missing `type`: name the component, e.g. \"type\": \"Transform\"",
            )
        })?;
        component_type(&type_name).map_err(|e| data_error(&join(path, "type"), e.to_string()))?;
        Ok(ComponentSpec {
            type_name,
            data,
            enabled,
        })
    }
}

fn string(value: &Value, path: &str) -> Result<String, Error> {
    value.as_str().map(str::to_owned).ok_or_else(|| {
        data_error(
            path,
            format!("expected a string, found {}", describe(value)),
        )
    })
}

fn array<'v>(value: &'v Value, path: &str) -> Result<&'v Vec<Value>, Error> {
    value.as_array().ok_or_else(|| {
        data_error(
            path,
            format!("expected an array, found {}", describe(value)),
        )
    })
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

/// Blueprints by tag, loaded from `.json` files; variants (`extend`)
/// resolved and every blueprint's data checked as they come in.
///
/// A variant names its base by tag and lists what changes: its components
/// patch the base's of the same type field by field (JSON merge patch,
/// RFC 7396: a `null` field removes it), or are added; `remove` takes
/// types out; its children come after the base's; `name` replaces. Chains
/// may be of any depth; a cycle is an error naming the chain.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// # use ecs_core::BlueprintLibrary;
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default, Debug, PartialEq)]
/// struct Health { hp: u32, max: u32 }
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default)]
/// struct Sleepy;
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default)]
/// struct Crown;
/// let mut library = BlueprintLibrary::default();
/// let slime = r#"{"components": [{"type": "Health", "data": {"hp": 3, "max": 3}}, {"type": "Sleepy"}]}"#;
/// library.insert("slime", Blueprint::from_json(slime)?)?;
/// let king = r#"{"extend": "slime", "remove": ["Sleepy"],
///     "components": [{"type": "Health", "data": {"max": 30}}, {"type": "Crown"}]}"#;
/// library.insert("king-slime", Blueprint::from_json(king)?)?;
/// let mut world = World::new();
/// let id = world.spawn_blueprint(library.get("king-slime").unwrap())?;
/// let e = world.entity(id)?;
/// assert_eq!(e.get::<Health>(), Some(&Health { hp: 3, max: 30 }));
/// assert!(e.has::<Crown>() && !e.has::<Sleepy>());
/// assert_eq!(e.name(), Some("king-slime"));
///
/// let loop_ = r#"{"extend": "b", "components": []}"#;
/// let err = library.insert("a", Blueprint::from_json(loop_)?).unwrap_err();
/// assert!(err.to_string().contains("no blueprint is tagged `b`"), "{err}");
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct BlueprintLibrary {
    /// As given, with the file each came from.
    raw: BTreeMap<String, (Blueprint, Option<String>)>,
    /// Flattened and checked.
    by_tag: BTreeMap<String, Blueprint>,
}

impl BlueprintLibrary {
    /// Loads every `*.json` file of `dir` (not recursive); a file's tag is
    /// its `tag`, or its file stem. Variants are resolved and every
    /// blueprint's data is checked against its component types here, not
    /// at spawn.
    ///
    /// # Errors
    /// [`Error::Io`] for an unreadable file or directory; [`Error::Data`]
    /// whose path names the file, then (for a data error) the tag, then
    /// the JSON path, e.g. `slime.json: slime: components[0](Health).data.hp`;
    /// two files with one tag; a variant of a missing base, or a cycle.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let dir = std::env::temp_dir().join(format!("ecs-core-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let slime = r#"{"components": [{"type": "Health", "data": {"hp": 3}}]}"#;
    /// std::fs::write(dir.join("slime.json"), slime).unwrap(); // tag from the file stem
    /// std::fs::write(dir.join("b.json"), r#"{"tag": "bat", "components": []}"#).unwrap();
    /// let library = BlueprintLibrary::load_dir(&dir)?;
    /// assert_eq!(library.tags().collect::<Vec<_>>(), ["bat", "slime"]);
    /// std::fs::write(dir.join("slime.json"), r#"{"components": [{"type": "Health", "data": {"hp": -1}}]}"#).unwrap();
    /// let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    /// assert!(err.starts_with("slime.json: slime: components[0](Health).data.hp: invalid value"), "{err}");
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// assert!(matches!(BlueprintLibrary::load_dir(&dir), Err(Error::Io { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        let io = |e: std::io::Error| Error::Io {
            path: dir.display().to_string(),
            message: e.to_string(),
        };
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        let mut library = BlueprintLibrary::default();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::Io {
                path: file.display().to_string(),
                message: e.to_string(),
            })?;
            let shown = file
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let value: Value = serde_json::from_str(&text).map_err(|e| Error::Data {
                path: format!("{shown}: (root)"),
                message: format!("not valid JSON: {e}"),
            })?;
            let mut blueprint = Blueprint::parse(&value, "", 0).map_err(|e| match e {
                Error::Data { path, message } => Error::Data {
                    path: format!("{shown}: {path}"),
                    message,
                },
                other => other,
            })?;
            let stem = file
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let tag = blueprint.tag.get_or_insert(stem).clone();
            if library
                .raw
                .insert(tag.clone(), (blueprint, Some(shown.clone())))
                .is_some()
            {
                return Err(data_error(
                    &shown,
                    format!("a second blueprint tagged `{tag}`; tags must be unique"),
                ));
            }
        }
        library.by_tag = Self::resolve_all(&library.raw)?;
        Ok(library)
    }

    /// Adds a blueprint under `tag` (a variant's base must be in the
    /// library already), checks its data and resolves it, and resolves
    /// again the variants of what it replaced; returns the blueprint it
    /// replaced, as given then.
    ///
    /// # Errors
    /// [`Error::Data`] naming the tag and the JSON path of the first value
    /// that does not read, a missing base or a cycle; the library is
    /// unchanged then.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let mut library = BlueprintLibrary::default();
    /// let first = Blueprint::from_json(r#"{"id": 1, "components": []}"#)?;
    /// let second = Blueprint::from_json(r#"{"id": 2, "components": []}"#)?;
    /// assert!(library.insert("crate", first)?.is_none());
    /// assert_eq!(library.insert("crate", second)?.unwrap().id, Some(1));
    /// assert_eq!(library.get("crate").unwrap().id, Some(2));
    /// let slime = Blueprint::from_json(r#"{"components": [{"type": "Health", "data": {"hp": 3}}]}"#)?;
    /// library.insert("slime", slime)?;
    /// let bad = Blueprint::from_json(r#"{"extend": "slime", "components": [{"type": "Health", "data": {"hp": "x"}}]}"#)?;
    /// let err = library.insert("bad-slime", bad).unwrap_err().to_string();
    /// assert!(err.starts_with("bad-slime: components[0](Health).data.hp: invalid type"), "{err}");
    /// assert!(library.get("bad-slime").is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn insert(
        &mut self,
        tag: impl Into<String>,
        blueprint: Blueprint,
    ) -> Result<Option<Blueprint>, Error> {
        let tag = tag.into();
        let mut raw = self.raw.clone();
        let old = raw.insert(tag, (blueprint, None)).map(|(b, _)| b);
        self.by_tag = Self::resolve_all(&raw)?;
        self.raw = raw;
        Ok(old)
    }

    /// The blueprint tagged `tag`, variants flattened onto their base.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// let mut library = BlueprintLibrary::default();
    /// library.insert("crate", Blueprint::from_json(r#"{"id": 1, "components": []}"#)?)?;
    /// assert_eq!(library.get("crate").unwrap().id, Some(1));
    /// assert!(library.get("barrel").is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get(&self, tag: &str) -> Option<&Blueprint> {
        self.by_tag.get(tag)
    }

    /// Every tag, sorted.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// let mut library = BlueprintLibrary::default();
    /// let empty = Blueprint::from_json(r#"{"components": []}"#)?;
    /// library.insert("crate", empty.clone())?;
    /// library.insert("barrel", empty)?;
    /// assert_eq!(library.tags().collect::<Vec<_>>(), ["barrel", "crate"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.by_tag.keys().map(String::as_str)
    }
}
