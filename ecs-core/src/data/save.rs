//! Saving a whole world to JSON and loading it back: components (through
//! serde), names, hierarchy, enabled and killed flags, layers.
//!
//! ```json
//! { "format": "ecs-core/world", "version": 1, "entities": [
//!   { "id": 0, "name": "car", "enabled": true, "killed": false, "layers": 1,
//!     "children": [1],
//!     "components": [ { "type": "Wheel", "enabled": true, "data": { .. } } ] } ] }
//! ```
//!
//! `id`s are positions in the file, not [`EntityId`]s: a loaded world
//! numbers its entities afresh, in file order.

use crate::entity::EntityIndex;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::data::blueprint::Blueprint;
use crate::data::catalog::component_type;
use crate::world::prepared::{PreparedEntity, Requirements};
use crate::world::World;
use crate::{EntityId, Error};

const FORMAT: &str = "ecs-core/world";
const VERSION: u64 = 1;

impl World {
    /// The world as JSON. Components of `#[component(transient)]` types are
    /// left out on purpose.
    ///
    /// # Errors
    /// [`Error::NotSerializable`] naming every component type present that
    /// has no `serde::Serialize` (and is not transient); nothing is written
    /// then. [`Error::Data`] when a component's own `Serialize` fails.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// world.entity_mut(car)?.add(Health(3))?;
    /// let json = world.save_json()?;
    /// let loaded = World::load_json(&json)?;
    /// let car = loaded.find_by_name("car").unwrap();
    /// assert_eq!(loaded.entity(car)?.get::<Health>(), Some(&Health(3)));
    /// assert_eq!(loaded.save_json()?, json);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_json(&self) -> Result<String, Error> {
        let value = self.save_value()?;
        serde_json::to_string_pretty(&value).map_err(|e| Error::Data {
            path: "(root)".into(),
            message: e.to_string(),
        })
    }

    /// [`World::save_json`] as a JSON value.
    ///
    /// # Errors
    /// As [`World::save_json`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// world.entity_mut(car)?.add(Health(3))?;
    /// let value = world.save_value()?;
    /// assert_eq!(value["entities"][0]["name"], "car");
    /// assert_eq!(value["entities"][0]["components"][0]["data"], 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_value(&self) -> Result<Value, Error> {
        // Canonical order: each root (in slot order) followed by its subtree,
        // depth-first; loading spawns in this order, so saving a loaded
        // world gives the same file.
        let ids: Vec<EntityId> = self
            .roots()
            .flat_map(|root| self.hierarchy().subtree(root.index))
            .map(|index| self.id_at(index))
            .collect();
        let position: HashMap<EntityIndex, usize> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.index, i))
            .collect();
        let mut missing: Vec<&'static str> = Vec::new();
        let mut entities = Vec::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            let slot = &self.slot(id.index);
            let mut components = Vec::new();
            for c in self.comps(id.index) {
                let ops = self.ops(c.ty);
                let name = self.storage().info(c.ty).key().name();
                if self.vtable(c.ty).transient {
                    continue;
                }
                // A type that cannot be read back would make a save that
                // never loads.
                let (Some(serialize), Some(_)) = (ops.serialize, ops.deserialize) else {
                    if !missing.contains(&name) {
                        missing.push(name);
                    }
                    continue;
                };
                let path = || format!("entities[{i}].components[{}].data", components.len());
                let data = serialize(self, c).map_err(|message| Error::Data {
                    path: path(),
                    message,
                })?;
                let (_, enabled) = self.instance_of(c);
                components.push(json!({ "type": name, "enabled": enabled, "data": data }));
            }
            let children: Vec<usize> = self
                .hierarchy()
                .children(id.index)
                .iter()
                .map(|c| position[c])
                .collect();
            let mut entity = Map::new();
            entity.insert("id".into(), json!(i));
            if let Some(name) = self.name_of(id.index) {
                entity.insert("name".into(), json!(name));
            }
            entity.insert("enabled".into(), json!(!slot.disabled));
            entity.insert("killed".into(), json!(slot.killed));
            entity.insert("layers".into(), json!(self.layers_of(id.index)));
            entity.insert("children".into(), json!(children));
            entity.insert("components".into(), Value::Array(components));
            entities.push(Value::Object(entity));
        }
        if !missing.is_empty() {
            missing.sort_unstable();
            return Err(Error::NotSerializable { names: missing });
        }
        let mut root = json!({ "format": FORMAT, "version": VERSION, "entities": entities });
        let order = self.saved_update_order();
        if !order.is_empty() {
            root["update_order"] = json!(order);
        }
        Ok(root)
    }

    /// The names of the behaviour types in update order, for a loaded world
    /// to update them in the same order (types the catalog cannot find by
    /// name, such as generic ones, are left out: they fall back to the
    /// order they are first added in).
    fn saved_update_order(&self) -> Vec<&'static str> {
        self.effective_update_order()
            .into_iter()
            .filter_map(|ty| {
                let key = self.storage().info(ty).key();
                let found = component_type(key.name()).ok()?;
                (found.type_id() == key.type_id()).then_some(key.name())
            })
            .collect()
    }

    /// A new world from [`World::save_json`] output. Loaded components are
    /// fresh: their `on_attach` and (if enabled) `on_enable` fire, entity by
    /// entity, parents first, as for a clone.
    ///
    /// # Errors
    /// [`Error::Data`] with the JSON path of the first problem (bad JSON,
    /// unknown component, data that does not deserialize, a child listed
    /// twice or a cycle, ...). Nothing is returned half-loaded.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Health(3),))?;
    /// world.set_parent(wheel, car)?;
    /// let loaded = World::load_json(&world.save_json()?)?;
    /// let car = loaded.find_by_name("car").unwrap();
    /// let wheel = loaded.entity(car)?.children().next().unwrap();
    /// assert_eq!(loaded.entity(wheel)?.get::<Health>().unwrap().0, 3);
    /// assert!(matches!(World::load_json("{}"), Err(Error::Data { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load_json(json: &str) -> Result<World, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::Data {
            path: "(root)".into(),
            message: format!("not valid JSON: {e}"),
        })?;
        Self::load_value(&value)
    }

    /// [`World::load_json`] from a parsed value.
    ///
    /// # Errors
    /// As [`World::load_json`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// world.spawn_with((Health(3),))?;
    /// let value = world.save_value()?;
    /// let loaded = World::load_value(&value)?;
    /// assert_eq!(loaded.len(), 1);
    /// assert_eq!(loaded.save_value()?, value);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load_value(value: &Value) -> Result<World, Error> {
        let bad = |path: String, message: String| Error::Data { path, message };
        let root = value
            .as_object()
            .ok_or_else(|| bad("(root)".into(), "expected an object".into()))?;
        if root.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(bad(
                "format".into(),
                format!("expected \"{FORMAT}\": this is not a saved world"),
            ));
        }
        if root.get("version").and_then(Value::as_u64) != Some(VERSION) {
            return Err(bad(
                "version".into(),
                format!("expected {VERSION}, the only version this build reads"),
            ));
        }
        let list = root
            .get("entities")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("entities".into(), "expected an array of entities".into()))?;

        // Who is whose child, checked before anything is built.
        let mut parent_of: Vec<Option<usize>> = vec![None; list.len()];
        let mut children_of: Vec<Vec<usize>> = vec![Vec::new(); list.len()];
        for (i, entity) in list.iter().enumerate() {
            let path = format!("entities[{i}]");
            if entity.get("id").and_then(Value::as_u64) != Some(i as u64) {
                return Err(bad(
                    format!("{path}.id"),
                    format!("expected {i}: ids are positions in the list"),
                ));
            }
            let children = match entity.get("children") {
                None => &[][..],
                Some(v) => v.as_array().map(Vec::as_slice).ok_or_else(|| {
                    bad(
                        format!("{path}.children"),
                        "expected an array of ids".into(),
                    )
                })?,
            };
            for (k, child) in children.iter().enumerate() {
                let here = format!("{path}.children[{k}]");
                let c = child
                    .as_u64()
                    .and_then(|c| usize::try_from(c).ok())
                    .filter(|&c| c < list.len() && c != i)
                    .ok_or_else(|| {
                        bad(
                            here.clone(),
                            "expected the id of another entity in this file".into(),
                        )
                    })?;
                if parent_of[c].replace(i).is_some() {
                    return Err(bad(here, format!("entity {c} is listed as a child twice")));
                }
                children_of[i].push(c);
            }
        }
        // A cycle leaves entities that no root reaches.
        let mut reached = vec![false; list.len()];
        let mut stack: Vec<usize> = (0..list.len())
            .filter(|&i| parent_of[i].is_none())
            .collect();
        while let Some(i) = stack.pop() {
            reached[i] = true;
            stack.extend(&children_of[i]);
        }
        if let Some(i) = reached.iter().position(|r| !r) {
            return Err(bad(
                format!("entities[{i}]"),
                "this entity is its own ancestor (a parent cycle)".into(),
            ));
        }

        let mut world = World::new();
        load_update_order(&mut world, root.get("update_order"))?;
        let mut prepared = Vec::with_capacity(list.len());
        for (i, entity) in list.iter().enumerate() {
            prepared.push(Some(load_entity(&mut world, entity, i)?));
        }
        // Roots in file order, each with its subtree depth-first: for a file
        // written by `save_json` that is the file's own order. Walked with
        // a stack, not recursion: a file may nest entities arbitrarily deep.
        let roots: Vec<usize> = (0..list.len())
            .filter(|&i| parent_of[i].is_none())
            .collect();
        for root in roots {
            let mut tree = Vec::new();
            let mut stack = vec![(root, None)];
            while let Some((i, parent)) = stack.pop() {
                let mut node = prepared[i].take().expect("each entity is used once");
                node.parent = parent;
                let at = tree.len();
                tree.push(node);
                stack.extend(children_of[i].iter().rev().map(|&c| (c, Some(at))));
            }
            world.spawn_prepared(tree, None, Requirements::AsListed)?;
        }
        Ok(world)
    }
}

/// Applies a saved `update_order`: the behaviour types' names, in order.
fn load_update_order(world: &mut World, saved: Option<&Value>) -> Result<(), Error> {
    let Some(saved) = saved else {
        return Ok(());
    };
    let names = saved.as_array().ok_or_else(|| Error::Data {
        path: "update_order".into(),
        message: "expected an array of behaviour type names".into(),
    })?;
    let mut order = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let path = format!("update_order[{i}]");
        let name = name.as_str().ok_or_else(|| Error::Data {
            path: path.clone(),
            message: "expected a behaviour type name".into(),
        })?;
        let ty = component_type(name)
            .map_err(|e| prefix(e, &path))?
            .register(world);
        if !world.storage().info(ty).has_hooks() {
            return Err(Error::Data {
                path,
                message: format!("`{name}` is not a behaviour type"),
            });
        }
        if !order.contains(&ty) {
            order.push(ty);
        }
    }
    world.set_update_order_of(order);
    Ok(())
}

/// One saved entity as values to spawn (no children yet).
fn load_entity(world: &mut World, entity: &Value, i: usize) -> Result<PreparedEntity, Error> {
    let path = format!("entities[{i}]");
    let object = entity.as_object().ok_or_else(|| Error::Data {
        path: path.clone(),
        message: "expected an entity object".into(),
    })?;
    let flag = |key: &str, default: bool| -> Result<bool, Error> {
        match object.get(key) {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| Error::Data {
                path: format!("{path}.{key}"),
                message: "expected true or false".into(),
            }),
        }
    };
    // The components are a blueprint's: reuse its checks and messages.
    let mut as_blueprint = Map::new();
    if let Some(components) = object.get("components") {
        as_blueprint.insert("components".into(), components.clone());
    }
    let blueprint =
        Blueprint::from_value(&Value::Object(as_blueprint)).map_err(|e| prefix(e, &path))?;
    let mut prepared = blueprint.prepare(world, "").map_err(|e| prefix(e, &path))?;
    prepared.name = match object.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(Error::Data {
                path: format!("{path}.name"),
                message: "expected a string".into(),
            })
        }
    };
    prepared.enabled = flag("enabled", true)?;
    prepared.killed = flag("killed", false)?;
    prepared.layers = match object.get("layers") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|l| u32::try_from(l).ok())
                .ok_or_else(|| Error::Data {
                    path: format!("{path}.layers"),
                    message: "expected a 32-bit layer mask".into(),
                })?,
        ),
    };
    Ok(prepared)
}

fn prefix(error: Error, path: &str) -> Error {
    match error {
        Error::Data {
            path: inner,
            message,
        } if inner == "(root)" => Error::Data {
            path: path.to_owned(),
            message,
        },
        Error::Data {
            path: inner,
            message,
        } => Error::Data {
            path: format!("{path}.{inner}"),
            message,
        },
        other => other,
    }
}
