//! Saving a whole world and loading it back, straight through serde (no
//! intermediate value): components, names and their order, hierarchy,
//! enabled and killed flags, layers, the update order, resources, and the
//! entity references components hold.
//!
//! One model, every format: [`write`](write::write) walks what a save
//! holds ([`plan`]) once and hands each piece to a format's
//! [`Encode`](write::Encode); [`read`](read::read) walks a file's parts in
//! the order the file gives them, asking a format's
//! [`Decode`](read::Decode) for each piece, reads each entity's components
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
mod json;
mod plan;
mod read;
mod write;

use binary::{BinaryDecoder, BinaryEncoder};
use json::{JsonDecoder, JsonEncoder};
use plan::Plan;

pub(crate) use plan::save_order;

/// The format name a saved world starts with.
const FORMAT: &str = "ecs-core/world";
/// The version this build writes (it reads 1 too).
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

/// `world`, saved as `options` say (see [`World::save`]).
pub(crate) fn save(world: &World, options: SaveOptions) -> Result<Vec<u8>, Error> {
    let plan = Plan::of(world);
    let context = plan.ref_context(world, options.dangling);
    let n = plan.order.len();
    let (saved, _) = with_context(context, || match options.format {
        SaveFormat::Json => write::write(world, &plan, JsonEncoder::new(false, n)),
        SaveFormat::JsonPretty => write::write(world, &plan, JsonEncoder::new(true, n)),
        SaveFormat::Binary => write::write(world, &plan, BinaryEncoder::new(n)),
    });
    saved
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
    file.check_refs()?;
    file.build(world)
}
