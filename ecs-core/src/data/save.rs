//! Saving a whole world and loading it back, straight through serde (no
//! intermediate value): components, names and their order, hierarchy,
//! enabled and killed flags, layers, the update order, resources, and the
//! entity references components hold.
//!
//! JSON (compact by default, pretty on request):
//!
//! ```json
//! { "format": "ecs-core/world", "version": 2,
//!   "update_order": ["Mover"],
//!   "resources": [ { "type": "Score", "data": 3 } ],
//!   "entities": [
//!     { "id": 0, "name": "car", "children": [1],
//!       "components": [ { "type": "Turret", "data": { "target": 1 } } ] },
//!     { "id": 1, "enabled": false, "killed": true, "layers": 3,
//!       "components": [ { "type": "Wheel", "enabled": false, "data": 2 } ] } ] }
//! ```
//!
//! `id`s are saved ids: positions in the file, not [`EntityId`]s. A loaded
//! world numbers its entities afresh, in file order, so an `EntityId` a
//! component holds is written as the saved id of the entity it names and
//! read back as that entity's new id (see [`IdMap`]). Fields at their
//! default (`enabled: true`, `killed: false`, `layers: 1`, no children, no
//! name) are left out. `name_order` (saved ids) appears only when entities
//! sharing a name got it in another order than the file's.
//!
//! The binary snapshot ([`SaveFormat::Binary`]) is one MessagePack array
//! holding the same, positionally: `[format, version, update_order,
//! resources, name_order, types, names, entities]`, where `types` and
//! `names` list each component type name and entity name once, each
//! resource is `[type name, data]`, and each entity is `[name index or nil,
//! flags (1 disabled, 2 killed), layers, children, component types, data]`:
//! a component type is its index in `types` times two, plus one when the
//! component is disabled, and `data` holds one `bin` per component with
//! the component's own MessagePack (structs as arrays, as `rmp-serde`
//! writes them). The types come before the data so that each value is read
//! straight into its column.
//!
//! Version 1 JSON files still load: they are version 2 files with every
//! field written (and no references, resources or naming order).

use std::any::TypeId;
use std::collections::HashSet;

use serde_json::Value;

use crate::component::ops::{BoxedComponent, DeserializeFns, RowRef, Stored};
use crate::data::catalog::{component_type, component_type_of};
use crate::data::format::{mp, JsonIn, JsonOut};
use crate::data::refs::{self, with_context, Dangling, IdMap, RefContext};
use crate::entity::{EntityIndex, TableId, TypeIdx};
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::{EntityId, Error, DEFAULT_LAYERS};

const FORMAT: &str = "ecs-core/world";
const VERSION: u64 = 2;

/// How [`World::save`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SaveFormat {
    /// JSON on one line.
    #[default]
    Json,
    /// JSON indented by two spaces.
    JsonPretty,
    /// MessagePack: a third of the JSON's size, several times faster (see
    /// the README's "Saving and loading").
    Binary,
}

/// What [`World::save`] writes and how.
///
/// ```
/// # use ecs_core::prelude::*;
/// use ecs_core::{SaveFormat, SaveOptions};
/// let mut world = World::new();
/// world.spawn_named("car");
/// let pretty = world.save(SaveOptions { format: SaveFormat::JsonPretty, ..Default::default() })?;
/// assert!(String::from_utf8(pretty).unwrap().contains("\n  \"entities\": ["));
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveOptions {
    /// JSON, pretty JSON or binary.
    pub format: SaveFormat,
    /// What to do with an id of an entity that is not saved.
    pub dangling: Dangling,
}

/// A loaded world and the new ids of its entities by saved id.
#[derive(Debug)]
pub struct Loaded {
    /// The world.
    pub world: World,
    /// New ids by saved id.
    pub ids: IdMap,
}

/// Error at `path` with `message`.
fn bad(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::Data {
        path: path.into(),
        message: message.into(),
    }
}

/// The component types a save met that lack serde support.
#[derive(Default)]
struct Missing(Vec<&'static str>);

impl Missing {
    fn add(&mut self, name: &'static str) {
        if !self.0.contains(&name) {
            self.0.push(name);
        }
    }

    fn check(mut self) -> Result<(), Error> {
        if self.0.is_empty() {
            return Ok(());
        }
        self.0.sort_unstable();
        Err(Error::NotSerializable { names: self.0 })
    }
}

/// What a save writes, gathered once for either format.
struct Plan {
    /// Entities in saved order.
    order: Vec<EntityId>,
    update_order: Vec<&'static str>,
    /// `(name, writer, value)` of each saved resource, by name.
    resources: Vec<(&'static str, crate::component::ops::SerializeFns, TypeId)>,
    /// Saved ids in naming order, when it differs from file order.
    name_order: Option<Vec<u32>>,
    /// Saved id by slot.
    saved_id: Vec<u32>,
}

impl World {
    /// The live entities in the order a save lists them (each root in slot
    /// order, then its subtree depth-first): the saved id of
    /// `save_order()[i]` is `i`. Taken before a save, it turns a load's
    /// [`IdMap`] into old id → new id ([`IdMap::by_old`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let child = world.spawn();
    /// let root = world.spawn();
    /// world.set_parent(child, root)?;
    /// assert_eq!(world.save_order(), [root, child]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_order(&self) -> Vec<EntityId> {
        let mut order = Vec::with_capacity(self.len());
        for root in self.roots() {
            // The hierarchy's own depth-first walk, by stack.
            let mut stack = vec![root.index];
            while let Some(index) = stack.pop() {
                order.push(self.id_at(index));
                stack.extend(self.hierarchy().children(index).iter().rev());
            }
        }
        order
    }

    fn save_plan(&self) -> Plan {
        let order = self.save_order();
        let mut resources: Vec<_> = self
            .resources()
            .iter()
            .filter_map(|(ty, _)| {
                let found = component_type_of(ty)?;
                let ops = found.ops();
                ops.deserialize?;
                Some((found.name(), ops.serialize?, ty))
            })
            .collect();
        resources.sort_unstable_by_key(|r| r.0);
        // Naming order matters among entities that share a name
        // (`find_by_name` answers the first named); it is written only
        // when it is not the file's.
        let mut named: Vec<(u64, u32)> = order
            .iter()
            .enumerate()
            .filter_map(|(saved, id)| Some((self.names().order_of(id.index)?, saved as u32)))
            .collect();
        let in_file_order = named.windows(2).all(|w| w[0].0 < w[1].0);
        let name_order = (!in_file_order).then(|| {
            named.sort_unstable();
            named.iter().map(|&(_, saved)| saved).collect()
        });
        let mut saved_id = vec![u32::MAX; self.entities().slot_count()];
        for (saved, id) in order.iter().enumerate() {
            saved_id[id.index.index()] = saved as u32;
        }
        Plan {
            order,
            saved_id,
            update_order: self.saved_update_order(),
            resources,
            name_order,
        }
    }

    /// The ref context of a save: saved ids by slot.
    fn save_context(&self, plan: &Plan, dangling: Dangling) -> RefContext {
        let by_slot = plan
            .saved_id
            .iter()
            .enumerate()
            .map(|(slot, &saved)| {
                (
                    self.entities()
                        .slot(crate::entity::EntityIndex::from_index(slot))
                        .generation,
                    saved,
                )
            })
            .collect();
        RefContext::Save {
            tag: self.entities().tag(),
            by_slot,
            dangling,
            found: None,
        }
    }

    /// The world, saved. Components of `#[component(transient)]` types are
    /// left out on purpose, and so are resources whose type is not a
    /// derived component with serde support.
    ///
    /// # Errors
    /// [`Error::NotSerializable`] naming every component type present that
    /// lacks `serde::Serialize` or `serde::Deserialize` (and is not
    /// transient); [`Error::DanglingEntity`] for a reference to an entity
    /// that is not saved (unless [`Dangling::Null`]); [`Error::Data`] with
    /// the path of a component whose `Serialize` fails, or (JSON) that
    /// holds a NaN or an infinite `f64`, which JSON cannot hold (an `f32`
    /// infinity is written `1e+39`, which reads back as infinity; the
    /// binary format keeps every float as it is).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// use ecs_core::{SaveFormat, SaveOptions};
    /// #[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct Turret { target: Option<EntityId>, heat: f32 }
    /// let mut world = World::new();
    /// let tank = world.spawn_named("tank");
    /// world.spawn_with((Turret { target: Some(tank), heat: 0.4 },))?;
    /// for format in [SaveFormat::Json, SaveFormat::Binary] {
    ///     let saved = world.save(SaveOptions { format, ..Default::default() })?;
    ///     let loaded = World::load(&saved)?.world;
    ///     let tank = loaded.find_by_name("tank").unwrap();
    ///     let (turret,) = loaded.query::<(&Turret,)>().iter().next().unwrap();
    ///     assert_eq!(turret, &Turret { target: Some(tank), heat: 0.4 });
    /// }
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save(&self, options: SaveOptions) -> Result<Vec<u8>, Error> {
        let plan = self.save_plan();
        let context = self.save_context(&plan, options.dangling);
        let (saved, _) = with_context(context, || match options.format {
            SaveFormat::Json => self.write_json(&plan, false),
            SaveFormat::JsonPretty => self.write_json(&plan, true),
            SaveFormat::Binary => self.write_binary(&plan),
        });
        saved
    }

    /// [`World::save`] as compact JSON.
    ///
    /// # Errors
    /// As [`World::save`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// world.entity_mut(car)?.add(Health(3))?;
    /// let json = world.save_json()?;
    /// assert_eq!(json, r#"{"format":"ecs-core/world","version":2,"entities":[{"id":0,"name":"car","components":[{"type":"Health","data":3}]}]}"#);
    /// let loaded = World::load_json(&json)?;
    /// let car = loaded.find_by_name("car").unwrap();
    /// assert_eq!(loaded.entity(car)?.get::<Health>(), Some(&Health(3)));
    /// assert_eq!(loaded.save_json()?, json);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_json(&self) -> Result<String, Error> {
        let bytes = self.save(SaveOptions::default())?;
        Ok(String::from_utf8(bytes).expect("serde_json writes UTF-8"))
    }

    /// [`World::save`] as JSON indented by two spaces.
    ///
    /// # Errors
    /// As [`World::save`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn_named("car");
    /// let json = world.save_json_pretty()?;
    /// assert!(json.starts_with("{\n  \"format\": \"ecs-core/world\",\n"));
    /// assert_eq!(World::load_json(&json)?.save_json_pretty()?, json);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_json_pretty(&self) -> Result<String, Error> {
        let options = SaveOptions {
            format: SaveFormat::JsonPretty,
            ..SaveOptions::default()
        };
        let bytes = self.save(options)?;
        Ok(String::from_utf8(bytes).expect("serde_json writes UTF-8"))
    }

    /// [`World::save`] as a binary snapshot (MessagePack).
    ///
    /// # Errors
    /// As [`World::save`] (NaN and infinity are kept).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Speed(f32);
    /// let mut world = World::new();
    /// world.spawn_with((Speed(f32::NAN),))?;
    /// assert!(world.save_json().is_err()); // JSON has no NaN
    /// let loaded = World::load_binary(&world.save_binary()?)?;
    /// let (speed,) = loaded.query::<(&Speed,)>().iter().next().unwrap();
    /// assert!(speed.0.is_nan());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_binary(&self) -> Result<Vec<u8>, Error> {
        let options = SaveOptions {
            format: SaveFormat::Binary,
            ..SaveOptions::default()
        };
        self.save(options)
    }

    /// [`World::save_json`] as a JSON value.
    ///
    /// # Errors
    /// As [`World::save`].
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
        let json = self.save_json()?;
        serde_json::from_str(&json).map_err(|e| bad("(root)", e.to_string()))
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

    /// Turns a component's failed write into the error to report.
    fn write_error(path: String, message: String) -> Error {
        let found = refs::peek(|c| match c {
            RefContext::Save { found, .. } => found.take(),
            _ => None,
        })
        .flatten();
        match found {
            Some(entity) => Error::dangling(path, entity),
            None => bad(path, message),
        }
    }

    fn write_json(&self, plan: &Plan, pretty: bool) -> Result<Vec<u8>, Error> {
        let mut missing = Missing::default();
        let mut w = JsonOut::new(pretty, 64 + 96 * plan.order.len());
        w.begin_object();
        w.key("format", true);
        w.string(FORMAT);
        w.end_value();
        w.key("version", false);
        w.u64(VERSION);
        w.end_value();
        if !plan.update_order.is_empty() {
            w.key("update_order", false);
            w.begin_array();
            for (i, name) in plan.update_order.iter().enumerate() {
                w.item(i == 0);
                w.string(name);
                w.end_item();
            }
            w.end_array();
            w.end_value();
        }
        if !plan.resources.is_empty() {
            w.key("resources", false);
            w.begin_array();
            for (i, &(name, fns, ty)) in plan.resources.iter().enumerate() {
                w.item(i == 0);
                w.begin_object();
                w.key("type", true);
                w.string(name);
                w.end_value();
                w.key("data", false);
                let value = self.resource_value(ty);
                let fmt = w.data_fmt();
                (fns.json)(value, &mut w.out, fmt).map_err(|e| {
                    Self::write_error(format!("resources[{i}].data"), e.to_string())
                })?;
                w.end_value();
                w.end_object();
                w.end_item();
            }
            w.end_array();
            w.end_value();
        }
        if let Some(order) = &plan.name_order {
            w.key("name_order", false);
            w.begin_array();
            for (i, &saved) in order.iter().enumerate() {
                w.item(i == 0);
                w.u64(u64::from(saved));
                w.end_item();
            }
            w.end_array();
            w.end_value();
        }
        w.key("entities", false);
        w.begin_array();
        for (i, id) in plan.order.iter().enumerate() {
            w.item(i == 0);
            w.begin_object();
            w.key("id", true);
            w.u64(i as u64);
            w.end_value();
            if let Some(name) = self.name_of(id.index) {
                w.key("name", false);
                w.string(name);
                w.end_value();
            }
            let slot = self.slot(id.index);
            if slot.disabled {
                w.key("enabled", false);
                w.bool(false);
                w.end_value();
            }
            if slot.killed {
                w.key("killed", false);
                w.bool(true);
                w.end_value();
            }
            let layers = self.layers_of(id.index);
            if layers != DEFAULT_LAYERS {
                w.key("layers", false);
                w.u64(u64::from(layers));
                w.end_value();
            }
            let children = self.hierarchy().children(id.index);
            if !children.is_empty() {
                w.key("children", false);
                w.begin_array();
                for (k, &child) in children.iter().enumerate() {
                    w.item(k == 0);
                    w.u64(u64::from(plan.saved_id[child.index()]));
                    w.end_item();
                }
                w.end_array();
                w.end_value();
            }
            w.key("components", false);
            w.begin_array();
            let mut k = 0;
            for c in self.comps(id.index) {
                let vtable = self.vtable(c.ty);
                if vtable.transient {
                    continue;
                }
                let (Some(fns), Some(_)) = (vtable.ops.serialize, vtable.ops.deserialize) else {
                    missing.add(self.storage().info(c.ty).key().name());
                    continue;
                };
                w.item(k == 0);
                w.begin_object();
                w.key("type", true);
                w.string(self.storage().info(c.ty).key().name());
                w.end_value();
                let (_, enabled) = self.instance_of(c);
                if !enabled {
                    w.key("enabled", false);
                    w.bool(false);
                    w.end_value();
                }
                w.key("data", false);
                let value = Stored::Row(RowRef {
                    segment: self.storage().segment(c.seg),
                    row: c.row,
                });
                let fmt = w.data_fmt();
                (fns.json)(value, &mut w.out, fmt).map_err(|e| {
                    Self::write_error(format!("entities[{i}].components[{k}].data"), e.to_string())
                })?;
                w.end_value();
                w.end_object();
                w.end_item();
                k += 1;
            }
            w.end_array();
            w.end_value();
            w.end_object();
            w.end_item();
        }
        w.end_array();
        w.end_value();
        w.end_object();
        missing.check()?;
        Ok(w.out)
    }

    fn resource_value(&self, ty: TypeId) -> Stored<'_> {
        let value = self
            .resources()
            .iter()
            .find(|&(t, _)| t == ty)
            .map(|(_, v)| v)
            .expect("a planned resource is present");
        Stored::Any(value)
    }

    fn write_binary(&self, plan: &Plan) -> Result<Vec<u8>, Error> {
        let mut missing = Missing::default();
        let mut out = Vec::with_capacity(64 + 64 * plan.order.len());
        mp::array(&mut out, 8);
        mp::string(&mut out, FORMAT);
        mp::uint(&mut out, VERSION);
        mp::array(&mut out, plan.update_order.len());
        for name in &plan.update_order {
            mp::string(&mut out, name);
        }
        mp::array(&mut out, plan.resources.len());
        for (i, &(name, fns, ty)) in plan.resources.iter().enumerate() {
            mp::array(&mut out, 2);
            mp::string(&mut out, name);
            let start = mp::begin_bin(&mut out);
            (fns.binary)(self.resource_value(ty), &mut out)
                .map_err(|e| Self::write_error(format!("resources[{i}].data"), e.to_string()))?;
            mp::end_bin(&mut out, start);
        }
        match &plan.name_order {
            None => mp::nil(&mut out),
            Some(order) => {
                mp::array(&mut out, order.len());
                for &saved in order {
                    mp::uint(&mut out, u64::from(saved));
                }
            }
        }
        // Component types by first use, written once.
        let mut types: Vec<TypeIdx> = Vec::new();
        // By type index: the type's place in `types`, plus one.
        let mut type_at: Vec<u32> = Vec::new();
        for id in &plan.order {
            for c in self.comps(id.index) {
                if type_at.len() <= c.ty.index() {
                    type_at.resize(c.ty.index() + 1, 0);
                }
                if type_at[c.ty.index()] == 0 {
                    types.push(c.ty);
                    type_at[c.ty.index()] = types.len() as u32;
                }
            }
        }
        mp::array(&mut out, types.len());
        for &ty in &types {
            mp::string(&mut out, self.storage().info(ty).key().name());
        }
        // Distinct names, written once; entities name theirs by index.
        let mut name_at: Vec<u32> = vec![u32::MAX; self.names().interned()];
        let mut names: Vec<&str> = Vec::new();
        for id in &plan.order {
            if let (Some(n), Some(text)) = (self.names().id_of(id.index), self.name_of(id.index)) {
                if name_at[n as usize] == u32::MAX {
                    name_at[n as usize] = names.len() as u32;
                    names.push(text);
                }
            }
        }
        mp::array(&mut out, names.len());
        for name in names {
            mp::string(&mut out, name);
        }
        mp::array(&mut out, plan.order.len());
        let mut saved = Vec::new();
        for (i, id) in plan.order.iter().enumerate() {
            mp::array(&mut out, 6);
            match self.names().id_of(id.index) {
                Some(n) => mp::uint(&mut out, u64::from(name_at[n as usize])),
                None => mp::nil(&mut out),
            }
            let slot = self.slot(id.index);
            mp::uint(
                &mut out,
                u64::from(slot.disabled) | u64::from(slot.killed) << 1,
            );
            mp::uint(&mut out, u64::from(self.layers_of(id.index)));
            let children = self.hierarchy().children(id.index);
            mp::array(&mut out, children.len());
            for &child in children {
                mp::uint(&mut out, u64::from(plan.saved_id[child.index()]));
            }
            saved.clear();
            saved.extend(
                self.comps(id.index)
                    .filter(|c| !self.vtable(c.ty).transient),
            );
            mp::array(&mut out, saved.len());
            for c in &saved {
                let (_, enabled) = self.instance_of(*c);
                mp::uint(
                    &mut out,
                    u64::from(type_at[c.ty.index()] - 1) << 1 | u64::from(!enabled),
                );
            }
            mp::array(&mut out, saved.len());
            for (k, &c) in saved.iter().enumerate() {
                let ops = self.vtable(c.ty).ops;
                let (Some(fns), Some(_)) = (ops.serialize, ops.deserialize) else {
                    missing.add(self.storage().info(c.ty).key().name());
                    // Keep the envelope well formed; the save fails below.
                    mp::nil(&mut out);
                    continue;
                };
                let start = mp::begin_bin(&mut out);
                let value = Stored::Row(RowRef {
                    segment: self.storage().segment(c.seg),
                    row: c.row,
                });
                (fns.binary)(value, &mut out).map_err(|e| {
                    Self::write_error(format!("entities[{i}].data[{k}]"), e.to_string())
                })?;
                mp::end_bin(&mut out, start);
            }
        }
        missing.check()?;
        Ok(out)
    }

    /// A new world from a save in either format (told apart by the first
    /// byte), with the new ids of its entities by saved id. Loaded
    /// components are fresh: their `on_attach` and (if enabled)
    /// `on_enable` fire, entity by entity, parents first, as for a clone;
    /// requirements are not re-applied (the entity is what was saved).
    ///
    /// # Errors
    /// [`Error::Data`] with the path of the first problem (bad JSON or
    /// MessagePack, an unknown component, data that does not deserialize,
    /// a child listed twice or a cycle, ...; JSON messages also give the
    /// line and column); [`Error::UnknownEntity`] for a reference past the
    /// file's last entity. Nothing is returned half-loaded.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Health(3),))?;
    /// world.set_parent(wheel, car)?;
    /// let loaded = World::load(&world.save_binary()?)?;
    /// let car = loaded.ids.get(0).unwrap(); // saved id 0: the first root
    /// let wheel = loaded.world.entity(car)?.children().next().unwrap();
    /// assert_eq!(loaded.world.entity(wheel)?.get::<Health>().unwrap().0, 3);
    /// assert!(matches!(World::load(b"{}"), Err(Error::Data { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load(bytes: &[u8]) -> Result<Loaded, Error> {
        let first = bytes.iter().find(|b| !b" \t\r\n".contains(b)).copied();
        match first {
            Some(b'{') => Self::load_json_bytes(bytes),
            Some(0x90..=0x9f | 0xdc | 0xdd) => Self::load_binary_bytes(bytes),
            _ => Err(bad(
                "(root)",
                "neither a JSON nor a binary saved world: expected `{` or a MessagePack array",
            )),
        }
    }

    /// A new world from [`World::save_json`] (or pretty) output.
    ///
    /// # Errors
    /// As [`World::load`].
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
        Ok(Self::load_json_bytes(json.as_bytes())?.world)
    }

    /// A new world from [`World::save_binary`] output.
    ///
    /// # Errors
    /// As [`World::load`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn_named("car");
    /// let saved = world.save_binary()?;
    /// assert!(World::load_binary(&saved)?.find_by_name("car").is_some());
    /// assert!(World::load_binary(&saved[..saved.len() - 1]).is_err());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load_binary(bytes: &[u8]) -> Result<World, Error> {
        Ok(Self::load_binary_bytes(bytes)?.world)
    }

    /// [`World::load_json`] from a parsed value.
    ///
    /// # Errors
    /// As [`World::load`].
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
        Self::load_json(&value.to_string())
    }

    fn load_json_bytes(bytes: &[u8]) -> Result<Loaded, Error> {
        let mut world = World::new();
        let tag = world.entities().tag();
        let previous = refs::reset_load_max();
        let (read, _) = with_context(RefContext::Load { tag }, || read_json(&mut world, bytes));
        refs::restore_load_max(previous);
        let file = read?;
        file.check_refs()?;
        file.build(world)
    }

    fn load_binary_bytes(bytes: &[u8]) -> Result<Loaded, Error> {
        let mut world = World::new();
        let tag = world.entities().tag();
        let previous = refs::reset_load_max();
        let (read, _) = with_context(RefContext::Load { tag }, || read_binary(&mut world, bytes));
        refs::restore_load_max(previous);
        let file = read?;
        file.check_refs()?;
        file.build(world)
    }
}

/// A saved world as read, before anything is spawned.
#[derive(Default)]
struct File {
    format: Option<String>,
    version: Option<u64>,
    update_order: Vec<TypeIdx>,
    resources: Vec<(TypeId, BoxedComponent)>,
    name_order: Option<(Vec<u64>, String)>,
    entities: Vec<LoadedEntity>,
    /// Children by saved id, per entity.
    children: Vec<Vec<u32>>,
    /// The largest saved id read so far and where (built into a path only
    /// if it is out of range), for the reference check.
    max_ref: Option<(u64, RefAt)>,
    /// The component types of the entity being read.
    types: Vec<TypeIdx>,
    /// Tables whose type list passed the single rule.
    checked: HashSet<TableId>,
    /// Scratch for the JSON reader's first pass over a component list.
    listed: Vec<Listed>,
    /// The last table found, with its types.
    last_table: Option<(Vec<TypeIdx>, TableId)>,
}

/// Where a reference was read.
#[derive(Clone, Copy)]
enum RefAt {
    Resource(usize),
    Component(usize, usize),
    /// A binary snapshot's `data[k]` of entity `i`.
    Data(usize, usize),
}

impl RefAt {
    fn path(self) -> String {
        match self {
            RefAt::Resource(i) => format!("resources[{i}].data"),
            RefAt::Component(i, k) => format!("{}.data", component_path(i, k)),
            RefAt::Data(i, k) => format!("entities[{i}].data[{k}]"),
        }
    }
}

/// Where an error is, built only when there is one.
fn entity_path(i: usize) -> String {
    format!("entities[{i}]")
}

fn component_path(i: usize, k: usize) -> String {
    format!("entities[{i}].components[{k}]")
}

/// A component type resolved once per load.
#[derive(Clone, Copy)]
struct Known {
    ty: TypeIdx,
    fns: DeserializeFns,
}

fn resolve_type(world: &mut World, name: &str, path: &str) -> Result<Known, Error> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns = found.ops().deserialize.ok_or_else(|| {
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
        fns,
    })
}

fn current_max() -> Option<u64> {
    refs::load_max()
}

impl File {
    /// The table of entity `i`, whose component types are in
    /// `self.types`, checked against the single rule once per table.
    fn table_of(&mut self, world: &mut World, i: usize) -> Result<TableId, Error> {
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
    fn note_refs(&mut self, before: Option<u64>, at: RefAt) {
        let now = current_max();
        if now != before {
            if let Some(max) = now {
                self.max_ref = Some((max, at));
            }
        }
    }

    fn check_refs(&self) -> Result<(), Error> {
        match &self.max_ref {
            Some((max, at)) if *max >= self.entities.len() as u64 => Err(Error::UnknownEntity {
                path: at.path(),
                saved: *max,
                count: self.entities.len(),
            }),
            _ => Ok(()),
        }
    }

    fn check_header(&self) -> Result<(), Error> {
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
    fn build(self, mut world: World) -> Result<Loaded, Error> {
        let n = self.entities.len();
        let mut parent_of: Vec<Option<u32>> = vec![None; n];
        for (i, children) in self.children.iter().enumerate() {
            for (k, &c) in children.iter().enumerate() {
                let here = format!("entities[{i}].children[{k}]");
                let cu = c as usize;
                if cu >= n || cu == i {
                    return Err(bad(here, "expected the id of another entity in this file"));
                }
                if parent_of[cu].replace(i as u32).is_some() {
                    return Err(bad(here, format!("entity {c} is listed as a child twice")));
                }
            }
        }
        // A cycle leaves entities that no root reaches; walking from the
        // roots also gives the order hooks fire in (parents first).
        let mut tree_order = Vec::with_capacity(n);
        let mut stack: Vec<u32> = (0..n as u32)
            .rev()
            .filter(|&i| parent_of[i as usize].is_none())
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
        let ids = world.finish_loaded(&self.entities, &self.children, &tree_order, name_order);
        Ok(Loaded {
            world,
            ids: IdMap::new(ids),
        })
    }
}

fn update_order_entry(
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

fn resource_entry(
    name: &str,
    path: &str,
) -> Result<
    (
        TypeId,
        crate::component::ops::DeserializeFn,
        crate::component::ops::BinaryReadFn,
    ),
    Error,
> {
    let found = component_type(name).map_err(|e| bad(format!("{path}.type"), e.to_string()))?;
    let fns = found.ops().deserialize.ok_or_else(|| {
        bad(
            path,
            format!(
                "`{name}` cannot be read from data: it does not implement `serde::Deserialize`"
            ),
        )
    })?;
    Ok((found.type_id(), fns.boxed, fns.binary))
}

// ------------------------------------------------------------ JSON reader

fn read_json(world: &mut World, bytes: &[u8]) -> Result<File, Error> {
    let mut r = JsonIn::new(bytes);
    let at = |path: &str, message: String| bad(path, message);
    let mut file = File::default();
    file.entities.reserve(bytes.len() / 100);
    file.children.reserve(bytes.len() / 100);
    let mut known: Vec<(Vec<u8>, Known)> = Vec::new();
    r.begin_object()
        .map_err(|m| at("(root)", format!("not a saved world: {m}")))?;
    let mut first = true;
    let mut seen_entities = false;
    while let Some(key) = r.next_key(&mut first).map_err(|m| at("(root)", m))? {
        match &*key {
            b"format" => file.format = Some(r.string().map_err(|m| at("format", m))?.into_owned()),
            b"version" => file.version = Some(r.u64("a version number").map_err(|m| at("version", m))?),
            b"update_order" => {
                r.begin_array().map_err(|m| at("update_order", m))?;
                let mut first = true;
                let mut i = 0;
                while r.next_item(&mut first).map_err(|m| at("update_order", m))? {
                    let path = format!("update_order[{i}]");
                    let name = r.string().map_err(|m| at(&path, m))?;
                    update_order_entry(world, &name, &path, &mut file.update_order)?;
                    i += 1;
                }
            }
            b"resources" => {
                r.begin_array().map_err(|m| at("resources", m))?;
                let mut first = true;
                let mut i = 0;
                while r.next_item(&mut first).map_err(|m| at("resources", m))? {
                    let path = format!("resources[{i}]");
                    r.begin_object().map_err(|m| at(&path, m))?;
                    let mut first = true;
                    let mut entry = None;
                    let mut data_at = None;
                    while let Some(key) = r.next_key(&mut first).map_err(|m| at(&path, m))? {
                        match &*key {
                            b"type" => {
                                let name = r.string().map_err(|m| at(&format!("{path}.type"), m))?;
                                entry = Some(resource_entry(&name, &path)?);
                            }
                            b"data" => {
                                data_at = Some(r.pos);
                                r.skip_value().map_err(|m| at(&format!("{path}.data"), m))?;
                            }
                            other => return Err(bad(format!("{path}.{}", String::from_utf8_lossy(other)), "unknown field; a resource has `type` and `data`")),
                        }
                    }
                    let (Some((ty, read, _)), Some(start)) = (entry, data_at) else {
                        return Err(bad(&path, "expected `type` and `data`"));
                    };
                    let resume = r.pos;
                    r.pos = start;
                    let before = current_max();
                    // Resources are few: read through a value, which gives
                    // the path inside the data on error.
                    let value = serde_json::Deserializer::from_slice(r.rest())
                        .into_iter::<Value>()
                        .next()
                        .unwrap_or_else(|| Err(serde::de::Error::custom("expected a value")))
                        .map_err(|e| bad(format!("{path}.data"), format!("{e} ({})", r.where_(start))))?;
                    let boxed = read(&value).map_err(|(inner, message)| {
                        let at = match inner.as_str() {
                            "" => format!("{path}.data"),
                            s if s.starts_with('[') => format!("{path}.data{s}"),
                            s => format!("{path}.data.{s}"),
                        };
                        bad(at, message)
                    })?;
                    file.note_refs(before, RefAt::Resource(i));
                    r.pos = resume;
                    file.resources.push((ty, boxed));
                    i += 1;
                }
            }
            b"name_order" => {
                r.begin_array().map_err(|m| at("name_order", m))?;
                let mut first = true;
                let mut order = Vec::new();
                while r.next_item(&mut first).map_err(|m| at("name_order", m))? {
                    let path = format!("name_order[{}]", order.len());
                    order.push(r.u64("a saved id").map_err(|m| at(&path, m))?);
                }
                file.name_order = Some((order, "name_order".to_owned()));
            }
            b"entities" => {
                if std::mem::replace(&mut seen_entities, true) {
                    return Err(bad("entities", "listed twice"));
                }
                r.begin_array().map_err(|m| at("entities", format!("expected an array of entities: {m}")))?;
                let mut first = true;
                while r.next_item(&mut first).map_err(|m| at("entities", m))? {
                    read_json_entity(world, &mut r, &mut file, &mut known)?;
                }
            }
            other => {
                return Err(bad(
                    String::from_utf8_lossy(other),
                    "unknown field; a saved world has `format`, `version`, `update_order`, `resources`, `name_order` and `entities`",
                ))
            }
        }
    }
    r.ws();
    if r.pos != bytes.len() {
        return Err(bad(
            "(root)",
            format!(
                "unexpected text after the saved world at {}",
                r.where_(r.pos)
            ),
        ));
    }
    file.check_header()?;
    if !seen_entities {
        return Err(bad("entities", "expected an array of entities"));
    }
    Ok(file)
}

fn read_json_entity(
    world: &mut World,
    r: &mut JsonIn<'_>,
    file: &mut File,
    known: &mut Vec<(Vec<u8>, Known)>,
) -> Result<(), Error> {
    let i = file.entities.len();
    let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
    r.begin_object()
        .map_err(|m| bad(entity_path(i), format!("expected an entity object: {m}")))?;
    let mut entity = LoadedEntity {
        name: None,
        enabled: true,
        killed: false,
        layers: None,
        table: TableId::default(),
        len: 0,
    };
    let mut children = Vec::new();
    let mut spawned = false;
    let mut first = true;
    while let Some(key) = r.next_key(&mut first).map_err(|m| bad(entity_path(i), m))? {
        match &*key {
            b"id" => {
                let id = r.u64("an id").map_err(|m| at("id", m))?;
                if id != i as u64 {
                    return Err(at("id", format!("expected {i}: ids are positions in the list")));
                }
            }
            b"name" => {
                entity.name = if r.null() {
                    None
                } else {
                    let name = r.string().map_err(|m| at("name", m))?;
                    Some(world.names_mut().intern(&name))
                }
            }
            b"enabled" => entity.enabled = r.bool().map_err(|m| at("enabled", m))?,
            b"killed" => entity.killed = r.bool().map_err(|m| at("killed", m))?,
            b"layers" => {
                let layers = r.u64("a 32-bit layer mask").map_err(|m| at("layers", m))?;
                let layers = u32::try_from(layers)
                    .map_err(|_| at("layers", "expected a 32-bit layer mask".into()))?;
                entity.layers = (layers != DEFAULT_LAYERS).then_some(layers);
            }
            b"children" => {
                r.begin_array()
                    .map_err(|m| at("children", format!("expected an array of ids: {m}")))?;
                let mut first = true;
                while r.next_item(&mut first).map_err(|m| at("children", m))? {
                    let k = children.len();
                    let wrong = || at(&format!("children[{k}]"), "expected the id of another entity in this file".into());
                    let c = r.u64("the id of another entity in this file").map_err(|_| wrong())?;
                    children.push(u32::try_from(c).map_err(|_| wrong())?);
                }
            }
            b"components" if !spawned => {
                read_json_components(world, r, known, i, file, &mut entity)?;
                spawned = true;
            }
            b"components" => return Err(at("components", "listed twice".into())),
            other => {
                return Err(at(
                    &String::from_utf8_lossy(other),
                    "unknown field; an entity has `id`, `name`, `enabled`, `killed`, `layers`, `children` and `components`".into(),
                ))
            }
        }
    }
    if !spawned {
        // No components: an entity of the empty table.
        entity.table = file.table_of(world, i)?;
        world.spawn_loaded_entity(&entity);
    } else if !entity.enabled || entity.killed || entity.layers.is_some() {
        // Flags listed after the components.
        world.set_loaded_state(EntityIndex::from_index(i), &entity);
    }
    file.entities.push(entity);
    file.children.push(children);
    Ok(())
}

/// Reads an entity's `components` in one pass straight into `table` (the
/// previous entity's, of component types `types`) as long as each
/// component is of the type the table has at its place. `Ok(false)` when
/// one is not (or lists its data before its type): what it pushed is
/// taken back and the caller reads the list again the general way.
#[allow(clippy::too_many_arguments)]
fn read_json_like(
    world: &mut World,
    r: &mut JsonIn<'_>,
    known: &mut [(Vec<u8>, Known)],
    i: usize,
    file: &mut File,
    entity: &mut LoadedEntity,
    types: &[TypeIdx],
    table: TableId,
) -> Result<bool, Error> {
    let row = world.storage().table(table).owners().len();
    let mut pushed = 0usize;
    let mut disabled = 0u64;
    let result = (|| -> Result<bool, Error> {
        let at = |m: String| bad(format!("entities[{i}].components"), m);
        r.begin_array()
            .map_err(|m| at(format!("expected an array: {m}")))?;
        let mut first = true;
        while r.next_item(&mut first).map_err(at)? {
            let k = pushed;
            let Some(&ty) = types.get(k) else {
                return Ok(false);
            };
            if k >= 64 {
                return Ok(false);
            }
            let path = || component_path(i, k);
            r.begin_object()
                .map_err(|m| bad(path(), format!("expected a component object: {m}")))?;
            let mut first = true;
            let mut kind: Option<Known> = None;
            let mut has_data = false;
            let mut enabled = true;
            while let Some(key) = r.next_key(&mut first).map_err(|m| bad(path(), m))? {
                match &*key {
                    b"type" => {
                        let name = r
                            .string_bytes()
                            .map_err(|m| bad(format!("{}.type", path()), m))?;
                        match known.iter().find(|(_, k)| k.ty == ty) {
                            Some((n, k)) if **n == *name => kind = Some(*k),
                            _ => return Ok(false),
                        }
                    }
                    b"enabled" => {
                        enabled = r
                            .bool()
                            .map_err(|m| bad(format!("{}.enabled", path()), m))?
                    }
                    b"data" => {
                        let Some(kind) = kind else {
                            return Ok(false);
                        };
                        r.ws();
                        let data = r.pos;
                        let place = world.storage().table(table).layout()[k];
                        let before = current_max();
                        match (kind.fns.json_push)(world, place.ty, place.seg, r.rest()) {
                            Ok(used) => r.pos += used,
                            Err(e) => return Err(json_data_error(r, data, kind.fns, &path(), e)),
                        }
                        file.note_refs(before, RefAt::Component(i, k));
                        has_data = true;
                        pushed += 1;
                    }
                    _ => return Ok(false),
                }
            }
            if kind.is_none() || !has_data {
                return Ok(false);
            }
            if !enabled {
                disabled |= 1 << k;
            }
        }
        Ok(pushed == types.len())
    })();
    match result {
        Ok(true) => {
            entity.table = table;
            entity.len = types.len();
            let index = world.spawn_loaded_entity(entity);
            debug_assert_eq!(index.index(), i);
            for k in 0..types.len() {
                if disabled & (1 << k) != 0 {
                    world.disable_raw(index, k);
                }
            }
            Ok(true)
        }
        other => {
            // Take back the values pushed ahead of the entity.
            let layout = world.storage().table(table).layout().to_vec();
            for place in &layout[..pushed] {
                world.storage_mut().trash_from(place.ty, place.seg, row);
            }
            world.empty_trash();
            other
        }
    }
}

/// One component as the first pass over an entity's list finds it.
struct Listed {
    kind: Known,
    enabled: bool,
    /// Where its `data` starts, if it has one.
    data: Option<usize>,
}

/// Reads an entity's `components` in two passes: the first finds each
/// one's type, flag and where its data starts (skipping the data), so the
/// entity's table is known; the entity is then spawned and the second pass
/// reads each value straight into its column.
fn read_json_components(
    world: &mut World,
    r: &mut JsonIn<'_>,
    known: &mut Vec<(Vec<u8>, Known)>,
    i: usize,
    file: &mut File,
    entity: &mut LoadedEntity,
) -> Result<(), Error> {
    r.ws();
    let start = r.pos;
    // Neighbours in a file are often alike: read straight into the last
    // entity's table, in one pass, while the types match it.
    if let Some((types, table)) = file.last_table.take() {
        let done = read_json_like(world, r, known, i, file, entity, &types, table);
        file.last_table = Some((types, table));
        if done? {
            return Ok(());
        }
        r.pos = start;
    }
    let at = |m: String| bad(format!("entities[{i}].components"), m);
    r.begin_array()
        .map_err(|m| at(format!("expected an array: {m}")))?;
    let mut listed = std::mem::take(&mut file.listed);
    listed.clear();
    let mut first = true;
    while r.next_item(&mut first).map_err(at)? {
        let k = listed.len();
        let path = || component_path(i, k);
        r.begin_object()
            .map_err(|m| bad(path(), format!("expected a component object: {m}")))?;
        let mut first = true;
        let mut kind: Option<Known> = None;
        let mut data = None;
        let mut enabled = true;
        while let Some(key) = r.next_key(&mut first).map_err(|m| bad(path(), m))? {
            match &*key {
                b"type" => {
                    let name = r
                        .string_bytes()
                        .map_err(|m| bad(format!("{}.type", path()), m))?;
                    kind = Some(match known.iter().find(|(n, _)| **n == *name) {
                        Some(&(_, found)) => found,
                        None => {
                            let text = std::str::from_utf8(&name).map_err(|_| {
                                bad(format!("{}.type", path()), "expected a UTF-8 type name")
                            })?;
                            let found = resolve_type(world, text, &path())?;
                            known.push((name.into_owned(), found));
                            found
                        }
                    });
                }
                b"enabled" => {
                    enabled = r
                        .bool()
                        .map_err(|m| bad(format!("{}.enabled", path()), m))?
                }
                b"data" => {
                    r.ws();
                    data = Some(r.pos);
                    r.skip_value()
                        .map_err(|m| bad(format!("{}.data", path()), m))?;
                }
                other => {
                    return Err(bad(
                        format!("{}.{}", path(), String::from_utf8_lossy(other)),
                        "unknown field; a component has `type`, `data` and optionally `enabled`",
                    ))
                }
            }
        }
        let kind = kind.ok_or_else(|| {
            bad(
                path(),
                "missing `type`: name the component, e.g. \"type\": \"Transform\"",
            )
        })?;
        file.types.push(kind.ty);
        listed.push(Listed {
            kind,
            enabled,
            data,
        });
    }
    let end = r.pos;
    entity.table = file.table_of(world, i)?;
    entity.len = listed.len();
    file.types.clear();
    let index = world.spawn_loaded_entity(entity);
    debug_assert_eq!(index.index(), i);
    for (k, c) in listed.iter().enumerate() {
        let place = world.storage().table(entity.table).layout()[k];
        let before = current_max();
        match c.data {
            Some(start) => {
                r.pos = start;
                if let Err(e) = (c.kind.fns.json_push)(world, place.ty, place.seg, r.rest()) {
                    return Err(json_data_error(
                        r,
                        start,
                        c.kind.fns,
                        &component_path(i, k),
                        e,
                    ));
                }
            }
            // No `data`: a unit struct's `null`, or a struct whose fields
            // all have defaults.
            None => (c.kind.fns.json_push)(world, place.ty, place.seg, b"null")
                .or_else(|_| (c.kind.fns.json_push)(world, place.ty, place.seg, b"{}"))
                .map(drop)
                .map_err(|e| {
                    bad(
                        format!("{}.data", component_path(i, k)),
                        format!("missing, and the type needs data: {e}"),
                    )
                })?,
        }
        file.note_refs(before, RefAt::Component(i, k));
        if !c.enabled {
            world.disable_raw(index, k);
        }
    }
    r.pos = end;
    file.listed = listed;
    Ok(())
}

/// The error of component data that did not read: with the path inside
/// the data when the data is well-formed JSON (found by a second, slow
/// read), else with serde_json's message and the line and column.
fn json_data_error(
    r: &mut JsonIn<'_>,
    start: usize,
    fns: DeserializeFns,
    path: &str,
    error: serde_json::Error,
) -> Error {
    let data_path = format!("{path}.data");
    r.pos = start;
    if r.skip_value().is_ok() {
        if let Ok(value) = serde_json::from_slice::<Value>(&r.bytes[start..r.pos]) {
            if let Err((inner, message)) = (fns.boxed)(&value) {
                let at = match inner.as_str() {
                    "" => data_path,
                    s if s.starts_with('[') => format!("{data_path}{s}"),
                    s => format!("{data_path}.{s}"),
                };
                return bad(at, message);
            }
        }
    }
    let (line, column) = (error.line(), error.column());
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(cut) => message[..cut].to_owned(),
        None => message,
    };
    // serde_json counts from the data's start: report the file's place.
    let _ = (line, column);
    bad(data_path, format!("{message} ({})", r.where_(start)))
}

/// The single rule on one loaded entity's components.
fn check_single_rule(world: &World, types: &[TypeIdx], i: usize) -> Result<(), Error> {
    if let Some((first, second, single)) = world.single_rule_clash(types) {
        let name = |ty: TypeIdx| world.storage().info(ty).key().name();
        let (a, b, k) = (name(types[first]), name(types[second]), name(single));
        let message = if a == b && b == k {
            format!("`{b}` is listed twice (also at components[{first}]) and it is single: an entity holds at most one")
        } else {
            format!("`{b}` and `{a}` (at components[{first}]) are both a `{k}`, and `{k}` is single: an entity holds at most one")
        };
        return Err(bad(component_path(i, second), message));
    }
    Ok(())
}

// ---------------------------------------------------------- binary reader

fn read_binary(world: &mut World, bytes: &[u8]) -> Result<File, Error> {
    let mut r = mp::In::new(bytes);
    let mut file = File::default();
    let len = r
        .array("a saved world (an array)")
        .map_err(|m| bad("(root)", m))?;
    if len != 8 {
        return Err(bad(
            "(root)",
            format!("expected a saved world of 8 parts, found {len}"),
        ));
    }
    file.format = Some(
        r.string("the format name")
            .map_err(|m| bad("format", m))?
            .to_owned(),
    );
    file.version = Some(r.uint("a version number").map_err(|m| bad("version", m))?);
    file.check_header()?;
    let n = r
        .array("the update order")
        .map_err(|m| bad("update_order", m))?;
    for i in 0..n {
        let path = format!("update_order[{i}]");
        let name = r
            .string("a behaviour type name")
            .map_err(|m| bad(&path, m))?;
        update_order_entry(world, name, &path, &mut file.update_order)?;
    }
    let n = r.array("the resources").map_err(|m| bad("resources", m))?;
    for i in 0..n {
        let path = format!("resources[{i}]");
        if r.array("a resource").map_err(|m| bad(&path, m))? != 2 {
            return Err(bad(path, "expected [type, data]"));
        }
        let name = r
            .string("a type name")
            .map_err(|m| bad(format!("{path}.type"), m))?;
        let (ty, _, read) = resource_entry(name, &path)?;
        let data = r
            .bin("the resource's data")
            .map_err(|m| bad(format!("{path}.data"), m))?;
        let before = current_max();
        let value = read(data).map_err(|e| bad(format!("{path}.data"), e.to_string()))?;
        file.note_refs(before, RefAt::Resource(i));
        file.resources.push((ty, value));
    }
    if !r.nil() {
        let n = r
            .array("the naming order")
            .map_err(|m| bad("name_order", m))?;
        let mut order = Vec::with_capacity(n.min(bytes.len()));
        for k in 0..n {
            order.push(
                r.uint("a saved id")
                    .map_err(|m| bad(format!("name_order[{k}]"), m))?,
            );
        }
        file.name_order = Some((order, "name_order".to_owned()));
    }
    let n = r
        .array("the component types")
        .map_err(|m| bad("types", m))?;
    let mut types = Vec::with_capacity(n.min(bytes.len()));
    for t in 0..n {
        let path = format!("types[{t}]");
        let name = r
            .string("a component type name")
            .map_err(|m| bad(&path, m))?;
        types.push(resolve_type(world, name, &path)?);
    }
    let n = r.array("the names").map_err(|m| bad("names", m))?;
    let mut names = Vec::with_capacity(n.min(bytes.len()));
    for k in 0..n {
        let name = r
            .string("a name")
            .map_err(|m| bad(format!("names[{k}]"), m))?;
        names.push(world.names_mut().intern(name));
    }
    let n = r.array("the entities").map_err(|m| bad("entities", m))?;
    world.reserve_entities(n.min(r.rest.len()));
    let mut fns = Vec::new();
    // Each entity takes at least a byte: a length past the input is a lie.
    file.entities.reserve(n.min(bytes.len()));
    for i in 0..n {
        let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
        if r.array("an entity").map_err(|m| bad(entity_path(i), m))? != 6 {
            return Err(bad(
                entity_path(i),
                "expected [name, flags, layers, children, types, data]",
            ));
        }
        let mut entity = LoadedEntity {
            name: None,
            enabled: true,
            killed: false,
            layers: None,
            table: TableId::default(),
            len: 0,
        };
        if !r.nil() {
            let k = r.uint("a name's index or nil").map_err(|m| at("name", m))?;
            let name = usize::try_from(k)
                .ok()
                .and_then(|k| names.get(k))
                .ok_or_else(|| {
                    at(
                        "name",
                        format!("expected an index into the {} names", names.len()),
                    )
                })?;
            entity.name = Some(*name);
        }
        let flags = r.uint("the flags").map_err(|m| at("flags", m))?;
        if flags > 3 {
            return Err(at(
                "flags",
                "expected 0 to 3 (1: disabled, 2: killed)".into(),
            ));
        }
        entity.enabled = flags & 1 == 0;
        entity.killed = flags & 2 != 0;
        let layers = r.uint("a layer mask").map_err(|m| at("layers", m))?;
        let layers = u32::try_from(layers)
            .map_err(|_| at("layers", "expected a 32-bit layer mask".into()))?;
        entity.layers = (layers != DEFAULT_LAYERS).then_some(layers);
        let k = r.array("the children").map_err(|m| at("children", m))?;
        let mut children = Vec::with_capacity(k.min(r.rest.len()));
        for c in 0..k {
            let wrong = |_| {
                at(
                    &format!("children[{c}]"),
                    "expected the id of another entity in this file".into(),
                )
            };
            let child = r.uint("a saved id").map_err(wrong)?;
            children.push(u32::try_from(child).map_err(|_| wrong(String::new()))?);
        }
        // Types first, then data: the entity's table is known before its
        // values are read, so each is read straight into its column.
        let k = r.array("the component types").map_err(|m| at("types", m))?;
        let mut disabled = 0u64;
        fns.clear();
        for c in 0..k {
            let t = r
                .uint("a type index")
                .map_err(|m| at(&format!("types[{c}]"), m))?;
            let kind = *usize::try_from(t >> 1)
                .ok()
                .and_then(|t| types.get(t))
                .ok_or_else(|| {
                    at(
                        &format!("types[{c}]"),
                        format!(
                            "expected an index into the {} types (times two, plus one if disabled)",
                            types.len()
                        ),
                    )
                })?;
            if t & 1 == 1 {
                if c >= 64 {
                    return Err(at(
                        &format!("types[{c}]"),
                        "only the first 64 components may be disabled in a snapshot".into(),
                    ));
                }
                disabled |= 1 << c;
            }
            file.types.push(kind.ty);
            fns.push(kind.fns.binary_push);
        }
        entity.table = file.table_of(world, i)?;
        entity.len = k;
        if r.array("the component data").map_err(|m| at("data", m))? != k {
            return Err(at("data", format!("expected {k} values, one per type")));
        }
        let index = world.spawn_loaded_entity(&entity);
        debug_assert_eq!(index.index(), i);
        for (c, &push) in fns.iter().enumerate() {
            let here = || format!("entities[{i}].data[{c}]");
            let data = r.bin("the component's data").map_err(|m| bad(here(), m))?;
            let before = current_max();
            let place = world.storage().table(entity.table).layout()[c];
            push(world, place.ty, place.seg, data).map_err(|e| bad(here(), e.to_string()))?;
            file.note_refs(before, RefAt::Data(i, c));
            if disabled & (1 << c) != 0 {
                world.disable_raw(index, c);
            }
        }
        file.types.clear();
        file.entities.push(entity);
        file.children.push(children);
    }
    if !r.rest.is_empty() {
        return Err(bad(
            "(root)",
            format!("{} bytes after the saved world", r.rest.len()),
        ));
    }
    Ok(file)
}
