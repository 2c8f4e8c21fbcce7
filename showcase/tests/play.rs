//! The game and the inspector driven through a scripted input source and
//! drawn to ratatui's `TestBackend`, as a person would see them: the tests
//! read the rendered cells.

use ecs_core::prelude::*;
use ecs_core::BlueprintLibrary;
use ecs_showcase::app::{key, App};
use ecs_showcase::components::Position;
use ecs_showcase::level::data_dir;
use ecs_showcase::term::{run_loop, Script, Step};
use ecs_showcase::{ui, Game};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::Terminal;

const W: u16 = 130;
const H: u16 = 32;

/// A soldier that never moves: a target that stays put.
const STATUE: &str = r#"{
  "tag": "Statue",
  "components": [
    { "type": "Sprite", "data": { "glyph": "s", "art": "s ", "tint": "Green", "z": 4 } },
    { "type": "AxisMoving", "data": { "base": { "speed": 0.0 } } },
    { "type": "Soldier", "data": { "base": { "points": 100, "turn_percent": 0 } } },
    { "type": "Collider", "data": { "role": "Body", "radius": 0.4 } },
    { "type": "Collider", "data": { "role": "Sight", "radius": 2.6 } }
  ]
}"#;

fn level(number: u32, title: &str, map: &[&str]) -> Blueprint {
    let json = serde_json::json!({
        "tag": format!("T{number}"),
        "name": format!("level-{number}"),
        "components": [{ "type": "Level", "data": {
            "number": number, "title": title, "map": map,
            "legend": { "%": "Crate", "s": "Statue" }
        }}]
    });
    Blueprint::from_value(&json).expect("a valid level")
}

/// Two small levels: a corridor with a statue at its end and a side
/// pocket to hide in, then a second room.
fn app() -> App {
    let mut library = BlueprintLibrary::load_dir(data_dir()).expect("the showcase data");
    library
        .insert("Statue", Blueprint::from_json(STATUE).unwrap())
        .expect("a valid statue");
    library
        .insert(
            "T1",
            level(
                1,
                "Corridor",
                &["########", "#@..s###", "#.######", "#.######", "########"],
            ),
        )
        .expect("a valid level");
    library
        .insert(
            "T2",
            level(2, "Second room", &["#######", "#@...s#", "#######"]),
        )
        .expect("a valid level");
    let game = Game::with_levels(library, vec!["T1".into(), "T2".into()], 7).unwrap();
    App::from_game(game, 7)
}

fn play(app: &mut App, steps: Vec<Step>) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(W, H)).unwrap();
    app.quit = false;
    run_loop(&mut terminal, app, &mut Script::new(steps)).expect("the loop runs");
    terminal
}

fn press(code: KeyCode) -> Step {
    Step::Event(key(code))
}

/// The screen as lines of text.
fn screen(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// The two characters drawn for map cell (x, y).
fn cell(terminal: &Terminal<TestBackend>, app: &App, x: i32, y: i32) -> String {
    let buf = terminal.backend().buffer();
    let arena = ui::areas(buf.area, app).arena.expect("the arena is shown");
    let (col, row) = ui::cell_position(arena, Position { x, y });
    format!(
        "{}{}",
        buf[(col, row)].symbol(),
        buf[(col + 1, row)].symbol()
    )
}

fn shows(terminal: &Terminal<TestBackend>, text: &str) -> bool {
    screen(terminal).iter().any(|l| l.contains(text))
}

#[test]
fn the_first_screen_has_the_arena_a_status_line_and_help() {
    let mut app = app();
    let t = play(&mut app, vec![]);
    assert_eq!(cell(&t, &app, 1, 1), "@ ");
    assert_eq!(cell(&t, &app, 4, 1), "s ");
    assert_eq!(cell(&t, &app, 0, 0), "██");
    let lines = screen(&t);
    assert!(
        lines[0].contains("level 1 | score 0 | lives 3"),
        "{}",
        lines[0]
    );
    assert!(shows(&t, "level 1: Corridor"));
    assert!(lines[H as usize - 1].contains("space bomb"));
}

#[test]
fn arrow_keys_and_wasd_move_the_player_one_cell_per_press() {
    let mut app = app();
    let t = play(&mut app, vec![press(KeyCode::Right), Step::Frames(8)]);
    assert_eq!(cell(&t, &app, 1, 1), "  ", "{:#?}", screen(&t));
    assert_eq!(cell(&t, &app, 2, 1), "@ ");
    let t = play(&mut app, vec![press(KeyCode::Char('a')), Step::Frames(8)]);
    assert_eq!(cell(&t, &app, 1, 1), "@ ");
    // Walls stop it.
    let t = play(&mut app, vec![press(KeyCode::Up), Step::Frames(8)]);
    assert_eq!(cell(&t, &app, 1, 1), "@ ");
}

/// Right, bomb, then out of the blast: left and down into the pocket.
fn bomb_and_hide() -> Vec<Step> {
    vec![
        press(KeyCode::Right),
        Step::Frames(5),
        press(KeyCode::Char(' ')),
        press(KeyCode::Left),
        Step::Frames(5),
        press(KeyCode::Down),
        Step::Frames(5),
        press(KeyCode::Down),
        Step::Frames(5),
    ]
}

#[test]
fn a_bomb_ticks_then_flames_spread_until_walls_stop_them() {
    let mut app = app();
    let t = play(&mut app, bomb_and_hide());
    assert_eq!(cell(&t, &app, 2, 1), "()", "the bomb");
    assert_eq!(cell(&t, &app, 1, 3), "@ ", "the player hides");
    assert!(shows(&t, "player drops a bomb at (2,1)"));
    // The fuse is 2 s (40 frames) from the drop on frame 6; it is frame 20.
    let t = play(&mut app, vec![Step::Frames(28)]);
    for x in 1..=3 {
        assert_eq!(
            cell(&t, &app, x, 1),
            "**",
            "flame at ({x},1): {:#?}",
            screen(&t)
        );
    }
    assert_eq!(cell(&t, &app, 4, 1), "x ", "the statue, dead in the flames");
    assert_eq!(cell(&t, &app, 0, 1), "██", "the wall stops the flames");
    assert_eq!(cell(&t, &app, 2, 2), "██", "so does this one");
    assert_eq!(cell(&t, &app, 1, 3), "@ ", "out of reach");
    // The flames burn out.
    let t = play(&mut app, vec![Step::Frames(12)]);
    assert_eq!(cell(&t, &app, 2, 1), "  ");
}

#[test]
fn an_enemy_in_the_blast_dies_and_the_next_level_loads() {
    let mut app = app();
    let mut steps = bomb_and_hide();
    steps.push(Step::Frames(30));
    let t = play(&mut app, steps);
    assert!(
        shows(&t, "statue-1 killed by fire (+100)"),
        "{:#?}",
        screen(&t)
    );
    assert!(screen(&t)[0].contains("score 100"), "{}", screen(&t)[0]);
    // Drawn dead for a moment, then gone; with no enemy left the level is won.
    let t = play(&mut app, vec![Step::Frames(14)]);
    assert_eq!(cell(&t, &app, 4, 1), "  ");
    assert!(shows(&t, "LEVEL CLEAR!"));
    assert!(shows(&t, "level 1 cleared"));
    let t = play(&mut app, vec![Step::Frames(45)]);
    assert!(shows(&t, "level 2: Second room"));
    assert!(screen(&t)[0].contains("level 2"));
    assert_eq!(
        cell(&t, &app, 1, 1),
        "@ ",
        "the player starts the new level"
    );
    assert_eq!(cell(&t, &app, 5, 1), "s ");
}

#[test]
fn pause_stops_the_game_and_q_quits() {
    let mut app = app();
    play(&mut app, vec![press(KeyCode::Char('p')), Step::Frames(20)]);
    assert_eq!(app.game.frame(), 0);
    let t = play(&mut app, vec![]);
    assert!(shows(&t, "PAUSED"));
    play(&mut app, vec![press(KeyCode::Char('p')), Step::Frames(20)]);
    assert_eq!(app.game.frame(), 20);
    assert!(app.quit, "the script ends with q");
}

#[test]
fn tab_opens_the_inspector_and_the_arrows_walk_the_scene_graph() {
    let mut app = app();
    let t = play(&mut app, vec![press(KeyCode::Tab), Step::Frames(1)]);
    assert!(shows(&t, " inspector "));
    assert!(shows(&t, ">level-1"), "the root is selected first");
    let t = play(&mut app, vec![press(KeyCode::Down)]);
    assert!(
        shows(&t, ">└─statue-1") || shows(&t, ">├─statue-1"),
        "{:#?}",
        screen(&t)
    );
    assert!(shows(&t, "statue-1 "), "its details");
    assert!(shows(&t, "is-a Soldier > Enemy"), "the type chain");
    assert!(shows(&t, "Collider"));
    let t = play(&mut app, vec![press(KeyCode::Down)]);
    assert!(shows(&t, ">└─player"), "{:#?}", screen(&t));
    assert!(shows(&t, "is-a AxisMoving > Moving"));
    // t: the type hierarchy, Soldier under Enemy.
    let t = play(&mut app, vec![press(KeyCode::Char('t'))]);
    let lines = screen(&t);
    let enemy = lines
        .iter()
        .position(|l| l.contains("  Enemy ") || l.ends_with("Enemy"))
        .or_else(|| lines.iter().position(|l| l.contains("Enemy")));
    assert!(enemy.is_some(), "{lines:#?}");
    assert!(shows(&t, "└ Soldier"));
    assert!(shows(&t, "Collider *"), "multiple types are starred");
}

#[test]
fn e_disables_the_selected_component_and_x_kills_the_entity() {
    let mut app = app();
    // The statue, then its first component (the Sprite): disabled, it is not drawn.
    let t = play(
        &mut app,
        vec![
            press(KeyCode::Tab),
            press(KeyCode::Down),
            press(KeyCode::Right),
            press(KeyCode::Char('e')),
        ],
    );
    assert!(shows(&t, ">Sprite"), "{:#?}", screen(&t));
    assert!(shows(&t, " off "), "{:#?}", screen(&t));
    assert!(shows(&t, "statue-1: Sprite"), "{:#?}", screen(&t));
    assert_eq!(cell(&t, &app, 4, 1), "  ", "a disabled sprite is not drawn");
    let t = play(&mut app, vec![press(KeyCode::Char('e'))]);
    assert_eq!(cell(&t, &app, 4, 1), "s ");
    // Back to the entity row; x kills it (drawn dead) and the level is won
    // once no enemy is left in the fight.
    let t = play(
        &mut app,
        vec![
            press(KeyCode::Left),
            press(KeyCode::Char('x')),
            Step::Frames(1),
        ],
    );
    assert!(shows(&t, "statue-1 [dead]"), "{:#?}", screen(&t));
    assert_eq!(cell(&t, &app, 4, 1), "x ");
    assert!(shows(&t, "LEVEL CLEAR!"));
    // x again revives it; the entity row's e disables the whole entity.
    let t = play(
        &mut app,
        vec![press(KeyCode::Char('x')), press(KeyCode::Char('e'))],
    );
    assert!(shows(&t, "statue-1 [off]"), "{:#?}", screen(&t));
    assert_eq!(cell(&t, &app, 4, 1), "  ");
}
