//! `World::update`, lifecycle hooks, sibling access, deferral and panics.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use ecs_core::prelude::*;

mod common;
use common::Position;

/// Every hook and update appends here; tests run single-threaded per log.
static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn log(line: impl Into<String>) {
    LOG.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(line.into());
}

fn take_log() -> Vec<String> {
    std::mem::take(&mut *LOG.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Tests share LOG, so they take turns.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    take_log();
    guard
}

#[derive(Component)]
#[component(behaviour)]
struct Velocity(f32);

impl Behaviour for Velocity {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        let v = self.0;
        if let Some(pos) = ctx.get_mut::<Position>() {
            pos.0 += v * dt;
        }
        log(format!("velocity {:?}", ctx.id()));
    }
}

#[derive(Component)]
#[component(behaviour)]
struct Physics;
impl Behaviour for Physics {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        log(format!("physics {}", ctx.name().unwrap_or("?")));
    }
}

#[derive(Component)]
#[component(behaviour)]
struct Model;
impl Behaviour for Model {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        log(format!("model {}", ctx.name().unwrap_or("?")));
    }
}

/// Logs every hook.
#[derive(Component)]
#[component(behaviour, multiple)]
struct Tracer(&'static str);

impl Behaviour for Tracer {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {
        log(format!("{} update", self.0));
    }
    fn start(&mut self, _: &mut Context<'_>) {
        log(format!("{} start", self.0));
    }
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        log(format!(
            "{} attach (has Position: {})",
            self.0,
            ctx.has::<Position>()
        ));
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        log(format!("{} detach", self.0));
    }
    fn on_enable(&mut self, _: &mut Context<'_>) {
        log(format!("{} enable", self.0));
    }
    fn on_disable(&mut self, _: &mut Context<'_>) {
        log(format!("{} disable", self.0));
    }
    fn on_kill(&mut self, _: &mut Context<'_>) {
        log(format!("{} kill", self.0));
    }
    fn on_revive(&mut self, _: &mut Context<'_>) {
        log(format!("{} revive", self.0));
    }
}

#[test]
fn update_moves_positions_through_sibling_access() {
    let _guard = serial();
    let mut world = World::new();
    let id = world.spawn_with((Position(1.0), Velocity(2.0))).unwrap();
    let lonely = world.spawn_with((Velocity(5.0),)).unwrap();
    assert_eq!(world.update(0.5), 2);
    assert_eq!(
        world.entity(id).unwrap().get::<Position>(),
        Some(&Position(2.0))
    );
    assert_eq!(
        take_log(),
        [format!("velocity {id:?}"), format!("velocity {lonely:?}")]
    );
}

#[test]
fn declared_order_first_then_first_added_order() {
    let _guard = serial();
    let mut world = World::new();
    world.spawn_with((Model, Velocity(0.0))).unwrap();
    world.spawn_named("a");
    let a = world.find_by_name("a").unwrap();
    world.entity_mut(a).unwrap().add(Physics).unwrap();
    world.entity_mut(a).unwrap().add(Model).unwrap();
    world.update(1.0);
    let first: Vec<String> = take_log()
        .into_iter()
        .map(|l| l.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(
        first,
        ["model", "model", "velocity", "physics"],
        "first-added type order"
    );

    world.set_update_order::<(Physics, Model)>();
    world.update(1.0);
    let second: Vec<String> = take_log()
        .into_iter()
        .map(|l| l.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(second, ["physics", "model", "model", "velocity"]);
}

#[test]
fn only_enabled_components_of_active_entities_update() {
    let _guard = serial();
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..4)
        .map(|i| {
            world
                .spawn_with((Position(0.0), Velocity(1.0 + i as f32)))
                .unwrap()
        })
        .collect();
    world.entity_mut(ids[0]).unwrap().disable::<Velocity>();
    world.entity_mut(ids[1]).unwrap().kill();
    world.entity_mut(ids[2]).unwrap().set_enabled(false);
    assert_eq!(world.update(1.0), 1);
    let moved: Vec<f32> = ids
        .iter()
        .map(|&id| world.entity(id).unwrap().get::<Position>().unwrap().0)
        .collect();
    assert_eq!(moved, [0.0, 0.0, 0.0, 4.0]);
}

#[test]
fn hooks_fire_once_in_unity_order() {
    let _guard = serial();
    let mut world = World::new();
    let id = world.spawn_with((Position(0.0),)).unwrap();
    world.entity_mut(id).unwrap().add(Tracer("t")).unwrap();
    world.update(1.0);
    world.update(1.0);
    world.entity_mut(id).unwrap().disable::<Tracer>();
    world.entity_mut(id).unwrap().disable::<Tracer>();
    world.update(1.0);
    world.entity_mut(id).unwrap().enable::<Tracer>();
    world.entity_mut(id).unwrap().kill();
    world.entity_mut(id).unwrap().kill();
    world.entity_mut(id).unwrap().revive();
    world.entity_mut(id).unwrap().set_enabled(false);
    world.entity_mut(id).unwrap().set_enabled(true);
    world.despawn(id).unwrap();
    assert_eq!(
        take_log(),
        [
            "t attach (has Position: true)",
            "t enable",
            "t start",
            "t update",
            "t update",
            "t disable",
            "t enable",
            "t kill",
            "t revive",
            "t disable",
            "t enable",
            "t disable",
            "t detach",
        ]
    );
}

#[test]
fn remove_paths_fire_detach_for_derived_components_too() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour, multiple, parent = Tracer)]
    struct Special(Tracer);
    impl Behaviour for Special {
        fn update(&mut self, _: &mut Context<'_>, _: f32) {}
        fn on_detach(&mut self, _: &mut Context<'_>) {
            log(format!("special {} detach", self.0 .0));
        }
    }

    let mut world = World::new();
    let id = world
        .spawn_with((Tracer("a"), Special(Tracer("b")), Tracer("c")))
        .unwrap();
    take_log();
    assert_eq!(world.entity_mut(id).unwrap().remove_all::<Tracer>(), 3);
    assert_eq!(
        take_log(),
        [
            "c disable",
            "c detach",
            "special b detach",
            "a disable",
            "a detach"
        ]
    );

    world.entity_mut(id).unwrap().add(Tracer("d")).unwrap();
    world.entity_mut(id).unwrap().disable::<Tracer>();
    take_log();
    world.entity_mut(id).unwrap().remove::<Tracer>();
    assert_eq!(
        take_log(),
        ["d detach"],
        "a disabled component gets no second on_disable"
    );

    world.entity_mut(id).unwrap().add(Tracer("e")).unwrap();
    take_log();
    world.entity_mut(id).unwrap().detach_all();
    assert_eq!(take_log(), ["e disable", "e detach"]);
}

#[test]
fn touching_the_running_components_storage_is_none_and_try_get_says_why() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour, multiple)]
    struct Greedy;
    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    impl Behaviour for Greedy {
        fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
            // `get` answers like `EntityRef::get`; `try_get` tells lent
            // out from missing.
            assert!(ctx.get::<Greedy>().is_none() && ctx.get_mut::<Greedy>().is_none());
            assert!(ctx.get::<Position>().is_none() && ctx.get_mut::<Position>().is_none());
            assert_eq!(
                ctx.try_get::<Greedy>().err(),
                ctx.try_get_mut::<Greedy>().err()
            );
            let own = ctx.try_get::<Greedy>().err().map(|e| e.to_string());
            let missing = ctx.try_get_mut::<Position>().err();
            SEEN.lock().unwrap().push(format!("{own:?} / {missing:?}"));
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Greedy, Greedy)).unwrap();
    world.update(1.0);
    let seen = std::mem::take(&mut *SEEN.lock().unwrap());
    assert_eq!(seen.len(), 2);
    assert!(
        seen[0].contains("stored with the running `Greedy`"),
        "{}",
        seen[0]
    );
    assert!(
        seen[0].contains(&format!(
            "Some(MissingComponent: entity {id:?} has no component that is-a `Position`; add one, \
             or check with `ctx.has::<Position>()` first)"
        )),
        "{}",
        seen[0]
    );
}

#[test]
fn structural_changes_are_deferred_to_the_end_of_update_in_order() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour)]
    struct Spawner {
        left: u32,
    }
    impl Behaviour for Spawner {
        fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
            if self.left == 0 {
                let me = ctx.id();
                ctx.commands().despawn(me);
                ctx.commands().despawn(me); // fails when applied: reported, not fatal
                return;
            }
            self.left -= 1;
            ctx.commands()
                .spawn_named("child", (Position(self.left as f32),));
            let me = ctx.id();
            ctx.commands().add(me, Position(-1.0));
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Spawner { left: 1 },)).unwrap();
    world.update(1.0);
    assert_eq!(world.len(), 2, "the spawn is applied after the update");
    assert_eq!(
        world.entity(id).unwrap().get::<Position>(),
        Some(&Position(-1.0))
    );
    assert_eq!(world.find_all_by_name("child").count(), 1);
    assert!(world.take_command_errors().is_empty());
    world.update(1.0);
    assert!(!world.contains(id));
    assert_eq!(world.take_command_errors(), [Error::NoSuchEntity(id)]);
}

#[test]
fn a_panicking_update_leaves_the_world_usable() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour)]
    struct Bomb {
        armed: bool,
    }
    impl Behaviour for Bomb {
        fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
            ctx.commands().spawn((Position(99.0),));
            if self.armed {
                panic!("boom");
            }
        }
    }
    let mut world = World::new();
    let bomb = world
        .spawn_with((Bomb { armed: true }, Position(0.0)))
        .unwrap();
    let other = world.spawn_with((Position(1.0), Velocity(1.0))).unwrap();
    let result = catch_unwind(AssertUnwindSafe(|| world.update(1.0)));
    assert!(result.is_err());
    assert_eq!(
        world.len(),
        2,
        "commands queued before the panic are discarded"
    );
    world
        .entity_mut(bomb)
        .unwrap()
        .get_mut::<Bomb>()
        .unwrap()
        .armed = false;
    assert_eq!(world.update(1.0), 2, "both types update again");
    assert_eq!(
        world.entity(other).unwrap().get::<Position>(),
        Some(&Position(2.0))
    );
    world.despawn(bomb).unwrap();
    assert_eq!(world.iter::<Bomb>().count(), 0);
}

#[test]
fn a_panicking_hook_aborts_the_operation_and_keeps_the_world_consistent() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour)]
    struct Fragile;
    impl Behaviour for Fragile {
        fn update(&mut self, _: &mut Context<'_>, _: f32) {}
        fn on_detach(&mut self, _: &mut Context<'_>) {
            panic!("cannot let go");
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Position(1.0), Fragile)).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| world.despawn(id))).is_err());
    assert!(world.contains(id), "the despawn did not happen");
    assert!(world.entity(id).unwrap().has::<Fragile>());
    assert!(catch_unwind(AssertUnwindSafe(|| world
        .entity_mut(id)
        .unwrap()
        .remove::<Fragile>()))
    .is_err());
    assert_eq!(world.entity(id).unwrap().len(), 2);
    assert_eq!(world.update(1.0), 1, "the column was put back");
    assert_eq!(
        world.entity_mut(id).unwrap().remove::<Position>(),
        Some(Position(1.0))
    );
}

#[test]
fn a_typed_sibling_is_handed_in_aligned_or_not() {
    let _guard = serial();
    #[derive(Component)]
    #[component(behaviour(with = Position))]
    struct Drift(f32);
    impl Behaviour for Drift {
        fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
            log(format!("no position on {:?}", ctx.id()));
        }
    }
    impl UpdateWith<Position> for Drift {
        fn update_with(&mut self, ctx: &mut Context<'_>, pos: &mut Position, dt: f32) {
            pos.0 += self.0 * dt;
            // The sibling's storage is lent out: `get` has nothing to hand
            // out, and `try_get` says why.
            assert!(ctx.get::<Position>().is_none());
            let err = ctx.try_get::<Position>().err().unwrap();
            assert!(matches!(
                err,
                Error::InUse {
                    wanted: "Position",
                    running: "Drift",
                    sibling: true,
                    ..
                }
            ));
            assert_eq!(
                err.to_string(),
                "`Position` is stored with the sibling the running `Drift` updates with (its \
                 `behaviour(with = ..)`) and is lent out while it runs; use the sibling argument \
                 of `Drift::update_with` instead, or queue the access with `ctx.commands().run(..)`"
            );
        }
    }
    for misaligned in [false, true] {
        let mut world = World::new();
        if misaligned {
            // A lone Position first: no Drift row matches its Position row.
            world.spawn_with((Position(99.0),)).unwrap();
        }
        let a = world.spawn_with((Position(0.0), Drift(1.0))).unwrap();
        let b = world.spawn_with((Drift(2.0), Position(10.0))).unwrap();
        let bare = world.spawn_with((Drift(3.0),)).unwrap();
        assert_eq!(world.update(1.0), 3);
        let pos = |id| world.entity(id).unwrap().get::<Position>().unwrap().0;
        assert_eq!((pos(a), pos(b)), (1.0, 12.0), "misaligned: {misaligned}");
        assert_eq!(take_log(), [format!("no position on {bare:?}")]);
    }
}
