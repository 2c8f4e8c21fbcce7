//! Reading a saved world, for every format at once: [`read`] walks the
//! parts of a file in the order the file gives them and asks a [`Decode`]
//! for each piece, gathering a [`File`]; an entity's components are read
//! by `components.rs`.

use std::any::TypeId;
use std::borrow::Cow;

use crate::component::ops::BoxedComponent;
use crate::data::codec::DeserializeFns;
use crate::entity::EntityIndex;
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::{Error, DEFAULT_LAYERS};

use super::bad;
use super::components::{Column, EntityReader, EntryCx, Head};
use super::file::{current_max, resource_entry, update_order_entry, File, RefAt};

/// One format's reading. [`read`] asks for the pieces of a saved world in
/// the order the file holds them ([`Decode::next_part`]); a decoder
/// decodes and nothing else. Most pieces fail with a message, placed by
/// the reader at the path it is reading; pieces whose paths are the
/// format's own fail with the whole error.
pub(super) trait Decode<'a> {
    /// Whether the header is checked as soon as it is read: a positional
    /// format cannot be read past a version it does not know. A keyed
    /// format is read to its end first, so that a damaged file reports
    /// the first damage.
    const HEADER_FIRST: bool;
    /// Whether a component's value comes with its type (JSON's one object
    /// per component), so it can be read into the previous entity's table
    /// as soon as its type is known to match it; where an entity's types
    /// all come first, its table is known before any value.
    const VALUE_WITH_TYPE: bool;

    /// A list being read.
    type Seq;

    /// Opens the saved world.
    fn begin(&mut self) -> Result<(), String>;
    /// The next part of the saved world, `None` after the last.
    fn next_part(&mut self) -> Result<Option<Part>, Error>;
    /// Checks that nothing follows the saved world.
    fn end(&mut self) -> Result<(), String>;
    /// The bytes not read yet.
    fn remaining(&self) -> usize;

    /// A string; `what` says what it is, for a message.
    fn string(&mut self, what: &str) -> Result<Cow<'a, str>, String>;
    /// An unsigned integer; `what` says what it is, for a message.
    fn uint(&mut self, what: &str) -> Result<u64, String>;
    /// Opens one of the saved world's lists.
    fn begin_list(&mut self, list: List) -> Result<Self::Seq, String>;
    /// Whether the list has another item (and moves to it).
    fn next_item(&mut self, seq: &mut Self::Seq) -> Result<bool, String>;
    /// How many items the list says it holds, where the format says so
    /// before them (asked before any is read).
    fn declared_len(seq: &Self::Seq) -> Option<usize>;
    /// How many items to make room for: at most as many as the bytes
    /// left could hold, so a file lying about its length gets no more.
    fn room(&self, seq: &Self::Seq) -> usize;

    /// The resource at `path`: its type's name, given to `resolve` as soon
    /// as it is read, and its value read with the functions `resolve`
    /// gives back.
    fn resource(
        &mut self,
        path: &str,
        resolve: impl FnMut(&str) -> Result<(TypeId, &'static DeserializeFns), Error>,
    ) -> Result<(TypeId, BoxedComponent), Error>;

    /// Opens entity `i`.
    fn begin_entity(&mut self, i: usize) -> Result<(), Error>;
    /// Entity `i`'s next field, `None` after its last; `names` is the
    /// names table (see [`Part::Names`]), for a format that names an
    /// entity by its index there.
    fn next_entity_field(
        &mut self,
        i: usize,
        names: &[u32],
    ) -> Result<Option<EntityField<'a>>, Error>;

    /// Whether entity `i`'s component types are the previous entity's, in
    /// the same order with the same flags; consumed if so. A decoder that
    /// cannot tell at a glance answers `false`.
    fn same_types_as_before(&mut self) -> bool;
    /// Opens entity `i`'s components (or its list of component types).
    fn begin_components(&mut self, i: usize) -> Result<Self::Seq, Error>;
    /// Whether entity `i` has another component (and moves to it).
    fn next_component(&mut self, i: usize, seq: &mut Self::Seq) -> Result<bool, Error>;
    /// Component `k` of entity `i`: its type and flag, and, when
    /// [`Decode::VALUE_WITH_TYPE`] and it is of `cx.guess`'s type, its
    /// value read into `cx.guess`'s column.
    fn component(&mut self, i: usize, k: usize, cx: &mut EntryCx<'_>) -> Result<Head, Error>;
    /// Starts the values of entity `i`'s `count` components, whose types
    /// have all been read and found a table.
    fn begin_values(&mut self, i: usize, count: usize) -> Result<(), Error>;
    /// Component `k`'s value, read into `column`.
    fn value(&mut self, world: &mut World, i: usize, k: usize, column: Column)
        -> Result<(), Error>;
    /// Ends the values of an entity.
    fn end_values(&mut self);
    /// Where component `k` of entity `i` has its value in the file.
    fn value_path(i: usize, k: usize) -> String;
}

/// A part of a saved world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    Format,
    Version,
    UpdateOrder,
    Resources,
    NameOrder,
    /// The component type names a format lists once (see
    /// [`super::write::Encode::INTERNS`]).
    Types,
    /// The entity names a format lists once.
    Names,
    Entities,
}

/// A list of a saved world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum List {
    UpdateOrder,
    Resources,
    NameOrder,
    Types,
    Names,
    Entities,
    Children,
}

/// A field of an entity.
pub(super) enum EntityField<'a> {
    /// Its saved id, which must be its position.
    Id(u64),
    Name(Option<NameRef<'a>>),
    Enabled(bool),
    Killed(bool),
    /// Its layer mask, checked to fit 32 bits by the reader.
    Layers(u64),
    /// Its name, flags and layers at once: a positional format's fixed
    /// fields, read in one go.
    Fixed {
        name: Option<NameRef<'a>>,
        enabled: bool,
        killed: bool,
        layers: u64,
    },
    /// Its children's saved ids come next: the reader reads them as a
    /// list ([`List::Children`]).
    Children,
    /// Its components come next.
    Components,
}

/// An entity's name as a file gives it.
pub(super) enum NameRef<'a> {
    Text(Cow<'a, str>),
    /// Interned already (a names table's entry).
    Interned(u32),
}

/// Reads a saved world through `dec` into `world` (fresh), entities
/// spawned and values in their columns as they are read; the hierarchy,
/// names and hooks are left to [`File::build`].
pub(super) fn read<'a, D: Decode<'a>>(world: &mut World, mut dec: D) -> Result<File, Error> {
    let mut file = File::new(D::value_path);
    let mut reader = EntityReader::default();
    let mut seen_entities = false;
    dec.begin().map_err(|m| bad("(root)", m))?;
    while let Some(part) = dec.next_part()? {
        match part {
            Part::Format => {
                file.format = Some(
                    dec.string("the format name")
                        .map_err(|m| bad("format", m))?
                        .into_owned(),
                )
            }
            Part::Version => {
                file.version = Some(
                    dec.uint("a version number")
                        .map_err(|m| bad("version", m))?,
                );
                if D::HEADER_FIRST {
                    file.check_header()?;
                }
            }
            Part::UpdateOrder => read_update_order(world, &mut dec, &mut file)?,
            Part::Resources => read_resources(&mut dec, &mut file)?,
            Part::NameOrder => read_name_order(&mut dec, &mut file)?,
            Part::Types => read_types(world, &mut dec, &mut reader)?,
            Part::Names => read_names(world, &mut dec, &mut reader)?,
            Part::Entities if seen_entities => return Err(bad("entities", "listed twice")),
            Part::Entities => {
                seen_entities = true;
                read_entities(world, &mut dec, &mut file, &mut reader)?;
            }
        }
    }
    dec.end().map_err(|m| bad("(root)", m))?;
    file.check_header()?;
    if !seen_entities {
        return Err(bad("entities", "expected an array of entities"));
    }
    Ok(file)
}

fn read_update_order<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    file: &mut File,
) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::UpdateOrder)
        .map_err(|m| bad("update_order", m))?;
    let mut i = 0;
    while dec
        .next_item(&mut seq)
        .map_err(|m| bad("update_order", m))?
    {
        let path = format!("update_order[{i}]");
        let name = dec
            .string("a behaviour type name")
            .map_err(|m| bad(&path, m))?;
        update_order_entry(world, &name, &path, &mut file.update_order)?;
        i += 1;
    }
    Ok(())
}

fn read_resources<'a, D: Decode<'a>>(dec: &mut D, file: &mut File) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::Resources)
        .map_err(|m| bad("resources", m))?;
    let mut i = 0;
    while dec.next_item(&mut seq).map_err(|m| bad("resources", m))? {
        let path = format!("resources[{i}]");
        let before = current_max();
        let resource = dec.resource(&path, |name| resource_entry(name, &path))?;
        file.note_refs(before, RefAt::Resource(i));
        file.resources.push(resource);
        i += 1;
    }
    Ok(())
}

fn read_name_order<'a, D: Decode<'a>>(dec: &mut D, file: &mut File) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::NameOrder)
        .map_err(|m| bad("name_order", m))?;
    let mut order = Vec::with_capacity(dec.room(&seq));
    while dec.next_item(&mut seq).map_err(|m| bad("name_order", m))? {
        let path = || format!("name_order[{}]", order.len());
        order.push(dec.uint("a saved id").map_err(|m| bad(path(), m))?);
    }
    file.name_order = Some(order);
    Ok(())
}

/// The types table: each name resolved once, for entities to name by
/// index.
fn read_types<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let mut seq = dec.begin_list(List::Types).map_err(|m| bad("types", m))?;
    reader.types.table.reserve(dec.room(&seq));
    while dec.next_item(&mut seq).map_err(|m| bad("types", m))? {
        let path = format!("types[{}]", reader.types.table.len());
        let name = dec
            .string("a component type name")
            .map_err(|m| bad(&path, m))?;
        reader.types.add_to_table(world, &name, &path)?;
    }
    Ok(())
}

/// The names table: each name interned once.
fn read_names<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let mut seq = dec.begin_list(List::Names).map_err(|m| bad("names", m))?;
    reader.names.reserve(dec.room(&seq));
    while dec.next_item(&mut seq).map_err(|m| bad("names", m))? {
        let path = || format!("names[{}]", reader.names.len());
        let name = dec.string("a name").map_err(|m| bad(path(), m))?;
        reader.names.push(world.names_mut().intern(&name));
    }
    Ok(())
}

fn read_entities<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    file: &mut File,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::Entities)
        .map_err(|m| bad("entities", m))?;
    let room = dec.room(&seq);
    world.reserve_entities(room);
    file.entities.reserve(room);
    file.children.reserve(room);
    reader.start_entities(D::declared_len(&seq), dec.remaining());
    while dec.next_item(&mut seq).map_err(|m| bad("entities", m))? {
        read_entity(world, dec, file, reader)?;
    }
    Ok(())
}

/// Reads the next entity: spawned as soon as its components are read (the
/// fields a file lists after them are set afterwards).
fn read_entity<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    file: &mut File,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let i = file.entities.len();
    let at = |key: &str, message: &str| bad(format!("entities[{i}].{key}"), message);
    dec.begin_entity(i)?;
    let mut entity = LoadedEntity::default();
    let mut children = Vec::new();
    let mut spawned = false;
    // Whether a flag or the layers came after the components.
    let mut late = false;
    while let Some(field) = dec.next_entity_field(i, &reader.names)? {
        match field {
            EntityField::Id(id) if id != i as u64 => {
                return Err(at(
                    "id",
                    &format!("expected {i}: ids are positions in the list"),
                ))
            }
            EntityField::Id(_) => {}
            EntityField::Name(name) => entity.name = reader.name(world, name),
            EntityField::Enabled(enabled) => (entity.enabled, late) = (enabled, spawned),
            EntityField::Killed(killed) => (entity.killed, late) = (killed, spawned),
            EntityField::Layers(layers) => {
                (entity.layers, late) = (layer_mask(layers, i)?, spawned)
            }
            EntityField::Fixed {
                name,
                enabled,
                killed,
                layers,
            } => {
                entity.name = reader.name(world, name);
                (entity.enabled, entity.killed) = (enabled, killed);
                (entity.layers, late) = (layer_mask(layers, i)?, spawned);
            }
            EntityField::Children => read_children(dec, i, &mut children)?,
            EntityField::Components if spawned => return Err(at("components", "listed twice")),
            EntityField::Components => {
                reader.read(world, dec, file, i, &mut entity)?;
                spawned = true;
            }
        }
    }
    if !spawned {
        reader.spawn_empty(world, i, &mut entity)?;
    } else if late {
        world.set_loaded_state(EntityIndex::from_index(i), &entity);
    }
    file.entities.push(entity);
    file.children.push(children);
    Ok(())
}

/// A layer mask as a loaded entity keeps it: `None` for the default.
fn layer_mask(layers: u64, i: usize) -> Result<Option<u32>, Error> {
    let layers = u32::try_from(layers).map_err(|_| {
        bad(
            format!("entities[{i}].layers"),
            "expected a 32-bit layer mask",
        )
    })?;
    Ok((layers != DEFAULT_LAYERS).then_some(layers))
}

fn read_children<'a, D: Decode<'a>>(
    dec: &mut D,
    i: usize,
    children: &mut Vec<u32>,
) -> Result<(), Error> {
    let at = || format!("entities[{i}].children");
    let mut seq = dec.begin_list(List::Children).map_err(|m| bad(at(), m))?;
    children.reserve(dec.room(&seq));
    while dec.next_item(&mut seq).map_err(|m| bad(at(), m))? {
        let k = children.len();
        let wrong = || {
            bad(
                format!("entities[{i}].children[{k}]"),
                "expected the id of another entity in this file",
            )
        };
        let child = dec.uint("a saved id").map_err(|_| wrong())?;
        children.push(u32::try_from(child).map_err(|_| wrong())?);
    }
    Ok(())
}
