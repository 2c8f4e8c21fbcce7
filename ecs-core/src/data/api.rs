//! Saving and loading, as the world's methods: each a thin call into
//! [`crate::data::save`], which holds the one save and the one load.

use serde_json::Value;

use crate::data::save::{self, Loaded, SaveFormat, SaveOptions};
use crate::world::World;
use crate::{EntityId, Error};

impl World {
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

    /// The world, saved. Components of `#[component(transient)]` types are
    /// left out on purpose, and so are resources whose type is not a
    /// derived component with serde support.
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
        save::save(self, options)
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
        self.save_text(SaveFormat::Json)
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
        self.save_text(SaveFormat::JsonPretty)
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
        self.save(SaveOptions {
            format: SaveFormat::Binary,
            ..SaveOptions::default()
        })
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
        save::load(bytes, None)
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

    /// [`World::save`] in a text format, as a string.
    fn save_text(&self, format: SaveFormat) -> Result<String, Error> {
        let bytes = self.save(SaveOptions {
            format,
            ..SaveOptions::default()
        })?;
        Ok(String::from_utf8(bytes).expect("serde_json writes UTF-8"))
    }
}
