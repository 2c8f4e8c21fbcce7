//! Parent/child links, recursive despawn, tree search and typed messages.

use std::sync::Mutex;

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Wheel(u8);

#[derive(Component, Debug, PartialEq)]
#[component(parent = Wheel)]
struct SpareWheel(Wheel);

/// A car with four wheels and a trailer with two; the trailer hangs off the car.
fn car(world: &mut World) -> (EntityId, Vec<EntityId>, EntityId) {
    let car = world.spawn_named("car");
    let wheels: Vec<EntityId> = (0..4)
        .map(|i| world.spawn_with((Wheel(i),)).unwrap())
        .collect();
    for &w in &wheels {
        world.set_parent(w, car).unwrap();
    }
    let trailer = world.spawn_named("trailer");
    world.set_parent(trailer, car).unwrap();
    for i in 10..12 {
        let w = world.spawn_with((Wheel(i),)).unwrap();
        world.set_parent(w, trailer).unwrap();
    }
    (car, wheels, trailer)
}

#[test]
fn children_keep_attach_order_and_descendants_are_depth_first() {
    let mut world = World::new();
    let (car, wheels, trailer) = car(&mut world);
    let e = world.entity(car).unwrap();
    let mut expected_children = wheels.clone();
    expected_children.push(trailer);
    assert_eq!(e.children().collect::<Vec<_>>(), expected_children);
    let order: Vec<u8> = e
        .descendants()
        .filter_map(|id| world.entity(id).unwrap().get::<Wheel>().map(|w| w.0))
        .collect();
    assert_eq!(order, [0, 1, 2, 3, 10, 11]);
    let deep = world.entity(trailer).unwrap().children().next().unwrap();
    assert_eq!(
        world.entity(deep).unwrap().ancestors().collect::<Vec<_>>(),
        [trailer, car]
    );
    assert_eq!(world.roots().collect::<Vec<_>>(), [car]);
}

#[test]
fn reparenting_moves_to_the_end_and_bad_links_change_nothing() {
    let mut world = World::new();
    let (car, wheels, trailer) = car(&mut world);
    world.set_parent(wheels[0], trailer).unwrap();
    assert_eq!(
        world.entity(trailer).unwrap().children().last(),
        Some(wheels[0])
    );
    assert_eq!(
        world.entity(car).unwrap().children().next(),
        Some(wheels[1])
    );

    let deep = world.entity(trailer).unwrap().children().next().unwrap();
    assert_eq!(
        world.set_parent(car, deep),
        Err(Error::HierarchyCycle {
            child: car,
            parent: deep
        })
    );
    assert!(matches!(
        world.set_parent(car, car),
        Err(Error::HierarchyCycle { .. })
    ));
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    assert_eq!(
        world.set_parent(wheels[1], gone),
        Err(Error::NoSuchEntity(gone))
    );
    assert_eq!(
        world.entity(wheels[1]).unwrap().parent(),
        Some(car),
        "unchanged"
    );
    assert_eq!(world.entity(car).unwrap().parent(), None);

    world.clear_parent(trailer).unwrap();
    assert_eq!(world.roots().collect::<Vec<_>>(), [car, trailer]);
}

#[test]
fn despawn_takes_the_subtree_children_first() {
    static DETACHED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    #[derive(Component)]
    #[component(behaviour)]
    struct Tag(&'static str);
    impl Behaviour for Tag {
        fn update(&mut self, _: &mut Context<'_>, _: f32) {}
        fn on_detach(&mut self, _: &mut Context<'_>) {
            DETACHED.lock().unwrap().push(self.0.to_owned());
        }
    }
    let mut world = World::new();
    let root = world.spawn_with((Tag("root"),)).unwrap();
    let a = world.spawn_with((Tag("a"),)).unwrap();
    let a1 = world.spawn_with((Tag("a1"),)).unwrap();
    let b = world.spawn_with((Tag("b"),)).unwrap();
    let outside = world.spawn_with((Tag("outside"),)).unwrap();
    world.set_parent(a, root).unwrap();
    world.set_parent(a1, a).unwrap();
    world.set_parent(b, root).unwrap();
    world.despawn(root).unwrap();
    assert_eq!(*DETACHED.lock().unwrap(), ["b", "a1", "a", "root"]);
    assert_eq!(world.len(), 1);
    assert!(world.contains(outside));
    assert_eq!(world.roots().collect::<Vec<_>>(), [outside]);

    // Despawning a child unlinks it from its parent.
    let p = world.spawn();
    let c = world.spawn();
    world.set_parent(c, p).unwrap();
    world.despawn(c).unwrap();
    assert_eq!(world.entity(p).unwrap().children().count(), 0);
}

#[test]
fn search_in_children_and_parents_follows_unity_order() {
    let mut world = World::new();
    let (car, wheels, trailer) = car(&mut world);
    let spare = world.spawn_with((SpareWheel(Wheel(99)),)).unwrap();
    world.set_parent(spare, trailer).unwrap();

    let (holder, w) = world
        .find_in_children::<Wheel>(car, TreeFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!((holder, w.0), (wheels[0], 0));
    let all: Vec<u8> = world
        .find_all_in_children::<Wheel>(car, TreeFilter::ALL)
        .unwrap()
        .map(|(_, w)| w.0)
        .collect();
    assert_eq!(
        all,
        [0, 1, 2, 3, 10, 11, 99],
        "is-a: the spare counts as a Wheel"
    );
    assert_eq!(
        world
            .find_in_children::<SpareWheel>(car, TreeFilter::ALL)
            .unwrap()
            .unwrap()
            .0,
        spare
    );

    world.entity_mut(wheels[0]).unwrap().kill();
    world.entity_mut(wheels[1]).unwrap().set_enabled(false);
    let active = world
        .find_in_children::<Wheel>(car, TreeFilter::ACTIVE)
        .unwrap()
        .unwrap();
    assert_eq!(active.1 .0, 2);
    let skip_dead_only = TreeFilter {
        skip_killed: true,
        skip_disabled: false,
    };
    assert_eq!(
        world
            .find_in_children::<Wheel>(car, skip_dead_only)
            .unwrap()
            .unwrap()
            .1
             .0,
        1
    );

    // Upwards: self first, then ancestors.
    world.entity_mut(car).unwrap().add(Wheel(50)).unwrap();
    let up: Vec<u8> = world
        .find_all_in_parents::<Wheel>(spare, TreeFilter::ALL)
        .unwrap()
        .map(|(_, w)| w.0)
        .collect();
    assert_eq!(up, [99, 50]);
    assert_eq!(
        world
            .find_in_parents::<Wheel>(trailer, TreeFilter::ALL)
            .unwrap()
            .unwrap()
            .0,
        car
    );
    world.entity_mut(car).unwrap().kill();
    assert!(world
        .find_in_parents::<Wheel>(trailer, TreeFilter::ACTIVE)
        .unwrap()
        .is_none());

    let gone = world.spawn();
    world.despawn(gone).unwrap();
    assert!(world
        .find_in_children::<Wheel>(gone, TreeFilter::ALL)
        .is_err());
}

/// Messages
struct Bump(u32);
struct Honk;

#[derive(Component, Debug, PartialEq)]
#[component(receives(Bump, Honk), multiple)]
struct Counter(u32);

impl Receive<Bump> for Counter {
    fn receive(&mut self, ctx: &mut Context<'_>, bump: &Bump) {
        self.0 += bump.0;
        if let Some(wheel) = ctx.get_mut::<Wheel>() {
            wheel.0 += 1;
        }
        if self.0 > 100 {
            let me = ctx.id();
            ctx.commands().despawn(me);
        }
    }
}

impl Receive<Honk> for Counter {
    fn receive(&mut self, _: &mut Context<'_>, _: &Honk) {
        self.0 = 0;
    }
}

#[test]
fn send_broadcast_and_upwards_count_receivers() {
    let mut world = World::new();
    let root = world.spawn_with((Counter(0), Counter(10))).unwrap();
    let child = world.spawn_with((Wheel(0), Counter(0))).unwrap();
    let grandchild = world.spawn_with((Counter(0),)).unwrap();
    let silent = world.spawn_with((Wheel(7),)).unwrap();
    world.set_parent(child, root).unwrap();
    world.set_parent(grandchild, child).unwrap();
    world.set_parent(silent, root).unwrap();

    assert_eq!(
        world.send(root, &Bump(1)).unwrap(),
        2,
        "both counters on the entity"
    );
    let counts: Vec<u32> = world
        .entity(root)
        .unwrap()
        .get_all::<Counter>()
        .map(|c| c.0)
        .collect();
    assert_eq!(counts, [1, 11]);
    assert_eq!(world.broadcast(root, &Bump(1)).unwrap(), 4);
    assert_eq!(
        world.entity(child).unwrap().get::<Wheel>(),
        Some(&Wheel(1)),
        "sibling access"
    );
    assert_eq!(
        world.entity(silent).unwrap().get::<Wheel>(),
        Some(&Wheel(7))
    );
    assert_eq!(world.send_upwards(grandchild, &Bump(1)).unwrap(), 4);
    assert_eq!(world.send(silent, &Bump(1)).unwrap(), 0);

    // Disabled components and killed entities do not receive.
    world.entity_mut(root).unwrap().disable::<Counter>();
    world.entity_mut(grandchild).unwrap().kill();
    assert_eq!(world.broadcast(root, &Honk).unwrap(), 1);
    assert_eq!(
        world.entity(child).unwrap().get::<Counter>(),
        Some(&Counter(0))
    );

    // Structural changes queued by a receiver apply before `send` returns.
    assert_eq!(world.send(child, &Bump(500)).unwrap(), 1);
    assert!(!world.contains(child));
    assert!(!world.contains(grandchild), "its subtree went with it");

    let gone = child;
    assert_eq!(world.send(gone, &Honk), Err(Error::NoSuchEntity(gone)));
}

#[test]
fn a_message_nobody_receives_is_handled_zero_times() {
    struct Unknown;
    let mut world = World::new();
    let id = world.spawn_with((Counter(0),)).unwrap();
    assert_eq!(world.broadcast(id, &Unknown).unwrap(), 0);
}
