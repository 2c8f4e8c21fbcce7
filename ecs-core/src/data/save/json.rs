//! Reading a saved world's JSON.

use serde_json::Value;

use crate::data::codec::DeserializeFns;
use crate::data::format::JsonIn;
use crate::entity::{EntityIndex, TableId, TypeIdx};
use crate::world::prepared::LoadedEntity;
use crate::world::World;
use crate::{Error, DEFAULT_LAYERS};

use super::bad;
use super::read::*;

pub(super) fn read_json(world: &mut World, bytes: &[u8]) -> Result<File, Error> {
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

pub(super) fn read_json_entity(
    world: &mut World,
    r: &mut JsonIn<'_>,
    file: &mut File,
    known: &mut Vec<(Vec<u8>, Known)>,
) -> Result<(), Error> {
    let i = file.entities.len();
    let at = |key: &str, m: String| bad(format!("entities[{i}].{key}"), m);
    r.begin_object()
        .map_err(|m| bad(entity_path(i), format!("expected an entity object: {m}")))?;
    let mut entity = LoadedEntity::default();
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
pub(super) fn read_json_like(
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
pub(super) struct Listed {
    pub(super) kind: Known,
    pub(super) enabled: bool,
    /// Where its `data` starts, if it has one.
    pub(super) data: Option<usize>,
}

/// Reads an entity's `components` in two passes: the first finds each
/// one's type, flag and where its data starts (skipping the data), so the
/// entity's table is known; the entity is then spawned and the second pass
/// reads each value straight into its column.
pub(super) fn read_json_components(
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
pub(super) fn json_data_error(
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
pub(super) fn check_single_rule(world: &World, types: &[TypeIdx], i: usize) -> Result<(), Error> {
    if let Some((second, message)) = world.single_rule_message(types) {
        return Err(bad(component_path(i, second), message));
    }
    Ok(())
}
