//! Reading a saved world, for every format at once: [`read`] walks the
//! parts of a file in the order the file gives them and asks a [`Decode`]
//! for each piece, gathering a [`File`]; an entity's components are read
//! by `components.rs`.

use crate::entity::EntityIndex;
use crate::scene::spawn::ChildLists;
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::{Error, DEFAULT_LAYERS};

use super::bad;
use super::components::EntityReader;
use super::decode::{Decode, EntityField, List, Part};
use super::file::{current_max, resource_entry, update_order_entry, File, RefAt};

/// Reads a saved world through `dec` into `world` (fresh), entities
/// spawned and values in their columns as they are read; the hierarchy,
/// names and hooks are left to [`File::build`].
pub(super) fn read<'a, D: Decode<'a>>(world: &mut World, mut dec: D) -> Result<File<'a>, Error> {
    let mut file = File::new(D::value_path, D::JSON);
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
    file: &mut File<'a>,
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

fn read_resources<'a, D: Decode<'a>>(dec: &mut D, file: &mut File<'a>) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::Resources)
        .map_err(|m| bad("resources", m))?;
    let mut i = 0;
    while dec.next_item(&mut seq).map_err(|m| bad("resources", m))? {
        let path = format!("resources[{i}]");
        let before = current_max();
        let resource = dec.resource(&path, |name| resource_entry(name, &path))?;
        file.note_refs(before, RefAt::Resource(i), || dec.last_value());
        file.resources.push(resource);
        i += 1;
    }
    Ok(())
}

fn read_name_order<'a, D: Decode<'a>>(dec: &mut D, file: &mut File<'a>) -> Result<(), Error> {
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
    let room = dec.room(&seq);
    reader.names.reserve(room);
    // Looked up once: the store is one of the world's extensions.
    let names = world.names_mut();
    names.reserve_names(room);
    while dec.next_item(&mut seq).map_err(|m| bad("names", m))? {
        let path = || format!("names[{}]", reader.names.len());
        let name = dec.string("a name").map_err(|m| bad(path(), m))?;
        reader.names.push(names.intern(&name));
    }
    Ok(())
}

fn read_entities<'a, D: Decode<'a>>(
    world: &mut World,
    dec: &mut D,
    file: &mut File<'a>,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let mut seq = dec
        .begin_list(List::Entities)
        .map_err(|m| bad("entities", m))?;
    let room = dec.room(&seq);
    // The tick every loaded value carries, taken once: values are pushed
    // at the clock's tick, which nothing moves while they are read.
    world.storage_mut().write_tick();
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
    file: &mut File<'a>,
    reader: &mut EntityReader,
) -> Result<(), Error> {
    let i = file.entities.len();
    let at = |key: &str, message: &str| bad(format!("entities[{i}].{key}"), message);
    dec.begin_entity(i)?;
    let mut entity = LoadedEntity::default();
    file.children.open();
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
            EntityField::Children => read_children(dec, i, &mut file.children)?,
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
    children: &mut ChildLists,
) -> Result<(), Error> {
    let at = || format!("entities[{i}].children");
    let mut seq = dec.begin_list(List::Children).map_err(|m| bad(at(), m))?;
    children.reserve_children(dec.room(&seq));
    while dec.next_item(&mut seq).map_err(|m| bad(at(), m))? {
        let k = children.last_len();
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
