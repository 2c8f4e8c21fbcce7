//! Writing a saved world, for every format at once: [`write()`] walks the
//! plan (header, update order, resources, naming order, entities and their
//! components) and hands each piece to an [`Encode`], which only encodes.

use crate::data::codec::{RowRef, SerializeFns, Stored};
use crate::data::refs::{self, RefContext};
use crate::entity::{CompRef, EntityIndex, TypeIdx};
use crate::world::World;
use crate::Error;

use super::plan::{resource_value, Missing, Plan};
use super::{bad, FORMAT, VERSION};

/// One format's writing: the pieces of a saved world, in the order
/// [`write()`] gives them. A value's writer returns the serializer's message
/// on failure; [`write()`] turns it into the error.
pub(super) trait Encode {
    /// Whether entity names and component types are written as indices
    /// into tables listed once before the entities ([`Encode::tables`]);
    /// gathering the tables takes a walk over every saved entity.
    const INTERNS: bool;
    /// Whether a component's value is written with its type (JSON's one
    /// object per component): the components are then handed over one by
    /// one; else all of an entity's are gathered first, for a format to
    /// list their types before their values.
    const VALUE_WITH_TYPE: bool;
    /// Whether values are written as JSON (whose floats are checked), for
    /// finding where a failed value failed.
    const JSON: bool;

    /// The header: the format's name and version.
    fn begin(&mut self, format: &str, version: u64);
    /// The behaviour type names in update order.
    fn update_order(&mut self, names: &[&str]);
    /// Starts the list of `count` resources.
    fn begin_resources(&mut self, count: usize);
    /// One resource: its type's name and value.
    fn resource(&mut self, name: &str, value: SavedValue<'_>) -> Result<(), String>;
    /// Ends the list of resources.
    fn end_resources(&mut self);
    /// Saved ids in naming order, when it is not file order.
    fn name_order(&mut self, order: Option<&[u32]>);
    /// The tables of component type names and entity names (only when
    /// [`Encode::INTERNS`]).
    fn tables(&mut self, types: &[&str], names: &[&str]);
    /// Starts the list of `count` entities.
    fn begin_entities(&mut self, count: usize);
    /// One entity's own fields, then the start of its components.
    fn entity(&mut self, entity: &SavedEntity<'_>);
    /// The entity's next component's value (and whatever else the format
    /// writes with it); `c.write` is `None` for a type without serde
    /// support, whose save fails once everything is written.
    fn component(&mut self, c: &SavedComponent<'_>) -> Result<(), String>;
    /// Where the value last given to [`Encode::component`] is in the file,
    /// for an error: `entity` is its entity's saved id.
    fn component_path(&self, entity: usize) -> String;
    /// Ends the entity.
    fn end_entity(&mut self);
    /// Ends the saved world and gives its bytes.
    fn finish(self) -> Vec<u8>;
}

/// A value to write, and the functions that write it.
#[derive(Clone, Copy)]
pub(super) struct SavedValue<'w> {
    pub(super) write: &'w SerializeFns,
    pub(super) value: Stored<'w>,
}

/// One entity as a save gives it to the encoder.
pub(super) struct SavedEntity<'w> {
    /// Its saved id: its position in the file.
    pub(super) saved: u32,
    /// Its name, and the name's index in the names table (0 unless the
    /// format interns).
    pub(super) name: Option<(&'w str, u32)>,
    pub(super) disabled: bool,
    pub(super) killed: bool,
    pub(super) layers: u32,
    /// Its children's saved ids.
    pub(super) children: &'w [u32],
    /// Its saved (not transient) components, in table order; empty
    /// where [`Encode::VALUE_WITH_TYPE`] (they come one by one).
    pub(super) components: &'w [SavedComponent<'w>],
}

/// One saved component.
#[derive(Clone, Copy)]
pub(super) struct SavedComponent<'w> {
    /// Its type's name (empty when the format interns).
    pub(super) name: &'static str,
    /// Its type, for an error.
    pub(super) ty: TypeIdx,
    /// Its type's index in the types table (0 unless the format interns).
    pub(super) code: u32,
    pub(super) enabled: bool,
    /// Its writers, `None` when its type lacks serde support.
    pub(super) write: Option<&'static SerializeFns>,
    pub(super) value: Stored<'w>,
}

/// The types and names a save lists once, each where it is first used
/// (entity by entity in saved order), for a format that interns them.
struct Tables<'w> {
    /// Component type names, every type the saved entities hold (transient
    /// ones too: the binary snapshot has always listed them).
    types: Vec<&'static str>,
    /// By type index: the type's place in `types`.
    type_at: Vec<u32>,
    names: Vec<&'w str>,
    /// By interned name: the name's place in `names`.
    name_at: Vec<u32>,
}

impl<'w> Tables<'w> {
    fn of(world: &'w World, plan: &Plan) -> Self {
        let mut types: Vec<TypeIdx> = Vec::new();
        let mut type_at: Vec<u32> = Vec::new();
        // Found once: each is a search of the world's extensions.
        let names_store = world.names();
        let mut names = Vec::with_capacity(names_store.interned());
        let mut name_at = vec![u32::MAX; names_store.interned()];
        // An entity's types are its table's: a table met before adds none.
        let mut table_seen: Vec<bool> = Vec::new();
        for id in &plan.order {
            let table = world.slot(id.index).table.index();
            if table_seen.len() <= table {
                table_seen.resize(table + 1, false);
            }
            if !std::mem::replace(&mut table_seen[table], true) {
                for c in world.comps(id.index) {
                    if type_at.len() <= c.ty.index() {
                        type_at.resize(c.ty.index() + 1, u32::MAX);
                    }
                    if type_at[c.ty.index()] == u32::MAX {
                        type_at[c.ty.index()] = types.len() as u32;
                        types.push(c.ty);
                    }
                }
            }
            let name = names_store.id_of(id.index);
            if let (Some(n), Some(text)) = (name, names_store.get(id.index))
                && name_at[n as usize] == u32::MAX
            {
                name_at[n as usize] = names.len() as u32;
                names.push(text);
            }
        }
        let types = types
            .iter()
            .map(|&ty| world.storage().info(ty).key().name())
            .collect();
        Tables {
            types,
            type_at,
            names,
            name_at,
        }
    }
}

/// Writes `world` as `plan` lays it out, through `enc`.
pub(super) fn write<E: Encode>(world: &World, plan: &Plan, mut enc: E) -> Result<Vec<u8>, Error> {
    enc.begin(FORMAT, VERSION);
    enc.update_order(&plan.update_order);
    enc.begin_resources(plan.resources.len());
    for (i, &(name, write, ty)) in plan.resources.iter().enumerate() {
        let value = resource_value(world, ty);
        let value = SavedValue {
            write: &write,
            value,
        };
        enc.resource(name, value)
            .map_err(|m| write_error::<E>(format!("resources[{i}].data"), name, value, m))?;
    }
    enc.end_resources();
    enc.name_order(plan.name_order.as_deref());
    let tables = E::INTERNS.then(|| Tables::of(world, plan));
    if let Some(tables) = &tables {
        enc.tables(&tables.types, &tables.names);
    }
    let missing = write_entities(world, plan, tables.as_ref(), &mut enc)?;
    missing.check()?;
    Ok(enc.finish())
}

/// Writes the entities in saved order; gives the types met that lack
/// serde support.
fn write_entities<E: Encode>(
    world: &World,
    plan: &Plan,
    tables: Option<&Tables<'_>>,
    enc: &mut E,
) -> Result<Missing, Error> {
    let mut types = TypeWrites {
        by_type: Vec::new(),
        tables,
        missing: Missing::default(),
    };
    let mut children = Vec::new();
    let mut components = Vec::new();
    // Found once: each is a search of the world's extensions.
    let (names, hierarchy) = (world.names(), world.hierarchy());
    enc.begin_entities(plan.order.len());
    for (i, id) in plan.order.iter().enumerate() {
        let index = id.index;
        children.clear();
        let saved_id = |child: &EntityIndex| plan.saved_id[child.index()];
        children.extend(hierarchy.children(index).iter().map(saved_id));
        components.clear();
        if !E::VALUE_WITH_TYPE {
            let saved = |c| saved_component(world, c, &mut types);
            components.extend(world.comps(index).filter_map(saved));
        }
        let name = names.get(index).map(|text| {
            let at = tables.and_then(|t| Some(t.name_at[names.id_of(index)? as usize]));
            (text, at.unwrap_or(0))
        });
        let slot = world.slot(index);
        enc.entity(&SavedEntity {
            saved: i as u32,
            name,
            disabled: slot.disabled,
            killed: slot.killed,
            layers: world.layers_of(index),
            children: &children,
            components: &components,
        });
        let mut write = |c: &SavedComponent<'_>| {
            enc.component(c)
                .map_err(|m| component_error(world, enc, i, c, m))
        };
        if E::VALUE_WITH_TYPE {
            for c in world.comps(index) {
                if let Some(c) = saved_component(world, c, &mut types) {
                    write(&c)?;
                }
            }
        } else {
            components.iter().try_for_each(write)?;
        }
        enc.end_entity();
    }
    Ok(types.missing)
}

/// How a save writes components of one type, found once per type.
#[derive(Clone, Copy)]
struct TypeWrite {
    /// Not transient.
    saved: bool,
    /// Its name (empty when the format interns).
    name: &'static str,
    /// Its index in the types table (0 unless the format interns).
    code: u32,
    write: Option<&'static SerializeFns>,
}

/// The [`TypeWrite`] of each type met so far, by type index.
struct TypeWrites<'t> {
    by_type: Vec<Option<TypeWrite>>,
    tables: Option<&'t Tables<'t>>,
    /// The saved types met that lack serde support.
    missing: Missing,
}

impl TypeWrites<'_> {
    #[inline(always)]
    fn of(&mut self, world: &World, ty: TypeIdx) -> TypeWrite {
        match self.by_type.get(ty.index()) {
            Some(Some(found)) => *found,
            _ => self.find(world, ty),
        }
    }

    #[cold]
    fn find(&mut self, world: &World, ty: TypeIdx) -> TypeWrite {
        let vtable = world.vtable(ty);
        let type_name = world.storage().info(ty).key().name();
        let ops = vtable.ops;
        let write = crate::data::codec::serialize_fns(ops).filter(|_| ops.deserialize.is_some());
        if write.is_none() && !vtable.transient {
            self.missing.add(type_name);
        }
        // A type is written by name or by code, never both.
        let (name, code) = match self.tables {
            Some(tables) => ("", tables.type_at[ty.index()]),
            None => (type_name, 0),
        };
        let found = TypeWrite {
            saved: !vtable.transient,
            name,
            code,
            write,
        };
        if self.by_type.len() <= ty.index() {
            self.by_type.resize(ty.index() + 1, None);
        }
        self.by_type[ty.index()] = Some(found);
        found
    }
}

/// Component `c` as a save gives it to the encoder, `None` if it is
/// transient.
// Inlined into both loops: the struct is built where it is used.
#[inline(always)]
fn saved_component<'w>(
    world: &'w World,
    c: CompRef,
    types: &mut TypeWrites<'_>,
) -> Option<SavedComponent<'w>> {
    let found = types.of(world, c.ty);
    if !found.saved {
        return None;
    }
    let segment = world.storage().segment(c.seg);
    Some(SavedComponent {
        name: found.name,
        ty: c.ty,
        code: found.code,
        // Every row of a segment has its meta word; nothing is lent out
        // while a save reads the world.
        enabled: segment.meta(c.row).is_none_or(|meta| meta.is_enabled()),
        write: found.write,
        value: Stored::Row(RowRef {
            segment,
            row: c.row,
        }),
    })
}

/// [`write_error`] for the component `c` of the entity saved as `entity`,
/// which `enc` was just given.
#[cold]
fn component_error<E: Encode>(
    world: &World,
    enc: &E,
    entity: usize,
    c: &SavedComponent<'_>,
    message: String,
) -> Error {
    let name = world.storage().info(c.ty).key().name();
    let write = c.write.expect("only a value with writers fails to write");
    let value = SavedValue {
        write,
        value: c.value,
    };
    write_error::<E>(enc.component_path(entity), name, value, message)
}

/// Turns the failed write of `value` (a `name`, at `path` in the file)
/// into the error to report, at the field that failed (found by writing
/// the value again, tracking the path) and naming the type: a reference
/// to an entity that is not saved if the value held one (the reference
/// context noted it), else the serializer's `message`.
#[cold]
fn write_error<E: Encode>(
    path: String,
    name: &'static str,
    value: SavedValue<'_>,
    message: String,
) -> Error {
    let inner = (value.write.locate)(value.value, E::JSON);
    let path = match inner.as_str() {
        "" => path,
        s if s.starts_with('[') => format!("{path}{s}"),
        s => format!("{path}.{s}"),
    };
    let found = refs::peek(|c| match c {
        RefContext::Save { found, .. } => found.take(),
        _ => None,
    })
    .flatten();
    match found {
        Some(entity) => Error::DanglingEntity {
            path,
            component: name,
            entity,
        },
        None => bad(path, format!("in a `{name}`, {message}")),
    }
}
