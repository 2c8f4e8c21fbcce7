//! Blueprints by tag: a folder of `.json` files loaded into one library,
//! variants resolved against their bases as they come in.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::Error;

use super::{data_error, Blueprint};

/// Blueprints by tag, loaded from `.json` files; variants (`extend`)
/// resolved and every blueprint's data checked as they come in.
///
/// A variant names its base by tag and lists what changes: its components
/// patch the base's of the same type field by field (JSON merge patch,
/// RFC 7396: a `null` field removes it), or are added; `remove` takes
/// types out; its children come after the base's; `name` replaces. Chains
/// may be of any depth; a cycle is an error naming the chain.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// # use ecs_core::BlueprintLibrary;
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default, Debug, PartialEq)]
/// struct Health { hp: u32, max: u32 }
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default)]
/// struct Sleepy;
/// #[derive(Component, serde::Serialize, serde::Deserialize, Default)]
/// struct Crown;
/// let mut library = BlueprintLibrary::default();
/// let slime = r#"{"components": [{"type": "Health", "data": {"hp": 3, "max": 3}}, {"type": "Sleepy"}]}"#;
/// library.insert("slime", Blueprint::from_json(slime)?)?;
/// let king = r#"{"extend": "slime", "remove": ["Sleepy"],
///     "components": [{"type": "Health", "data": {"max": 30}}, {"type": "Crown"}]}"#;
/// library.insert("king-slime", Blueprint::from_json(king)?)?;
/// let mut world = World::new();
/// let id = world.spawn_blueprint(library.get("king-slime").unwrap())?;
/// let e = world.entity(id)?;
/// assert_eq!(e.get::<Health>(), Some(&Health { hp: 3, max: 30 }));
/// assert!(e.has::<Crown>() && !e.has::<Sleepy>());
/// assert_eq!(e.name(), Some("king-slime"));
///
/// let loop_ = r#"{"extend": "b", "components": []}"#;
/// let err = library.insert("a", Blueprint::from_json(loop_)?).unwrap_err();
/// assert!(err.to_string().contains("no blueprint is tagged `b`"), "{err}");
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct BlueprintLibrary {
    /// As given, with the file each came from.
    raw: BTreeMap<String, (Blueprint, Option<String>)>,
    /// Flattened and checked.
    by_tag: BTreeMap<String, Blueprint>,
}

impl BlueprintLibrary {
    /// Loads every `*.json` file of `dir` (not recursive); a file's tag is
    /// its `tag`, or its file stem. Variants are resolved and every
    /// blueprint's data is checked against its component types here, not
    /// at spawn.
    ///
    /// # Errors
    /// [`Error::Io`] for an unreadable file or directory; [`Error::Data`]
    /// whose path names the file, then (for a data error) the tag, then
    /// the JSON path, e.g. `slime.json: slime: components[0](Health).data.hp`;
    /// two files with one tag; a variant of a missing base, or a cycle.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let dir = std::env::temp_dir().join(format!("ecs-core-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let slime = r#"{"components": [{"type": "Health", "data": {"hp": 3}}]}"#;
    /// std::fs::write(dir.join("slime.json"), slime).unwrap(); // tag from the file stem
    /// std::fs::write(dir.join("b.json"), r#"{"tag": "bat", "components": []}"#).unwrap();
    /// let library = BlueprintLibrary::load_dir(&dir)?;
    /// assert_eq!(library.tags().collect::<Vec<_>>(), ["bat", "slime"]);
    /// std::fs::write(dir.join("slime.json"), r#"{"components": [{"type": "Health", "data": {"hp": -1}}]}"#).unwrap();
    /// let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    /// assert!(err.starts_with("slime.json: slime: components[0](Health).data.hp: invalid value"), "{err}");
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// assert!(matches!(BlueprintLibrary::load_dir(&dir), Err(Error::Io { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        let io = |e: std::io::Error| Error::Io {
            path: dir.display().to_string(),
            message: e.to_string(),
        };
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        let mut library = BlueprintLibrary::default();
        for file in files {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::Io {
                path: file.display().to_string(),
                message: e.to_string(),
            })?;
            let shown = file
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let value: Value = serde_json::from_str(&text).map_err(|e| Error::Data {
                path: format!("{shown}: (root)"),
                message: format!("not valid JSON: {e}"),
            })?;
            let mut blueprint = Blueprint::parse(&value, "", 0).map_err(|e| match e {
                Error::Data { path, message } => Error::Data {
                    path: format!("{shown}: {path}"),
                    message,
                },
                other => other,
            })?;
            let stem = file
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let tag = blueprint.tag.get_or_insert(stem).clone();
            if library
                .raw
                .insert(tag.clone(), (blueprint, Some(shown.clone())))
                .is_some()
            {
                return Err(data_error(
                    &shown,
                    format!("a second blueprint tagged `{tag}`; tags must be unique"),
                ));
            }
        }
        library.by_tag = Self::resolve_all(&library.raw)?;
        Ok(library)
    }

    /// Adds a blueprint under `tag` (a variant's base must be in the
    /// library already), checks its data and resolves it, and resolves
    /// again the variants of what it replaced; returns the blueprint it
    /// replaced, as given then.
    ///
    /// # Errors
    /// [`Error::Data`] naming the tag and the JSON path of the first value
    /// that does not read, a missing base or a cycle; the library is
    /// unchanged then.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// #[derive(Component, serde::Deserialize)]
    /// struct Health { hp: u32 }
    /// let mut library = BlueprintLibrary::default();
    /// let first = Blueprint::from_json(r#"{"id": 1, "components": []}"#)?;
    /// let second = Blueprint::from_json(r#"{"id": 2, "components": []}"#)?;
    /// assert!(library.insert("crate", first)?.is_none());
    /// assert_eq!(library.insert("crate", second)?.unwrap().id, Some(1));
    /// assert_eq!(library.get("crate").unwrap().id, Some(2));
    /// let slime = Blueprint::from_json(r#"{"components": [{"type": "Health", "data": {"hp": 3}}]}"#)?;
    /// library.insert("slime", slime)?;
    /// let bad = Blueprint::from_json(r#"{"extend": "slime", "components": [{"type": "Health", "data": {"hp": "x"}}]}"#)?;
    /// let err = library.insert("bad-slime", bad).unwrap_err().to_string();
    /// assert!(err.starts_with("bad-slime: components[0](Health).data.hp: invalid type"), "{err}");
    /// assert!(library.get("bad-slime").is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn insert(
        &mut self,
        tag: impl Into<String>,
        blueprint: Blueprint,
    ) -> Result<Option<Blueprint>, Error> {
        let tag = tag.into();
        let mut raw = self.raw.clone();
        let old = raw.insert(tag, (blueprint, None)).map(|(b, _)| b);
        self.by_tag = Self::resolve_all(&raw)?;
        self.raw = raw;
        Ok(old)
    }

    /// The blueprint tagged `tag`, variants flattened onto their base.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// let mut library = BlueprintLibrary::default();
    /// library.insert("crate", Blueprint::from_json(r#"{"id": 1, "components": []}"#)?)?;
    /// assert_eq!(library.get("crate").unwrap().id, Some(1));
    /// assert!(library.get("barrel").is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get(&self, tag: &str) -> Option<&Blueprint> {
        self.by_tag.get(tag)
    }

    /// Every tag, sorted.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::BlueprintLibrary;
    /// let mut library = BlueprintLibrary::default();
    /// let empty = Blueprint::from_json(r#"{"components": []}"#)?;
    /// library.insert("crate", empty.clone())?;
    /// library.insert("barrel", empty)?;
    /// assert_eq!(library.tags().collect::<Vec<_>>(), ["barrel", "crate"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.by_tag.keys().map(String::as_str)
    }
}
