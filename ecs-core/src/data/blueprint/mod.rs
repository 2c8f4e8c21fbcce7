//! JSON blueprints: designers describe an entity by naming its
//! components and giving their data; spawning is all or nothing.
//!
//! ```json
//! { "id": 10, "tag": "Hazmat", "name": "hazmat-1",
//!   "components": [ { "type": "Transform", "data": { "x": 0 } } ],
//!   "children": [ { "components": [ { "type": "Model", "data": {} } ] } ] }
//! ```
//!
//! `id` and `tag` identify the blueprint (a [`BlueprintLibrary`] finds it
//! by tag); `name` names the spawned entity (default: the tag). Component
//! `data` is read with the type's `serde::Deserialize`; a missing `data` is
//! `null`, then `{}`, and a type with `Default` (and `Serialize`) may leave
//! out `data` or any field, which then takes the default's value. An
//! optional `"enabled": false` spawns a component disabled. An `EntityId`
//! in the data is a local id: `0` is the blueprint's entity, then its
//! children depth-first. At the top, `"extend": "tag"` makes a variant and
//! `"remove": [types]` takes components out of its base (see
//! [`BlueprintLibrary`] and `variant.rs`).

use serde_json::Value;

use crate::component::catalog::component_type;
use crate::Error;

mod library;
mod spawn;

pub use library::BlueprintLibrary;
pub(crate) use spawn::spawn_blueprints;

/// A parsed, validated blueprint: every component type name resolved.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// #[derive(Component, serde::Deserialize)]
/// struct Health { hp: u32 }
/// let bp = Blueprint::from_json(r#"{"tag": "slime", "components": [{"type": "Health", "data": {"hp": 3}}]}"#)?;
/// let mut world = World::new();
/// let id = world.spawn_blueprint(&bp)?;
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().hp, 3);
/// assert_eq!(world.entity(id)?.name(), Some("slime"));
///
/// let typo = Blueprint::from_json(r#"{"components": [{"type": "Helth"}]}"#).unwrap_err();
/// assert_eq!(typo.to_string(), "components[0].type: no component is called `Helth` (did you mean `Health`?); names are the type's identifier or its `#[component(name = \"...\")]`, and generic components cannot be found by name");
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Blueprint {
    /// The blueprint's numeric id, if given.
    pub id: Option<u64>,
    /// The blueprint's tag, if given.
    pub tag: Option<String>,
    /// The spawned entity's name, if given (else the tag).
    pub name: Option<String>,
    /// The tag of the blueprint this one is a variant of, until a
    /// [`BlueprintLibrary`] resolves it.
    pub(crate) extend: Option<String>,
    /// Types a variant takes out of its base.
    pub(crate) remove: Vec<String>,
    pub(crate) components: Vec<ComponentSpec>,
    pub(crate) children: Vec<Blueprint>,
    /// Whether some component data holds an `EntityId` (a local id).
    pub(crate) has_refs: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ComponentSpec {
    pub type_name: String,
    pub data: Value,
    /// `None` when not given (a variant then keeps its base's).
    pub enabled: Option<bool>,
}

/// Deepest `children` nesting a blueprint may have.
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut json = String::from(r#"{"components": []}"#);
/// for _ in 0..=ecs_core::MAX_BLUEPRINT_DEPTH {
///     json = format!(r#"{{"components": [], "children": [{json}]}}"#);
/// }
/// assert!(matches!(Blueprint::from_json(&json), Err(Error::Data { .. })));
/// ```
pub const MAX_BLUEPRINT_DEPTH: usize = 64;

fn data_error(path: &str, message: impl Into<String>) -> Error {
    Error::Data {
        path: if path.is_empty() {
            "(root)".to_owned()
        } else {
            path.to_owned()
        },
        message: message.into(),
    }
}

/// The path of a value inside component `i`'s data at `path`, naming
/// the component's type: `children[0].components[1](Wheel).data.size`;
/// `inner` is serde's path inside the data (`size`, `[2]`, or empty).
pub(crate) fn data_path(path: &str, i: usize, type_name: &str, inner: &str) -> String {
    let at = join(path, &format!("components[{i}]({type_name}).data"));
    match inner {
        "" => at,
        s if s.starts_with('[') => format!("{at}{s}"),
        s => format!("{at}.{s}"),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Blueprint {
    /// Parses and validates a blueprint: everything that does not need a
    /// world is checked here, so a blueprint that parses fails to spawn
    /// only for the single rule (two components that are-a one single
    /// type). Every component's data is read with its type's
    /// `serde::Deserialize` (defaults filled in, local entity ids checked
    /// against the tree), except in a variant (`extend`), whose data is a
    /// patch that its [`BlueprintLibrary`] reads once merged onto the base.
    ///
    /// # Errors
    /// [`Error::Data`] with the JSON path of the first problem: bad JSON,
    /// a wrong field type, an unknown field, a component type no one
    /// registered (with the nearest name), a type without
    /// `serde::Deserialize`, data its type does not read (the path names
    /// the type: `components[0](Health).data.hp`), or nesting deeper than
    /// [`MAX_BLUEPRINT_DEPTH`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let json = r#"{"id": 7, "tag": "slime",
    ///     "components": [{"type": "Health", "data": {"hp": 3}}]}"#;
    /// let bp = Blueprint::from_json(json)?;
    /// assert_eq!((bp.id, bp.tag.as_deref()), (Some(7), Some("slime")));
    /// let err = Blueprint::from_json(r#"{"components": [{"type": "Health", "colour": 1}]}"#);
    /// assert!(matches!(err, Err(Error::Data { path, .. }) if path.starts_with("components[0]")));
    /// let err = Blueprint::from_json(r#"{"components": [{"type": "Health", "data": {"hp": "lots"}}]}"#);
    /// assert!(matches!(err, Err(Error::Data { path, .. }) if path == "components[0](Health).data.hp"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json)
            .map_err(|e| data_error("", format!("not valid JSON: {e}")))?;
        Self::from_value(&value)
    }

    /// Like [`Blueprint::from_json`], from an already parsed value.
    ///
    /// # Errors
    /// As [`Blueprint::from_json`].
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let value = serde_json::json!({
    ///     "name": "slime-1",
    ///     "components": [{ "type": "Health", "data": { "hp": 3 } }]
    /// });
    /// let bp = Blueprint::from_value(&value)?;
    /// assert_eq!(bp.name.as_deref(), Some("slime-1"));
    /// assert!(Blueprint::from_value(&serde_json::json!([1, 2])).is_err());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<Self, Error> {
        let mut blueprint = Self::parse(value, "", 0)?;
        if blueprint.extend.is_none() {
            // Fills in defaults, notes references, and reads every value
            // with its type's `Deserialize`. A variant's data is a patch:
            // its library reads it once merged onto the base.
            blueprint
                .prepare_data()
                .map_err(|(path, message)| data_error(&path, message))?;
        }
        Ok(blueprint)
    }

    pub(crate) fn parse_top(value: &Value) -> Result<Self, Error> {
        Self::parse(value, "", 0)
    }

    pub(crate) fn parse(value: &Value, path: &str, depth: usize) -> Result<Self, Error> {
        if depth > MAX_BLUEPRINT_DEPTH {
            return Err(data_error(
                path,
                format!("children nested deeper than {MAX_BLUEPRINT_DEPTH}"),
            ));
        }
        let object = value.as_object().ok_or_else(|| {
            data_error(
                path,
                format!("expected a blueprint object, found {}", describe(value)),
            )
        })?;
        let mut blueprint = Blueprint {
            id: None,
            tag: None,
            name: None,
            extend: None,
            remove: Vec::new(),
            components: Vec::new(),
            children: Vec::new(),
            has_refs: false,
        };
        for (key, field) in object {
            let here = join(path, key);
            match key.as_str() {
                "id" => {
                    blueprint.id = Some(field.as_u64().ok_or_else(|| {
                        data_error(&here, format!("expected a non-negative integer, found {}", describe(field)))
                    })?)
                }
                "tag" => blueprint.tag = Some(string(field, &here)?),
                "name" => blueprint.name = Some(string(field, &here)?),
                "extend" if depth == 0 => blueprint.extend = Some(string(field, &here)?),
                "remove" if depth == 0 => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        let at = format!("{here}[{i}]");
                        let name = string(item, &at)?;
                        component_type(&name).map_err(|e| data_error(&at, e.to_string()))?;
                        blueprint.remove.push(name);
                    }
                }
                "components" => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        blueprint.components.push(ComponentSpec::parse(item, &format!("{here}[{i}]"))?);
                    }
                }
                "children" => {
                    for (i, item) in array(field, &here)?.iter().enumerate() {
                        blueprint.children.push(Self::parse(item, &format!("{here}[{i}]"), depth + 1)?);
                    }
                }
                other => {
                    return Err(data_error(
                        &here,
                        format!("unknown field `{other}`; a blueprint has `id`, `tag`, `name`, `components` and `children` (and at its top, `extend` and `remove`)"),
                    ))
                }
            }
        }
        Ok(blueprint)
    }
}

impl ComponentSpec {
    fn parse(value: &Value, path: &str) -> Result<Self, Error> {
        let object = value.as_object().ok_or_else(|| {
            data_error(
                path,
                format!("expected a component object, found {}", describe(value)),
            )
        })?;
        let mut type_name = None;
        let mut data = Value::Null;
        let mut enabled = None;
        for (key, field) in object {
            let here = join(path, key);
            match key.as_str() {
                "type" => type_name = Some(string(field, &here)?),
                "data" => data = field.clone(),
                "enabled" => {
                    enabled = Some(field
                        .as_bool()
                        .ok_or_else(|| data_error(&here, format!("expected true or false, found {}", describe(field))))?)
                }
                other => {
                    return Err(data_error(
                        &here,
                        format!("unknown field `{other}`; a component has `type`, `data` and optionally `enabled`"),
                    ))
                }
            }
        }
        let type_name = type_name.ok_or_else(|| {
            data_error(
                path,
                "missing `type`: name the component, e.g. \"type\": \"Transform\"",
            )
        })?;
        component_type(&type_name).map_err(|e| data_error(&join(path, "type"), e.to_string()))?;
        Ok(ComponentSpec {
            type_name,
            data,
            enabled,
        })
    }
}

fn string(value: &Value, path: &str) -> Result<String, Error> {
    value.as_str().map(str::to_owned).ok_or_else(|| {
        data_error(
            path,
            format!("expected a string, found {}", describe(value)),
        )
    })
}

fn array<'v>(value: &'v Value, path: &str) -> Result<&'v Vec<Value>, Error> {
    value.as_array().ok_or_else(|| {
        data_error(
            path,
            format!("expected an array, found {}", describe(value)),
        )
    })
}
