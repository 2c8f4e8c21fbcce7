//! The inspector on a small world, drawn to ratatui's `TestBackend` and
//! driven by key events: what a person sees and pokes.

// The components' fields are only read through `Debug`, by the inspector.
#![allow(dead_code)]

use ecs_core::prelude::*;
use ecs_inspector::{FrameTiming, Inspector, Pane};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

#[derive(Component, Debug, Clone)]
struct Moving {
    speed: f32,
}

#[derive(Component, Debug, Clone)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

#[derive(Component, Debug)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

/// level > (player: AxisMoving + 2 colliders), (enemy: Moving).
fn world() -> (World, EntityId, EntityId) {
    let mut world = World::new();
    let level = world.spawn_named("level");
    let player = world.spawn_named("player");
    let enemy = world.spawn_named("enemy");
    world.set_parent(player, level).unwrap();
    world.set_parent(enemy, level).unwrap();
    let mut e = world.entity_mut(player).unwrap();
    e.add(AxisMoving {
        base: Moving { speed: 2.0 },
        vertical: false,
    })
    .unwrap();
    e.add(Collider { radius: 0.5 }).unwrap();
    e.add(Collider { radius: 3.0 }).unwrap();
    world
        .entity_mut(enemy)
        .unwrap()
        .add(Moving { speed: 1.0 })
        .unwrap();
    (world, player, enemy)
}

fn draw(inspector: &Inspector, world: &World) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(110, 30)).unwrap();
    terminal
        .draw(|f| f.render_widget(inspector.view(world), f.area()))
        .unwrap();
    let buf = terminal.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn shows(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

fn press(inspector: &mut Inspector, world: &mut World, code: KeyCode) -> bool {
    inspector.handle_key(code.into(), world)
}

#[test]
fn the_scene_graph_is_a_tree_and_the_arrows_walk_it() {
    let (mut world, player, enemy) = world();
    let mut inspector = Inspector::new();
    let lines = draw(&inspector, &world);
    assert!(shows(&lines, "scene graph (3)"));
    assert!(shows(&lines, ">level"), "{lines:#?}");
    assert!(shows(&lines, " ├─player"));
    assert!(shows(&lines, " └─enemy"));
    assert!(press(&mut inspector, &mut world, KeyCode::Down));
    assert_eq!(inspector.selected(&world), Some(player));
    let lines = draw(&inspector, &world);
    assert!(shows(&lines, ">├─player"), "{lines:#?}");
    // The entity pane: each component's name, instance id, state, chain, value, handle.
    assert!(shows(&lines, "is-a AxisMoving > Moving"), "{lines:#?}");
    assert!(
        shows(&lines, "AxisMoving { base: Moving { speed: 2.0 }"),
        "{lines:#?}"
    );
    assert!(shows(&lines, "Collider { radius: 3.0 }"));
    assert!(shows(&lines, &format!("handle ({player:?}, #")));
    assert!(shows(&lines, "parent level"));
    press(&mut inspector, &mut world, KeyCode::End);
    assert_eq!(inspector.selected(&world), Some(enemy));
    press(&mut inspector, &mut world, KeyCode::Home);
    press(&mut inspector, &mut world, KeyCode::Up);
    assert_eq!(
        inspector
            .selected(&world)
            .and_then(|id| world.entity(id).ok()?.name().map(str::to_owned)),
        Some("level".into())
    );
    assert!(
        !press(&mut inspector, &mut world, KeyCode::Char('z')),
        "not its key"
    );
}

#[test]
fn e_toggles_the_selected_component_then_the_entity() {
    let (mut world, player, _) = world();
    let mut inspector = Inspector::new();
    inspector.select(player);
    // Right twice: the second component, the first Collider.
    press(&mut inspector, &mut world, KeyCode::Right);
    press(&mut inspector, &mut world, KeyCode::Right);
    assert_eq!(inspector.selected_component(), Some(1));
    press(&mut inspector, &mut world, KeyCode::Char('e'));
    let e = world.entity(player).unwrap();
    let enabled: Vec<bool> = e.components().map(|c| c.enabled).collect();
    assert_eq!(enabled, [true, false, true]);
    let lines = draw(&inspector, &world);
    assert!(shows(&lines, ">Collider"), "{lines:#?}");
    assert!(shows(&lines, " off "));
    assert!(shows(&lines, "last: player: Collider #"));
    // Past the last component: the entity row; e disables the entity.
    press(&mut inspector, &mut world, KeyCode::Right);
    press(&mut inspector, &mut world, KeyCode::Right);
    assert_eq!(inspector.selected_component(), None);
    press(&mut inspector, &mut world, KeyCode::Char('e'));
    assert!(!world.entity(player).unwrap().is_enabled());
    assert!(shows(&draw(&inspector, &world), "player [off]"));
}

#[test]
fn x_kills_and_revives_and_the_counts_follow() {
    let (mut world, _, enemy) = world();
    let mut inspector = Inspector::new();
    inspector.select(enemy);
    press(&mut inspector, &mut world, KeyCode::Char('x'));
    assert!(world.entity(enemy).unwrap().is_dead());
    let lines = draw(&inspector, &world);
    assert!(shows(&lines, "enemy [dead]"));
    assert!(
        shows(&lines, "3 entities: 2 on, 1 dead, 0 off"),
        "{lines:#?}"
    );
    assert!(shows(
        &lines,
        &format!("{} tables, 3 in use", world.table_count())
    ));
    press(&mut inspector, &mut world, KeyCode::Char('x'));
    assert!(!world.entity(enemy).unwrap().is_dead());
}

#[test]
fn t_shows_the_type_hierarchy_with_the_selected_entitys_types() {
    let (mut world, player, _) = world();
    let mut inspector = Inspector::new();
    inspector.select(player);
    press(&mut inspector, &mut world, KeyCode::Char('t'));
    assert_eq!(inspector.pane(), Pane::Types);
    let lines = draw(&inspector, &world);
    let row = |name: &str| {
        lines
            .iter()
            .position(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {lines:#?}"))
    };
    assert!(row("│Moving") < row("└ AxisMoving"), "{lines:#?}");
    assert!(shows(&lines, "Collider *"));
    press(&mut inspector, &mut world, KeyCode::Char('t'));
    assert_eq!(inspector.pane(), Pane::Entity);
}

#[test]
fn frame_timings_are_shown_and_a_deleted_selection_lands_nearby() {
    let (mut world, player, enemy) = world();
    let mut inspector = Inspector::new();
    for ms in 1..=3 {
        inspector.record_frame(FrameTiming {
            update: std::time::Duration::from_millis(ms),
            draw: std::time::Duration::from_millis(1),
        });
    }
    assert!(shows(
        &draw(&inspector, &world),
        "frame: update 2.00ms draw 1.00ms max 4.00ms"
    ));
    inspector.select(player);
    press(&mut inspector, &mut world, KeyCode::Down);
    assert_eq!(inspector.selected(&world), Some(enemy));
    world.despawn(enemy).unwrap();
    assert_eq!(inspector.selected(&world), Some(player), "the row above");
}
