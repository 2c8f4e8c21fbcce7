//! The game plus the inspector, driven by terminal input events: what the
//! real terminal loop and the tests both run.

use std::time::{Duration, Instant};

use ecs_core::Error;
use ecs_inspector::{FrameTiming, Inspector};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;

use crate::components::{Dir, Input};
use crate::game::{Game, Phase};
use crate::ui;

/// Frames a key press keeps the player walking when the terminal reports
/// no key releases (most do not): one cell at the starting speed, and a
/// held key's repeats keep it going.
const HOLD_FRAMES: u32 = 4;

/// The direction key held, as far as the terminal tells.
#[derive(Debug, Clone, Copy, Default)]
struct Held {
    dir: Option<Dir>,
    frames_left: u32,
    /// Whether the terminal reports releases (the kitty protocol): then a
    /// key is held until released.
    releases: bool,
}

/// Everything the showcase runs: the game, the inspector, the keyboard.
pub struct App {
    /// The game being played.
    pub game: Game,
    /// The inspector's state (shown or not).
    pub inspector: Inspector,
    /// Whether the inspector is shown.
    pub show_inspector: bool,
    /// Whether the game is paused.
    pub paused: bool,
    /// Set by `q` (or Ctrl-C): the loop ends.
    pub quit: bool,
    held: Held,
    bomb: bool,
    seed: u64,
    last_update: Duration,
}

impl App {
    /// A new game of the showcase's levels.
    pub fn new(seed: u64) -> Result<App, Error> {
        Ok(App::from_game(Game::new(seed)?, seed))
    }

    /// An app around a game made elsewhere (tests bring their own levels).
    pub fn from_game(game: Game, seed: u64) -> App {
        App {
            game,
            inspector: Inspector::new(),
            show_inspector: false,
            paused: false,
            quit: false,
            held: Held::default(),
            bomb: false,
            seed,
            last_update: Duration::ZERO,
        }
    }

    /// Tells the app that the terminal reports key releases.
    pub fn set_key_releases(&mut self, on: bool) {
        self.held.releases = on;
    }

    /// Handles one input event.
    pub fn handle(&mut self, event: &Event) {
        let Event::Key(key) = event else {
            return; // a resize is picked up by the next draw
        };
        if key.kind == KeyEventKind::Release {
            if self.held.releases && self.held.dir == direction(key.code) {
                self.held.dir = None;
            }
            return;
        }
        let ctrl_c =
            key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
        match key.code {
            KeyCode::Char('q') | KeyCode::Char('Q') => self.quit = true,
            _ if ctrl_c => self.quit = true,
            KeyCode::Tab => self.show_inspector = !self.show_inspector,
            KeyCode::Esc if self.show_inspector => self.show_inspector = false,
            KeyCode::Char('p') | KeyCode::Char('P') => self.paused = !self.paused,
            KeyCode::Char(' ') => self.bomb = true,
            KeyCode::Char('r') if matches!(self.game.phase(), Phase::GameOver | Phase::Won) => {
                self.restart();
            }
            // With the inspector open the arrows are its own; WASD still move.
            code if self.show_inspector && !is_wasd(code) => {
                self.inspector.handle_key(*key, &mut self.game.world);
            }
            code => {
                if let Some(dir) = direction(code) {
                    self.held = Held {
                        dir: Some(dir),
                        frames_left: HOLD_FRAMES,
                        releases: self.held.releases,
                    };
                }
            }
        }
    }

    fn restart(&mut self) {
        self.seed = self.seed.wrapping_add(1);
        match Game::new(self.seed) {
            Ok(game) => self.game = game,
            Err(error) => eprintln!("cannot restart: {error}"),
        }
        self.held = Held {
            releases: self.held.releases,
            ..Held::default()
        };
    }

    /// Plays one frame (unless paused) with the keys held.
    pub fn tick(&mut self) -> Result<(), Error> {
        if self.paused {
            self.bomb = false;
            return Ok(());
        }
        let input = Input {
            wish: self.held.dir,
            bomb: std::mem::take(&mut self.bomb),
        };
        if !self.held.releases {
            self.held.frames_left = self.held.frames_left.saturating_sub(1);
            if self.held.frames_left == 0 {
                self.held.dir = None;
            }
        }
        self.step_with(input)
    }

    /// Plays one frame with this input (the autopilot's, say), timing it.
    pub fn step_with(&mut self, input: Input) -> Result<(), Error> {
        let start = Instant::now();
        self.game.step(input)?;
        self.last_update = start.elapsed();
        Ok(())
    }

    /// Draws the screen.
    pub fn draw(&self, frame: &mut Frame) {
        ui::draw(frame, self);
    }

    /// Records what the last frame cost, for the inspector's graph.
    pub fn record_draw(&mut self, draw: Duration) {
        self.inspector.record_frame(FrameTiming {
            update: self.last_update,
            draw,
        });
    }
}

fn is_wasd(code: KeyCode) -> bool {
    matches!(
        code,
        KeyCode::Char('w' | 'a' | 's' | 'd' | 'W' | 'A' | 'S' | 'D')
    )
}

/// The direction a key means, if any.
fn direction(code: KeyCode) -> Option<Dir> {
    match code {
        KeyCode::Up | KeyCode::Char('w' | 'W') => Some(Dir::Up),
        KeyCode::Down | KeyCode::Char('s' | 'S') => Some(Dir::Down),
        KeyCode::Left | KeyCode::Char('a' | 'A') => Some(Dir::Left),
        KeyCode::Right | KeyCode::Char('d' | 'D') => Some(Dir::Right),
        _ => None,
    }
}

/// A key press event, for scripts and tests.
pub fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::from(code))
}
