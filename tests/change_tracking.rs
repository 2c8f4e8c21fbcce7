//! Change tracking: every write path marks what it hands out, readers keep
//! their own ticks, answers follow the is-a rule, and the clock's wrap does
//! not change them.

use ecs_core::prelude::*;

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Position(f32);

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Velocity(f32);

#[derive(Component, Clone, Debug)]
struct Frozen;

#[derive(Component, Clone, Debug)]
struct Moving {
    speed: f32,
}

#[derive(Component, Clone, Debug)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
}

#[derive(Component, Clone, Debug)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

/// The ids a `changed_since::<Position>` query reports, sorted.
fn changed_positions(world: &World, since: Tick) -> Vec<EntityId> {
    let query = world.query::<(EntityId,)>();
    sorted(ids(query.changed_since::<Position>(since)))
}

/// What a query of entity ids yields, in its order.
fn ids(query: Query<'_, (EntityId,)>) -> Vec<EntityId> {
    query.into_iter().map(|(id,)| id).collect()
}

/// Sets the entity's `Position` through `get_mut`.
fn move_to(world: &mut World, id: EntityId, x: f32) {
    world
        .entity_mut(id)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = x;
}

/// Adds to the entity's `Position` through `get_mut`.
fn nudge(world: &mut World, id: EntityId, dx: f32) {
    world
        .entity_mut(id)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 += dx;
}

fn sorted(mut ids: Vec<EntityId>) -> Vec<EntityId> {
    ids.sort();
    ids
}

#[test]
fn a_new_reader_sees_nothing_until_something_is_written() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0.0),)).unwrap();
    let seen = world.change_tick();
    assert!(changed_positions(&world, seen).is_empty());
    assert!(!world.entity(a).unwrap().changed_since::<Position>(seen));
    // A reader from before the world held anything sees every component.
    assert_eq!(changed_positions(&world, Tick::default()), [a]);
}

#[test]
fn a_mutable_query_term_marks_the_rows_it_hands_out_only() {
    let mut world = World::new();
    let moving = world.spawn_with((Position(0.0), Velocity(1.0))).unwrap();
    let resting = world.spawn_with((Position(0.0),)).unwrap();
    let frozen = world
        .spawn_with((Position(0.0), Velocity(1.0), Frozen))
        .unwrap();
    let seen = world.change_tick();
    for (p, v) in world
        .query_mut::<(&mut Position, &Velocity)>()
        .without::<Frozen>()
    {
        p.0 += v.0;
    }
    assert_eq!(changed_positions(&world, seen), [moving]);
    assert!(!world
        .entity(resting)
        .unwrap()
        .changed_since::<Position>(seen));
    assert!(!world
        .entity(frozen)
        .unwrap()
        .changed_since::<Position>(seen));
    // A shared term reads without marking.
    let later = world.change_tick();
    let _ = world.query::<(&Position,)>().count();
    let _ = world.query_mut::<(&Position, &mut Velocity)>().count();
    assert!(changed_positions(&world, later).is_empty());
}

#[test]
fn optional_and_all_terms_mark_what_they_hand_out_mutably() {
    let mut world = World::new();
    let a = world
        .spawn_with((Position(0.0), Collider { radius: 1.0 }))
        .unwrap();
    let seen = world.change_tick();
    for (p,) in world.query_mut::<(Option<&mut Position>,)>() {
        if let Some(p) = p {
            p.0 = 1.0;
        }
    }
    assert_eq!(changed_positions(&world, seen), [a]);
    let seen = world.change_tick();
    for (all,) in world.query_mut::<(All<&mut Collider>,)>() {
        all.into_iter().for_each(|c| c.radius *= 2.0);
    }
    assert!(world.entity(a).unwrap().changed_since::<Collider>(seen));
    assert!(!world.entity(a).unwrap().changed_since::<Position>(seen));
}

#[test]
fn get_mut_and_query_one_mut_mark_one_entity() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0.0), Velocity(0.0))).unwrap();
    let b = world.spawn_with((Position(0.0), Velocity(0.0))).unwrap();
    let seen = world.change_tick();
    move_to(&mut world, a, 3.0);
    assert_eq!(changed_positions(&world, seen), [a]);
    let seen = world.change_tick();
    let (p, _) = world
        .query_one_mut::<(&mut Position, &Velocity)>(b)
        .unwrap();
    p.0 = 1.0;
    assert_eq!(changed_positions(&world, seen), [b]);
}

#[test]
fn readers_keep_their_own_ticks() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0.0),)).unwrap();
    let b = world.spawn_with((Position(0.0),)).unwrap();
    let renderer = world.change_tick();
    move_to(&mut world, a, 1.0);
    let network = world.change_tick();
    move_to(&mut world, b, 1.0);
    // The network looked between the writes: it sees only the second; the
    // renderer, which has not looked again, sees both; reading changes
    // nothing for either.
    assert_eq!(changed_positions(&world, network), [b]);
    assert_eq!(changed_positions(&world, renderer), sorted(vec![a, b]));
    assert_eq!(changed_positions(&world, network), [b]);
    let renderer = world.change_tick();
    assert!(changed_positions(&world, renderer).is_empty());
    assert_eq!(changed_positions(&world, network), [b]);
}

#[test]
fn added_reports_attached_components_which_keep_their_ticks_across_tables() {
    let mut world = World::new();
    let old = world.spawn_with((Position(0.0),)).unwrap();
    let seen = world.change_tick();
    let new = world.spawn_with((Position(0.0),)).unwrap();
    // Adding a component moves `old` to another table: its `Position` is
    // neither added nor changed by that.
    world.entity_mut(old).unwrap().add(Velocity(1.0)).unwrap();
    let added = ids(world.query::<(EntityId,)>().added_since::<Position>(seen));
    assert_eq!(added, [new]);
    assert_eq!(changed_positions(&world, seen), [new]);
    assert!(world.entity(old).unwrap().added_since::<Velocity>(seen));
    assert!(!world.entity(old).unwrap().added_since::<Position>(seen));
    // An added component counts as changed at the tick it was added at,
    // and not after it.
    assert!(world.entity(old).unwrap().changed_since::<Velocity>(seen));
    let later = world.change_tick();
    assert!(!world.entity(old).unwrap().changed_since::<Velocity>(later));
}

#[test]
fn filters_follow_the_is_a_rule() {
    let mut world = World::new();
    let axis = world
        .spawn_with((AxisMoving {
            base: Moving { speed: 1.0 },
        },))
        .unwrap();
    let plain = world.spawn_with((Moving { speed: 1.0 },)).unwrap();
    let seen = world.change_tick();
    for (m,) in world.query_mut::<(&mut AxisMoving,)>() {
        m.base.speed = 2.0;
    }
    let changed: Vec<EntityId> = world
        .query::<(EntityId, &Moving)>()
        .changed_since::<Moving>(seen)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(changed, [axis]);
    assert!(world.entity(axis).unwrap().changed_since::<Moving>(seen));
    assert!(!world.entity(plain).unwrap().changed_since::<Moving>(seen));
}

#[test]
fn a_multiple_type_reports_the_entity_when_any_of_its_components_changed() {
    let mut world = World::new();
    let a = world
        .spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))
        .unwrap();
    let b = world
        .spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))
        .unwrap();
    let seen = world.change_tick();
    // One of `a`'s colliders is written.
    if let Some(c) = world
        .entity_mut(a)
        .unwrap()
        .get_all_mut::<Collider>()
        .nth(1)
    {
        c.radius = 5.0;
    }
    let changed = ids(world.query::<(EntityId,)>().changed_since::<Collider>(seen));
    assert_eq!(changed, [a]);
    assert!(!world.entity(b).unwrap().changed_since::<Collider>(seen));
}

#[test]
fn a_writing_query_with_a_change_filter_marks_only_the_rows_that_pass() {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..10)
        .map(|i| world.spawn_with((Position(i as f32),)).unwrap())
        .collect();
    let seen = world.change_tick();
    move_to(&mut world, ids[3], -1.0);
    // A system that reacts to changed positions by writing them: only the
    // one that changed is handed out, so the change does not spread to the
    // whole table on the next frame.
    let next = world.change_tick();
    let mut visited = 0;
    for (p,) in world
        .query_mut::<(&mut Position,)>()
        .changed_since::<Position>(seen)
    {
        p.0 = 0.0;
        visited += 1;
    }
    assert_eq!(visited, 1);
    assert_eq!(changed_positions(&world, next), [ids[3]]);
}

#[test]
fn a_table_with_no_change_is_passed_over_and_every_changed_row_is_found() {
    #[derive(Component)]
    struct Tag<const N: usize>;
    let mut world = World::new();
    let mut changed = Vec::new();
    for i in 0..100 {
        let mut spawned = Vec::new();
        macro_rules! spawn_in {
            ($($n:literal),*) => {
                match i % 10 {
                    $($n => spawned.push(world.spawn_with((Position(0.0), Tag::<$n>)).unwrap()),)*
                    _ => unreachable!(),
                }
            };
        }
        spawn_in!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        if i % 10 == 7 {
            changed.extend(spawned);
        }
    }
    let seen = world.change_tick();
    for (p,) in world.query_mut::<(&mut Position,)>().with::<Tag<7>>() {
        p.0 = 1.0;
    }
    assert_eq!(changed_positions(&world, seen), sorted(changed));
}

#[derive(Component)]
#[component(behaviour)]
struct Drifting(f32);
impl Behaviour for Drifting {
    fn update(&mut self, _: &mut Context<'_>, dt: f32) {
        self.0 += dt;
    }
}

#[derive(Component)]
#[component(behaviour(with = Position))]
struct Pushing(f32);
impl Behaviour for Pushing {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}
impl UpdateWith<Position> for Pushing {
    fn update_with(&mut self, _: &mut Context<'_>, pos: &mut Position, dt: f32) {
        pos.0 += self.0 * dt;
    }
}

#[derive(Component)]
#[component(behaviour)]
struct Reaching;
impl Behaviour for Reaching {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        if let Some(v) = ctx.get_mut::<Velocity>() {
            v.0 += 1.0;
        }
    }
}

#[test]
fn a_behaviour_marks_itself_its_sibling_and_what_it_reaches() {
    let mut world = World::new();
    let drifting = world.spawn_with((Drifting(0.0), Position(0.0))).unwrap();
    let pushing = world.spawn_with((Pushing(1.0), Position(0.0))).unwrap();
    let reaching = world.spawn_with((Reaching, Velocity(0.0))).unwrap();
    let seen = world.change_tick();
    world.update(1.0);
    assert!(world
        .entity(drifting)
        .unwrap()
        .changed_since::<Drifting>(seen));
    assert!(!world
        .entity(drifting)
        .unwrap()
        .changed_since::<Position>(seen));
    assert!(world
        .entity(pushing)
        .unwrap()
        .changed_since::<Pushing>(seen));
    assert!(world
        .entity(pushing)
        .unwrap()
        .changed_since::<Position>(seen));
    assert!(world
        .entity(reaching)
        .unwrap()
        .changed_since::<Velocity>(seen));
}

struct Hit(f32);

#[derive(Component)]
#[component(receives(Hit))]
struct Health(f32);
impl Receive<Hit> for Health {
    fn receive(&mut self, _: &mut Context<'_>, hit: &Hit) {
        self.0 -= hit.0;
    }
}

#[test]
fn a_receiver_is_marked_when_it_receives() {
    let mut world = World::new();
    let hit = world.spawn_with((Health(10.0),)).unwrap();
    let missed = world.spawn_with((Health(10.0),)).unwrap();
    let seen = world.change_tick();
    assert_eq!(world.send(hit, &Hit(3.0)).unwrap(), 1);
    assert!(world.entity(hit).unwrap().changed_since::<Health>(seen));
    assert!(!world.entity(missed).unwrap().changed_since::<Health>(seen));
}

#[test]
fn loaded_cloned_and_spawned_entities_are_added_when_they_are_made() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1.0), Velocity(2.0))).unwrap();
    let before = world.change_tick();
    let copy = world.clone_entity(a).unwrap();
    let blueprint =
        Blueprint::from_json(r#"{"components": [{"type": "Position", "data": 4.0}]}"#).unwrap();
    let spawned = world.spawn_blueprint(&blueprint).unwrap();
    let added = ids(world.query::<(EntityId,)>().added_since::<Position>(before));
    assert_eq!(sorted(added), sorted(vec![copy, spawned]));

    let text = world.save_json().unwrap();
    let loaded = World::load_json(&text).unwrap();
    let fresh = loaded.change_tick();
    assert_eq!(loaded.query::<(&Position,)>().count(), 3);
    assert_eq!(
        loaded
            .query::<(&Position,)>()
            .added_since::<Position>(fresh)
            .count(),
        0
    );
    assert_eq!(
        loaded
            .query::<(&Position,)>()
            .added_since::<Position>(Tick::default())
            .count(),
        3
    );
}

#[test]
fn answers_stay_right_when_the_clock_wraps() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0.0),)).unwrap();
    let b = world.spawn_with((Position(0.0),)).unwrap();
    let old = world.change_tick();
    move_to(&mut world, a, 1.0);
    // Past the 32-bit row ticks' wrap, more than once, with writes (and row
    // ticks capped) on the way.
    for _ in 0..5 {
        world.skip_change_ticks(u64::from(u32::MAX) / 3);
        let _ = world.change_tick();
        nudge(&mut world, a, 1.0);
    }
    let recent = world.change_tick();
    assert!(recent.get() > u64::from(u32::MAX));
    move_to(&mut world, b, 1.0);
    assert_eq!(changed_positions(&world, recent), [b]);
    assert!(!world.entity(a).unwrap().changed_since::<Position>(recent));
    // The oldest reader is more than the cap behind: it is told that both
    // changed (they did).
    assert_eq!(changed_positions(&world, old), sorted(vec![a, b]));
    let last = world.change_tick();
    assert!(changed_positions(&world, last).is_empty());
    assert!(old < recent && recent < last);
}

#[test]
fn a_parallel_walk_with_a_change_filter_visits_exactly_the_changed_rows() {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..5000)
        .map(|i| {
            world
                .spawn_with((Position(i as f32), Velocity(0.0)))
                .unwrap()
        })
        .collect();
    let seen = world.change_tick();
    for &id in ids.iter().step_by(7) {
        move_to(&mut world, id, -1.0);
    }
    world
        .query_mut::<(&Position, &mut Velocity)>()
        .changed_since::<Position>(seen)
        .par_for_each(|(p, v)| v.0 = p.0);
    let marked = world
        .query::<(&Velocity,)>()
        .into_iter()
        .filter(|(v,)| v.0 == -1.0)
        .count();
    assert_eq!(marked, ids.len().div_ceil(7));
    // Only the visited rows' velocities were handed out.
    let visited = world
        .query::<(&Velocity,)>()
        .changed_since::<Velocity>(seen)
        .count();
    assert_eq!(visited, ids.len().div_ceil(7));
}
