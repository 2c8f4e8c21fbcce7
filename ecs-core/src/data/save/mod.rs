//! Saving a whole world and loading it back, straight through serde (no
//! intermediate value): components, names and their order, hierarchy,
//! enabled and killed flags, layers, the update order, resources, and the
//! entity references components hold.
//!
//! One model, every format: [`write`](write::write) walks what a save
//! holds ([`plan`]) once and hands each piece to a format's
//! [`Encode`](write::Encode); [`read`](read::read) walks a file's parts in
//! the order the file gives them, asking a format's
//! [`Decode`](decode::Decode) for each piece, reads each entity's components
//! straight into their columns ([`components`]) and gathers a
//! [`File`](file::File), which is checked and built into the world. A
//! format (`json`, `binary`) only encodes and decodes: a new one is one
//! file implementing both traits, plus its [`SaveFormat`] variant and its
//! two lines in [`save`] and [`load`].
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
//! `id`s are saved ids: positions in the file, not
//! [`EntityId`](crate::EntityId)s. A loaded
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
//! `names` list each component type name (of every type the saved entities
//! hold, transient ones too) and entity name once, each
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

use crate::data::refs::{self, with_context, Dangling, IdMap, RefContext};
use crate::world::World;
use crate::Error;

mod binary;
mod components;
mod decode;
mod file;
mod json_decode;
mod json_encode;
mod plan;
mod read;
mod write;

use binary::{BinaryDecoder, BinaryEncoder};
use json_decode::JsonDecoder;
use json_encode::JsonEncoder;
use plan::Plan;

pub(crate) use plan::save_order;

/// The format name a saved world starts with.
const FORMAT: &str = "ecs-core/world";
/// The version this build writes (it reads 1 too).
const VERSION: u64 = 2;

/// How [`World::save_with`] writes.
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

/// What a save writes and how: built from [`SaveOptions::json`],
/// [`SaveOptions::json_pretty`] or [`SaveOptions::binary`], then
/// [`SaveOptions::dangling`]; [`World::save_with`] takes it (and
/// [`World::save_json_with`], for JSON as a `String`).
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component, serde::Serialize, serde::Deserialize)]
/// struct Target(Option<EntityId>);
/// let mut world = World::new();
/// let gone = world.spawn();
/// world.spawn_with((Target(Some(gone)),))?;
/// world.despawn(gone)?;
/// let json: String = world.save_json_with(SaveOptions::json().dangling(Dangling::Null))?;
/// assert!(json.contains(r#"{"type":"Target","data":null}"#));
/// let pretty = world.save_with(SaveOptions::json_pretty().dangling(Dangling::Null))?;
/// assert!(pretty.as_text().unwrap().contains("\n  \"entities\": ["));
/// # Ok::<(), ecs_core::Error>(())
/// ```
///
/// The fields are public, so `SaveOptions { dangling: Dangling::Null,
/// ..Default::default() }` says the same; the default is
/// [`SaveOptions::json`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveOptions {
    /// JSON, pretty JSON or binary.
    pub format: SaveFormat,
    /// What to do with an id of an entity that is not saved.
    pub dangling: Dangling,
}

impl SaveOptions {
    /// Compact JSON, on one line; a reference to an entity that is not
    /// saved is an error. The default.
    pub const fn json() -> Self {
        Self::with_format(SaveFormat::Json)
    }

    /// JSON indented by two spaces; otherwise as [`SaveOptions::json`].
    pub const fn json_pretty() -> Self {
        Self::with_format(SaveFormat::JsonPretty)
    }

    /// The binary snapshot (MessagePack); otherwise as
    /// [`SaveOptions::json`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn_named("car");
    /// let saved = world.save_with(SaveOptions::binary())?;
    /// assert!(saved.as_text().is_none());
    /// assert!(World::load(saved.as_bytes())?.world.find_by_name("car").is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const fn binary() -> Self {
        Self::with_format(SaveFormat::Binary)
    }

    /// `format`, and the defaults otherwise: for a format chosen at run
    /// time.
    pub const fn with_format(format: SaveFormat) -> Self {
        SaveOptions {
            format,
            dangling: Dangling::Error,
        }
    }

    /// These options, with `dangling` saying what a reference to an entity
    /// that is not saved becomes.
    #[must_use]
    pub const fn dangling(mut self, dangling: Dangling) -> Self {
        self.dangling = dangling;
        self
    }
}

/// A saved world, as [`World::save_with`] returns it: text for the JSON
/// formats, bytes for the binary one.
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// world.spawn_named("car");
/// let text = world.save_with(SaveOptions::json())?.into_text().unwrap();
/// assert!(text.starts_with(r#"{"format":"ecs-core/world""#));
/// let bytes = world.save_with(SaveOptions::binary())?.into_bytes();
/// assert!(World::load_binary(&bytes)?.find_by_name("car").is_some());
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// JSON ([`SaveFormat::Json`] or [`SaveFormat::JsonPretty`]).
    Text(String),
    /// The binary snapshot ([`SaveFormat::Binary`]).
    Binary(Vec<u8>),
}

impl Saved {
    /// The JSON text; `None` for a binary snapshot.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Saved::Text(text) => Some(text.as_str()),
            Saved::Binary(_) => None,
        }
    }

    /// The JSON text; `None` for a binary snapshot.
    pub fn into_text(self) -> Option<String> {
        match self {
            Saved::Text(text) => Some(text),
            Saved::Binary(_) => None,
        }
    }

    /// The bytes to write to a file, in either format: what
    /// [`World::load`] reads.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Saved::Text(text) => text.as_bytes(),
            Saved::Binary(bytes) => bytes.as_slice(),
        }
    }

    /// The bytes to write to a file, in either format.
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Saved::Text(text) => text.into_bytes(),
            Saved::Binary(bytes) => bytes,
        }
    }
}

impl AsRef<[u8]> for Saved {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
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

/// `world`, saved as `options` say (see [`World::save_with`]).
pub(crate) fn save(world: &World, options: SaveOptions) -> Result<Saved, Error> {
    let plan = Plan::of(world);
    let context = plan.ref_context(world, options.dangling);
    let n = plan.order.len();
    let (saved, _) = with_context(context, || match options.format {
        SaveFormat::Json => write::write(world, &plan, JsonEncoder::new(false, n)).map(text),
        SaveFormat::JsonPretty => write::write(world, &plan, JsonEncoder::new(true, n)).map(text),
        SaveFormat::Binary => write::write(world, &plan, BinaryEncoder::new(n)).map(Saved::Binary),
    });
    saved
}

/// JSON bytes as the text they are.
fn text(bytes: Vec<u8>) -> Saved {
    Saved::Text(String::from_utf8(bytes).expect("the JSON encoder writes UTF-8"))
}

/// A new world from a save in `format`, or, without one, in the format
/// its first byte tells (see [`World::load`]).
pub(crate) fn load(bytes: &[u8], format: Option<SaveFormat>) -> Result<Loaded, Error> {
    let format = match format {
        Some(format) => format,
        None => sniff(bytes)?,
    };
    match format {
        SaveFormat::Json | SaveFormat::JsonPretty => load_with(JsonDecoder::new(bytes)),
        SaveFormat::Binary => load_with(BinaryDecoder::new(bytes)),
    }
}

/// The format of a save, by its first byte that is not white space.
fn sniff(bytes: &[u8]) -> Result<SaveFormat, Error> {
    let first = bytes.iter().find(|b| !b" \t\r\n".contains(b)).copied();
    match first {
        Some(b'{') => Ok(SaveFormat::Json),
        Some(0x90..=0x9f | 0xdc | 0xdd) => Ok(SaveFormat::Binary),
        _ => Err(bad(
            "(root)",
            "neither a JSON nor a binary saved world: expected `{` or a MessagePack array",
        )),
    }
}

/// Reads a save through `dec` into a fresh world, ids remapped as they
/// are read, then checks and builds it.
fn load_with<'a, D: decode::Decode<'a>>(dec: D) -> Result<Loaded, Error> {
    let mut world = World::new();
    let tag = world.entities().tag();
    let previous = refs::reset_load_max();
    let (file, _) = with_context(RefContext::Load { tag }, || read::read(&mut world, dec));
    refs::restore_load_max(previous);
    let file = file?;
    file.check_refs(&world)?;
    file.build(world)
}
