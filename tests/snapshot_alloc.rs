//! A rollback loop does not allocate: restoring a snapshot into the world
//! it was taken from reuses the world's memory. Counted by a global
//! allocator that wraps the system's and counts this thread's allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ecs_core::prelude::*;

struct Counting;

thread_local! {
    /// Allocations made by this thread while counting is on.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to `System`; the count only
// touches `const` thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations_in<R>(f: impl FnOnce() -> R) -> (usize, R) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    let result = f();
    COUNTING.with(|on| on.set(false));
    (ALLOCATIONS.with(Cell::get), result)
}

#[derive(Component, Clone, Debug, PartialEq)]
#[component(name = "snapshot_alloc::Position")]
struct Position([f32; 3]);

#[derive(Component, Clone, Debug, PartialEq)]
#[component(name = "snapshot_alloc::Velocity")]
struct Velocity([f32; 3]);

#[derive(Component, Clone, Debug, PartialEq)]
#[component(name = "snapshot_alloc::Health")]
struct Health(u32);

#[derive(Component, Clone, Debug, PartialEq)]
#[component(multiple, name = "snapshot_alloc::Tag")]
struct Tag(u8);

/// Everything a user can observe of a world: each entity in iteration
/// order with its components, name, parent and states.
fn picture(world: &World) -> Vec<String> {
    let rows = world.query::<(EntityId,)>().include_inactive().into_iter();
    rows.map(|(id,)| {
        let e = world.entity(id).unwrap();
        format!(
            "{id:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            e.get::<Position>(),
            e.get::<Velocity>(),
            e.get::<Health>(),
            e.get_all::<Tag>().collect::<Vec<_>>(),
            e.name(),
            e.parent(),
            e.is_enabled(),
        )
    })
    .collect()
}

/// A world with several tables, names, a hierarchy, a disabled entity
/// and a despawned one (a free slot).
fn world() -> World {
    let mut world = World::new();
    let root = world.spawn_named("root");
    for i in 0..50u32 {
        let f = i as f32;
        let id = world
            .spawn_with((Position([f, 0.0, 0.0]), Velocity([1.0, f, 0.0])))
            .unwrap();
        if i % 3 == 0 {
            world.entity_mut(id).unwrap().add(Health(i)).unwrap();
        }
        if i % 5 == 0 {
            world.set_parent(id, root).unwrap();
            world.entity_mut(id).unwrap().set_name(Some("child"));
        }
    }
    let tagged = world
        .spawn_with((Position([0.0; 3]), Tag(1), Tag(2)))
        .unwrap();
    world.entity_mut(tagged).unwrap().set_enabled(false);
    let gone = world.spawn_with((Health(0),)).unwrap();
    world.despawn(gone).unwrap();
    world
}

/// One frame of play: values change, entities come and go within the
/// tables that exist, names and links change.
fn play(world: &mut World, frame: u32) {
    for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
        p.0[0] += v.0[0];
    }
    let ids: Vec<EntityId> = world
        .query::<(EntityId, &Health)>()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    world.despawn(ids[frame as usize % ids.len()]).unwrap();
    let id = world
        .spawn_with((Position([0.0; 3]), Velocity([0.0; 3])))
        .unwrap();
    world.entity_mut(id).unwrap().set_name(Some("newcomer"));
    let root = world.find_by_name("root").unwrap();
    world.set_parent(id, root).unwrap();
}

#[test]
fn restoring_into_the_same_world_allocates_nothing() {
    let mut world = world();
    // Warm up: the first restore gives the world its spare buffers.
    let frame = world.snapshot().unwrap();
    play(&mut world, 0);
    world.restore(&frame).unwrap();
    for cycle in 1..20 {
        // The count works: a snapshot is a new copy, so it allocates.
        let (allocations, frame) = allocations_in(|| world.snapshot().unwrap());
        assert!(allocations > 0);
        let before = picture(&world);
        play(&mut world, cycle);
        play(&mut world, cycle + 1);
        let (allocations, restored) = allocations_in(|| world.restore(&frame));
        restored.unwrap();
        assert_eq!(allocations, 0, "restore {cycle} allocated");
        assert_eq!(picture(&world), before);
    }
}

#[test]
fn restoring_the_same_snapshot_again_and_again_allocates_nothing() {
    let mut world = world();
    let frame = world.snapshot().unwrap();
    let before = picture(&world);
    world.restore(&frame).unwrap();
    for cycle in 0..20 {
        play(&mut world, cycle);
        let (allocations, restored) = allocations_in(|| world.restore(&frame));
        restored.unwrap();
        assert_eq!(allocations, 0, "restore {cycle} allocated");
        assert_eq!(picture(&world), before);
    }
}
