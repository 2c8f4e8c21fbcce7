//! Behaviour and message receivers are inherited like virtual methods: a
//! derived type runs its nearest ancestor's `update`, hooks and receivers on
//! the ancestor part it embeds, until it declares its own.
//!
//! Four generations, with an override at every other level:
//! - `Unit`: a behaviour; receives `Hit` and `Heal`.
//! - `Soldier` (is-a `Unit`): declares nothing, overrides `Heal` only.
//! - `Captain` (is-a `Soldier`): its own behaviour, which also calls
//!   `Unit`'s update explicitly; declares no receiver.
//! - `Major` (is-a `Captain`): declares nothing.

use ecs_core::prelude::*;

struct Hit;
struct Heal;

/// Every call a component got, tagged with whose code ran.
#[derive(Component, Debug, Default, Clone)]
#[component(behaviour, receives(Hit, Heal))]
struct Unit {
    log: Vec<String>,
}

impl Behaviour for Unit {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {
        self.log.push("Unit.update".into());
    }
    fn start(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.start".into());
    }
    fn on_attach(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.attach".into());
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.detach".into());
    }
    fn on_enable(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.enable".into());
    }
    fn on_disable(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.disable".into());
    }
    fn on_kill(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.kill".into());
    }
    fn on_revive(&mut self, _: &mut Context<'_>) {
        self.log.push("Unit.revive".into());
    }
}

impl Receive<Hit> for Unit {
    fn receive(&mut self, _: &mut Context<'_>, _: &Hit) {
        self.log.push("Unit.hit".into());
    }
}

impl Receive<Heal> for Unit {
    fn receive(&mut self, _: &mut Context<'_>, _: &Heal) {
        self.log.push("Unit.heal".into());
    }
}

#[derive(Component, Debug, Default, Clone)]
#[component(parent = Unit, receives(Heal))]
struct Soldier {
    base: Unit,
}

impl Receive<Heal> for Soldier {
    fn receive(&mut self, _: &mut Context<'_>, _: &Heal) {
        self.base.log.push("Soldier.heal".into());
    }
}

#[derive(Component, Debug, Default, Clone)]
#[component(parent = Soldier, behaviour)]
struct Captain {
    base: Soldier,
}

impl Behaviour for Captain {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        self.base.base.log.push("Captain.update".into());
        // The overridden ancestor's code, called explicitly.
        self.base.base.update(ctx, dt);
    }
    fn on_attach(&mut self, _: &mut Context<'_>) {
        self.base.base.log.push("Captain.attach".into());
    }
}

#[derive(Component, Debug, Default, Clone)]
#[component(parent = Captain)]
struct Major {
    base: Captain,
}

fn log(world: &World, id: EntityId) -> Vec<String> {
    world.entity(id).unwrap().get::<Unit>().unwrap().log.clone()
}

/// Spawns one entity holding `C`, updates twice, toggles, kills and
/// revives it: every hook but detach, and the update, in order.
fn lifecycle<C: Component + Default>(world: &mut World) -> Vec<String> {
    let id = world.spawn_with((C::default(),)).unwrap();
    world.update(1.0);
    world.update(1.0);
    world.entity_mut(id).unwrap().set_enabled(false);
    world.entity_mut(id).unwrap().set_enabled(true);
    world.entity_mut(id).unwrap().kill();
    world.entity_mut(id).unwrap().revive();
    log(world, id)
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_derived_type_without_its_own_behaviour_runs_its_ancestors() {
    let mut world = World::new();
    let unit = lifecycle::<Unit>(&mut world);
    let soldier = lifecycle::<Soldier>(&mut world);
    let expected = strs(&[
        "Unit.attach",
        "Unit.enable",
        "Unit.start",
        "Unit.update",
        "Unit.update",
        "Unit.disable",
        "Unit.enable",
        "Unit.kill",
        "Unit.revive",
    ]);
    assert_eq!(unit, expected);
    assert_eq!(
        soldier, expected,
        "Soldier inherits every hook and the update"
    );
}

#[test]
fn an_override_replaces_the_behaviour_and_may_call_the_ancestor() {
    let mut world = World::new();
    let captain = lifecycle::<Captain>(&mut world);
    // Captain overrides `update` and `on_attach`; its other hooks are the
    // trait's defaults, which do nothing (as an override in C++ or Unity
    // replaces the whole behaviour).
    let expected = strs(&[
        "Captain.attach",
        "Captain.update",
        "Unit.update",
        "Captain.update",
        "Unit.update",
    ]);
    assert_eq!(captain, expected);
    let major = lifecycle::<Major>(&mut world);
    assert_eq!(major, expected, "Major inherits Captain's override");
}

#[test]
fn detach_hooks_run_the_inherited_code() {
    // The detach hook writes into the component being removed, which
    // `remove` hands back.
    let mut world = World::new();
    let id = world.spawn_with((Soldier::default(),)).unwrap();
    let soldier = world.entity_mut(id).unwrap().remove::<Soldier>().unwrap();
    assert_eq!(
        soldier.base.log.last().map(String::as_str),
        Some("Unit.detach")
    );
    let id = world.spawn_with((Major::default(),)).unwrap();
    let major = world.entity_mut(id).unwrap().remove::<Major>().unwrap();
    // Captain's behaviour has no `on_detach`: the default does nothing.
    assert_eq!(major.base.base.base.log, strs(&["Captain.attach"]));
}

#[test]
fn receivers_are_inherited_per_message_type_in_every_direction() {
    let mut world = World::new();
    let ids: Vec<EntityId> = vec![
        world.spawn_with((Unit::default(),)).unwrap(),
        world.spawn_with((Soldier::default(),)).unwrap(),
        world.spawn_with((Captain::default(),)).unwrap(),
        world.spawn_with((Major::default(),)).unwrap(),
    ];
    // A chain: Unit <- Soldier <- Captain <- Major (parent first).
    for pair in ids.windows(2) {
        world.set_parent(pair[1], pair[0]).unwrap();
    }
    let clear = |world: &mut World| {
        for (m,) in world.query_mut::<(&mut Unit,)>() {
            m.log.clear();
        }
    };
    clear(&mut world);
    // Down the tree from the root: every one handles both messages.
    assert_eq!(world.broadcast(ids[0], &Hit).unwrap(), 4);
    assert_eq!(world.broadcast(ids[0], &Heal).unwrap(), 4);
    let expected = [
        ["Unit.hit", "Unit.heal"],
        ["Unit.hit", "Soldier.heal"],
        ["Unit.hit", "Soldier.heal"],
        ["Unit.hit", "Soldier.heal"],
    ];
    for (id, want) in ids.iter().zip(expected) {
        assert_eq!(log(&world, *id), strs(&want));
    }
    // Up from the leaf, and to one entity.
    clear(&mut world);
    assert_eq!(world.send_upwards(ids[3], &Heal).unwrap(), 4);
    assert_eq!(world.send(ids[2], &Hit).unwrap(), 1);
    assert_eq!(log(&world, ids[0]), strs(&["Unit.heal"]));
    assert_eq!(log(&world, ids[1]), strs(&["Soldier.heal"]));
    assert_eq!(log(&world, ids[2]), strs(&["Soldier.heal", "Unit.hit"]));
    assert_eq!(log(&world, ids[3]), strs(&["Soldier.heal"]));
}

#[test]
fn a_disabled_derived_component_neither_updates_nor_receives() {
    let mut world = World::new();
    let id = world.spawn_with((Soldier::default(),)).unwrap();
    world.entity_mut(id).unwrap().set_enabled(false);
    world.update(1.0);
    assert_eq!(world.send(id, &Hit).unwrap(), 0);
    assert_eq!(
        log(&world, id),
        strs(&["Unit.attach", "Unit.enable", "Unit.disable"])
    );
}
