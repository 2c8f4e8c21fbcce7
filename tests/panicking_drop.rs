//! A component whose `Drop` panics: every value the world holds is still
//! dropped exactly once, whichever operation drops it and whichever drop
//! panics (as a slice's values are), and the world stays consistent and
//! usable. Each operation that drops components runs with the panic armed
//! at each of its drops in turn.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};

use ecs_core::prelude::*;

thread_local! {
    /// How many times each tagged value was dropped, by tag. Thread-local:
    /// each test runs on its own thread, and so do its worlds' drops.
    static DROPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    /// `Bomb` drops left until the one that panics; 0: none panics.
    static FUSE: Cell<u32> = const { Cell::new(0) };
}

/// Records its drop under a fresh tag.
#[derive(Debug)]
struct Tag(usize);

impl Tag {
    fn new() -> Self {
        Tag(DROPS.with(|d| {
            let mut d = d.borrow_mut();
            d.push(0);
            d.len() - 1
        }))
    }
}

impl Drop for Tag {
    fn drop(&mut self) {
        DROPS.with(|d| d.borrow_mut()[self.0] += 1);
    }
}

/// A counted value that never panics.
#[derive(Component, Debug)]
#[component(multiple)]
struct Counted(Tag);

/// A counted value of a single type, in a column of its own.
#[derive(Component, Debug)]
struct Lone(Tag);

/// A counted value whose `Drop` panics when the fuse runs out (its tag is
/// still dropped: a panicking `Drop` still drops the fields).
#[derive(Component, Debug)]
#[component(multiple)]
struct Bomb(Tag);

impl Drop for Bomb {
    fn drop(&mut self) {
        let left = FUSE.with(Cell::get);
        if left == 0 {
            return;
        }
        FUSE.with(|f| f.set(left - 1));
        if left == 1 {
            panic!("a Bomb's Drop panicked (tag {})", (self.0).0);
        }
    }
}

fn counted() -> Counted {
    Counted(Tag::new())
}

fn bomb() -> Bomb {
    Bomb(Tag::new())
}

fn drops() -> Vec<u32> {
    DROPS.with(|d| d.borrow().clone())
}

/// Tags made from here on belong to `what`: every tag made since `from`.
fn tags_since(from: usize) -> std::ops::Range<usize> {
    from..drops().len()
}

/// The world every case starts from: a bystander that stays, and a victim
/// holding several values of each type, bombs interleaved, some in one
/// column and some in others.
struct Scene {
    world: World,
    bystander: EntityId,
    victim: EntityId,
    /// The tags of the victim's subtree, by component type.
    bombs: Vec<usize>,
    others: Vec<usize>,
    /// The tags of values that must outlive the operation.
    kept: std::ops::Range<usize>,
}

fn scene(with_children: bool) -> Scene {
    DROPS.with(|d| d.borrow_mut().clear());
    let mut world = World::new();
    let bystander = world
        .spawn_with((counted(), bomb(), Lone(Tag::new())))
        .unwrap();
    let kept = tags_since(0);
    let victim = world.spawn();
    let mut bombs = Vec::new();
    let mut others = Vec::new();
    let mut give = |world: &mut World, id: EntityId| {
        let mut e = world.entity_mut(id).unwrap();
        for i in 0..3 {
            let b = bomb();
            bombs.push((b.0).0);
            e.add(b).unwrap();
            let c = counted();
            others.push((c.0).0);
            e.add(c).unwrap();
            if i == 1 {
                let l = Lone(Tag::new());
                others.push((l.0).0);
                e.add(l).unwrap();
            }
        }
    };
    give(&mut world, victim);
    if with_children {
        for _ in 0..2 {
            let child = world.spawn();
            world.set_parent(child, victim).unwrap();
            give(&mut world, child);
        }
    }
    Scene {
        world,
        bystander,
        victim,
        bombs,
        others,
        kept,
    }
}

/// The world still works: the bystander is whole, and every kind of
/// change goes through (and drops what it should) with the fuse out.
fn still_usable(world: &mut World, bystander: EntityId) {
    let e = world.entity(bystander).unwrap();
    assert_eq!(
        (e.get_all::<Counted>().count(), e.get_all::<Bomb>().count()),
        (1, 1)
    );
    assert!(e.has::<Lone>());
    let id = world.spawn_with((counted(), bomb())).unwrap();
    world.entity_mut(id).unwrap().add(counted()).unwrap();
    world.entity_mut(id).unwrap().add(Lone(Tag::new())).unwrap();
    assert_eq!(world.entity_mut(id).unwrap().remove_all::<Counted>(), 2);
    assert!(world.entity_mut(id).unwrap().remove::<Bomb>().is_some());
    world.despawn(id).unwrap();
    assert!(world.query::<(&Bomb,)>().into_iter().count() >= 1);
}

/// Runs `op` on a fresh scene with the `n`-th bomb drop armed to panic, for
/// every `n` up to one past the bombs it drops; checks that exactly the
/// values `op` should drop were dropped, once each, whether or not a drop
/// panicked, then that the world works and, dropped, drops the rest once.
fn each_panic_point(
    with_children: bool,
    dropped_bombs: bool,
    dropped_others: bool,
    op: impl Fn(&mut World, EntityId),
    after: impl Fn(&World, EntityId),
) {
    let bomb_count = scene(with_children).bombs.len();
    let points = if dropped_bombs { bomb_count + 1 } else { 1 };
    for n in 1..=points {
        let mut s = scene(with_children);
        FUSE.with(|f| f.set(u32::try_from(n).unwrap()));
        let panicked = catch_unwind(AssertUnwindSafe(|| op(&mut s.world, s.victim))).is_err();
        FUSE.with(|f| f.set(0));
        assert_eq!(panicked, dropped_bombs && n <= bomb_count, "fuse {n}");
        let now = drops();
        let expect = |tags: &[usize], dropped: bool| {
            for &t in tags {
                assert_eq!(now[t], u32::from(dropped), "tag {t}, fuse {n}");
            }
        };
        expect(&s.bombs, dropped_bombs);
        expect(&s.others, dropped_others);
        for t in s.kept.clone() {
            assert_eq!(now[t], 0, "the bystander's tag {t} is kept, fuse {n}");
        }
        after(&s.world, s.victim);
        still_usable(&mut s.world, s.bystander);
        drop(s.world);
        assert!(
            drops().iter().all(|&d| d == 1),
            "dropping the world drops every value once (fuse {n}): {:?}",
            drops()
        );
    }
}

#[test]
fn despawn_drops_every_value_once_whichever_drop_panics() {
    for children in [false, true] {
        each_panic_point(
            children,
            true,
            true,
            |world, victim| world.despawn(victim).unwrap(),
            |world, victim| {
                assert!(!world.contains(victim));
                assert_eq!(world.len(), 1, "the whole subtree went");
            },
        );
    }
}

#[test]
fn despawn_by_command_drops_every_value_once_whichever_drop_panics() {
    each_panic_point(
        true,
        true,
        true,
        |world, victim| {
            world.commands().despawn(victim);
            world.apply_commands();
        },
        |world, victim| assert!(!world.contains(victim)),
    );
}

#[test]
fn detach_all_drops_every_value_once_whichever_drop_panics() {
    each_panic_point(
        false,
        true,
        true,
        |world, victim| {
            world.entity_mut(victim).unwrap().detach_all();
        },
        |world, victim| assert!(world.entity(victim).unwrap().is_empty()),
    );
}

#[test]
fn remove_all_drops_every_removed_value_once_whichever_drop_panics() {
    each_panic_point(
        false,
        true,
        false,
        |world, victim| {
            world.entity_mut(victim).unwrap().remove_all::<Bomb>();
        },
        |world, victim| {
            let e = world.entity(victim).unwrap();
            assert_eq!(e.get_all::<Bomb>().count(), 0);
            assert_eq!(e.get_all::<Counted>().count(), 3);
            assert!(e.has::<Lone>());
        },
    );
}

#[test]
fn dropping_the_world_drops_every_value_once_whichever_drop_panics() {
    for children in [false, true] {
        let total = {
            let s = scene(children);
            s.bombs.len() + 1
        };
        for n in 1..=total + 1 {
            let s = scene(children);
            FUSE.with(|f| f.set(u32::try_from(n).unwrap()));
            let world = s.world;
            let panicked = catch_unwind(AssertUnwindSafe(move || drop(world))).is_err();
            FUSE.with(|f| f.set(0));
            assert_eq!(panicked, n <= total, "fuse {n}");
            assert!(
                drops().iter().all(|&d| d == 1),
                "every value dropped once (fuse {n}): {:?}",
                drops()
            );
        }
    }
}
