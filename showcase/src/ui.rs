//! Drawing with ratatui: a status line, the arena (two terminal cells per
//! map cell), the last events, a help line, and the inspector beside the
//! arena (or over it, on a narrow terminal).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use crate::app::App;
use crate::components::{Position, Tint};
use crate::game::Phase;
use crate::headless;

const FLOOR: Color = Color::Indexed(22);

/// Where things go on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// The status line.
    pub status: Rect,
    /// The arena's block (border included), when shown.
    pub arena: Option<Rect>,
    /// The inspector, when shown.
    pub inspector: Option<Rect>,
    /// The last events.
    pub log: Rect,
    /// The help line.
    pub help: Rect,
}

/// Lays the screen out for `app`: the arena at the top left with the
/// last events under it, the inspector (when shown) to its right, or over
/// both on a terminal too narrow for the two.
pub fn areas(screen: Rect, app: &App) -> Areas {
    let cells = app.game.cells();
    let width = cells.first().map_or(0, Vec::len) as u16 * 2 + 2;
    let height = cells.len() as u16 + 2;
    let [status, body, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(screen);
    let wide = body.width >= width + 60;
    let (left, inspector) = match (app.show_inspector, wide) {
        (false, _) => (body, None),
        (true, true) => {
            let [l, i] =
                Layout::horizontal([Constraint::Length(width), Constraint::Fill(1)]).areas(body);
            (l, Some(i))
        }
        (true, false) => {
            let [i, l] = Layout::vertical([Constraint::Fill(1), Constraint::Length(3)]).areas(body);
            (l, Some(i))
        }
    };
    let arena_rows = if inspector.is_some() && !wide {
        0
    } else {
        height.min(left.height)
    };
    let [arena, log] =
        Layout::vertical([Constraint::Length(arena_rows), Constraint::Fill(1)]).areas(left);
    Areas {
        status,
        arena: (arena_rows > 0).then_some(Rect {
            width: arena.width.min(width),
            ..arena
        }),
        inspector,
        log,
        help,
    }
}

/// The screen cell where map cell `p` starts (its first of two columns).
pub fn cell_position(arena: Rect, p: Position) -> (u16, u16) {
    (arena.x + 1 + 2 * p.x as u16, arena.y + 1 + p.y as u16)
}

/// A sprite's colour on the terminal.
pub fn colour(tint: Tint) -> Color {
    match tint {
        Tint::White => Color::Indexed(252),
        Tint::Yellow => Color::LightYellow,
        Tint::Red => Color::LightRed,
        Tint::Brown => Color::Indexed(137),
        Tint::Green => Color::LightGreen,
        Tint::Magenta => Color::LightMagenta,
        Tint::Blue => Color::LightBlue,
        Tint::Cyan => Color::LightCyan,
        Tint::Gray => Color::Indexed(250),
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let areas = areas(frame.area(), app);
    let game = &app.game;
    let status = headless::status(game);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(
            format!(" {status}"),
            Style::new().fg(Color::Black).bg(Color::LightYellow),
        )))
        .style(Style::new().bg(Color::LightYellow)),
        areas.status,
    );
    if let Some(arena) = areas.arena {
        draw_arena(frame, app, arena);
    }
    if let Some(area) = areas.inspector {
        frame.render_widget(Clear, area);
        frame.render_widget(app.inspector.view(&game.world), area);
    }
    let events = &game.journal().events;
    let log: Vec<Line> = events
        .iter()
        .rev()
        .take(areas.log.height as usize)
        .rev()
        .map(|(f, l)| Line::from(format!("{:>5.1}s {l}", *f as f32 * crate::game::DT)))
        .collect();
    frame.render_widget(
        Paragraph::new(log).style(Style::new().fg(Color::Gray)),
        areas.log,
    );
    let help = if app.show_inspector {
        format!(
            " WASD move  space bomb  p pause  Tab close  q quit | {}",
            ecs_inspector::Inspector::HELP
        )
    } else {
        " arrows/WASD move  space bomb  p pause  Tab inspector  q quit".to_owned()
    };
    frame.render_widget(
        Paragraph::new(help).style(Style::new().fg(Color::Black).bg(Color::Gray)),
        areas.help,
    );
}

fn draw_arena(frame: &mut Frame, app: &App, area: Rect) {
    let game = &app.game;
    let level = game.level();
    let banner = match game.phase() {
        _ if app.paused => Some("PAUSED"),
        Phase::Cleared { .. } => Some("LEVEL CLEAR!"),
        Phase::GameOver => Some("GAME OVER (r)"),
        Phase::Won => Some("YOU WIN! (r)"),
        Phase::Playing => None,
    };
    let mut block = Block::bordered()
        .title(format!(" level {}: {} ", level.number, level.title))
        .border_style(Style::new().fg(Color::Indexed(245)));
    if let Some(text) = banner {
        // Under the arena, on its border: it hides no cell.
        block = block.title_bottom(
            Line::from(Span::styled(
                format!(" {text} "),
                Style::new().fg(Color::Black).bg(Color::LightYellow).bold(),
            ))
            .centered(),
        );
    }
    frame.render_widget(block, area);
    let buf = frame.buffer_mut();
    for (y, row) in (0..).zip(game.cells()) {
        for (x, cell) in (0..).zip(row) {
            let (col, line) = cell_position(area, Position { x, y });
            if col + 1 >= area.right() || line + 1 >= area.bottom() {
                continue;
            }
            let mut style = Style::new().bg(FLOOR).fg(colour(cell.tint));
            if cell.is_wall() {
                style = Style::new().fg(Color::Indexed(248)).bg(Color::Indexed(240));
            } else if cell.glyph != '.' && cell.glyph != '%' {
                style = style.add_modifier(Modifier::BOLD);
            }
            for (i, ch) in cell.art.iter().enumerate() {
                buf[(col + i as u16, line)].set_char(*ch).set_style(style);
            }
        }
    }
}
