//! The loop that runs the app against a source of input events, and the
//! real terminal around it: raw mode and the alternate screen on the way
//! in, and the terminal given back on every way out (return, error, `q`,
//! Ctrl-C, panic).
//!
//! Frame pacing: the game steps every [`TICK`]; between steps the loop
//! waits for input with a timeout that ends at the next step, so it sleeps
//! in the kernel instead of spinning, and a key is handled (and drawn) as
//! soon as it comes.

use std::collections::VecDeque;
use std::error::Error as StdError;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::{cursor, execute, terminal};
use ratatui::Terminal;

use crate::app::{key, App};
use crate::game::DT;

/// One game frame.
pub const TICK: Duration = Duration::from_millis((DT * 1000.0) as u64);

/// Steps the loop may fall behind before it gives up catching up (after a
/// suspend, say) and starts afresh from now.
const MAX_CATCH_UP: u32 = 5;

/// Where the loop gets its input and its time.
pub trait EventSource {
    /// The time now.
    fn now(&self) -> Instant;
    /// The next event, waiting up to `timeout`; `None` when the time ran out.
    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>>;
}

/// The terminal's keyboard, with the wall clock.
pub struct Keyboard;

impl EventSource for Keyboard {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if event::poll(timeout)? {
            event::read().map(Some)
        } else {
            Ok(None)
        }
    }
}

/// One step of a script.
#[derive(Debug, Clone)]
pub enum Step {
    /// An input event.
    Event(Event),
    /// Let this many game frames pass.
    Frames(u32),
}

/// A scripted source with its own clock: events come at once, time passes
/// only in `Frames` steps. When the script ends it presses `q`.
pub struct Script {
    start: Instant,
    elapsed: Duration,
    steps: VecDeque<Step>,
    waiting: Duration,
}

impl Script {
    /// A script of steps.
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Script {
        Script {
            start: Instant::now(),
            elapsed: Duration::ZERO,
            steps: steps.into_iter().collect(),
            waiting: Duration::ZERO,
        }
    }

    /// Key presses, then `frames` frames.
    pub fn keys(codes: &[KeyCode], frames: u32) -> Script {
        let mut steps: Vec<Step> = codes.iter().map(|&c| Step::Event(key(c))).collect();
        steps.push(Step::Frames(frames));
        Script::new(steps)
    }
}

impl EventSource for Script {
    fn now(&self) -> Instant {
        self.start + self.elapsed
    }

    fn next(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if self.waiting.is_zero() {
            match self.steps.pop_front() {
                None => return Ok(Some(key(KeyCode::Char('q')))),
                Some(Step::Event(e)) => return Ok(Some(e)),
                Some(Step::Frames(n)) => self.waiting = TICK * n,
            }
        }
        let pass = timeout.min(self.waiting);
        self.waiting -= pass;
        self.elapsed += pass;
        Ok(None)
    }
}

/// The error any backend's failure becomes.
pub type LoopError = Box<dyn StdError + Send + Sync>;

/// Runs `app` until it quits: draw, wait for input until the next frame is
/// due, handle it, step the game when due.
pub fn run_loop<B>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut impl EventSource,
) -> Result<(), LoopError>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let mut next_tick = events.now() + TICK;
    while !app.quit {
        let start = Instant::now();
        terminal.draw(|frame| app.draw(frame))?;
        app.record_draw(start.elapsed());
        let timeout = next_tick.saturating_duration_since(events.now());
        if let Some(event) = events.next(timeout)? {
            app.handle(&event);
            continue;
        }
        let mut behind = 0;
        while events.now() >= next_tick {
            app.tick()?;
            next_tick += TICK;
            behind += 1;
            if behind == MAX_CATCH_UP {
                next_tick = events.now() + TICK;
            }
        }
    }
    Ok(())
}

/// Whether keyboard enhancement was pushed (to pop it on the way out).
static ENHANCED: AtomicBool = AtomicBool::new(false);

/// Gives the terminal back: cooked mode, main screen, cursor shown. Safe to
/// call twice (the guard and the panic hook may both run).
pub fn restore() {
    if ENHANCED.swap(false, Ordering::SeqCst) {
        let _ = execute!(io::stdout(), PopKeyboardEnhancementFlags);
    }
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), terminal::LeaveAlternateScreen, cursor::Show);
}

/// Restores the terminal when dropped, whatever way the scope is left.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Takes over the terminal; returns whether it reports key releases.
fn enter() -> io::Result<bool> {
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
    let releases = matches!(terminal::supports_keyboard_enhancement(), Ok(true));
    if releases {
        execute!(
            io::stdout(),
            PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::REPORT_EVENT_TYPES)
        )?;
        ENHANCED.store(true, Ordering::SeqCst);
    }
    Ok(releases)
}

/// Plays the game in the real terminal. A panic anywhere inside restores
/// the terminal before its message is printed.
pub fn play(seed: u64) -> Result<(), LoopError> {
    let mut app = App::new(seed)?;
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    let _guard = Guard;
    let releases = enter()?;
    app.set_key_releases(releases);
    let mut terminal: Terminal<CrosstermBackend<Stdout>> =
        Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    run_loop(&mut terminal, &mut app, &mut Keyboard)
}
