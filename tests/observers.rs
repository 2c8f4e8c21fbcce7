//! Observers: called after a component's own hooks, in registration order,
//! for every type that is-a the observed one; removable; queued changes
//! applied as a hook's are; a panic leaves the world as a hook's does.

use std::sync::{Arc, Mutex};

use ecs_core::prelude::*;

#[derive(Component, Debug)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

#[derive(Component, Debug)]
#[component(parent = Collider, multiple)]
struct CircleCollider {
    base: Collider,
}

#[derive(Component, Debug)]
struct Position(f32);

#[derive(Component, Debug)]
struct Spark;

type Log = Arc<Mutex<Vec<String>>>;

fn log() -> Log {
    Arc::new(Mutex::new(Vec::new()))
}

fn entries(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

/// Logs each lifecycle hook it hears, so the order against observers shows.
#[derive(Component)]
#[component(behaviour)]
struct Noisy;
static HOOKS: Mutex<Vec<String>> = Mutex::new(Vec::new());
impl Behaviour for Noisy {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, _: &mut Context<'_>) {
        HOOKS.lock().unwrap().push("on_attach".into());
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        HOOKS.lock().unwrap().push("on_detach".into());
    }
}

#[test]
fn an_observer_on_a_base_type_hears_every_derived_one() {
    let mut world = World::new();
    let heard = log();
    let sink = Arc::clone(&heard);
    world.observe::<Collider>(ComponentEvent::Added, move |ctx| {
        let radius: f32 = ctx
            .world()
            .entity(ctx.id())
            .unwrap()
            .get_all::<Collider>()
            .map(|c| c.radius)
            .sum();
        sink.lock().unwrap().push(format!("added {radius}"));
    });
    world
        .spawn_with((CircleCollider {
            base: Collider { radius: 2.0 },
        },))
        .unwrap();
    let plain = world.spawn_with((Position(0.0),)).unwrap();
    world
        .entity_mut(plain)
        .unwrap()
        .add(Collider { radius: 1.0 })
        .unwrap();
    assert_eq!(entries(&heard), ["added 2", "added 1"]);
}

#[test]
fn observers_run_after_the_hooks_in_registration_order_and_can_be_removed() {
    let mut world = World::new();
    let order = log();
    let (first, second) = (Arc::clone(&order), Arc::clone(&order));
    let a = world.observe::<Noisy>(ComponentEvent::Added, move |_| {
        let hooks = HOOKS.lock().unwrap().len();
        first
            .lock()
            .unwrap()
            .push(format!("first after {hooks} hook"));
    });
    world.observe::<Noisy>(ComponentEvent::Added, move |_| {
        second.lock().unwrap().push("second".into());
    });
    HOOKS.lock().unwrap().clear();
    world.spawn_with((Noisy,)).unwrap();
    assert_eq!(entries(&order), ["first after 1 hook", "second"]);
    assert!(world.unobserve(a));
    assert!(!world.unobserve(a));
    world.spawn_with((Noisy,)).unwrap();
    assert_eq!(entries(&order), ["first after 1 hook", "second", "second"]);
}

#[test]
fn removed_enabled_and_disabled_are_heard_with_the_component_still_there() {
    let mut world = World::new();
    let heard = log();
    for event in [
        ComponentEvent::Removed,
        ComponentEvent::Enabled,
        ComponentEvent::Disabled,
    ] {
        let sink = Arc::clone(&heard);
        world.observe::<Position>(event, move |ctx| {
            let x = ctx
                .world()
                .entity(ctx.id())
                .unwrap()
                .get::<Position>()
                .map(|p| p.0);
            sink.lock().unwrap().push(format!("{event:?} {x:?}"));
        });
    }
    let id = world.spawn_with((Position(4.0),)).unwrap();
    assert_eq!(entries(&heard), ["Enabled Some(4.0)"]);
    world.entity_mut(id).unwrap().set_enabled(false);
    world.entity_mut(id).unwrap().set_enabled(true);
    world.despawn(id).unwrap();
    assert_eq!(
        entries(&heard),
        [
            "Enabled Some(4.0)",
            "Disabled Some(4.0)",
            "Enabled Some(4.0)",
            "Disabled Some(4.0)",
            "Removed Some(4.0)"
        ]
    );
}

#[test]
fn observers_queue_commands_applied_as_a_hooks_are() {
    let mut world = World::new();
    world.observe::<Position>(ComponentEvent::Added, |ctx| {
        ctx.commands().spawn((Spark,));
    });
    // A batch path that skips hooks for plain types must not skip this one.
    world
        .spawn_batch((0..3).map(|i| (Position(i as f32),)))
        .unwrap();
    assert_eq!(world.query::<(&Spark,)>().count(), 0, "queued, not applied");
    world.apply_commands();
    assert_eq!(world.query::<(&Spark,)>().count(), 3);
}

#[test]
fn changed_is_delivered_once_per_entity_when_an_update_ends() {
    let mut world = World::new();
    let heard = log();
    let sink = Arc::clone(&heard);
    let a = world.spawn_with((Position(0.0),)).unwrap();
    let b = world.spawn_with((Position(0.0),)).unwrap();
    world.observe::<Position>(ComponentEvent::Changed, move |ctx| {
        sink.lock().unwrap().push(format!("{:?}", ctx.id()));
    });
    world.update(1.0);
    assert!(entries(&heard).is_empty(), "nothing changed yet");
    world
        .entity_mut(b)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 1.0;
    world
        .entity_mut(b)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 2.0;
    world.update(1.0);
    assert_eq!(entries(&heard), [format!("{b:?}")]);
    world.deliver_changes();
    assert_eq!(entries(&heard).len(), 1, "delivered once");
    for (p,) in world.query_mut::<(&mut Position,)>() {
        p.0 += 1.0;
    }
    world.deliver_changes();
    assert_eq!(entries(&heard)[1..], [format!("{a:?}"), format!("{b:?}")]);
}

#[test]
fn a_panicking_observer_leaves_the_world_whole() {
    let mut world = World::new();
    world.observe::<Position>(ComponentEvent::Added, |_| panic!("observer failed"));
    let keep = world.spawn_with((Spark,)).unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.spawn_with((Position(1.0),)).unwrap();
    }));
    assert!(result.is_err());
    assert!(world.contains(keep));
    // The world still works, and a second panic is the same.
    let id = world.spawn_with((Spark,)).unwrap();
    world.despawn(id).unwrap();
    let again = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = world.spawn_with((Position(2.0),));
    }));
    assert!(again.is_err());
    assert!(world.contains(keep));
}

#[derive(Component, Debug)]
#[component(parent = Collider, multiple)]
struct BoxCollider {
    base: Collider,
}

#[derive(Component, Debug, Clone)]
struct Spot;

/// What an add reports after the observers, the types or the world's
/// storage changed under them: a restore to a snapshot taken before a
/// derived type existed (another type then takes its place in the world),
/// and observers removed or added after a type was heard.
#[test]
fn observers_stay_right_as_observers_types_and_restores_change() {
    let mut world = World::new();
    let heard = log();
    let sink = Arc::clone(&heard);
    let on_base = world.observe::<Collider>(ComponentEvent::Added, move |ctx| {
        sink.lock()
            .unwrap()
            .push(format!("collider {}", ctx.id().index()));
    });
    let sink = Arc::clone(&heard);
    world.observe::<CircleCollider>(ComponentEvent::Added, move |ctx| {
        sink.lock()
            .unwrap()
            .push(format!("circle {}", ctx.id().index()));
    });
    let a = world.spawn_with((Spot,)).unwrap();
    let before = world.snapshot().unwrap();
    let circle = |radius| CircleCollider {
        base: Collider { radius },
    };
    world.entity_mut(a).unwrap().add(circle(1.0)).unwrap();
    let both = [
        format!("collider {}", a.index()),
        format!("circle {}", a.index()),
    ];
    assert_eq!(entries(&heard), both);
    heard.lock().unwrap().clear();

    // Back to before any collider was stored: a box collider, stored first
    // now, is heard by the base type's observer only.
    world.restore(&before).unwrap();
    let boxed = BoxCollider {
        base: Collider { radius: 2.0 },
    };
    world.entity_mut(a).unwrap().add(boxed).unwrap();
    assert_eq!(entries(&heard), [format!("collider {}", a.index())]);
    heard.lock().unwrap().clear();
    world.entity_mut(a).unwrap().add(circle(3.0)).unwrap();
    assert_eq!(entries(&heard), both);
    heard.lock().unwrap().clear();

    // The base type's observer removed: only the circle's hears a circle,
    // and no one a box; one added again hears both.
    assert!(world.unobserve(on_base));
    let boxed = BoxCollider {
        base: Collider { radius: 4.0 },
    };
    world.entity_mut(a).unwrap().add(boxed).unwrap();
    world.entity_mut(a).unwrap().add(circle(5.0)).unwrap();
    assert_eq!(entries(&heard), [format!("circle {}", a.index())]);
    heard.lock().unwrap().clear();
    let sink = Arc::clone(&heard);
    world.observe::<Collider>(ComponentEvent::Added, move |ctx| {
        sink.lock()
            .unwrap()
            .push(format!("again {}", ctx.id().index()));
    });
    world.entity_mut(a).unwrap().add(circle(6.0)).unwrap();
    let again = [
        format!("circle {}", a.index()),
        format!("again {}", a.index()),
    ];
    assert_eq!(entries(&heard), again);
}
