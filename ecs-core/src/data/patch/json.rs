//! The JSON form of a [`WorldPatch`]: one object, ids as `[index,
//! generation]`, component types by name, a changed value as an RFC 7396
//! merge patch (`"patch"`) or whole (`"data"`), lists left out when empty.
//!
//! ```json
//! { "format": "ecs-core/patch", "version": 1, "slots": 3,
//!   "despawned": [[2, 0]], "dead": [[2, 1]],
//!   "entities": [
//!     { "id": [0, 0], "set": [ { "at": 0, "type": "Position", "patch": { "x": 5.0 } } ] },
//!     { "id": [1, 0], "spawned": true,
//!       "add": [ { "type": "Velocity", "data": { "dx": 1.0 } } ] } ],
//!   "names": [ { "id": [1, 0], "name": "bullet" } ],
//!   "children": [ { "parent": [0, 0], "children": [[1, 0]] } ] }
//! ```

use serde_json::{json, Map, Value as Json};

use crate::component::catalog::component_type;
use crate::Error;

use super::values::{json_entry, name};
use super::{Ent, EntityPatch, Type, Value, WorldPatch};

/// The format name a patch starts with.
pub(super) const FORMAT: &str = "ecs-core/patch";
/// The version this build writes and reads.
pub(super) const VERSION: u64 = 1;

fn ent(e: Ent) -> Json {
    json!([e.index, e.generation])
}

fn ents(list: &[Ent]) -> Json {
    Json::Array(list.iter().map(|&e| ent(e)).collect())
}

/// Inserts `key` when `list` is not empty.
fn put(out: &mut Map<String, Json>, key: &str, list: Vec<Json>) {
    if !list.is_empty() {
        out.insert(key.into(), Json::Array(list));
    }
}

/// [`WorldPatch::to_json`].
pub(super) fn write(patch: &WorldPatch) -> Result<String, Error> {
    let mut out = Map::new();
    out.insert("format".into(), json!(FORMAT));
    out.insert("version".into(), json!(VERSION));
    out.insert("slots".into(), json!(patch.slots));
    if let Some(free) = &patch.free {
        out.insert("free".into(), json!(free));
    }
    let dead = patch.dead.iter().map(|&(i, g)| json!([i, g])).collect();
    put(&mut out, "dead", dead);
    put(
        &mut out,
        "despawned",
        patch.despawned.iter().map(|&e| ent(e)).collect(),
    );
    let entities = patch
        .entities
        .iter()
        .map(write_entity)
        .collect::<Result<_, _>>()?;
    put(&mut out, "entities", entities);
    let names = patch
        .names
        .iter()
        .map(|(e, n)| json!({"id": ent(*e), "name": n}));
    put(&mut out, "names", names.collect());
    put(
        &mut out,
        "orphans",
        patch.orphans.iter().map(|&e| ent(e)).collect(),
    );
    let links = patch
        .children
        .iter()
        .map(|(p, c)| json!({"parent": ent(*p), "children": ents(c)}));
    put(&mut out, "children", links.collect());
    Ok(Json::Object(out).to_string())
}

fn write_entity(e: &EntityPatch) -> Result<Json, Error> {
    let mut out = Map::new();
    out.insert("id".into(), ent(e.id));
    if e.spawned {
        out.insert("spawned".into(), json!(true));
    }
    match e.flags {
        Some((false, false)) if e.spawned => {}
        Some((disabled, killed)) => {
            out.insert("disabled".into(), json!(disabled));
            out.insert("killed".into(), json!(killed));
        }
        None => {}
    }
    if let Some(layers) = e.layers {
        out.insert("layers".into(), json!(layers));
    }
    let remove = e
        .remove
        .iter()
        .map(|&(at, ty)| json!({"at": at, "type": name(ty)}));
    put(&mut out, "remove", remove.collect());
    let mut set = Vec::with_capacity(e.set.len());
    for (at, ty, value) in &e.set {
        let (key, value) = json_entry(ty, value)?;
        set.push(json!({"at": at, "type": name(ty), key: value}));
    }
    put(&mut out, "set", set);
    let enable = e
        .enable
        .iter()
        .map(|&(at, ty, on)| json!({"at": at, "type": name(ty), "enabled": on}));
    put(&mut out, "enable", enable.collect());
    let mut add = Vec::with_capacity(e.add.len());
    for (ty, enabled, value) in &e.add {
        let (key, value) = json_entry(ty, value)?;
        let mut item = Map::new();
        item.insert("type".into(), json!(name(ty)));
        if !enabled {
            item.insert("enabled".into(), json!(false));
        }
        item.insert(key.into(), value);
        add.push(Json::Object(item));
    }
    put(&mut out, "add", add);
    Ok(Json::Object(out))
}

/// An error at `path`.
fn bad(path: &str, message: impl Into<String>) -> Error {
    Error::Data {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// A reader of one JSON object, naming its path in errors.
struct Obj<'a> {
    map: &'a Map<String, Json>,
    path: String,
}

impl<'a> Obj<'a> {
    fn of(value: &'a Json, path: String) -> Result<Self, Error> {
        match value.as_object() {
            Some(map) => Ok(Obj { map, path }),
            None => Err(bad(&path, "expected an object")),
        }
    }

    fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&self, key: &str) -> Option<&'a Json> {
        self.map.get(key)
    }

    fn u32(&self, key: &str) -> Result<u32, Error> {
        let value = self.get(key).ok_or_else(|| bad(&self.at(key), "missing"))?;
        as_u32(value, &self.at(key))
    }

    fn bool(&self, key: &str) -> Result<Option<bool>, Error> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| bad(&self.at(key), "expected true or false"))
            })
            .transpose()
    }

    /// The items of the list at `key` (none when it is left out).
    fn list(&self, key: &str) -> Result<Vec<(String, &'a Json)>, Error> {
        let at = self.at(key);
        let items = match self.get(key) {
            None => &[][..],
            Some(Json::Array(items)) => items.as_slice(),
            Some(_) => return Err(bad(&at, "expected an array")),
        };
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{at}[{i}]"), v))
            .collect())
    }

    fn ty(&self) -> Result<Type, Error> {
        let name = self.get("type").and_then(Json::as_str);
        let name = name.ok_or_else(|| bad(&self.at("type"), "expected a component type's name"))?;
        Ok(component_type(name)?.vtable())
    }

    /// A value: `"patch"` (a merge patch) or `"data"` (whole).
    fn value(&self) -> Result<Value, Error> {
        match (self.get("patch"), self.get("data")) {
            (Some(patch), None) => Ok(Value::Merge(patch.clone())),
            (None, Some(data)) => Ok(Value::Data(data.clone())),
            _ => Err(bad(&self.path, "expected one of `patch` or `data`")),
        }
    }
}

fn as_u32(value: &Json, path: &str) -> Result<u32, Error> {
    value
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| bad(path, "expected a whole number below 2^32"))
}

fn as_ent(value: &Json, path: &str) -> Result<Ent, Error> {
    match value.as_array().map(Vec::as_slice) {
        Some([index, generation]) => Ok(Ent {
            index: as_u32(index, path)?,
            generation: as_u32(generation, path)?,
        }),
        _ => Err(bad(path, "expected an entity as [index, generation]")),
    }
}

fn as_ents(value: &Json, path: &str) -> Result<Vec<Ent>, Error> {
    let items = value
        .as_array()
        .ok_or_else(|| bad(path, "expected an array"))?;
    let at = |i| format!("{path}[{i}]");
    items
        .iter()
        .enumerate()
        .map(|(i, v)| as_ent(v, &at(i)))
        .collect()
}

/// [`WorldPatch::from_json`].
pub(super) fn read(text: &str) -> Result<WorldPatch, Error> {
    let root: Json =
        serde_json::from_str(text).map_err(|e| bad("(root)", format!("not valid JSON: {e}")))?;
    let top = Obj::of(&root, String::new())?;
    if top.get("format").and_then(Json::as_str) != Some(FORMAT) {
        return Err(bad(
            "format",
            format!("expected \"{FORMAT}\": this is not a world patch"),
        ));
    }
    if top.get("version").and_then(Json::as_u64) != Some(VERSION) {
        return Err(bad(
            "version",
            format!("expected {VERSION}, the version this build reads"),
        ));
    }
    let mut patch = WorldPatch {
        slots: top.u32("slots")?,
        ..WorldPatch::default()
    };
    if let Some(free) = top.get("free") {
        let items = free
            .as_array()
            .ok_or_else(|| bad("free", "expected an array"))?;
        let list = items
            .iter()
            .map(|v| as_u32(v, "free"))
            .collect::<Result<_, _>>()?;
        patch.free = Some(list);
    }
    for (path, v) in top.list("dead")? {
        let e = as_ent(v, &path)?;
        patch.dead.push((e.index, e.generation));
    }
    for (path, v) in top.list("despawned")? {
        patch.despawned.push(as_ent(v, &path)?);
    }
    for (path, v) in top.list("entities")? {
        patch.entities.push(read_entity(&Obj::of(v, path)?)?);
    }
    for (path, v) in top.list("names")? {
        let item = Obj::of(v, path)?;
        let name = match item.get("name") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) => Some(s.clone()),
            Some(_) => return Err(bad(&item.at("name"), "expected a string or null")),
        };
        let id = item
            .get("id")
            .ok_or_else(|| bad(&item.at("id"), "missing"))?;
        patch.names.push((as_ent(id, &item.at("id"))?, name));
    }
    for (path, v) in top.list("orphans")? {
        patch.orphans.push(as_ent(v, &path)?);
    }
    for (path, v) in top.list("children")? {
        let item = Obj::of(v, path)?;
        let parent = item
            .get("parent")
            .ok_or_else(|| bad(&item.at("parent"), "missing"))?;
        let children = item
            .get("children")
            .ok_or_else(|| bad(&item.at("children"), "missing"))?;
        let parent = as_ent(parent, &item.at("parent"))?;
        patch
            .children
            .push((parent, as_ents(children, &item.at("children"))?));
    }
    Ok(patch)
}

fn read_entity(item: &Obj<'_>) -> Result<EntityPatch, Error> {
    let id = item
        .get("id")
        .ok_or_else(|| bad(&item.at("id"), "missing"))?;
    let spawned = item.bool("spawned")?.unwrap_or(false);
    let mut e = EntityPatch::new(as_ent(id, &item.at("id"))?, spawned);
    let (disabled, killed) = (item.bool("disabled")?, item.bool("killed")?);
    if spawned || disabled.is_some() || killed.is_some() {
        e.flags = Some((disabled.unwrap_or(false), killed.unwrap_or(false)));
    }
    if item.get("layers").is_some() {
        e.layers = Some(item.u32("layers")?);
    }
    for (path, v) in item.list("remove")? {
        let r = Obj::of(v, path)?;
        e.remove.push((r.u32("at")?, r.ty()?));
    }
    for (path, v) in item.list("set")? {
        let s = Obj::of(v, path)?;
        e.set.push((s.u32("at")?, s.ty()?, s.value()?));
    }
    for (path, v) in item.list("enable")? {
        let s = Obj::of(v, path)?;
        let on = s
            .bool("enabled")?
            .ok_or_else(|| bad(&s.at("enabled"), "missing"))?;
        e.enable.push((s.u32("at")?, s.ty()?, on));
    }
    for (path, v) in item.list("add")? {
        let a = Obj::of(v, path)?;
        let value = match a.value()? {
            Value::Merge(_) => {
                return Err(bad(&a.path, "an added component is given whole, as `data`"))
            }
            value => value,
        };
        e.add
            .push((a.ty()?, a.bool("enabled")?.unwrap_or(true), value));
    }
    Ok(e)
}
