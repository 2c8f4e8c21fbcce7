//! `Up<&T>`: the nearest ancestor's component, following is-a, in read and
//! write queries, and `query_one`.

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq, Clone)]
struct Tower {
    range: f32,
}

#[derive(Component, Debug, Clone)]
struct Turret {
    reach: f32,
}

#[derive(Component, Debug)]
struct Moving {
    speed: f32,
}

#[derive(Component, Debug)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
}

/// Larger than its base, so a `Moving` term walks its rows by a stride.
#[derive(Component, Debug)]
#[component(parent = Moving)]
struct Hover {
    base: Moving,
    height: f32,
}

#[test]
fn a_term_reads_the_nearest_ancestor_that_holds_one() {
    let mut world = World::new();
    let tower = world.spawn_with((Tower { range: 8.0 },)).unwrap();
    let platform = world.spawn();
    world.set_parent(platform, tower).unwrap();
    let near = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    let far = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    let alone = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    world.set_parent(near, tower).unwrap();
    world.set_parent(far, platform).unwrap();
    for (turret, tower) in world.query_mut::<(&mut Turret, Up<&Tower>)>() {
        turret.reach = tower.map_or(-1.0, |t| t.range);
    }
    let reach = |id| world.entity(id).unwrap().get::<Turret>().unwrap().reach;
    assert_eq!((reach(near), reach(far), reach(alone)), (8.0, 8.0, -1.0));
    let read: Vec<Option<f32>> = world
        .query::<(&Turret, Up<&Tower>)>()
        .into_iter()
        .map(|(_, t)| t.map(|t| t.range))
        .collect();
    assert_eq!(read, [Some(8.0), Some(8.0), None]);
    let (_, up) = world.query_one::<(&Turret, Up<&Tower>)>(far).unwrap();
    assert_eq!(up, Some(&Tower { range: 8.0 }));
}

#[test]
fn rows_walked_by_a_stride_read_their_own_ancestors() {
    let mut world = World::new();
    let mut expected = Vec::new();
    for range in [2.0, 3.0] {
        let tower = world.spawn_with((Tower { range },)).unwrap();
        for height in [10.0, 20.0, 30.0] {
            let base = Moving { speed: 0.0 };
            let child = world.spawn_with((Hover { base, height },)).unwrap();
            world.set_parent(child, tower).unwrap();
            expected.push((child, range, height));
        }
    }
    let stray = world.spawn_with((Hover {
        base: Moving { speed: 0.0 },
        height: 1.0,
    },));
    expected.push((stray.unwrap(), -1.0, 1.0));
    for (moving, tower) in world.query_mut::<(&mut Moving, Up<&Tower>)>() {
        moving.speed = tower.map_or(-1.0, |t| t.range);
    }
    let read: Vec<(f32, Option<f32>)> = world
        .query::<(&Moving, Up<&Tower>)>()
        .into_iter()
        .map(|(m, t)| (m.speed, t.map(|t| t.range)))
        .collect();
    assert_eq!(read.len(), expected.len());
    assert!(read
        .iter()
        .all(|&(speed, range)| speed == range.unwrap_or(-1.0)));
    // Each write landed in its own row's base, beside a field it left.
    for (id, speed, height) in expected {
        let entity = world.entity(id).unwrap();
        let hover = entity.get::<Hover>().unwrap();
        assert_eq!((hover.base.speed, hover.height), (speed, height), "{id:?}");
    }
}

#[test]
fn it_follows_is_a_and_sees_links_change() {
    let mut world = World::new();
    let parent = world
        .spawn_with((AxisMoving {
            base: Moving { speed: 3.0 },
        },))
        .unwrap();
    let other = world.spawn_with((Moving { speed: 5.0 },)).unwrap();
    let child = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    world.set_parent(child, parent).unwrap();
    let speed = |world: &World| {
        world
            .query::<(&Turret, Up<&Moving>)>()
            .into_iter()
            .map(|(_, m)| m.map(|m| m.speed))
            .collect::<Vec<_>>()
    };
    assert_eq!(speed(&world), [Some(3.0)]);
    world.set_parent(child, other).unwrap();
    assert_eq!(speed(&world), [Some(5.0)]);
    world.clear_parent(child).unwrap();
    assert_eq!(speed(&world), [None]);
    world.set_parent(child, other).unwrap();
    world.despawn(other).unwrap();
    assert!(!world.contains(child), "a despawn takes the subtree");
}

#[test]
fn loaded_and_spawned_trees_are_read_up() {
    #[derive(Component, Debug, serde::Serialize, serde::Deserialize)]
    struct Base(u32);
    #[derive(Component, Debug, serde::Serialize, serde::Deserialize)]
    struct Leaf;
    let mut world = World::new();
    let root = world.spawn_with((Base(7),)).unwrap();
    let mid = world.spawn();
    let leaf = world.spawn_with((Leaf,)).unwrap();
    world.set_parent(mid, root).unwrap();
    world.set_parent(leaf, mid).unwrap();
    let text = world.save_json().unwrap();
    let loaded = World::load_json(&text).unwrap();
    let found: Vec<Option<u32>> = loaded
        .query::<(&Leaf, Up<&Base>)>()
        .into_iter()
        .map(|(_, b)| b.map(|b| b.0))
        .collect();
    assert_eq!(found, [Some(7)]);
}

#[test]
fn child_of_visits_the_children_of_one_entity() {
    let mut world = World::new();
    let tower = world.spawn_with((Tower { range: 1.0 },)).unwrap();
    let other = world.spawn_with((Tower { range: 2.0 },)).unwrap();
    let mine: Vec<EntityId> = (0..3)
        .map(|_| world.spawn_with((Turret { reach: 0.0 },)).unwrap())
        .collect();
    let theirs = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    for &t in &mine {
        world.set_parent(t, tower).unwrap();
    }
    world.set_parent(theirs, other).unwrap();
    // A grandchild is not a child.
    let grandchild = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    world.set_parent(grandchild, mine[0]).unwrap();
    for (t,) in world.query_mut::<(&mut Turret,)>().child_of(tower) {
        t.reach = 9.0;
    }
    let found: Vec<EntityId> = world
        .query::<(EntityId, &Turret)>()
        .child_of(tower)
        .into_iter()
        .map(|(id, t)| {
            assert_eq!(t.reach, 9.0);
            id
        })
        .collect();
    assert_eq!(found, mine);
    assert_eq!(
        world.entity(theirs).unwrap().get::<Turret>().unwrap().reach,
        0.0
    );
    world.despawn(other).unwrap();
    assert_eq!(world.query::<(&Turret,)>().child_of(other).count(), 0);
}

#[test]
fn a_walk_across_tables_runs_and_threads_reads_each_ancestor() {
    #[derive(Component, Debug)]
    struct Flag;
    #[derive(Component, Debug)]
    struct Extra;
    let mut world = World::new();
    // Ancestors in two tables, children in two tables, siblings side by
    // side and interleaved.
    let near = world.spawn_with((Tower { range: 1.0 },)).unwrap();
    let far = world.spawn_with((Tower { range: 2.0 }, Flag)).unwrap();
    let mut expected = Vec::new();
    for i in 0..40 {
        let parent = if i % 3 == 0 { far } else { near };
        let child = match i % 2 {
            0 => world.spawn_with((Turret { reach: 0.0 },)).unwrap(),
            _ => world.spawn_with((Turret { reach: 0.0 }, Extra)).unwrap(),
        };
        world.set_parent(child, parent).unwrap();
        expected.push((child, if parent == far { 2.0 } else { 1.0 }));
    }
    let orphan = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
    expected.push((orphan, -1.0));
    let read = |world: &World| {
        let mut got: Vec<(EntityId, f32)> = world
            .query::<(EntityId, Up<&Tower>)>()
            .with::<Turret>()
            .into_iter()
            .map(|(id, t)| (id, t.map_or(-1.0, |t| t.range)))
            .collect();
        got.sort_by_key(|(id, _)| id.index());
        got
    };
    let mut want = expected.clone();
    want.sort_by_key(|(id, _)| id.index());
    assert_eq!(read(&world), want);
    // Walked in runs (only the children of `far`).
    let of_far = world
        .query::<(&Turret, Up<&Tower>)>()
        .child_of(far)
        .into_iter()
        .map(|(_, t)| t.map(|t| t.range))
        .collect::<Vec<_>>();
    assert_eq!(of_far.len(), 14);
    assert!(of_far.iter().all(|&r| r == Some(2.0)));
    // Split across threads, writing.
    world
        .query_mut::<(&mut Turret, Up<&Tower>)>()
        .par_for_each(|(turret, tower)| turret.reach = tower.map_or(-1.0, |t| t.range));
    for &(id, range) in &expected {
        assert_eq!(
            world.entity(id).unwrap().get::<Turret>().unwrap().reach,
            range
        );
    }
    // Reparented between two queries: the second sees the new ancestor.
    world.set_parent(orphan, far).unwrap();
    world.clear_parent(expected[1].0).unwrap();
    let now = read(&world);
    assert!(now.contains(&(orphan, 2.0)));
    assert!(now.contains(&(expected[1].0, -1.0)));
}

/// A reference for `Up<&Tower>`: the nearest strict ancestor's tower, as
/// the scene graph's own search finds it.
fn tower_above(world: &World, id: EntityId) -> Option<f32> {
    world
        .find_all_in_parents::<Tower>(id, TreeFilter::ALL)
        .unwrap()
        .find(|&(holder, _)| holder != id)
        .map(|(_, t)| t.range)
}

/// Links set, moved and cleared while entities move between tables
/// (components added and removed), are despawned (a table's last row takes
/// the freed one) and respawned, and the world is restored to a snapshot:
/// after each step every entity's `Up` answer is what the scene graph's
/// search finds.
#[test]
fn up_answers_follow_links_through_moves_despawns_and_restores() {
    #[derive(Component, Debug, Clone)]
    struct Mark;
    let mut world = World::new();
    let mut ids: Vec<EntityId> = (0..30)
        .map(|i| match i % 3 {
            0 => world.spawn_with((Tower { range: i as f32 },)).unwrap(),
            1 => world.spawn_with((Turret { reach: 0.0 },)).unwrap(),
            _ => world.spawn(),
        })
        .collect();
    let check = |world: &World, step: usize| {
        let got: Vec<(EntityId, Option<f32>)> = world
            .query::<(EntityId, Up<&Tower>)>()
            .into_iter()
            .map(|(id, t)| (id, t.map(|t| t.range)))
            .collect();
        assert_eq!(got.len(), world.len(), "step {step}: every entity once");
        for (id, up) in got {
            assert_eq!(up, tower_above(world, id), "step {step}, entity {id:?}");
        }
    };
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut saved = None;
    for step in 0..600 {
        let (a, b) = (ids[next(ids.len())], ids[next(ids.len())]);
        match next(8) {
            // A cycle or a self link is refused, and leaves the world as it was.
            0..=2 => drop(world.set_parent(a, b)),
            3 => world.clear_parent(a).unwrap(),
            4 => match world.entity(a).unwrap().get::<Mark>() {
                Some(_) => drop(world.entity_mut(a).unwrap().remove::<Mark>().unwrap()),
                None => drop(world.entity_mut(a).unwrap().add(Mark).unwrap()),
            },
            5 => {
                world.despawn(a).unwrap();
                let fresh = match next(2) {
                    0 => world.spawn_with((Tower { range: step as f32 },)).unwrap(),
                    _ => world.spawn_with((Turret { reach: 0.0 }, Mark)).unwrap(),
                };
                ids.retain(|&id| world.contains(id));
                ids.push(fresh);
            }
            6 => saved = Some((world.snapshot().unwrap(), ids.clone())),
            _ => {
                if let Some((snapshot, at)) = &saved {
                    world.restore(snapshot).unwrap();
                    ids = at.clone();
                }
            }
        }
        check(&world, step);
    }
}

/// A change filter walks only the rows that changed, which may start in
/// the middle of a run of siblings and skip the rest of it: each row still
/// reads its own ancestor.
#[test]
fn rows_picked_inside_runs_of_siblings_read_their_own_ancestor() {
    let mut world = World::new();
    let first = world.spawn_with((Tower { range: 1.0 },)).unwrap();
    let second = world.spawn_with((Tower { range: 2.0 },)).unwrap();
    let mut children = Vec::new();
    for parent in [first, second, first] {
        for _ in 0..6 {
            let child = world.spawn_with((Turret { reach: 0.0 },)).unwrap();
            world.set_parent(child, parent).unwrap();
            children.push((child, parent));
        }
    }
    let since = world.change_tick();
    // Rows 2 and 4 of the first run of siblings, 6 (its start) and 9 of
    // the second, 13 and 17 of the third: the walk starts inside a run,
    // leaves it before its end, and enters the next at its first row.
    for &i in &[2, 4, 6, 9, 13, 17] {
        world
            .entity_mut(children[i].0)
            .unwrap()
            .get_mut::<Turret>()
            .unwrap()
            .reach = 1.0;
    }
    let got: Vec<(EntityId, Option<f32>)> = world
        .query::<(EntityId, Up<&Tower>)>()
        .changed_since::<Turret>(since)
        .into_iter()
        .map(|(id, t)| (id, t.map(|t| t.range)))
        .collect();
    let want: Vec<(EntityId, Option<f32>)> = [2, 4, 6, 9, 13, 17]
        .iter()
        .map(|&i| {
            let range = if children[i].1 == first { 1.0 } else { 2.0 };
            (children[i].0, Some(range))
        })
        .collect();
    assert_eq!(got, want);
}
