//! The data layer's part of [`World`], all of it in this one block:
//! saving and loading, spawning blueprints and levels, cloning entities,
//! and the inspector's views. A method whose body is more than a few lines
//! calls into the module it belongs to ([`crate::data::save`] holds the
//! one save and the one load), so this file reads as the index. Working
//! with components by name is on the entity views, in `dynamic.rs`.

use serde_json::Value;

use crate::data::blueprint::{self, Blueprint};
use crate::data::save::{self, Loaded, SaveFormat, SaveOptions, Saved};
use crate::data::variant::{self, Level};
use crate::data::{dynamic, inspect};
use crate::scene::spawn::spawn_prepared;
use crate::world::prepared::Requirements;
use crate::world::World;
use crate::{EntityId, Error};

impl World {
    // --- Saving and loading

    /// The live entities in the order a save lists them (each root in slot
    /// order, then its subtree depth-first): the saved id of
    /// `save_order()[i]` is `i`. Taken before a save, it turns a load's
    /// [`IdMap`](crate::IdMap) into old id → new id
    /// ([`IdMap::by_old`](crate::IdMap::by_old)).
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
        save::save_order(self)
    }

    /// The world, saved as `options` say: [`Saved::Text`](crate::Saved)
    /// for JSON, [`Saved::Binary`](crate::Saved) for the binary snapshot.
    /// Components of `#[component(transient)]` types are left out on
    /// purpose, and so are resources whose type is not a derived component
    /// with serde support.
    ///
    /// # Errors
    /// [`Error::NotSerializable`] naming every component type present that
    /// lacks `serde::Serialize` or `serde::Deserialize` (and is not
    /// transient); [`Error::DanglingEntity`] for a reference to an entity
    /// that is not saved (unless [`Dangling::Null`](crate::Dangling::Null));
    /// [`Error::Data`] with the path of a component whose `Serialize`
    /// fails, or (JSON) that holds a NaN or an infinite `f64`, which JSON
    /// cannot hold (an `f32` infinity is written `1e+39`, which reads back
    /// as infinity; the binary format keeps every float as it is).
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct Turret { target: Option<EntityId>, heat: f32 }
    /// let mut world = World::new();
    /// let tank = world.spawn_named("tank");
    /// world.spawn_with((Turret { target: Some(tank), heat: 0.4 },))?;
    /// for options in [SaveOptions::json(), SaveOptions::binary()] {
    ///     let saved = world.save_with(options)?;
    ///     let loaded = World::load(saved.as_bytes())?.world;
    ///     let tank = loaded.find_by_name("tank").unwrap();
    ///     let (turret,) = loaded.query::<(&Turret,)>().iter().next().unwrap();
    ///     assert_eq!(turret, &Turret { target: Some(tank), heat: 0.4 });
    /// }
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_with(&self, options: SaveOptions) -> Result<Saved, Error> {
        save::save(self, options)
    }

    /// [`World::save_with`] as bytes, whatever the format: what a file
    /// holds, and what [`World::load`] reads.
    ///
    /// # Errors
    /// As [`World::save_with`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn_named("car");
    /// let bytes = world.save(SaveOptions::binary().dangling(Dangling::Null))?;
    /// assert!(World::load(&bytes)?.world.find_by_name("car").is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save(&self, options: SaveOptions) -> Result<Vec<u8>, Error> {
        self.save_with(options).map(Saved::into_bytes)
    }

    /// The world as JSON text, with `options` (pretty for
    /// [`SaveOptions::json_pretty`], compact otherwise: a binary format in
    /// `options` is written as compact JSON here).
    ///
    /// # Errors
    /// As [`World::save_with`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Target(Option<EntityId>);
    /// let mut world = World::new();
    /// let gone = world.spawn();
    /// world.spawn_with((Target(Some(gone)),))?;
    /// world.despawn(gone)?;
    /// assert!(matches!(world.save_json(), Err(Error::DanglingEntity { .. })));
    /// let json = world.save_json_with(SaveOptions::json().dangling(Dangling::Null))?;
    /// let loaded = World::load_json(&json)?;
    /// let (target,) = loaded.query::<(&Target,)>().iter().next().unwrap();
    /// assert_eq!(target.0, None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn save_json_with(&self, options: SaveOptions) -> Result<String, Error> {
        let format = match options.format {
            SaveFormat::JsonPretty => SaveFormat::JsonPretty,
            _ => SaveFormat::Json,
        };
        let saved = self.save_with(SaveOptions { format, ..options })?;
        Ok(saved.into_text().expect("a JSON format saves text"))
    }

    /// [`World::save_with`] as compact JSON.
    ///
    /// # Errors
    /// As [`World::save_with`].
    ///
    /// ```rust,standalone_crate
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
        self.save_json_with(SaveOptions::json())
    }

    /// [`World::save_with`] as JSON indented by two spaces.
    ///
    /// # Errors
    /// As [`World::save_with`].
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
        self.save_json_with(SaveOptions::json_pretty())
    }

    /// [`World::save_with`] as a binary snapshot (MessagePack).
    ///
    /// # Errors
    /// As [`World::save_with`] (NaN and infinity are kept).
    ///
    /// ```rust,standalone_crate
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
        self.save(SaveOptions::binary())
    }

    /// [`World::save_json`] as a JSON value.
    ///
    /// # Errors
    /// As [`World::save_with`].
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
        serde_json::from_str(&json).map_err(|e| Error::Data {
            path: "(root)".into(),
            message: e.to_string(),
        })
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
    /// ```rust,standalone_crate
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
        save::load(bytes, None)
    }

    /// A new world from [`World::save_json`] (or pretty) output.
    ///
    /// # Errors
    /// As [`World::load`].
    ///
    /// ```rust,standalone_crate
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
        Ok(save::load(json.as_bytes(), Some(SaveFormat::Json))?.world)
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
        Ok(save::load(bytes, Some(SaveFormat::Binary))?.world)
    }

    /// [`World::load_json`] from a parsed value.
    ///
    /// # Errors
    /// As [`World::load`].
    ///
    /// ```rust,standalone_crate
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

    // --- Blueprints and levels

    /// Spawns the blueprint's entity and its children. All or nothing: on
    /// any error the world holds no entity from it.
    ///
    /// # Errors
    /// [`Error::Data`] naming the JSON path of two components that break
    /// the single rule (`children[0].components[1]: ...`), the one check
    /// that needs the world ([`Blueprint::from_json`] has checked the
    /// rest); a value whose `Deserialize` fails this time, with the path
    /// and type as there.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Wheel { size: u32 }
    /// let bp = Blueprint::from_json(r#"{"tag": "car", "components": [],
    ///     "children": [{"components": [{"type": "Wheel", "data": {"size": 2}}]}]}"#)?;
    /// let mut world = World::new();
    /// let car = world.spawn_blueprint(&bp)?;
    /// let wheel = world.entity(car)?.children().next().unwrap();
    /// assert_eq!(world.entity(wheel)?.get::<Wheel>().unwrap().size, 2);
    /// let two = r#"{"components": [], "children": [{"components": [
    ///     {"type": "Wheel", "data": {"size": 1}}, {"type": "Wheel", "data": {"size": 2}}]}]}"#;
    /// let two = Blueprint::from_json(two)?; // Wheel is single: only a world says so
    /// let err = world.spawn_blueprint(&two).unwrap_err().to_string();
    /// assert!(err.starts_with("children[0].components[1]: "), "{err}");
    /// assert_eq!(world.len(), 2); // all or nothing
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_blueprint(&mut self, blueprint: &Blueprint) -> Result<EntityId, Error> {
        let ids = self.spawn_blueprints(blueprint, 1)?;
        Ok(ids[0])
    }

    /// Spawns `count` entities from one blueprint, all or nothing; the
    /// blueprint is checked once, then each copy only reads its data.
    ///
    /// # Errors
    /// As [`World::spawn_blueprint`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let slime = r#"{"tag": "slime", "components": [{"type": "Health", "data": {"hp": 3}}]}"#;
    /// let bp = Blueprint::from_json(slime)?;
    /// let mut world = World::new();
    /// let ids = world.spawn_blueprints(&bp, 3)?;
    /// assert_eq!(ids.len(), 3);
    /// assert_eq!(world.find_all_by_name("slime").collect::<Vec<_>>(), ids);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_blueprints(
        &mut self,
        blueprint: &Blueprint,
        count: usize,
    ) -> Result<Vec<EntityId>, Error> {
        blueprint::spawn_blueprints(self, blueprint, count)
    }

    /// Spawns every instance of `level`, in order, all or nothing; returns
    /// each instance's root.
    ///
    /// # Errors
    /// As [`World::spawn_blueprint`]; then nothing of the level is left.
    pub fn spawn_level(&mut self, level: &Level) -> Result<Vec<EntityId>, Error> {
        variant::spawn_level(self, level)
    }

    // --- Clones (components by name are on `EntityRef` and `EntityMut`, in dynamic.rs)

    /// Clones an entity (Unity's `Instantiate`, Oddbox's `CloneTo`): a new
    /// root entity with a copy of every component, its name, layers and
    /// flags. Hooks fire on the copies as on fresh components.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`]; [`Error::Lacks`] naming the first component
    /// type that is not `Clone`, and then nothing is created.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, Debug, PartialEq)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let original = world.spawn_with((Health(3),))?;
    /// let copy = world.clone_entity(original)?;
    /// assert_eq!(world.entity(copy)?.get::<Health>(), Some(&Health(3)));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn clone_entity(&mut self, id: EntityId) -> Result<EntityId, Error> {
        self.check(id)?;
        let prepared = dynamic::prepare_clone(self, id.index, false)?;
        spawn_prepared(self, prepared, None, Requirements::Add)
    }

    /// Like [`World::clone_entity`], with the whole subtree (children in
    /// the same order).
    ///
    /// # Errors
    /// As [`World::clone_entity`], for any entity of the subtree.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Wheel(1),))?;
    /// world.set_parent(wheel, car)?;
    /// let copy = world.clone_tree(car)?;
    /// let copied_wheel = world.entity(copy)?.children().next().unwrap();
    /// assert_ne!(copied_wheel, wheel);
    /// assert_eq!(world.entity(copied_wheel)?.get::<Wheel>().unwrap().0, 1);
    /// assert_eq!(world.entity(copy)?.name(), Some("car"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn clone_tree(&mut self, id: EntityId) -> Result<EntityId, Error> {
        self.check(id)?;
        let prepared = dynamic::prepare_clone(self, id.index, true)?;
        spawn_prepared(self, prepared, None, Requirements::Add)
    }

    // --- Inspection

    /// Every entity as an indented tree (roots in slot order, children
    /// under their parent), each with its components in insertion order:
    /// name, instance id, enabled flag and `Debug` value.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Wheel(1),))?;
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.inspect(), "car 0v0\n  1v0\n    - Wheel #0.0 = Wheel(1)\n");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    ///
    /// Indentation stops growing at
    /// [`INSPECT_MAX_INDENT`](crate::INSPECT_MAX_INDENT) levels; deeper
    /// entities carry their depth instead (`[depth 40]`), so the text stays
    /// linear in the number of entities however deep the tree.
    pub fn inspect(&self) -> String {
        inspect::inspect(self)
    }

    /// The scene graph as Graphviz DOT: one node per entity (labelled with
    /// its name or id and its component names), one edge per parent link.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Wheel;
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Wheel,))?;
    /// world.set_parent(wheel, car)?;
    /// let dot = world.scene_graph_dot();
    /// assert!(dot.starts_with("digraph scene {"));
    /// assert!(dot.contains(&format!("e{} -> e{};", car.to_bits(), wheel.to_bits())));
    /// assert!(dot.contains("Wheel"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn scene_graph_dot(&self) -> String {
        inspect::scene_graph_dot(self)
    }
}
