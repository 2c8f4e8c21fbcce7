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

/// Lays the screen out for `app`.
pub fn areas(screen: Rect, app: &App) -> Areas {
    let arena_size = app.game.cells();
    let width = arena_size.first().map_or(0, Vec::len) as u16 * 2 + 2;
    let height = arena_size.len() as u16 + 2;
    let [status, body, log, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(screen);
    let (arena, inspector) = match app.show_inspector {
        false => (Some(body), None),
        true if body.width >= width + 60 => {
            let [a, i] =
                Layout::horizontal([Constraint::Length(width), Constraint::Fill(1)]).areas(body);
            (Some(a), Some(i))
        }
        true => (None, Some(body)),
    };
    let fit = |r: Rect| Rect {
        width: r.width.min(width),
        height: r.height.min(height),
        ..r
    };
    Areas {
        status,
        arena: arena.map(fit),
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
        .map(|(f, l)| Line::from(format!(" {:>6.1}s  {l}", *f as f32 * crate::game::DT)))
        .collect();
    frame.render_widget(Paragraph::new(log).style(Style::new().fg(Color::Gray)), areas.log);
    let help = if app.show_inspector {
        format!(" WASD move  space bomb  p pause  Tab close  q quit | {}", ecs_inspector::Inspector::HELP)
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
    let block = Block::bordered()
        .title(format!(" level {}: {} ", level.number, level.title))
        .border_style(Style::new().fg(Color::Indexed(245)));
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
    let banner = match game.phase() {
        _ if app.paused => Some("PAUSED: p to play"),
        Phase::Cleared { .. } => Some("LEVEL CLEAR!"),
        Phase::GameOver => Some("GAME OVER: r retry, q quit"),
        Phase::Won => Some("YOU WIN! r replay, q quit"),
        Phase::Playing => None,
    };
    if let Some(text) = banner {
        let width = (text.len() as u16 + 4).min(area.width);
        let rect = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + area.height / 2 - 1,
            width,
            height: 3.min(area.height),
        };
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(text)
                .centered()
                .block(Block::bordered())
                .style(Style::new().fg(Color::Black).bg(Color::LightYellow).bold()),
            rect,
        );
    }
}
