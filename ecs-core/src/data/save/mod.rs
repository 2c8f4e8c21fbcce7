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

use serde_json::Value;

use crate::data::catalog::{component_type, component_type_of};
use crate::data::refs::{self, with_context, Dangling, IdMap, RefContext};
use crate::world::World;
use crate::{EntityId, Error};

mod binary;
mod json;
mod read;
mod write;

#[cfg(test)]
mod tests;

use binary::read_binary;
use json::read_json;

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
}

impl World {
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
        Self::load_with(bytes, read_json)
    }

    fn load_binary_bytes(bytes: &[u8]) -> Result<Loaded, Error> {
        Self::load_with(bytes, read_binary)
    }

    /// Reads `bytes` with `read` (one format's reader) into a fresh world,
    /// ids remapped as they are read, then checks and builds it.
    fn load_with(
        bytes: &[u8],
        read: fn(&mut World, &[u8]) -> Result<read::File, Error>,
    ) -> Result<Loaded, Error> {
        let mut world = World::new();
        let tag = world.entities().tag();
        let previous = refs::reset_load_max();
        let (read, _) = with_context(RefContext::Load { tag }, || read(&mut world, bytes));
        refs::restore_load_max(previous);
        let file = read?;
        file.check_refs()?;
        file.build(world)
    }
}
