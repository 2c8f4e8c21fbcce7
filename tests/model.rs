//! Model-based property tests: random sequences of operations applied both to
//! a [`World`] and to [`Model`], a small reference implementation made of
//! plain `Vec`s that is obviously correct. After every step, [`check_agrees`]
//! compares every answer the world can give with the model's, and the hooks
//! the step ran (`on_attach`, `on_enable`, `on_disable`, `on_detach`,
//! `on_kill`, `on_revive`, logged by [`Pulse`], [`Brain`] and [`Reflex`])
//! with the exact list the model predicts. Besides adding, removing,
//! enabling and killing, the operations spawn from bundles, batches and
//! blueprints (with children, several copies), clone entities and trees,
//! and save the world (JSON or binary) and go on with the loaded one, its
//! ids mapped through the load's id map; the model adds the required
//! components (`requires`) itself.
//!
//! Cases: 512 by default (about 15 s in debug, so CI stays short); raise with
//! `MODEL_CASES=10000 cargo test --release --test model` (proptest's own
//! `PROPTEST_CASES` works too); `MODEL_OPS=200` lengthens the sequences
//! (60 operations at most by default). Failures are shrunk to a minimal sequence of
//! operations and printed; nothing is written to disk.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Debug;

use ecs_core::prelude::*;
use ecs_core::InstanceId;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Component types: a three-level single chain, a multiple chain, a single
// type below a multiple one, an unrelated single type, and three types with
// hooks and requirements (one of them derived from another).
// ---------------------------------------------------------------------------

/// Every component carries `v` (mutable, in the root of its chain) and a
/// `seed` (fixed at creation, spread over the derived levels), so a value
/// seen through any level of the chain can be predicted from `(seed, v)`.
/// A required component is added as its `Default`, which is `make(0, 0)`.
trait Modeled: Component + PartialEq + Debug + Serialize {
    const TAG: Tag;
    fn make(seed: u32, v: u32) -> Self;
    /// The `v` of the chain's root, reached through the parent fields.
    fn root_v(&mut self) -> &mut u32;
    fn seed(&self) -> u32;
}

// `Default` where the type is required (directly or as `Sliding`'s parent).
#[derive(Component, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Moving {
    v: u32,
    seed: u32,
}

#[derive(Component, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    axis: u32,
}

#[derive(Component, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[component(parent = AxisMoving)]
struct Sliding(AxisMoving, u64);

#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[component(multiple)]
struct Collider {
    v: u32,
    seed: u32,
}

#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[component(multiple, parent = Collider)]
struct Trigger {
    #[component(parent)]
    shape: Collider,
    layer: u8,
}

/// Single, below a multiple parent: many colliders, at most one sensor.
/// Not `Clone`: cloning an entity that holds one fails by name.
#[derive(Component, Debug, PartialEq, Serialize, Deserialize)]
#[component(parent = Collider)]
struct Sensor(Collider, i16);

#[derive(Component, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Health {
    v: u32,
    seed: u32,
}

/// Hooks, multiple, and a requirement without hooks.
#[derive(Component, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[component(multiple, behaviour, requires(Health))]
struct Pulse {
    v: u32,
    seed: u32,
}

/// Requires a type that has a requirement of its own.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[component(behaviour, requires(Pulse))]
struct Brain {
    v: u32,
    seed: u32,
}

/// Inherits `Brain`'s requirement and adds one, `Sliding`, which clashes
/// with a `Moving` or `AxisMoving` already held: then the add fails whole.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[component(parent = Brain, behaviour, requires(Sliding))]
struct Reflex {
    base: Brain,
    gain: u8,
}

impl Modeled for Moving {
    const TAG: Tag = Tag::Moving;
    fn make(seed: u32, v: u32) -> Self {
        Moving { v, seed }
    }
    fn root_v(&mut self) -> &mut u32 {
        &mut self.v
    }
    fn seed(&self) -> u32 {
        self.seed
    }
}
impl Modeled for AxisMoving {
    const TAG: Tag = Tag::AxisMoving;
    fn make(seed: u32, v: u32) -> Self {
        AxisMoving {
            base: Moving::make(seed, v),
            axis: seed % 3,
        }
    }
    fn root_v(&mut self) -> &mut u32 {
        self.base.root_v()
    }
    fn seed(&self) -> u32 {
        self.base.seed()
    }
}
impl Modeled for Sliding {
    const TAG: Tag = Tag::Sliding;
    fn make(seed: u32, v: u32) -> Self {
        Sliding(AxisMoving::make(seed, v), u64::from(seed) * 7)
    }
    fn root_v(&mut self) -> &mut u32 {
        self.0.root_v()
    }
    fn seed(&self) -> u32 {
        self.0.seed()
    }
}
impl Modeled for Collider {
    const TAG: Tag = Tag::Collider;
    fn make(seed: u32, v: u32) -> Self {
        Collider { v, seed }
    }
    fn root_v(&mut self) -> &mut u32 {
        &mut self.v
    }
    fn seed(&self) -> u32 {
        self.seed
    }
}
impl Modeled for Trigger {
    const TAG: Tag = Tag::Trigger;
    fn make(seed: u32, v: u32) -> Self {
        Trigger {
            shape: Collider::make(seed, v),
            layer: seed as u8,
        }
    }
    fn root_v(&mut self) -> &mut u32 {
        self.shape.root_v()
    }
    fn seed(&self) -> u32 {
        self.shape.seed()
    }
}
impl Modeled for Sensor {
    const TAG: Tag = Tag::Sensor;
    fn make(seed: u32, v: u32) -> Self {
        Sensor(Collider::make(seed, v), -(seed as i16))
    }
    fn root_v(&mut self) -> &mut u32 {
        self.0.root_v()
    }
    fn seed(&self) -> u32 {
        self.0.seed()
    }
}
impl Modeled for Health {
    const TAG: Tag = Tag::Health;
    fn make(seed: u32, v: u32) -> Self {
        Health { v, seed }
    }
    fn root_v(&mut self) -> &mut u32 {
        &mut self.v
    }
    fn seed(&self) -> u32 {
        self.seed
    }
}
impl Modeled for Pulse {
    const TAG: Tag = Tag::Pulse;
    fn make(seed: u32, v: u32) -> Self {
        Pulse { v, seed }
    }
    fn root_v(&mut self) -> &mut u32 {
        &mut self.v
    }
    fn seed(&self) -> u32 {
        self.seed
    }
}
impl Modeled for Brain {
    const TAG: Tag = Tag::Brain;
    fn make(seed: u32, v: u32) -> Self {
        Brain { v, seed }
    }
    fn root_v(&mut self) -> &mut u32 {
        &mut self.v
    }
    fn seed(&self) -> u32 {
        self.seed
    }
}
impl Modeled for Reflex {
    const TAG: Tag = Tag::Reflex;
    fn make(seed: u32, v: u32) -> Self {
        Reflex {
            base: Brain::make(seed, v),
            gain: seed as u8,
        }
    }
    fn root_v(&mut self) -> &mut u32 {
        self.base.root_v()
    }
    fn seed(&self) -> u32 {
        self.base.seed()
    }
}

// ---------------------------------------------------------------------------
// The hook log.
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hook {
    Attach,
    Enable,
    Disable,
    Detach,
    Kill,
    Revive,
}

/// One hook call: which entity, which component (by type and seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Logged {
    entity: EntityId,
    tag: Tag,
    seed: u32,
    hook: Hook,
}

thread_local! {
    /// Hooks run on the thread that changes the world, so each test thread
    /// (and each case, which starts by clearing it) has its own log.
    static LOG: RefCell<Vec<Logged>> = const { RefCell::new(Vec::new()) };
}

fn take_log() -> Vec<Logged> {
    LOG.with(|log| std::mem::take(&mut *log.borrow_mut()))
}

fn record<T: Modeled>(component: &T, ctx: &Context<'_>, hook: Hook) {
    let entry = Logged {
        entity: ctx.id(),
        tag: T::TAG,
        seed: component.seed(),
        hook,
    };
    LOG.with(|log| log.borrow_mut().push(entry));
}

macro_rules! logs_hooks {
    ($($t:ident),+) => {$(
        impl Behaviour for $t {
            fn update(&mut self, _: &mut Context<'_>, _: f32) {}
            fn on_attach(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Attach);
            }
            fn on_enable(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Enable);
            }
            fn on_disable(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Disable);
            }
            fn on_detach(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Detach);
            }
            fn on_kill(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Kill);
            }
            fn on_revive(&mut self, ctx: &mut Context<'_>) {
                record(self, ctx, Hook::Revive);
            }
        }
    )+};
}

logs_hooks!(Pulse, Brain, Reflex);

/// The model's name for each component type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Tag {
    Moving,
    AxisMoving,
    Sliding,
    Collider,
    Trigger,
    Sensor,
    Health,
    Pulse,
    Brain,
    Reflex,
}

const TAGS: [Tag; 10] = [
    Tag::Moving,
    Tag::AxisMoving,
    Tag::Sliding,
    Tag::Collider,
    Tag::Trigger,
    Tag::Sensor,
    Tag::Health,
    Tag::Pulse,
    Tag::Brain,
    Tag::Reflex,
];

/// The model's own type table, written out by hand (not read from the derive).
impl Tag {
    fn parent(self) -> Option<Tag> {
        match self {
            Tag::AxisMoving => Some(Tag::Moving),
            Tag::Sliding => Some(Tag::AxisMoving),
            Tag::Trigger | Tag::Sensor => Some(Tag::Collider),
            Tag::Reflex => Some(Tag::Brain),
            _ => None,
        }
    }
    fn multiple(self) -> bool {
        matches!(self, Tag::Collider | Tag::Trigger | Tag::Pulse)
    }
    fn hooked(self) -> bool {
        matches!(self, Tag::Pulse | Tag::Brain | Tag::Reflex)
    }
    fn clonable(self) -> bool {
        self != Tag::Sensor
    }
    /// Its own requirements, then its parent's.
    fn requires(self) -> &'static [Tag] {
        match self {
            Tag::Pulse => &[Tag::Health],
            Tag::Brain => &[Tag::Pulse],
            Tag::Reflex => &[Tag::Sliding, Tag::Pulse],
            _ => &[],
        }
    }
    fn name(self) -> &'static str {
        match self {
            Tag::Moving => "Moving",
            Tag::AxisMoving => "AxisMoving",
            Tag::Sliding => "Sliding",
            Tag::Collider => "Collider",
            Tag::Trigger => "Trigger",
            Tag::Sensor => "Sensor",
            Tag::Health => "Health",
            Tag::Pulse => "Pulse",
            Tag::Brain => "Brain",
            Tag::Reflex => "Reflex",
        }
    }
    /// Itself, then its ancestors nearest first.
    fn chain(self) -> Vec<Tag> {
        std::iter::successors(Some(self), |t| t.parent()).collect()
    }
    fn is_a(self, k: Tag) -> bool {
        self.chain().contains(&k)
    }
}

/// Runs `$body` with `$T` the Rust type named by the tag.
macro_rules! with_type {
    ($tag:expr, $T:ident => $body:expr) => {
        match $tag {
            Tag::Moving => {
                type $T = Moving;
                $body
            }
            Tag::AxisMoving => {
                type $T = AxisMoving;
                $body
            }
            Tag::Sliding => {
                type $T = Sliding;
                $body
            }
            Tag::Collider => {
                type $T = Collider;
                $body
            }
            Tag::Trigger => {
                type $T = Trigger;
                $body
            }
            Tag::Sensor => {
                type $T = Sensor;
                $body
            }
            Tag::Health => {
                type $T = Health;
                $body
            }
            Tag::Pulse => {
                type $T = Pulse;
                $body
            }
            Tag::Brain => {
                type $T = Brain;
                $body
            }
            Tag::Reflex => {
                type $T = Reflex;
                $body
            }
        }
    };
}

// ---------------------------------------------------------------------------
// Operations.
// ---------------------------------------------------------------------------

/// Picks an entity: usually a live one (`raw % live`), sometimes (when
/// `raw % 8 == 0` and one exists) a despawned id, to check the errors.
#[derive(Clone, Copy, Debug)]
struct Sel(u16);

const NAMES: [&str; 3] = ["a", "b", "c"];

/// One entity of a blueprint: a name, `(type, enabled)` per component, and
/// children.
#[derive(Clone, Debug)]
struct BpNode {
    name: Option<u8>,
    comps: Vec<(Tag, bool)>,
    children: Vec<BpNode>,
}

#[derive(Clone, Debug)]
enum Op {
    Spawn(Option<u8>),
    SpawnWith(Tag, Tag),
    SpawnBatch(u8, Tag, Tag),
    /// `spawn_blueprint` for one copy, `spawn_blueprints` for more.
    SpawnBlueprint(BpNode, u8),
    Despawn(Sel),
    Add(Sel, Tag),
    Remove(Sel, Tag),
    RemoveAll(Sel, Tag),
    DetachAll(Sel),
    /// `get_mut::<T>()` (first only) or `get_all_mut::<T>()`, adding to the root `v`.
    Mutate(Sel, Tag, bool),
    Disable(Sel, Tag),
    Enable(Sel, Tag),
    /// One instance out of every instance ever created, on the chosen entity.
    SetInstanceEnabled(Sel, u16, bool),
    SetEnabled(Sel, bool),
    Kill(Sel),
    Revive(Sel),
    /// `clone_entity`, or with `true` `clone_tree`.
    CloneEntity(Sel, bool),
    SetParent(Sel, Sel),
    ClearParent(Sel),
    Rename(Sel, Option<u8>),
    /// `handles::<T>().nth(n)`, kept and resolved after every later step.
    TakeHandle(Sel, Tag, u8),
    /// Saves the world (JSON, or with `true` the binary snapshot) and goes
    /// on with the world loaded from it, its ids mapped through the load's
    /// id map.
    SaveLoad(bool),
}

fn tag() -> impl Strategy<Value = Tag> {
    proptest::sample::select(TAGS.to_vec())
}

fn sel() -> impl Strategy<Value = Sel> {
    any::<u16>().prop_map(Sel)
}

fn name() -> impl Strategy<Value = Option<u8>> {
    proptest::option::of(0..NAMES.len() as u8)
}

/// A root with up to two children, each with at most one child of its own.
fn blueprint() -> impl Strategy<Value = BpNode> {
    let comps = || proptest::collection::vec((tag(), proptest::bool::weighted(0.8)), 0..3);
    let leaf = (name(), comps()).prop_map(|(name, comps)| BpNode {
        name,
        comps,
        children: Vec::new(),
    });
    let node = (name(), comps(), proptest::collection::vec(leaf, 0..2)).prop_map(
        |(name, comps, children)| BpNode {
            name,
            comps,
            children,
        },
    );
    (name(), comps(), proptest::collection::vec(node, 0..3)).prop_map(|(name, comps, children)| {
        BpNode {
            name,
            comps,
            children,
        }
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => name().prop_map(Op::Spawn),
        2 => (tag(), tag()).prop_map(|(a, b)| Op::SpawnWith(a, b)),
        1 => (0..4u8, tag(), tag()).prop_map(|(n, a, b)| Op::SpawnBatch(n, a, b)),
        2 => (blueprint(), 1..3u8).prop_map(|(bp, n)| Op::SpawnBlueprint(bp, n)),
        2 => sel().prop_map(Op::Despawn),
        10 => (sel(), tag()).prop_map(|(s, t)| Op::Add(s, t)),
        3 => (sel(), tag()).prop_map(|(s, t)| Op::Remove(s, t)),
        2 => (sel(), tag()).prop_map(|(s, t)| Op::RemoveAll(s, t)),
        1 => sel().prop_map(Op::DetachAll),
        2 => (sel(), tag(), any::<bool>()).prop_map(|(s, t, all)| Op::Mutate(s, t, all)),
        2 => (sel(), tag()).prop_map(|(s, t)| Op::Disable(s, t)),
        2 => (sel(), tag()).prop_map(|(s, t)| Op::Enable(s, t)),
        2 => (sel(), any::<u16>(), any::<bool>())
            .prop_map(|(s, i, on)| Op::SetInstanceEnabled(s, i, on)),
        2 => (sel(), any::<bool>()).prop_map(|(s, on)| Op::SetEnabled(s, on)),
        1 => sel().prop_map(Op::Kill),
        1 => sel().prop_map(Op::Revive),
        2 => (sel(), any::<bool>()).prop_map(|(s, deep)| Op::CloneEntity(s, deep)),
        4 => (sel(), sel()).prop_map(|(c, p)| Op::SetParent(c, p)),
        1 => sel().prop_map(Op::ClearParent),
        1 => (sel(), name()).prop_map(|(s, n)| Op::Rename(s, n)),
        3 => (sel(), tag(), 0..3u8).prop_map(|(s, t, n)| Op::TakeHandle(s, t, n)),
        1 => any::<bool>().prop_map(Op::SaveLoad),
    ]
}

// ---------------------------------------------------------------------------
// The reference model.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct MComp {
    tag: Tag,
    seed: u32,
    v: u32,
    enabled: bool,
    /// Learnt from the world right after the component is added, then
    /// required never to change.
    instance: Option<InstanceId>,
}

impl MComp {
    /// What a requirement adds: the type's `Default`.
    fn default_of(tag: Tag) -> MComp {
        MComp {
            tag,
            seed: 0,
            v: 0,
            enabled: true,
            instance: None,
        }
    }
}

#[derive(Clone, Debug)]
struct MEntity {
    id: EntityId,
    name: Option<&'static str>,
    comps: Vec<MComp>,
    parent: Option<EntityId>,
    children: Vec<EntityId>,
    enabled: bool,
    killed: bool,
}

impl MEntity {
    fn new(id: EntityId) -> MEntity {
        MEntity {
            id,
            name: None,
            comps: Vec::new(),
            parent: None,
            children: Vec::new(),
            enabled: true,
            killed: false,
        }
    }

    /// Logs `hook` on the component at `pos` when its type has hooks.
    fn hook(&self, log: &mut Vec<Logged>, pos: usize, hook: Hook) {
        let c = &self.comps[pos];
        if c.tag.hooked() {
            log.push(Logged {
                entity: self.id,
                tag: c.tag,
                seed: c.seed,
                hook,
            });
        }
    }

    /// The rule for `on_enable`/`on_disable`: they bracket the time a
    /// component is enabled on an enabled entity. Killing is separate.
    fn effectively_enabled(&self, pos: usize) -> bool {
        self.enabled && self.comps[pos].enabled
    }

    /// The hooks for the components from `from` on, added by one
    /// operation: each after those of them that meet its requirements (the
    /// first component that is-a each required type), otherwise in order;
    /// `on_attach`, then `on_enable` if enabled.
    fn log_added(&self, log: &mut Vec<Logged>, from: usize) {
        fn visit(e: &MEntity, from: usize, pos: usize, seen: &mut [bool], order: &mut Vec<usize>) {
            if std::mem::replace(&mut seen[pos - from], true) {
                return;
            }
            for &r in e.comps[pos].tag.requires() {
                if let Some(p) = e.comps.iter().position(|c| c.tag.is_a(r)) {
                    if p >= from {
                        visit(e, from, p, seen, order);
                    }
                }
            }
            order.push(pos);
        }
        let mut seen = vec![false; self.comps.len() - from];
        let mut order = Vec::new();
        for pos in from..self.comps.len() {
            visit(self, from, pos, &mut seen, &mut order);
        }
        for pos in order {
            self.hook(log, pos, Hook::Attach);
            if self.effectively_enabled(pos) {
                self.hook(log, pos, Hook::Enable);
            }
        }
    }

    /// The hooks for removing the components at `positions`, in that order.
    fn log_removed(&self, log: &mut Vec<Logged>, positions: impl IntoIterator<Item = usize>) {
        for pos in positions {
            if self.effectively_enabled(pos) {
                self.hook(log, pos, Hook::Disable);
            }
            self.hook(log, pos, Hook::Detach);
        }
    }

    /// Every component, last added first: what despawn and `detach_all` remove.
    fn log_removed_all(&self, log: &mut Vec<Logged>) {
        self.log_removed(log, (0..self.comps.len()).rev());
    }
}

/// The rule: for every single `K` that `tag` is-a, no component already
/// held may be-a `K`. Returns the one held and that `K`.
fn clash(held: &[Tag], tag: Tag) -> Option<(Tag, Tag)> {
    tag.chain()
        .into_iter()
        .filter(|k| !k.multiple())
        .find_map(|k| held.iter().find(|h| h.is_a(k)).map(|&h| (h, k)))
}

/// The error `add` must give.
fn duplicate(entity: EntityId, comps: &[MComp], tag: Tag) -> Option<Error> {
    let held: Vec<Tag> = comps.iter().map(|c| c.tag).collect();
    clash(&held, tag).map(|(existing, single)| Error::Duplicate {
        entity,
        adding: tag.name(),
        existing: existing.name(),
        single: single.name(),
    })
}

/// Adds `c` as `add` does: the single rule, then the `Default` of each
/// type `c` requires and the entity lacks (with its own requirements).
/// All or nothing.
fn insert(entity: EntityId, comps: &mut Vec<MComp>, c: MComp) -> Result<(), Error> {
    if let Some(error) = duplicate(entity, comps, c.tag) {
        return Err(error);
    }
    let before = comps.len();
    let tag = c.tag;
    comps.push(c);
    let added = add_requirements_of(entity, comps, tag);
    if added.is_err() {
        comps.truncate(before);
    }
    added
}

fn add_requirements_of(entity: EntityId, comps: &mut Vec<MComp>, tag: Tag) -> Result<(), Error> {
    for &r in tag.requires() {
        if !comps.iter().any(|c| c.tag.is_a(r)) {
            insert(entity, comps, MComp::default_of(r))?;
        }
    }
    Ok(())
}

/// What a spawn from data (blueprint, clone) adds after the listed
/// components: the requirements of each, in order.
fn add_missing_requirements(entity: EntityId, comps: &mut Vec<MComp>) -> Result<(), Error> {
    let tags: Vec<Tag> = comps.iter().map(|c| c.tag).collect();
    tags.into_iter()
        .try_for_each(|t| add_requirements_of(entity, comps, t))
}

/// `error` about another entity.
fn naming(error: Error, id: EntityId) -> Error {
    match error {
        Error::Duplicate {
            adding,
            existing,
            single,
            ..
        } => Error::Duplicate {
            entity: id,
            adding,
            existing,
            single,
        },
        other => other,
    }
}

/// An entity a spawn from data should make, with its subtree.
#[derive(Clone, Debug)]
struct Planned {
    name: Option<&'static str>,
    enabled: bool,
    killed: bool,
    comps: Vec<MComp>,
    children: Vec<Planned>,
}

impl Planned {
    fn pre_order(&self) -> Vec<&Planned> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.pre_order());
        }
        out
    }
}

/// Resolves a handle in the world and compares with the model's `(seed, v)`.
type HandleCheck = Box<dyn Fn(&World, Option<(u32, u32)>) -> Result<(), String>>;

/// A handle taken from the world, with what the model says it points at.
struct MHandle {
    tag: Tag,
    entity: EntityId,
    instance: InstanceId,
    check: HandleCheck,
}

#[derive(Default)]
struct Model {
    /// Live entities in spawn order.
    live: Vec<MEntity>,
    /// Every id ever despawned (or spawned and taken back by a failed bundle).
    dead: Vec<EntityId>,
    /// Every id ever handed out, to check ids are never reused.
    ever: HashSet<EntityId>,
    /// Every instance id ever handed out, with its entity.
    instances: Vec<(EntityId, InstanceId)>,
    seen_instances: HashSet<InstanceId>,
    /// Entities by name, in the order they got it.
    names: Vec<(&'static str, EntityId)>,
    handles: Vec<MHandle>,
    next_seed: u32,
    /// The hooks the current step must run, in order.
    log: Vec<Logged>,
}

impl Model {
    fn pos(&self, id: EntityId) -> Option<usize> {
        self.live.iter().position(|e| e.id == id)
    }

    fn ent(&self, id: EntityId) -> &MEntity {
        &self.live[self.pos(id).expect("live in the model")]
    }

    fn ent_mut(&mut self, id: EntityId) -> &mut MEntity {
        let pos = self.pos(id).expect("live in the model");
        &mut self.live[pos]
    }

    /// The id a selector names.
    fn pick(&self, s: Sel) -> Option<EntityId> {
        let raw = s.0 as usize;
        if (raw.is_multiple_of(8) || self.live.is_empty()) && !self.dead.is_empty() {
            return Some(self.dead[raw / 8 % self.dead.len()]);
        }
        if self.live.is_empty() {
            return None;
        }
        Some(self.live[raw % self.live.len()].id)
    }

    fn seed(&mut self) -> u32 {
        self.next_seed += 1;
        self.next_seed
    }

    fn new_comp(&mut self, tag: Tag) -> MComp {
        let seed = self.seed();
        MComp {
            tag,
            seed,
            v: seed.wrapping_mul(31),
            enabled: true,
            instance: None,
        }
    }

    /// Records a new entity (under its parent, if it has one).
    fn spawned(&mut self, e: MEntity) {
        assert!(self.ever.insert(e.id), "id {:?} handed out twice", e.id);
        if let Some(n) = e.name {
            self.names.push((n, e.id));
        }
        if let Some(p) = e.parent {
            self.ent_mut(p).children.push(e.id);
        }
        self.live.push(e);
    }

    /// The world was saved and loaded: every id is the load's new one, and
    /// what belonged to the old world (dead ids, instance ids, handles)
    /// means nothing in the new one.
    fn reloaded(&mut self, by_old: &std::collections::HashMap<EntityId, EntityId>) {
        let map = |id: &mut EntityId| *id = by_old[&*id];
        for e in &mut self.live {
            map(&mut e.id);
            if let Some(p) = &mut e.parent {
                map(p);
            }
            e.children.iter_mut().for_each(map);
            for c in &mut e.comps {
                c.instance = None;
            }
        }
        for (_, id) in &mut self.names {
            map(id);
        }
        self.dead.clear();
        self.ever = self.live.iter().map(|e| e.id).collect();
        self.instances.clear();
        self.seen_instances.clear();
        self.handles.clear();
        self.log.clear();
    }

    /// An id the world handed out internally and took back (a failed spawn).
    fn taken_back(&mut self, world: &World, id: EntityId) {
        assert!(!world.contains(id), "a failed spawn leaves no entity");
        assert!(self.ever.insert(id), "id {id:?} handed out twice");
        self.dead.push(id);
    }

    /// `id` and its descendants, pre-order, children in attach order.
    fn subtree(&self, id: EntityId) -> Vec<EntityId> {
        let mut out = vec![id];
        for &c in &self.ent(id).children {
            out.extend(self.subtree(c));
        }
        out
    }

    /// Children before parents, each entity's components last added first:
    /// the reverse of the order a tree is built in.
    fn despawn(&mut self, id: EntityId) {
        let doomed = self.subtree(id);
        for &d in doomed.iter().rev() {
            let e = &self.live[self.pos(d).expect("live")];
            e.log_removed_all(&mut self.log);
        }
        if let Some(p) = self.ent(id).parent {
            self.ent_mut(p).children.retain(|&c| c != id);
        }
        self.live.retain(|e| !doomed.contains(&e.id));
        self.names.retain(|(_, e)| !doomed.contains(e));
        self.dead.extend(doomed);
    }

    fn is_ancestor(&self, a: EntityId, of: EntityId) -> bool {
        let mut cur = self.ent(of).parent;
        while let Some(p) = cur {
            if p == a {
                return true;
            }
            cur = self.ent(p).parent;
        }
        false
    }

    /// The model's answer to resolving a handle: `(seed, v)` while the
    /// instance lives on that entity.
    fn resolve(&self, h: &MHandle) -> Option<(u32, u32)> {
        let e = self.live.iter().find(|e| e.id == h.entity)?;
        let c = e.comps.iter().find(|c| c.instance == Some(h.instance))?;
        assert!(c.tag.is_a(h.tag));
        Some((c.seed, c.v))
    }

    /// `id` as a clone copies it: name, flags, components (fresh
    /// instances), and with `deep` its subtree.
    fn plan_clone(&self, id: EntityId, deep: bool) -> Planned {
        let e = self.ent(id);
        let children = if deep {
            e.children
                .iter()
                .map(|&c| self.plan_clone(c, true))
                .collect()
        } else {
            Vec::new()
        };
        Planned {
            name: e.name,
            enabled: e.enabled,
            killed: e.killed,
            comps: e
                .comps
                .iter()
                .map(|c| MComp {
                    instance: None,
                    ..c.clone()
                })
                .collect(),
            children,
        }
    }

    /// A spawn from data made of `roots` (blueprint copies or a clone),
    /// checked against the world's answer `got`: every entity made first,
    /// then each one's missing requirements (the first clash fails the
    /// whole spawn, and no hook has run), then the hooks entity by entity,
    /// parents before children, copy after copy.
    fn spawn_planned(
        &mut self,
        world: &World,
        mut roots: Vec<Planned>,
        got: Result<Vec<EntityId>, Error>,
        what: &str,
    ) {
        let placeholder = world.id_from_bits(0);
        let mut expected = Ok(());
        'all: for root in &mut roots {
            let mut stack = vec![root];
            while let Some(p) = stack.pop() {
                if let Err(e) = add_missing_requirements(placeholder, &mut p.comps) {
                    expected = Err(e);
                    break 'all;
                }
                stack.extend(p.children.iter_mut().rev());
            }
        }
        let ids = match (got, expected) {
            (Ok(ids), Ok(())) => ids,
            (Err(got @ Error::Duplicate { entity, .. }), Err(exp)) => {
                assert_eq!(got, naming(exp, entity), "{what}");
                self.taken_back(world, entity);
                return;
            }
            (got, exp) => panic!("{what}: world {got:?}, model {exp:?}"),
        };
        assert_eq!(ids.len(), roots.len(), "{what}: roots made");
        let mut made = Vec::new();
        for (id, root) in ids.into_iter().zip(roots) {
            self.learn_tree(world, id, None, root, &mut made);
        }
        for id in made {
            let e = &self.live[self.pos(id).expect("live")];
            e.log_added(&mut self.log, 0);
        }
    }

    /// Records the world's entity `id` (and its subtree) as what `plan`
    /// says, pushing ids to `made` in pre-order.
    fn learn_tree(
        &mut self,
        world: &World,
        id: EntityId,
        parent: Option<EntityId>,
        plan: Planned,
        made: &mut Vec<EntityId>,
    ) {
        self.spawned(MEntity {
            name: plan.name,
            comps: plan.comps,
            parent,
            enabled: plan.enabled,
            killed: plan.killed,
            ..MEntity::new(id)
        });
        made.push(id);
        let children: Vec<EntityId> = world.entity(id).expect("made").children().collect();
        assert_eq!(children.len(), plan.children.len(), "children of {id:?}");
        for (child, plan) in children.into_iter().zip(plan.children) {
            self.learn_tree(world, child, Some(id), plan, made);
        }
    }
}

// ---------------------------------------------------------------------------
// Applying one operation to both.
// ---------------------------------------------------------------------------

fn add_typed<T: Modeled>(world: &mut World, id: EntityId, seed: u32, v: u32) -> Result<(), Error> {
    let mut e = world.entity_mut(id)?;
    let added = e.add(T::make(seed, v))?;
    assert_eq!(*added, T::make(seed, v), "add returns the stored value");
    Ok(())
}

fn spawn_pair(world: &mut World, a: &MComp, b: &MComp) -> Result<EntityId, Error> {
    with_type!(a.tag, A => with_type!(b.tag, B => world.spawn_with((A::make(a.seed, a.v), B::make(b.seed, b.v)))))
}

fn spawn_batch(world: &mut World, pairs: &[(MComp, MComp)]) -> Result<Vec<EntityId>, Error> {
    let Some((a0, b0)) = pairs.first() else {
        return world.spawn_batch(std::iter::empty::<(Moving,)>());
    };
    with_type!(a0.tag, A => with_type!(b0.tag, B => world.spawn_batch(
        pairs.iter().map(|(a, b)| (A::make(a.seed, a.v), B::make(b.seed, b.v)))
    )))
}

/// What spawning `id` with the bundle `(a, b)` does: one operation, as a
/// blueprint is. Both elements are checked and added in tuple order, then
/// the requirements of both are met (so `(Pulse, Health)` keeps the listed
/// `Health`), and only then do hooks fire. On error nothing was attached,
/// so nothing is logged.
fn plan_bundle(
    id: EntityId,
    a: &MComp,
    b: &MComp,
    log: &mut Vec<Logged>,
) -> Result<MEntity, Error> {
    let mut e = MEntity::new(id);
    for c in [a, b] {
        if let Some(error) = duplicate(id, &e.comps, c.tag) {
            return Err(error);
        }
        e.comps.push(c.clone());
    }
    add_missing_requirements(id, &mut e.comps)?;
    e.log_added(log, 0);
    Ok(e)
}

/// The entity id a spawn's answer is about.
fn spawned_id(got: &Result<EntityId, Error>) -> EntityId {
    match *got {
        Ok(id) | Err(Error::Duplicate { entity: id, .. }) => id,
        Err(ref e) => panic!("unexpected error {e:?}"),
    }
}

/// The JSON of one blueprint node, its components made from `plan`.
fn blueprint_json(node: &BpNode, plan: &Planned) -> serde_json::Value {
    let comps: Vec<serde_json::Value> = plan
        .comps
        .iter()
        .map(|c| {
            let data = with_type!(c.tag, T => serde_json::to_value(T::make(c.seed, c.v)))
                .expect("serializable");
            let mut spec = serde_json::json!({ "type": c.tag.name(), "data": data });
            if !c.enabled {
                spec["enabled"] = false.into();
            }
            spec
        })
        .collect();
    let children: Vec<serde_json::Value> = node
        .children
        .iter()
        .zip(&plan.children)
        .map(|(n, p)| blueprint_json(n, p))
        .collect();
    let mut json = serde_json::json!({ "components": comps, "children": children });
    if let Some(n) = plan.name {
        json["name"] = n.into();
    }
    json
}

/// The path of the first component (pre-order) that breaks the single rule
/// with an earlier one of its entity, as the blueprint error names it.
fn blueprint_clash(node: &BpNode, path: &str) -> Option<String> {
    let at = |key: String| {
        if path.is_empty() {
            key
        } else {
            format!("{path}.{key}")
        }
    };
    let tags: Vec<Tag> = node.comps.iter().map(|&(t, _)| t).collect();
    for j in 0..tags.len() {
        if clash(&tags[..j], tags[j]).is_some() {
            return Some(at(format!("components[{j}]")));
        }
    }
    node.children
        .iter()
        .enumerate()
        .find_map(|(i, child)| blueprint_clash(child, &at(format!("children[{i}]"))))
}

/// Gives every component of the blueprint fresh values.
fn plan_blueprint(model: &mut Model, node: &BpNode) -> Planned {
    Planned {
        name: node.name.map(|n| NAMES[n as usize]),
        enabled: true,
        killed: false,
        comps: node
            .comps
            .iter()
            .map(|&(t, on)| MComp {
                enabled: on,
                ..model.new_comp(t)
            })
            .collect(),
        children: node
            .children
            .iter()
            .map(|c| plan_blueprint(model, c))
            .collect(),
    }
}

/// Applies `op` to the world and the model, asserting the world's direct
/// answer (return value or error) matches the model's.
fn apply(world: &mut World, model: &mut Model, op: &Op) {
    match *op {
        Op::SaveLoad(binary) => {
            let order = world.save_order();
            let bytes = if binary {
                world.save_binary()
            } else {
                world.save_json().map(String::into_bytes)
            }
            .expect("every modelled type saves");
            let loaded = World::load(&bytes).expect("a saved world loads");
            let by_old = loaded.ids.by_old(&order);
            *world = loaded.world;
            model.reloaded(&by_old);
            // The load's attach and enable hooks are not modelled.
            take_log();
        }
        Op::Spawn(name) => {
            let name = name.map(|n| NAMES[n as usize]);
            let id = match name {
                Some(n) => world.spawn_named(n),
                None => world.spawn(),
            };
            model.spawned(MEntity {
                name,
                ..MEntity::new(id)
            });
        }
        Op::SpawnWith(a, b) => {
            let (ca, cb) = (model.new_comp(a), model.new_comp(b));
            let before = world.len();
            let got = spawn_pair(world, &ca, &cb);
            let id = spawned_id(&got);
            let expected = plan_bundle(id, &ca, &cb, &mut model.log);
            match (got, expected) {
                (Ok(_), Ok(e)) => model.spawned(e),
                (Err(got), Err(exp)) => {
                    assert_eq!(got, exp, "spawn_with({a:?}, {b:?})");
                    assert_eq!(world.len(), before);
                    model.taken_back(world, id);
                }
                (got, exp) => panic!("spawn_with({a:?}, {b:?}): world {got:?}, model {exp:?}"),
            }
        }
        Op::SpawnBatch(n, a, b) => {
            let pairs: Vec<(MComp, MComp)> = (0..n)
                .map(|_| (model.new_comp(a), model.new_comp(b)))
                .collect();
            let before = world.len();
            match spawn_batch(world, &pairs) {
                Ok(ids) => {
                    assert_eq!(ids.len(), pairs.len());
                    for (id, (ca, cb)) in ids.into_iter().zip(&pairs) {
                        match plan_bundle(id, ca, cb, &mut model.log) {
                            Ok(e) => model.spawned(e),
                            Err(e) => panic!("spawn_batch({n}, {a:?}, {b:?}): model {e:?}"),
                        }
                    }
                }
                // Every bundle has the same types: the first one fails.
                Err(got) => {
                    let id = spawned_id(&Err(got.clone()));
                    let (ca, cb) = pairs.first().expect("an empty batch cannot fail");
                    let exp = plan_bundle(id, ca, cb, &mut model.log).map(|_| ());
                    assert_eq!(Err(got), exp, "spawn_batch({n}, {a:?}, {b:?})");
                    assert_eq!(world.len(), before, "a failed batch leaves no entity");
                    model.taken_back(world, id);
                }
            }
        }
        Op::SpawnBlueprint(ref node, count) => {
            let plan = plan_blueprint(model, node);
            let json = blueprint_json(node, &plan);
            let bp = Blueprint::from_value(&json).expect("a valid blueprint");
            let before = world.len();
            let got = if count == 1 {
                world.spawn_blueprint(&bp).map(|id| vec![id])
            } else {
                world.spawn_blueprints(&bp, count as usize)
            };
            if let Some(path) = blueprint_clash(node, "") {
                assert!(
                    matches!(&got, Err(Error::Data { path: p, .. }) if *p == path),
                    "blueprint {json}: world {got:?}, model a clash at {path}"
                );
                assert_eq!(world.len(), before);
                return;
            }
            let roots = vec![plan; count as usize];
            model.spawn_planned(world, roots, got, &format!("blueprint {json} x{count}"));
        }
        Op::CloneEntity(s, deep) => {
            let Some(id) = model.pick(s) else { return };
            let got = if deep {
                world.clone_tree(id)
            } else {
                world.clone_entity(id)
            };
            if model.pos(id).is_none() {
                assert_eq!(got, Err(Error::NoSuchEntity(id)));
                return;
            }
            let plan = model.plan_clone(id, deep);
            let lacking = plan
                .pre_order()
                .into_iter()
                .flat_map(|p| &p.comps)
                .find(|c| !c.tag.clonable());
            if let Some(c) = lacking {
                let want = Error::Lacks {
                    name: c.tag.name(),
                    capability: "`Clone`",
                };
                assert_eq!(got, Err(want), "clone of {id:?} (deep: {deep})");
                return;
            }
            let what = format!("clone of {id:?} (deep: {deep})");
            model.spawn_planned(world, vec![plan], got.map(|id| vec![id]), &what);
        }
        Op::Despawn(s) => {
            let Some(id) = model.pick(s) else { return };
            let got = world.despawn(id);
            if model.pos(id).is_some() {
                assert_eq!(got, Ok(()));
                model.despawn(id);
            } else {
                assert_eq!(got, Err(Error::NoSuchEntity(id)));
            }
        }
        Op::SetParent(c, p) => {
            let (Some(child), Some(parent)) = (model.pick(c), model.pick(p)) else {
                return;
            };
            let got = world.set_parent(child, parent);
            let expected = if model.pos(child).is_none() {
                Err(Error::NoSuchEntity(child))
            } else if model.pos(parent).is_none() {
                Err(Error::NoSuchEntity(parent))
            } else if child == parent || model.is_ancestor(child, parent) {
                Err(Error::HierarchyCycle { child, parent })
            } else {
                Ok(())
            };
            assert_eq!(got, expected, "set_parent({child:?}, {parent:?})");
            if expected.is_ok() {
                if let Some(old) = model.ent(child).parent {
                    model.ent_mut(old).children.retain(|&x| x != child);
                }
                model.ent_mut(child).parent = Some(parent);
                model.ent_mut(parent).children.push(child);
            }
        }
        Op::ClearParent(s) => {
            let Some(id) = model.pick(s) else { return };
            let got = world.clear_parent(id);
            if model.pos(id).is_none() {
                assert_eq!(got, Err(Error::NoSuchEntity(id)));
                return;
            }
            assert_eq!(got, Ok(()));
            if let Some(old) = model.ent_mut(id).parent.take() {
                model.ent_mut(old).children.retain(|&x| x != id);
            }
        }
        Op::Add(s, t) => {
            let Some(id) = model.pick(s) else { return };
            let c = model.new_comp(t);
            let got = with_type!(t, T => add_typed::<T>(world, id, c.seed, c.v));
            if model.pos(id).is_none() {
                assert_eq!(got, Err(Error::NoSuchEntity(id)));
                return;
            }
            let m = model.ent(id);
            let mut comps = m.comps.clone();
            let from = comps.len();
            let expected = insert(id, &mut comps, c);
            assert_eq!(got, expected, "add::<{t:?}>() to {id:?}");
            if expected.is_ok() {
                let pos = model.pos(id).expect("live");
                let m = &mut model.live[pos];
                m.comps = comps;
                m.log_added(&mut model.log, from);
            }
        }
        // Every other operation needs a live entity; on a dead id,
        // `entity_mut` must say so and the operation is not attempted.
        ref op => {
            let s = match *op {
                Op::Remove(s, _)
                | Op::RemoveAll(s, _)
                | Op::DetachAll(s)
                | Op::Mutate(s, ..)
                | Op::Disable(s, _)
                | Op::Enable(s, _)
                | Op::SetInstanceEnabled(s, ..)
                | Op::SetEnabled(s, _)
                | Op::Kill(s)
                | Op::Revive(s)
                | Op::Rename(s, _)
                | Op::TakeHandle(s, ..) => s,
                _ => unreachable!("handled above"),
            };
            let Some(id) = model.pick(s) else { return };
            if model.pos(id).is_none() {
                assert_eq!(
                    world.entity_mut(id).err(),
                    Some(Error::NoSuchEntity(id)),
                    "a despawned id"
                );
                return;
            }
            apply_on_live(world, model, id, op);
        }
    }
}

fn apply_on_live(world: &mut World, model: &mut Model, id: EntityId, op: &Op) {
    let mut e = world.entity_mut(id).expect("live in the model");
    let pos = model.pos(id).expect("live");
    let Model {
        live,
        log,
        instances,
        names,
        handles,
        ..
    } = model;
    let m = &mut live[pos];
    match *op {
        Op::Remove(_, t) => {
            let got = with_type!(t, T => e.remove::<T>().map(|c| format!("{c:?}")));
            let expected = m.comps.iter().position(|c| c.tag == t).map(|i| {
                m.log_removed(log, [i]);
                let c = m.comps.remove(i);
                with_type!(t, T => format!("{:?}", T::make(c.seed, c.v)))
            });
            assert_eq!(got, expected, "remove::<{t:?}>()");
        }
        Op::RemoveAll(_, k) => {
            let got = with_type!(k, K => e.remove_all::<K>());
            let doomed = (0..m.comps.len()).rev().filter(|&i| m.comps[i].tag.is_a(k));
            m.log_removed(log, doomed);
            let before = m.comps.len();
            m.comps.retain(|c| !c.tag.is_a(k));
            assert_eq!(got, before - m.comps.len(), "remove_all::<{k:?}>()");
        }
        Op::DetachAll(_) => {
            assert_eq!(e.detach_all(), m.comps.len());
            m.log_removed_all(log);
            m.comps.clear();
        }
        Op::Mutate(_, t, all) => {
            let delta = 1000;
            let touched = with_type!(t, T => if all {
                let mut n = 0;
                for c in e.get_all_mut::<T>() {
                    *c.root_v() = c.root_v().wrapping_add(delta);
                    n += 1;
                }
                n
            } else {
                match e.get_mut::<T>() {
                    Some(c) => {
                        *c.root_v() = c.root_v().wrapping_add(delta);
                        1
                    }
                    None => 0,
                }
            });
            let limit = if all { usize::MAX } else { 1 };
            let mut n = 0;
            for c in m.comps.iter_mut().filter(|c| c.tag.is_a(t)).take(limit) {
                c.v = c.v.wrapping_add(delta);
                n += 1;
            }
            assert_eq!(touched, n, "mutable access to {t:?} (all: {all})");
        }
        Op::Disable(_, t) | Op::Enable(_, t) => {
            let enable = matches!(op, Op::Enable(..));
            let got = with_type!(t, T => if enable { e.enable::<T>() } else { e.disable::<T>() });
            let mut changed = 0;
            for i in 0..m.comps.len() {
                if m.comps[i].tag.is_a(t) && m.comps[i].enabled != enable {
                    m.comps[i].enabled = enable;
                    changed += 1;
                    set_enabled_hook(m, log, i);
                }
            }
            assert_eq!(got, changed, "enable: {enable}, {t:?}");
        }
        Op::SetInstanceEnabled(_, i, on) => {
            if instances.is_empty() {
                return;
            }
            let (_, instance) = instances[i as usize % instances.len()];
            let got = e.set_instance_enabled(instance, on);
            let expected = match m.comps.iter().position(|c| c.instance == Some(instance)) {
                Some(i) => {
                    let changed = m.comps[i].enabled != on;
                    m.comps[i].enabled = on;
                    if changed {
                        set_enabled_hook(m, log, i);
                    }
                    Ok(changed)
                }
                None => Err(Error::NoSuchInstance {
                    entity: id,
                    instance,
                }),
            };
            assert_eq!(got, expected, "set_instance_enabled({instance:?}, {on})");
        }
        Op::SetEnabled(_, on) => {
            e.set_enabled(on);
            if m.enabled != on {
                // The components that are enabled themselves start or stop
                // being effectively enabled.
                for i in 0..m.comps.len() {
                    if m.comps[i].enabled {
                        m.hook(log, i, if on { Hook::Enable } else { Hook::Disable });
                    }
                }
            }
            m.enabled = on;
        }
        Op::Kill(_) | Op::Revive(_) => {
            let kill = matches!(op, Op::Kill(_));
            if kill {
                e.kill();
            } else {
                e.revive();
            }
            if m.killed != kill {
                for i in 0..m.comps.len() {
                    m.hook(log, i, if kill { Hook::Kill } else { Hook::Revive });
                }
            }
            m.killed = kill;
        }
        Op::Rename(_, name) => {
            let name = name.map(|n| NAMES[n as usize]);
            e.set_name(name);
            m.name = name;
            names.retain(|&(_, x)| x != id);
            if let Some(n) = name {
                names.push((n, id));
            }
        }
        Op::TakeHandle(_, t, nth) => {
            let taken = with_type!(t, T => e.as_ref().handles::<T>().nth(nth as usize).map(|h| {
                let check: HandleCheck =
                    Box::new(move |w: &World, exp: Option<(u32, u32)>| {
                        let got = w.resolve(h);
                        let want = exp.map(|(s, v)| T::make(s, v));
                        if got == want.as_ref() {
                            Ok(())
                        } else {
                            Err(format!("{h:?} resolved to {got:?}, model says {want:?}"))
                        }
                    });
                (h.entity(), h.instance(), check)
            }));
            let expected = m
                .comps
                .iter()
                .filter(|c| c.tag.is_a(t))
                .nth(nth as usize)
                .map(|c| c.instance.expect("learnt"));
            assert_eq!(
                taken.as_ref().map(|(_, inst, _)| *inst),
                expected,
                "handles::<{t:?}>().nth({nth})"
            );
            if let Some((entity, instance, check)) = taken {
                assert_eq!(entity, id);
                handles.push(MHandle {
                    tag: t,
                    entity,
                    instance,
                    check,
                });
            }
        }
        _ => unreachable!("handled in apply"),
    }
}

/// The hook for the component at `pos` whose own flag just changed: none
/// while its entity is disabled (the entity's `set_enabled(true)` fires it).
fn set_enabled_hook(m: &MEntity, log: &mut Vec<Logged>, pos: usize) {
    if m.enabled {
        let hook = if m.comps[pos].enabled {
            Hook::Enable
        } else {
            Hook::Disable
        };
        m.hook(log, pos, hook);
    }
}

/// Learns the instance ids of components added by the last step, checking
/// each is new for the world's lifetime.
fn learn_instances(world: &World, model: &mut Model) {
    for m in &mut model.live {
        let e = world.entity(m.id).expect("live");
        let infos: Vec<_> = e.components().collect();
        assert_eq!(infos.len(), m.comps.len(), "component count of {:?}", m.id);
        for (c, info) in m.comps.iter_mut().zip(&infos) {
            if c.instance.is_none() {
                assert!(
                    model.seen_instances.insert(info.instance),
                    "instance id {:?} handed out twice",
                    info.instance
                );
                model.instances.push((m.id, info.instance));
                c.instance = Some(info.instance);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Comparing every observable answer.
// ---------------------------------------------------------------------------

fn values<T: Modeled>(comps: impl Iterator<Item = MComp>) -> Vec<T> {
    comps.map(|c| T::make(c.seed, c.v)).collect()
}

fn check_entity_type<T: Modeled>(e: &EntityRef<'_>, m: &MEntity) {
    let t = T::TAG;
    let isa = || m.comps.iter().filter(move |c| c.tag.is_a(t)).cloned();
    let want: Vec<T> = values(isa());
    let got: Vec<&T> = e.get_all::<T>().collect();
    assert_eq!(
        got,
        want.iter().collect::<Vec<_>>(),
        "{:?}.get_all::<{t:?}>()",
        m.id
    );
    assert_eq!(e.get::<T>(), want.first(), "{:?}.get::<{t:?}>()", m.id);
    assert_eq!(e.has::<T>(), !want.is_empty());
    for (filter, on) in [(Filter::Enabled, true), (Filter::Disabled, false)] {
        let want: Vec<T> = values(isa().filter(|c| c.enabled == on));
        let got: Vec<&T> = e.get_all_filtered::<T>(filter).collect();
        assert_eq!(
            got,
            want.iter().collect::<Vec<_>>(),
            "{:?} {filter:?} {t:?}",
            m.id
        );
        assert_eq!(e.get_filtered::<T>(filter), want.first());
    }
    let handles: Vec<InstanceId> = e.handles::<T>().map(|h| h.instance()).collect();
    let want: Vec<InstanceId> = isa().map(|c| c.instance.expect("learnt")).collect();
    assert_eq!(handles, want, "{:?}.handles::<{t:?}>()", m.id);
}

fn check_world_type<T: Modeled>(world: &World, model: &Model) {
    let t = T::TAG;
    let sorted = |mut v: Vec<(EntityId, String)>| {
        v.sort();
        v
    };
    let got = sorted(
        world
            .iter::<T>()
            .map(|(id, c)| (id, format!("{c:?}")))
            .collect(),
    );
    let want = sorted(
        model
            .live
            .iter()
            .flat_map(|e| e.comps.iter().map(move |c| (e, c)))
            .filter(|(_, c)| c.tag.is_a(t))
            .map(|(e, c)| (e.id, format!("{:?}", T::make(c.seed, c.v))))
            .collect(),
    );
    assert_eq!(got, want, "iter::<{t:?}>() as a multiset");
    let active = model
        .live
        .iter()
        .filter(|e| e.enabled && !e.killed)
        .flat_map(|e| &e.comps)
        .filter(|c| c.tag.is_a(t) && c.enabled)
        .count();
    assert_eq!(
        world.iter_active::<T>().count(),
        active,
        "iter_active::<{t:?}>()"
    );
}

fn by_slot(mut ids: Vec<EntityId>) -> Vec<EntityId> {
    ids.sort_by_key(|id| id.index());
    ids
}

fn check_agrees(world: &World, model: &Model) {
    assert_eq!(world.len(), model.live.len(), "len");
    assert_eq!(world.is_empty(), model.live.is_empty());
    let ids: Vec<EntityId> = model.live.iter().map(|e| e.id).collect();
    assert_eq!(
        world.iter_ids().collect::<Vec<_>>(),
        by_slot(ids),
        "iter_ids"
    );
    for &dead in &model.dead {
        assert!(!world.contains(dead), "despawned {dead:?} answers");
        assert_eq!(world.entity(dead).err(), Some(Error::NoSuchEntity(dead)));
    }
    for m in &model.live {
        assert!(world.contains(m.id));
        let e = world.entity(m.id).expect("live");
        assert_eq!(e.id(), m.id);
        assert_eq!(e.len(), m.comps.len());
        assert_eq!(e.is_empty(), m.comps.is_empty());
        assert_eq!(e.name(), m.name);
        assert_eq!(e.is_enabled(), m.enabled);
        assert_eq!(e.is_dead(), m.killed);
        assert_eq!(e.is_active(), m.enabled && !m.killed);
        let listed: Vec<(&str, InstanceId, bool)> = e
            .components()
            .map(|c| (c.name(), c.instance, c.enabled))
            .collect();
        let want: Vec<(&str, InstanceId, bool)> = m
            .comps
            .iter()
            .map(|c| (c.tag.name(), c.instance.expect("learnt"), c.enabled))
            .collect();
        assert_eq!(listed, want, "components() of {:?}", m.id);
        for c in &m.comps {
            let inst = c.instance.expect("learnt");
            let got = with_type!(c.tag, T => e.get_by_instance::<T>(inst).map(|x| *x == T::make(c.seed, c.v)));
            assert_eq!(got, Some(true), "get_by_instance({inst:?})");
        }
        for &t in &TAGS {
            with_type!(t, T => check_entity_type::<T>(&e, m));
        }
        assert_eq!(e.parent(), m.parent, "parent of {:?}", m.id);
        assert_eq!(
            e.children().collect::<Vec<_>>(),
            m.children,
            "children of {:?}",
            m.id
        );
        let mut descendants = model.subtree(m.id);
        descendants.remove(0);
        assert_eq!(
            e.descendants().collect::<Vec<_>>(),
            descendants,
            "descendants of {:?}",
            m.id
        );
        let mut ancestors = Vec::new();
        let mut cur = m.parent;
        while let Some(p) = cur {
            ancestors.push(p);
            cur = model.ent(p).parent;
        }
        assert_eq!(e.ancestors().collect::<Vec<_>>(), ancestors);
    }
    let roots = model
        .live
        .iter()
        .filter(|e| e.parent.is_none())
        .map(|e| e.id);
    assert_eq!(
        world.roots().collect::<Vec<_>>(),
        by_slot(roots.collect()),
        "roots"
    );
    for &t in &TAGS {
        with_type!(t, T => check_world_type::<T>(world, model));
    }
    for n in NAMES {
        let want: Vec<EntityId> = model
            .names
            .iter()
            .filter(|(x, _)| *x == n)
            .map(|&(_, id)| id)
            .collect();
        assert_eq!(
            world.find_all_by_name(n).collect::<Vec<_>>(),
            want,
            "name {n}"
        );
        assert_eq!(world.find_by_name(n), want.first().copied());
    }
    for h in &model.handles {
        if let Err(msg) = (h.check)(world, model.resolve(h)) {
            panic!("{msg}");
        }
    }
}

// ---------------------------------------------------------------------------
// The properties.
// ---------------------------------------------------------------------------

fn config() -> ProptestConfig {
    let from_env = |var: &str| std::env::var(var).ok().and_then(|s| s.parse().ok());
    ProptestConfig {
        cases: from_env("MODEL_CASES")
            .or(from_env("PROPTEST_CASES"))
            .unwrap_or(512),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Longest sequence tried: 60, or `MODEL_OPS`.
fn max_ops() -> usize {
    std::env::var("MODEL_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60)
}

/// Runs `ops` on a fresh world and model, comparing after every step.
fn run(ops: &[Op]) {
    let mut world = World::new();
    let mut model = Model::default();
    // A shrunk case runs after the one that failed, on the same thread.
    take_log();
    for op in ops {
        apply(&mut world, &mut model, op);
        assert_eq!(
            take_log(),
            std::mem::take(&mut model.log),
            "hooks run by {op:?} (world, then model)"
        );
        learn_instances(&world, &mut model);
        check_agrees(&world, &model);
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn world_agrees_with_the_model(ops in proptest::collection::vec(op(), 1..max_ops())) {
        run(&ops);
    }
}

/// A component whose `Drop` panics: user code that runs in the middle of
/// `despawn`, `remove_all` and `detach_all`.
#[derive(Component, Debug)]
#[component(multiple)]
struct Bomb(u32);

impl Drop for Bomb {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("bomb {} went off", self.0);
        }
    }
}

/// A panicking `Drop` propagates, but only once the world's bookkeeping is
/// done: the entity is fully removed (or fully stripped), and every other
/// entity and column is intact.
#[test]
fn a_panicking_drop_leaves_the_world_consistent() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let mut world = World::new();
    let keep = world
        .spawn_with((Health::make(1, 1), Collider::make(2, 2)))
        .expect("spawn");
    let doomed = world
        .spawn_with((Collider::make(3, 3), Bomb(1), Health::make(4, 4)))
        .expect("spawn");
    let child = world.spawn_with((Bomb(2),)).expect("spawn");
    world.set_parent(child, doomed).expect("link");
    let stripped = world
        .spawn_with((Bomb(3), Collider::make(5, 5), Bomb(4)))
        .expect("spawn");

    let boom = catch_unwind(AssertUnwindSafe(|| world.despawn(doomed)));
    assert!(boom.is_err(), "the panic reaches the caller");
    // The despawn happened whole: the subtree went before any of its
    // values was dropped, then both bombs were dropped (one went off).
    assert!(!world.contains(child));
    assert!(!world.contains(doomed));
    let boom = catch_unwind(AssertUnwindSafe(|| {
        world.entity_mut(stripped).expect("live").detach_all()
    }));
    assert!(boom.is_err());

    assert_eq!(world.len(), 2);
    assert_eq!(world.entity(stripped).expect("live").len(), 0);
    let e = world.entity(keep).expect("live");
    assert_eq!(e.get::<Health>(), Some(&Health::make(1, 1)));
    assert_eq!(e.get::<Collider>(), Some(&Collider::make(2, 2)));
    assert_eq!(world.iter::<Health>().count(), 1);
    assert_eq!(world.iter::<Collider>().count(), 1);
    assert_eq!(world.iter::<Bomb>().count(), 0);
    // The columns still work: new rows, swap-removes, lookups.
    let fresh = world
        .spawn_with((Collider::make(6, 6), Health::make(7, 7)))
        .expect("spawn");
    assert_eq!(
        world
            .entity_mut(keep)
            .expect("live")
            .remove_all::<Collider>(),
        1
    );
    assert_eq!(
        world.entity(fresh).expect("live").get::<Collider>(),
        Some(&Collider::make(6, 6))
    );
}

// ---------------------------------------------------------------------------
// Regressions: bugs this file found, fixed since.
// ---------------------------------------------------------------------------

/// The rule for ids (README, "Rules and choices"): a despawned or foreign
/// id is `Err(Error::NoSuchEntity(..))`, even when the other world has a live
/// entity in the same slot with the same generation (ids carry a world tag).
#[test]
fn foreign_entity_id_is_rejected() {
    let mut a = World::new();
    let mut b = World::new();
    let foreign = a.spawn();
    let _own = b.spawn();
    assert_eq!(
        b.entity(foreign).err(),
        Some(Error::NoSuchEntity(foreign)),
        "an id spawned by world `a` must not name an entity of world `b`"
    );
}

/// A handle taken in world `a` never resolves in world `b` to `b`'s own,
/// unrelated component.
#[test]
fn foreign_handle_does_not_resolve() {
    let mut a = World::new();
    let mut b = World::new();
    let ea = a.spawn_with((Health::make(1, 1),)).expect("spawn");
    b.spawn_with((Health::make(2, 2),)).expect("spawn");
    let h: Handle<Health> = a.entity(ea).expect("live").handle().expect("has one");
    assert_eq!(a.resolve(h), Some(&Health::make(1, 1)));
    assert_eq!(
        b.resolve(h),
        None,
        "a handle from world `a` resolved in world `b`"
    );
}
