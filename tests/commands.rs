//! `Commands` outside behaviours: a queue filled anywhere and applied by
//! hand, the world's own queue, and what a failing or panicking change does.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ecs_core::prelude::*;

mod common;
use common::Position;

#[derive(Component, Debug, PartialEq)]
struct Speed(f32);

/// What the changes did, in the order they did it.
#[derive(Debug, Default, PartialEq)]
struct Log(Vec<&'static str>);

fn note(commands: &mut Commands, line: &'static str) {
    commands.run(move |world| {
        world.get_resource_or_insert_with(Log::default).0.push(line);
        Ok(())
    });
}

fn log(world: &World) -> &[&'static str] {
    world.get_resource::<Log>().map_or(&[], |l| &l.0[..])
}

#[test]
fn a_queue_filled_outside_is_applied_in_order() {
    let mut world = World::new();
    let target = world.spawn();
    let mut commands = Commands::new();
    note(&mut commands, "first");
    commands.spawn_named("bullet", (Position(1.0),));
    commands.run(|world| {
        // The spawn queued before this change has happened.
        let bullet = world.find_by_name("bullet").expect("spawned just before");
        world.entity_mut(bullet)?.add(Speed(9.0))?;
        Ok(())
    });
    commands.add(target, Speed(1.0));
    commands.remove::<Speed>(target); // after the add, so it finds it
    commands.add(target, Speed(2.0));
    commands.kill(target);
    commands.revive(target);
    commands.kill(target);
    commands.insert_resource(7_u32);
    commands.remove_resource::<u32>();
    commands.insert_resource(8_u32);
    commands.spawn((Position(2.0),));
    note(&mut commands, "last");
    assert_eq!(commands.len(), 14);
    assert!(
        world.find_by_name("bullet").is_none(),
        "nothing before apply"
    );

    assert_eq!(commands.apply(&mut world), Ok(()));
    assert!(commands.is_empty());
    assert_eq!(world.len(), 3);
    let bullet = world.find_by_name("bullet").unwrap();
    assert_eq!(
        world.entity(bullet).unwrap().get::<Speed>(),
        Some(&Speed(9.0))
    );
    let target = world.entity(target).unwrap();
    assert_eq!(target.get::<Speed>(), Some(&Speed(2.0)));
    assert!(target.is_dead());
    assert_eq!(world.get_resource::<u32>(), Some(&8));
    assert_eq!(log(&world), ["first", "last"]);
}

#[test]
fn failures_are_returned_in_order_and_the_rest_still_applies() {
    let mut world = World::new();
    let id = world.spawn_with((Speed(1.0),)).unwrap();
    let gone = world.spawn();
    world.despawn(gone).unwrap();

    let mut commands = Commands::new();
    commands.despawn(gone);
    note(&mut commands, "after the failed despawn");
    commands.add(id, Speed(2.0)); // Speed is single
    commands.remove::<Position>(id);
    commands.run(move |_| Err(Error::NoSuchEntity(id)));
    commands.despawn(id);
    commands.remove_resource::<Log>(); // a missing resource is no failure
    commands.remove_resource::<Log>();

    let Err(Error::Commands { errors }) = commands.apply(&mut world) else {
        panic!("four changes failed");
    };
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert_eq!(errors[0], Error::NoSuchEntity(gone));
    assert!(matches!(errors[1], Error::Duplicate { entity, .. } if entity == id));
    assert!(matches!(errors[2], Error::MissingComponent { entity, .. } if entity == id));
    assert_eq!(errors[3], Error::NoSuchEntity(id));
    assert!(
        !world.contains(id),
        "the despawn after the failures applied"
    );
    assert!(!world.contains_resource::<Log>());
    assert!(
        world.take_command_errors().is_empty(),
        "a queue of one's own reports to its caller, not to the world"
    );
}

#[test]
fn a_queue_is_reusable_and_is_send() {
    let mut world = World::new();
    // Filled on another thread, applied here.
    let mut commands = std::thread::spawn(|| {
        let mut commands = Commands::new();
        commands.spawn((Position(0.0),));
        commands.insert_resource(Speed(3.0));
        commands
    })
    .join()
    .unwrap();
    assert_eq!(format!("{commands:?}"), "Commands { len: 2, .. }");
    assert_eq!(commands.apply(&mut world), Ok(()));
    assert_eq!(commands.apply(&mut world), Ok(()), "applied once only");
    assert_eq!(world.len(), 1);
    commands.spawn((Position(1.0),));
    assert_eq!(commands.len(), 1);
    assert_eq!(commands.apply(&mut world), Ok(()));
    assert_eq!(world.len(), 2);
    assert_eq!(world.get_resource::<Speed>(), Some(&Speed(3.0)));
}

/// Queues a note in each update.
#[derive(Component, Debug)]
#[component(behaviour)]
struct Noter;

impl Behaviour for Noter {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        note(ctx.commands(), "from a behaviour");
    }
}

#[test]
fn the_worlds_queue_is_the_one_behaviours_fill() {
    let mut world = World::new();
    world.spawn_with((Noter,)).unwrap();
    let gone = world.spawn();
    world.despawn(gone).unwrap();

    note(world.commands(), "from outside");
    world.commands().despawn(gone);
    assert_eq!(world.commands().len(), 2);
    assert!(log(&world).is_empty(), "queued, not applied");

    world.update(1.0);
    assert_eq!(
        log(&world),
        ["from outside", "from a behaviour"],
        "queued before the update, so applied first"
    );
    assert!(world.commands().is_empty());
    assert_eq!(world.take_command_errors(), [Error::NoSuchEntity(gone)]);

    note(world.commands(), "applied by hand");
    world.apply_commands();
    assert_eq!(log(&world).last(), Some(&"applied by hand"));
}

#[test]
fn append_hands_a_queue_to_the_world() {
    let mut world = World::new();
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    note(world.commands(), "the world's");
    let mut mine = Commands::new();
    note(&mut mine, "mine");
    mine.despawn(gone);
    world.commands().append(&mut mine);
    assert!(mine.is_empty());
    assert_eq!(world.commands().len(), 3);
    world.apply_commands();
    assert_eq!(log(&world), ["the world's", "mine"]);
    assert_eq!(world.take_command_errors(), [Error::NoSuchEntity(gone)]);
}

/// Spawns a `Spark` from its `on_attach`, through the world's queue.
#[derive(Component, Debug)]
#[component(behaviour)]
struct Emitter;

#[derive(Component, Debug)]
struct Spark;

impl Behaviour for Emitter {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        ctx.commands().spawn((Spark,));
    }
}

#[test]
fn changes_hooks_queue_while_applying_go_to_the_worlds_queue() {
    let mut world = World::new();
    let mut commands = Commands::new();
    commands.spawn((Emitter,));
    assert_eq!(commands.apply(&mut world), Ok(()));
    assert_eq!(world.len(), 1, "as after a direct spawn_with");
    assert_eq!(world.commands().len(), 1);
    world.apply_commands();
    assert_eq!(world.len(), 2);
    assert_eq!(world.iter::<Spark>().count(), 1);
}

#[test]
fn a_queue_applied_inside_a_world_change_applies_at_once() {
    let mut world = World::new();
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    world.commands().run(move |world| {
        let mut mine = Commands::new();
        note(&mut mine, "mine");
        mine.spawn((Emitter,));
        mine.despawn(gone);
        assert_eq!(
            mine.apply(world),
            Err(Error::Commands {
                errors: vec![Error::NoSuchEntity(gone)]
            })
        );
        assert_eq!(log(world), ["mine"], "applied before this change returns");
        assert_eq!(world.iter::<Emitter>().count(), 1);
        Ok(())
    });
    note(world.commands(), "the world's");
    world.update(1.0);
    assert_eq!(log(&world), ["mine", "the world's"]);
    assert_eq!(
        world.iter::<Spark>().count(),
        1,
        "the emitter's hook queued behind, in the same pass"
    );
    assert!(world.take_command_errors().is_empty());
}

fn panics(f: impl FnOnce()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_err()
}

/// The world still works: spawn, add, update, and a queue of each kind.
fn still_usable(world: &mut World) {
    let before = world.len();
    let id = world.spawn_with((Position(1.0),)).unwrap();
    world.entity_mut(id).unwrap().add(Speed(1.0)).unwrap();
    world.update(0.1);
    let mut commands = Commands::new();
    commands.despawn(id);
    assert_eq!(commands.apply(world), Ok(()));
    world.commands().spawn((Position(2.0),));
    world.apply_commands();
    assert_eq!(world.len(), before + 1);
    assert_eq!(world.iter_ids().count(), world.len());
}

#[test]
fn a_panicking_change_keeps_what_came_before_and_drops_what_follows() {
    let mut world = World::new();
    let mut commands = Commands::new();
    commands.spawn((Position(1.0),));
    commands.run(|world| {
        world.spawn_with((Position(2.0),))?; // done before the panic: kept
        panic!("a user's change panicked");
    });
    commands.spawn((Position(3.0),));
    note(&mut commands, "never");
    assert!(panics(|| {
        let _ = commands.apply(&mut world);
    }));
    assert!(
        commands.is_empty(),
        "the changes after the panic are dropped"
    );
    let mut kept: Vec<f32> = world.iter::<Position>().map(|(_, p)| p.0).collect();
    kept.sort_by(f32::total_cmp);
    assert_eq!(kept, [1.0, 2.0]);
    assert!(log(&world).is_empty());
    still_usable(&mut world);
}

#[test]
fn a_panicking_change_in_the_worlds_queue_empties_it() {
    let mut world = World::new();
    world.commands().spawn((Position(1.0),));
    world.commands().run(|_| panic!("a user's change panicked"));
    world.commands().spawn((Position(3.0),));
    assert!(panics(|| world.apply_commands()));
    assert_eq!(world.len(), 1);
    assert!(world.commands().is_empty());
    assert!(world.take_command_errors().is_empty());
    world.update(1.0);
    assert_eq!(world.len(), 1, "nothing of the dropped queue comes back");
    still_usable(&mut world);
}

/// Queues a panicking change in its first update only.
#[derive(Component, Debug)]
#[component(behaviour)]
struct Saboteur(bool);

impl Behaviour for Saboteur {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        if std::mem::take(&mut self.0) {
            ctx.commands().run(|_| panic!("a queued change panicked"));
            ctx.commands().spawn((Position(0.0),));
        }
    }
}

#[test]
fn a_change_panicking_at_the_end_of_an_update_leaves_the_world_usable() {
    let mut world = World::new();
    let id = world.spawn_with((Saboteur(true),)).unwrap();
    assert!(panics(|| {
        world.update(1.0);
    }));
    assert!(world.commands().is_empty());
    assert_eq!(world.len(), 1);
    assert_eq!(world.update(1.0), 1);
    assert!(!world.entity(id).unwrap().get::<Saboteur>().unwrap().0);
    still_usable(&mut world);
}

/// A world whose command errors nobody takes keeps the first 1,024 and
/// counts the rest, rather than growing for as long as it runs.
#[test]
fn command_errors_nobody_takes_stay_bounded() {
    let mut world = World::new();
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    for _ in 0..1_100 {
        world.commands().despawn(gone);
    }
    world.apply_commands();
    let errors = world.take_command_errors();
    assert_eq!(errors.len(), 1_025);
    assert!(errors[..1_024]
        .iter()
        .all(|e| matches!(e, Error::NoSuchEntity(id) if *id == gone)));
    assert!(matches!(errors[1_024], Error::ErrorsDropped { count: 76 }));
    assert!(world.take_command_errors().is_empty());
}
