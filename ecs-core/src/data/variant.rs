//! What blueprint data goes through before a spawn: defaults filled in,
//! every value checked against its type, variants (`extend`) flattened
//! onto their base with JSON merge patch (RFC 7396), and level files.

use serde_json::{Map, Value};

use crate::component::catalog::component_type;
use crate::data::blueprint::{data_path, Blueprint, BlueprintLibrary, ComponentSpec};
use crate::data::codec::Stored;
use crate::data::format::Fmt;
use crate::data::refs::{with_context, RefContext};
use crate::{EntityId, Error, World};

/// RFC 7396: `patch` applied to `target`. An object patch sets its keys
/// (a `null` removes one), recursively; any other patch replaces.
pub(crate) fn merge_patch(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(fields) => {
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            let Value::Object(into) = target else {
                unreachable!("made an object above")
            };
            for (key, value) in fields {
                if value.is_null() {
                    into.remove(key);
                } else {
                    merge_patch(into.entry(key.clone()).or_insert(Value::Null), value);
                }
            }
        }
        other => *target = other.clone(),
    }
}

/// The `Default` of the type called `name` as JSON, when it has both
/// `Default` and `Serialize`.
fn default_json(name: &str) -> Option<Value> {
    let ops = component_type(name).ok()?.ops();
    let (make, write) = (ops.default?, crate::data::codec::serialize_fns(ops)?);
    let value = make();
    let mut out = Vec::new();
    (write.json)(Stored::Any(&*value), &mut out, Fmt::new(false, 0)).ok()?;
    serde_json::from_slice(&out).ok()
}

/// One component's data made ready: read as given (a missing `data` as
/// `null`, then `{}`), else over its type's `Default` (fields left out take
/// the default's). Returns the data that reads, or where (from the top of
/// the blueprint: component `i` of the blueprint at `path`) and why it
/// does not.
fn ready(spec: &ComponentSpec, path: &str, i: usize) -> Result<Value, (String, String)> {
    let here = || join(path, &format!("components[{i}]"));
    let found =
        component_type(&spec.type_name).map_err(|e| (join(&here(), "type"), e.to_string()))?;
    let fns = crate::data::codec::deserialize_fns(found.ops()).ok_or_else(|| {
        (
            here(),
            format!(
                "`{}` cannot be read from data: it does not implement `serde::Deserialize`",
                found.name()
            ),
        )
    })?;
    let tries: Vec<Value> = if spec.data.is_null() {
        vec![Value::Null, Value::Object(Map::new())]
    } else {
        vec![spec.data.clone()]
    };
    let mut first_error = None;
    for data in tries {
        match (fns.boxed)(&data) {
            Ok(_) => return Ok(data),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let (inner, message) = first_error.expect("tried at least once");
    if let Some(mut filled) = default_json(&spec.type_name) {
        if !spec.data.is_null() {
            merge_patch(&mut filled, &spec.data);
        }
        if (fns.boxed)(&filled).is_ok() {
            return Ok(filled);
        }
    }
    Err((data_path(path, i, &spec.type_name, &inner), message))
}

impl Blueprint {
    /// Entities in the tree: the blueprint's own and its descendants'.
    pub(crate) fn tree_len(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(b) = stack.pop() {
            n += 1;
            stack.extend(&b.children);
        }
        n
    }

    /// Fills in defaults and checks every component's data against its
    /// type (local entity ids against the tree's size), noting whether any
    /// holds an entity reference. On error the first problem's path (from
    /// the blueprint's top) and message; the data read so far is kept.
    pub(crate) fn prepare_data(&mut self) -> Result<(), (String, String)> {
        let count = self.tree_len();
        let context = RefContext::Local {
            ids: Vec::new(),
            count,
            seen: false,
        };
        let (result, context) = with_context(context, || {
            // Every component is read, past a failure too, so that whether
            // the tree holds references is known in full; the first
            // failure in spawn order is the one reported.
            let mut first = None;
            let mut stack: Vec<(&mut Blueprint, String)> = vec![(self, String::new())];
            while let Some((b, path)) = stack.pop() {
                for (i, spec) in b.components.iter_mut().enumerate() {
                    match ready(spec, &path, i) {
                        Ok(data) => spec.data = data,
                        Err(error) => {
                            first.get_or_insert(error);
                        }
                    }
                }
                // Children in order: the stack takes the first one next.
                for (i, child) in b.children.iter_mut().enumerate().rev() {
                    stack.push((child, join(&path, &format!("children[{i}]"))));
                }
            }
            first.map_or(Ok(()), Err)
        });
        if let RefContext::Local { seen, .. } = context {
            self.has_refs = seen;
        }
        result
    }

    /// Checks every component's data against its type now, filling in
    /// defaults. [`Blueprint::from_json`] has done so already, and
    /// [`BlueprintLibrary::insert`] and [`BlueprintLibrary::load_dir`] do
    /// it for a variant once merged onto its base; a variant on its own
    /// cannot be checked (its data is a patch).
    ///
    /// # Errors
    /// [`Error::Data`] with the JSON path of the first value that does not
    /// read (the tag first, when the blueprint has one), or for a variant
    /// that no library resolved.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let slime = Blueprint::from_json(r#"{"tag": "slime", "components": [{"type": "Health", "data": {"hp": 3}}]}"#)?;
    /// assert!(slime.check().is_ok());
    /// let king = Blueprint::from_json(r#"{"tag": "king", "extend": "slime", "components": []}"#)?;
    /// let err = king.check().unwrap_err().to_string();
    /// assert!(err.starts_with("king: extend: a variant of `slime`"), "{err}");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if let Some(base) = &self.extend {
            return Err(located(
                None,
                self.tag.as_deref(),
                "extend",
                format!("a variant of `{base}`: check it in the library that holds both"),
            ));
        }
        let mut copy = self.clone();
        copy.prepare_data()
            .map_err(|(path, message)| located(None, self.tag.as_deref(), &path, message))
    }

    /// This variant flattened onto `base` (itself flat): components of a
    /// type the base has patch it field by field (RFC 7396; the `n`th of a
    /// type patches the base's `n`th), others are added, `remove`d types
    /// go, children are added after the base's, `name` replaces.
    fn flatten_onto(&self, base: &Blueprint) -> Result<Blueprint, (String, String)> {
        let mut out = base.clone();
        out.id = self.id;
        out.tag = self.tag.clone();
        out.name = self.name.clone().or(base.name.clone());
        out.extend = None;
        out.remove = Vec::new();
        for (i, name) in self.remove.iter().enumerate() {
            let before = out.components.len();
            out.components.retain(|c| c.type_name != *name);
            if out.components.len() == before {
                return Err((
                    format!("remove[{i}]"),
                    format!("the base has no `{name}` to remove"),
                ));
            }
        }
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for spec in &self.components {
            let nth = match seen.iter_mut().find(|(t, _)| *t == spec.type_name) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((&spec.type_name, 0));
                    0
                }
            };
            match out
                .components
                .iter_mut()
                .filter(|c| c.type_name == spec.type_name)
                .nth(nth)
            {
                Some(into) => {
                    if !spec.data.is_null() {
                        merge_patch(&mut into.data, &spec.data);
                    }
                    if spec.enabled.is_some() {
                        into.enabled = spec.enabled;
                    }
                }
                None => out.components.push(spec.clone()),
            }
        }
        out.children.extend(self.children.iter().cloned());
        Ok(out)
    }
}

fn join(path: &str, key: &str) -> String {
    match (path.is_empty(), key.is_empty()) {
        (true, _) => key.to_owned(),
        (_, true) => path.to_owned(),
        _ => format!("{path}.{key}"),
    }
}

/// An error naming the file (if any), the tag (if any) and the path.
pub(crate) fn located(file: Option<&str>, tag: Option<&str>, path: &str, message: String) -> Error {
    let mut at = String::new();
    if let Some(file) = file {
        at.push_str(file);
        at.push_str(": ");
    }
    if let Some(tag) = tag {
        at.push_str(tag);
        at.push_str(": ");
    }
    at.push_str(if path.is_empty() { "(root)" } else { path });
    Error::Data { path: at, message }
}

impl BlueprintLibrary {
    /// Flattens and checks every blueprint: `raw` by tag, with each one's
    /// file (if any), into the resolved list.
    pub(crate) fn resolve_all(
        raw: &std::collections::BTreeMap<String, (Blueprint, Option<String>)>,
    ) -> Result<std::collections::BTreeMap<String, Blueprint>, Error> {
        let mut done: std::collections::BTreeMap<String, Blueprint> = Default::default();
        for tag in raw.keys() {
            if done.contains_key(tag) {
                continue;
            }
            // Walk up the chain to a blueprint without `extend` (or one
            // already resolved), then flatten back down.
            let mut chain: Vec<&str> = vec![tag];
            loop {
                let last = *chain.last().expect("starts with one");
                if done.contains_key(last) {
                    break;
                }
                let (bp, file) = &raw[last];
                let Some(base) = bp.extend.as_deref() else {
                    break;
                };
                if let Some(at) = chain.iter().position(|&t| t == base) {
                    let mut cycle: Vec<&str> = chain[at..].to_vec();
                    cycle.push(base);
                    return Err(located(
                        file.as_deref(),
                        Some(last),
                        "extend",
                        format!("variants form a cycle: {}", cycle.join(" extends ")),
                    ));
                }
                if !raw.contains_key(base) {
                    return Err(located(
                        file.as_deref(),
                        Some(last),
                        "extend",
                        format!("no blueprint is tagged `{base}`"),
                    ));
                }
                chain.push(base);
            }
            while let Some(t) = chain.pop() {
                if done.contains_key(t) {
                    continue;
                }
                let (bp, file) = &raw[t];
                let mut flat = match bp.extend.as_deref() {
                    None => bp.clone(),
                    Some(base) => bp.flatten_onto(&done[base]).map_err(|(path, message)| {
                        located(file.as_deref(), Some(t), &path, message)
                    })?,
                };
                if flat.tag.is_none() {
                    flat.tag = Some(t.to_owned());
                }
                flat.prepare_data()
                    .map_err(|(path, message)| located(file.as_deref(), Some(t), &path, message))?;
                done.insert(t.to_owned(), flat);
            }
        }
        Ok(done)
    }
}

/// A level: instances of a library's blueprints, each placed with its own
/// overrides (the same merge as a variant's), spawned together.
///
/// ```json
/// { "instances": [
///     { "extend": "slime", "name": "slime-1",
///       "components": [ { "type": "Position", "data": { "x": 3 } } ] },
///     { "extend": "slime", "remove": ["Sleepy"] } ] }
/// ```
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// use ecs_core::{BlueprintLibrary, Level};
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
/// let mut library = BlueprintLibrary::default();
/// let slime = r#"{"components": [{"type": "Position", "data": {"x": 1, "y": 2}}]}"#;
/// library.insert("slime", Blueprint::from_json(slime)?)?;
/// let level = Level::from_json(r#"{"instances": [
///     {"extend": "slime", "name": "a"},
///     {"extend": "slime", "name": "b", "components": [{"type": "Position", "data": {"x": 5}}]}
/// ]}"#, &library)?;
/// let mut world = World::new();
/// let ids = world.spawn_level(&level)?;
/// assert_eq!(world.entity(ids[1])?.get::<Position>(), Some(&Position { x: 5.0, y: 2.0 }));
/// assert_eq!(world.entity(ids[0])?.name(), Some("a"));
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    instances: Vec<Blueprint>,
}

impl Level {
    /// Reads a level and resolves every instance against `library`.
    ///
    /// # Errors
    /// [`Error::Data`] with the path (`instances[3].components[0](Position).data.x`)
    /// of the first problem: bad JSON, an instance without `extend` or
    /// naming no blueprint of the library, data that does not read.
    pub fn from_json(json: &str, library: &BlueprintLibrary) -> Result<Level, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::Data {
            path: "(root)".into(),
            message: format!("not valid JSON: {e}"),
        })?;
        Self::from_value(&value, library)
    }

    /// [`Level::from_json`] from a parsed value.
    ///
    /// # Errors
    /// As [`Level::from_json`].
    pub fn from_value(value: &Value, library: &BlueprintLibrary) -> Result<Level, Error> {
        let bad = |path: String, message: String| Error::Data { path, message };
        let object = value
            .as_object()
            .ok_or_else(|| bad("(root)".into(), "expected a level object".into()))?;
        if let Some(key) = object.keys().find(|k| *k != "instances") {
            return Err(bad(
                key.clone(),
                "unknown field; a level has `instances`".into(),
            ));
        }
        let list = object
            .get("instances")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("instances".into(), "expected an array of instances".into()))?;
        let mut instances = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            let here = format!("instances[{i}]");
            let prefix = |e: Error| match e {
                Error::Data { path, message } if path == "(root)" => bad(here.clone(), message),
                Error::Data { path, message } => bad(format!("{here}.{path}"), message),
                other => other,
            };
            let variant = Blueprint::parse_top(item).map_err(prefix)?;
            let base_tag = variant.extend.clone().ok_or_else(|| {
                bad(
                    here.clone(),
                    "an instance names its blueprint with `extend`".into(),
                )
            })?;
            let base = library.get(&base_tag).ok_or_else(|| {
                bad(
                    format!("{here}.extend"),
                    format!("no blueprint is tagged `{base_tag}`"),
                )
            })?;
            let mut flat = variant
                .flatten_onto(base)
                .map_err(|(path, message)| bad(format!("{here}.{path}"), message))?;
            if flat.tag.is_none() {
                flat.tag = base.tag.clone();
            }
            flat.prepare_data()
                .map_err(|(path, message)| bad(format!("{here}.{path}"), message))?;
            instances.push(flat);
        }
        Ok(Level { instances })
    }

    /// How many instances the level places.
    pub fn len(&self) -> usize {
        self.instances.len()
    }

    /// Whether the level places nothing.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }
}

/// [`World::spawn_level`]: the instances in order; on a failure the roots
/// spawned so far are despawned, and the error's path names the instance.
pub(crate) fn spawn_level(world: &mut World, level: &Level) -> Result<Vec<EntityId>, Error> {
    let mut roots = Vec::with_capacity(level.instances.len());
    for (i, instance) in level.instances.iter().enumerate() {
        match world.spawn_blueprint(instance) {
            Ok(root) => roots.push(root),
            Err(error) => {
                for &root in roots.iter().rev() {
                    let _ = world.despawn(root);
                }
                return Err(match error {
                    Error::Data { path, message } => Error::Data {
                        path: format!("instances[{i}].{path}"),
                        message,
                    },
                    other => other,
                });
            }
        }
    }
    Ok(roots)
}
