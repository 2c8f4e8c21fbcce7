//! The type-erased columns under the cases raw memory gets wrong: a parent
//! that is not the first field, chains three deep, zero-sized and
//! over-aligned components, and values that must be dropped exactly once
//! whichever way they leave the world.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use ecs_core::prelude::*;

#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple)]
struct Shape {
    area: f64,
}

/// The parent sits after another field, so its offset is not 0.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = Shape, multiple)]
struct Circle {
    label: u8,
    base: Shape,
    radius: f32,
}

/// Three levels: Ring is-a Circle is-a Shape, each parent at an offset.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = Circle, multiple)]
struct Ring {
    inner: f32,
    base: Circle,
    tag: u16,
}

fn ring(area: f64) -> Ring {
    Ring {
        inner: 0.5,
        base: Circle {
            label: 7,
            base: Shape { area },
            radius: 2.0,
        },
        tag: 9,
    }
}

#[test]
fn every_level_of_a_chain_reads_and_writes_its_own_field() {
    let mut world = World::new();
    let id = world.spawn_with((ring(3.0),)).unwrap();
    let mut e = world.entity_mut(id).unwrap();
    assert_eq!(e.get::<Shape>(), Some(&Shape { area: 3.0 }));
    assert_eq!(
        e.get::<Circle>().map(|c| (c.label, c.radius)),
        Some((7, 2.0))
    );
    e.get_mut::<Shape>().unwrap().area = 4.0;
    e.get_mut::<Circle>().unwrap().radius = 5.0;
    let r = e.get::<Ring>().unwrap();
    assert_eq!(
        (r.inner, r.base.label, r.base.radius, r.tag),
        (0.5, 7, 5.0, 9)
    );
    assert_eq!(r.base.base.area, 4.0);
}

#[test]
fn base_type_loops_visit_every_derived_value_at_its_offset() {
    let mut world = World::new();
    for i in 0..10 {
        world.spawn_with((ring(f64::from(i)),)).unwrap();
        world
            .spawn_with((Circle {
                label: 1,
                base: Shape { area: 100.0 },
                radius: 1.0,
            },))
            .unwrap();
        world.spawn_with((Shape { area: 1000.0 },)).unwrap();
    }
    let total: f64 = world.iter::<Shape>().map(|(_, s)| s.area).sum();
    assert_eq!(total, 45.0 + 1000.0 + 10_000.0);
    world.for_each_mut(|s: &mut Shape| s.area *= 2.0);
    let total: f64 = world.iter_mut::<Shape>().map(|(_, s)| s.area).sum();
    assert_eq!(total, 2.0 * (45.0 + 1000.0 + 10_000.0));
    // The fields around each parent are untouched.
    assert!(world
        .iter::<Ring>()
        .all(|(_, r)| r.inner == 0.5 && r.tag == 9));
    assert!(world.iter::<Circle>().all(|(_, c)| c.radius > 0.0));
}

#[test]
fn several_derived_components_on_one_entity_are_each_found() {
    let mut world = World::new();
    let id = world
        .spawn_with((ring(1.0), Shape { area: 2.0 }, ring(3.0)))
        .unwrap();
    let mut e = world.entity_mut(id).unwrap();
    let areas: Vec<f64> = e.get_all::<Shape>().map(|s| s.area).collect();
    assert_eq!(areas, [1.0, 2.0, 3.0]);
    for s in e.get_all_mut::<Shape>() {
        s.area += 10.0;
    }
    let circles: Vec<f64> = e.get_all::<Circle>().map(|c| c.base.area).collect();
    assert_eq!(circles, [11.0, 13.0]);
}

#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
struct Marker;

#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[component(parent = Marker)]
struct SubMarker(Marker);

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[repr(align(64))]
struct Aligned(u64);

#[test]
fn zero_sized_and_over_aligned_components_keep_their_invariants() {
    let mut world = World::new();
    let mut ids = Vec::new();
    for i in 0..100 {
        ids.push(world.spawn_with((SubMarker(Marker), Aligned(i))).unwrap());
    }
    assert_eq!(world.iter::<Marker>().count(), 100);
    for (_, a) in world.iter::<Aligned>() {
        assert_eq!(std::ptr::from_ref(a) as usize % 64, 0);
    }
    for id in ids.iter().step_by(2) {
        world.despawn(*id).unwrap();
    }
    let left: u64 = world.iter::<Aligned>().map(|(_, a)| a.0).sum();
    assert_eq!(left, (0..100).filter(|i| i % 2 == 1).sum::<u64>());
    let e = world.entity(ids[1]).unwrap();
    assert_eq!(e.get::<Marker>(), Some(&Marker));
}

/// Counts its drops in a shared counter.
#[derive(Component, Debug)]
#[component(multiple)]
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Component, Debug, Default)]
struct Filler;

#[test]
fn every_value_is_dropped_exactly_once_whichever_way_it_leaves() {
    let drops = Arc::new(AtomicUsize::new(0));
    let counted = || Counted(Arc::clone(&drops));
    {
        let mut world = World::new();
        let a = world.spawn_with((counted(), counted())).unwrap();
        let b = world.spawn_with((counted(),)).unwrap();
        let c = world.spawn_with((counted(), Filler)).unwrap();
        // Moving between tables (add then remove another type) drops nothing.
        world.entity_mut(b).unwrap().add(Filler).unwrap();
        world.entity_mut(b).unwrap().remove::<Filler>().unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        // Removing hands the value back: dropped when the caller drops it.
        let taken = world.entity_mut(a).unwrap().remove::<Counted>().unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        drop(taken);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        world.despawn(c).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 2);
        // The rest (one on `a`, one on `b`) go with the world.
    }
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}
