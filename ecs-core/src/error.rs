//! The one error type of the crate.

use std::sync::Arc;

use crate::EntityId;

/// Everything that can go wrong when using a [`World`](crate::World).
///
/// Every fallible operation leaves the world exactly as it was when it
/// returns an error.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Health(u32);
/// let mut world = World::new();
/// let id = world.spawn_with((Health(3),))?;
/// let err = world.entity_mut(id)?.add(Health(4)).err().unwrap();
/// assert!(matches!(err, Error::Duplicate { entity, .. } if entity == id));
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 3); // unchanged
/// assert_eq!(
///     err.to_string(),
///     format!("entity {id:?} already holds a `Health`; `Health` is single, so a second one cannot be \
///              added: remove the existing one first, or add `#[component(multiple)]` to `Health` \
///              to allow several")
/// );
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The id was despawned, or never belonged to this world.
    #[error("no entity {0:?} in this world: it was despawned or belongs to another world; ids are generational, so spawn a new entity or keep the id returned by `spawn`")]
    NoSuchEntity(EntityId),

    /// Adding the component would give the entity two components that are-a
    /// single (non-`multiple`) type.
    #[error("{}", duplicate_message(*.entity, .adding, .existing, .single))]
    Duplicate {
        /// The entity that was being changed.
        entity: EntityId,
        /// The type that was being added.
        adding: &'static str,
        /// The type of the component already on the entity.
        existing: &'static str,
        /// The single ancestor both are-a.
        single: &'static str,
    },

    /// The entity holds no component with this instance id (it was removed,
    /// or the id belongs to another entity).
    #[error("entity {entity:?} holds no component {instance:?}: it was removed or belongs to another entity; get a fresh id from `components()` or a handle")]
    NoSuchInstance {
        /// The entity that was searched.
        entity: EntityId,
        /// The id that was not found.
        instance: crate::entity::InstanceId,
    },

    /// The parent link would make a cycle (an entity its own ancestor).
    #[error("cannot make {parent:?} the parent of {child:?}: {parent:?} is {child:?} itself or one of its descendants; detach it first with `clear_parent`")]
    HierarchyCycle {
        /// The entity that was to get a parent.
        child: EntityId,
        /// The would-be parent.
        parent: EntityId,
    },

    /// The entity lacks a component that was asked for: a behaviour asked
    /// its context ([`Context::try_get`](crate::Context::try_get); `get`
    /// answers `None`), a required term of
    /// [`World::query_one`](crate::World::query_one) found none, or a
    /// queued [`Commands::remove`](crate::Commands::remove) had nothing to
    /// remove. `via` says which, and the message advises for it.
    #[error("{}", missing_message(*.entity, .wanted, *.via))]
    MissingComponent {
        /// The entity searched.
        entity: EntityId,
        /// The type asked for.
        wanted: &'static str,
        /// Where it was asked for.
        via: Via,
    },

    /// A behaviour asked its context for a component whose storage is
    /// lent out while it runs: stored with the running component, or with
    /// the sibling a `behaviour(with = S)` updates with
    /// ([`Context::try_get`](crate::Context::try_get), or a
    /// [`Context::query_mut`](crate::Context::query_mut) term, as `via`
    /// says).
    #[error("{}", in_use_message(.wanted, .running, *.sibling, *.via))]
    InUse {
        /// The type asked for.
        wanted: &'static str,
        /// The type whose update or hook is running.
        running: &'static str,
        /// Whether `wanted` is stored with the sibling handed to
        /// [`UpdateWith::update_with`](crate::UpdateWith::update_with)
        /// rather than with the running component.
        sibling: bool,
        /// Where it was asked for: [`Via::Context`] or
        /// [`Via::ContextQuery`].
        via: Via,
    },

    /// [`World::snapshot`](crate::World::snapshot) was asked for while a
    /// behaviour, hook or receiver of `running` runs: its components are
    /// lent out, so the copy would miss them.
    #[error("a snapshot cannot be taken while `{running}` runs (its components are lent out to it); take it between updates, or queue it with `ctx.commands().run(|world| ..)`")]
    SnapshotWhileRunning {
        /// The type whose update, hook or receiver is running.
        running: &'static str,
    },

    /// Code a behaviour, hook or message receiver ran in
    /// [`Context::attempt`](crate::Context::attempt) returned an error.
    /// Kept for [`World::take_command_errors`](crate::World::take_command_errors),
    /// since the trait methods return nothing; the error itself is
    /// [`std::error::Error::source`], so the message does not repeat it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// use std::error::Error as _;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Radio { signal: bool }
    /// impl Behaviour for Radio {
    ///     fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
    ///         ctx.attempt(|_| if self.signal { Ok(()) } else { Err("no signal") });
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Radio { signal: false },))?;
    /// world.update(1.0);
    /// let errors = world.take_command_errors();
    /// assert!(matches!(errors[..], [Error::Attempt { entity, running: "Radio", .. }] if entity == id));
    /// assert_eq!(errors[0].source().unwrap().to_string(), "no signal");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[error("the `{running}` of entity {entity:?} gave up in `ctx.attempt`; the error it returned is this error's `source()`")]
    Attempt {
        /// The entity whose component was running.
        entity: EntityId,
        /// The type of the running component (the stored type, also when
        /// it runs an ancestor's inherited behaviour).
        running: &'static str,
        /// The error the code returned.
        source: SourceError,
    },

    /// No registered component type has this name.
    #[error("no component is called `{name}`{}; names are the type's identifier or its `#[component(name = \"...\")]`, and generic components cannot be found by name", match suggestion { Some(s) => format!(" (did you mean `{s}`?)"), None => String::new() })]
    UnknownComponent {
        /// The name asked for.
        name: String,
        /// The closest registered name.
        suggestion: Option<&'static str>,
    },

    /// Two component types claim the same name.
    #[error("the component name `{name}` is claimed by {types:?}; give one of them `#[component(name = \"...\")]`")]
    AmbiguousName {
        /// The name.
        name: &'static str,
        /// The type paths that claim it.
        types: Vec<&'static str>,
    },

    /// The component type lacks what the operation needs (`Default` to add
    /// by name, `Clone` to clone, serde support to save or load).
    #[error("`{name}` cannot be used here: it does not implement {capability}; derive or implement it for `{name}`")]
    Lacks {
        /// The component type.
        name: &'static str,
        /// What it lacks, e.g. "`Clone`".
        capability: &'static str,
    },

    /// Serializing components failed; each type that cannot be saved is
    /// named (mark a type `#[component(transient)]` to leave it out).
    #[error("cannot save: {names:?} do not implement both `serde::Serialize` and `serde::Deserialize` (a saved world must load back); derive them, or mark the types `#[component(transient)]` to leave them out of saved worlds")]
    NotSerializable {
        /// The component types.
        names: Vec<&'static str>,
    },

    /// More errors than a world keeps between two calls of
    /// [`World::take_command_errors`](crate::World::take_command_errors)
    /// (1,024) were recorded; the first were kept, these were not.
    #[error("{count} more command errors were dropped: a world keeps 1,024 between two calls of `take_command_errors`, so take them once a frame")]
    ErrorsDropped {
        /// How many errors were dropped.
        count: u64,
    },

    /// A blueprint or saved world is malformed; `path` says where.
    #[error("{path}: {message}")]
    Data {
        /// JSON path to the offending value, e.g. `components[1](Model).data.mesh`.
        path: String,
        /// What is wrong and what to write instead.
        message: String,
    },

    /// A component being saved holds the id of an entity that is not
    /// saved (despawned, or of another world). Save with
    /// [`Dangling::Null`](crate::Dangling::Null) to write `null` instead.
    #[error("{path}: this `{component}` holds {entity:?}, which is not an entity of the saved world (it was despawned, or belongs to another world); clear the reference, or save with `SaveOptions {{ dangling: Dangling::Null, .. }}` to write null (an `Option<EntityId>` then loads as `None`)")]
    DanglingEntity {
        /// Where the id was found, down to the field, e.g.
        /// `entities[3].components[0].data.target`.
        path: String,
        /// The type of the component (or resource) that holds it.
        component: &'static str,
        /// The id.
        entity: EntityId,
    },

    /// A saved world refers to an entity the file does not hold: a saved
    /// id past its last entity, which a file gets by being edited by hand
    /// or cut short. `path` reaches the field that holds the id, as
    /// [`Error::DanglingEntity`]'s does on save. (In a blueprint, a local
    /// id past its tree is an [`Error::Data`] at the value that holds it.)
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, serde::Serialize, serde::Deserialize)]
    /// struct Turret { target: EntityId }
    /// let mut world = World::new();
    /// let tank = world.spawn();
    /// world.spawn_with((Turret { target: tank },))?;
    /// let json = world.save_json()?.replace(r#""target":0"#, r#""target":9"#);
    /// let err = World::load_json(&json).unwrap_err();
    /// assert!(matches!(&err, Error::UnknownEntity { component: "Turret", saved: 9, count: 2, .. }));
    /// assert!(err.to_string().starts_with(
    ///     "entities[1].components[0].data.target: this `Turret` refers to entity 9, \
    ///      but the file holds 2 entities (saved ids 0 to 1)"
    /// ));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[error(
        "{path}: this `{component}` refers to entity {saved}, but the file holds {}; saved ids \
         are positions in the file's list of entities, from 0, so the file was edited or cut \
         short: put back the entities it lost, or change the id to one the file holds",
        match *.count {
            0 => "no entities".to_owned(),
            1 => "1 entity (saved id 0)".to_owned(),
            n => format!("{n} entities (saved ids 0 to {})", n - 1),
        }
    )]
    UnknownEntity {
        /// Where the largest such id was read, down to the field, e.g.
        /// `entities[3].components[0].data.target` (JSON) or
        /// `entities[3].data[0].targets[2]` (binary, whose values are
        /// listed by position; fields are named as in JSON).
        path: String,
        /// The type of the component (or resource) that holds it.
        component: &'static str,
        /// The saved id it holds.
        saved: u64,
        /// How many entities the file holds.
        count: usize,
    },

    /// A [`WorldPatch`](crate::WorldPatch) was applied to a world it does
    /// not fit: `entity` is not there as the patch expects (`expected`
    /// says how). A patch replays changes onto a world equal to the
    /// snapshot it was diffed against; the world is left as it was.
    #[error("this patch does not fit this world: {expected} (entity {entity:?}); apply a patch to a world equal to the snapshot it was diffed against (restore that snapshot first), or diff again against this world's own snapshot")]
    PatchMismatch {
        /// The entity the patch names, as this world would number it.
        entity: EntityId,
        /// What the patch expected of it.
        expected: String,
    },

    /// Reading a file failed.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },

    /// Changes of a queue applied by hand
    /// ([`Commands::apply`](crate::Commands::apply)) failed: every
    /// failure, oldest first (never empty). The changes after a failed one
    /// were applied all the same.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut commands = Commands::new();
    /// commands.despawn(id);
    /// commands.despawn(id); // already gone
    /// let err = commands.apply(&mut world).unwrap_err();
    /// assert!(matches!(&err, Error::Commands { errors } if errors == &[Error::NoSuchEntity(id)]));
    /// assert_eq!(err.to_string(), format!("1 queued change failed: {}", Error::NoSuchEntity(id)));
    /// ```
    #[error("{}", commands_message(.errors))]
    Commands {
        /// The failures, oldest first.
        errors: Vec<Error>,
    },
}

/// The text of [`Error::Commands`]: how many failed, and the first.
fn commands_message(errors: &[Error]) -> String {
    match errors {
        [] => "no queued change failed".to_owned(),
        [only] => format!("1 queued change failed: {only}"),
        [first, ..] => format!(
            "{} queued changes failed (every one is in `errors`); the first: {first}",
            errors.len()
        ),
    }
}

/// Where a component was asked for, for the advice of
/// [`Error::MissingComponent`] and [`Error::InUse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Via {
    /// A behaviour's context: `ctx.try_get`, `ctx.try_get_mut`.
    Context,
    /// A term of a behaviour's `ctx.query_mut`.
    ContextQuery,
    /// The world: a required term of `world.query_one` or
    /// `world.query_one_mut`.
    World,
    /// A queued command: `Commands::remove`.
    Commands,
}

/// The text of [`Error::MissingComponent`]: the check it advises is one
/// the caller can write where it was.
fn missing_message(entity: EntityId, wanted: &str, via: Via) -> String {
    let missing = format!("entity {entity:?} has no component that is-a `{wanted}`");
    match via {
        Via::Context | Via::ContextQuery => {
            format!("{missing}; add one, or check with `ctx.has::<{wanted}>()` first")
        }
        Via::World => format!(
            "{missing}; add one, check with `world.entity(id)?.has::<{wanted}>()` first, or \
             make the term an `Option`"
        ),
        Via::Commands => format!(
            "{missing}, so the queued `remove::<{wanted}>` had nothing to remove; check with \
             `world.entity(id)?.has::<{wanted}>()` before queuing it, or ignore this error"
        ),
    }
}

/// The text of [`Error::InUse`]: what is lent out, and how to reach it
/// from where it was asked for.
fn in_use_message(wanted: &str, running: &str, sibling: bool, via: Via) -> String {
    let queue = "queue the access with `ctx.commands().run(..)`";
    match (sibling, via) {
        (false, Via::ContextQuery) => format!(
            "`ctx.query_mut` cannot touch `{wanted}`: it is stored with the running `{running}`, \
             whose components are lent out while it runs; read `self` for this entity's, and \
             {queue} for the others'"
        ),
        (true, Via::ContextQuery) => format!(
            "`ctx.query_mut` cannot touch `{wanted}`: it is stored with the sibling the running \
             `{running}` updates with (its `behaviour(with = ..)`), lent out while `{running}` \
             runs; use the sibling argument of `{running}::update_with` for this entity's, and \
             {queue} for the others'"
        ),
        (false, _) => format!(
            "`{wanted}` is stored with the running `{running}` and is lent out while it runs; \
             read `self` instead, or {queue}"
        ),
        (true, _) => format!(
            "`{wanted}` is stored with the sibling the running `{running}` updates with (its \
             `behaviour(with = ..)`) and is lent out while it runs; use the sibling argument of \
             `{running}::update_with` instead, or {queue}"
        ),
    }
}

impl Error {
    /// The variant's name, for `Debug`.
    fn variant(&self) -> &'static str {
        match self {
            Error::NoSuchEntity(_) => "NoSuchEntity",
            Error::Duplicate { .. } => "Duplicate",
            Error::NoSuchInstance { .. } => "NoSuchInstance",
            Error::HierarchyCycle { .. } => "HierarchyCycle",
            Error::MissingComponent { .. } => "MissingComponent",
            Error::InUse { .. } => "InUse",
            Error::SnapshotWhileRunning { .. } => "SnapshotWhileRunning",
            Error::Attempt { .. } => "Attempt",
            Error::UnknownComponent { .. } => "UnknownComponent",
            Error::AmbiguousName { .. } => "AmbiguousName",
            Error::Lacks { .. } => "Lacks",
            Error::NotSerializable { .. } => "NotSerializable",
            Error::ErrorsDropped { .. } => "ErrorsDropped",
            Error::Data { .. } => "Data",
            Error::DanglingEntity { .. } => "DanglingEntity",
            Error::UnknownEntity { .. } => "UnknownEntity",
            Error::Io { .. } => "Io",
            Error::PatchMismatch { .. } => "PatchMismatch",
            Error::Commands { .. } => "Commands",
        }
    }
}

/// The variant's name, then the same sentence as `Display`, on one line:
/// what a `main` that returns `Result<(), Box<dyn std::error::Error>>`
/// prints. [`Error::Attempt`] adds its source, which `Display` leaves to
/// [`std::error::Error::source`].
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// let id = world.spawn();
/// world.despawn(id)?;
/// let err = world.entity(id).err().unwrap();
/// assert_eq!(format!("{err:?}"), format!("NoSuchEntity: {err}"));
/// # Ok::<(), ecs_core::Error>(())
/// ```
impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {self}", self.variant())?;
        if let Error::Attempt { source, .. } = self {
            write!(f, " (source: {source})")?;
        }
        Ok(())
    }
}

/// The text of [`Error::Duplicate`], which names only the types that differ:
/// "already holds `Position`, which is-a `Position`" would say nothing.
fn duplicate_message(entity: EntityId, adding: &str, existing: &str, single: &str) -> String {
    let fix = format!("add `#[component(multiple)]` to `{single}` to allow several");
    if adding == single && existing == single {
        format!(
            "entity {entity:?} already holds a `{single}`; `{single}` is single, so a second one \
             cannot be added: remove the existing one first, or {fix}"
        )
    } else if existing == single {
        format!(
            "entity {entity:?} already holds a `{single}`, and `{adding}` is-a `{single}`; \
             `{single}` is single, so `{adding}` cannot be added too: remove the `{single}` first, \
             or {fix}"
        )
    } else if adding == single {
        format!(
            "entity {entity:?} already holds `{existing}`, which is-a `{single}`; `{single}` is \
             single, so a `{single}` cannot be added too: remove the `{existing}` first, or {fix}"
        )
    } else {
        format!(
            "entity {entity:?} already holds `{existing}`, which is-a `{single}`, and `{adding}` \
             is-a `{single}` too; `{single}` is single, so `{adding}` cannot be added: remove the \
             `{existing}` first, or {fix}"
        )
    }
}

/// The error a behaviour's own code returned inside
/// [`Context::attempt`](crate::Context::attempt): the source of
/// [`Error::Attempt`].
///
/// It dereferences to the error itself (`dyn std::error::Error + Send +
/// Sync`), so `downcast_ref` finds your own type. It is shared, not boxed,
/// so that [`Error`] stays `Clone`; for the same reason two are equal only
/// when they are the same error (one a clone of the other), since errors
/// in general cannot be compared.
///
/// ```
/// use ecs_core::SourceError;
/// #[derive(Debug, PartialEq)]
/// struct OutOfAmmo;
/// impl std::fmt::Display for OutOfAmmo {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("out of ammo")
///     }
/// }
/// impl std::error::Error for OutOfAmmo {}
///
/// let source = SourceError::new(OutOfAmmo);
/// assert_eq!(source.downcast_ref::<OutOfAmmo>(), Some(&OutOfAmmo));
/// assert_eq!(source.to_string(), "out of ammo");
/// assert_eq!(source.clone(), source);
/// assert_ne!(SourceError::new(OutOfAmmo), source); // another error, if alike
/// ```
#[derive(Clone)]
pub struct SourceError(Arc<dyn std::error::Error + Send + Sync + 'static>);

impl SourceError {
    /// Wraps an error, or anything `?` would turn into a boxed one (a
    /// `String`, a `&str`).
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        SourceError(Arc::from(error.into()))
    }
}

// Not `std::error::Error` on purpose: thiserror's `source()` would then
// hand out this wrapper, and `downcast_ref` to the user's type would fail.
// Through `Deref` it hands out the user's error itself.
impl std::ops::Deref for SourceError {
    type Target = dyn std::error::Error + Send + Sync + 'static;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl std::fmt::Debug for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&*self.0, f)
    }
}

impl PartialEq for SourceError {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SourceError {}
