//! The README's pictures: an animated GIF of a recorded headless run, with
//! tiles drawn here in pixel art, and a PNG of the terminal screen with the
//! inspector open (each terminal cell drawn with an 8x8 bitmap font).
//! `cargo run --release --example pictures` writes both to `docs/`.

use std::borrow::Cow;

use ecs_core::Error;
use font8x8::UnicodeFonts;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color;
use ratatui::Terminal;

use crate::ai::PlayerAi;
use crate::app::{key, App};
use crate::game::{Cell, Game};

/// Pixels per map cell in the GIF.
pub const TILE: usize = 16;
/// Height of the GIF's status strip.
const STRIP: usize = 12;

/// The GIF's colours, by index.
const PALETTE: [[u8; 3]; 20] = [
    [0, 0, 0],       // 0 black
    [46, 120, 50],   // 1 floor
    [40, 108, 44],   // 2 floor, darker
    [150, 150, 160], // 3 wall
    [200, 200, 210], // 4 wall, light edge
    [90, 90, 100],   // 5 wall, dark edge
    [176, 120, 60],  // 6 crate
    [110, 70, 30],   // 7 crate, planks
    [250, 220, 60],  // 8 yellow: the player
    [255, 255, 255], // 9 white
    [230, 50, 40],   // 10 red
    [250, 150, 30],  // 11 orange
    [120, 220, 90],  // 12 green: soldiers
    [220, 90, 220],  // 13 magenta: runners
    [80, 130, 240],  // 14 blue: tanks
    [70, 220, 230],  // 15 cyan: power-ups
    [50, 50, 60],    // 16 bomb
    [24, 24, 32],    // 17 status strip
    [200, 200, 200], // 18 text
    [255, 240, 150], // 19 flame core
];

/// An indexed-colour canvas.
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: usize, height: usize, fill: u8) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![fill; width * height],
        }
    }

    fn set(&mut self, x: usize, y: usize, colour: u8) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = colour;
        }
    }

    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, colour: u8) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, colour);
            }
        }
    }

    /// Sets the pixels of the tile at (x0, y0) for which `inside(dx, dy)`
    /// holds, where (dx, dy) is relative to the tile's centre, in tiles.
    fn shape(&mut self, x0: usize, y0: usize, colour: u8, inside: impl Fn(f32, f32) -> bool) {
        for y in 0..TILE {
            for x in 0..TILE {
                let dx = (x as f32 + 0.5) / TILE as f32 - 0.5;
                let dy = (y as f32 + 0.5) / TILE as f32 - 0.5;
                if inside(dx, dy) {
                    self.set(x0 + x, y0 + y, colour);
                }
            }
        }
    }

    fn text(&mut self, x: usize, y: usize, text: &str, colour: u8) {
        for (i, c) in text.chars().enumerate() {
            if let Some(rows) = glyph(c) {
                for (dy, row) in rows.iter().enumerate() {
                    for dx in 0..8 {
                        if row & (1 << dx) != 0 {
                            self.set(x + i * 8 + dx, y + dy, colour);
                        }
                    }
                }
            }
        }
    }
}

/// The 8x8 bitmap of a character, from the blocks the terminal uses.
fn glyph(c: char) -> Option<[u8; 8]> {
    font8x8::BASIC_FONTS
        .get(c)
        .or_else(|| font8x8::BOX_FONTS.get(c))
        .or_else(|| font8x8::BLOCK_FONTS.get(c))
        .or_else(|| font8x8::LATIN_FONTS.get(c))
}

/// Draws one map cell.
fn draw_tile(canvas: &mut Canvas, x: usize, y: usize, cell: &Cell) {
    let (x0, y0) = (x * TILE, STRIP + y * TILE);
    let floor = if (x + y).is_multiple_of(2) { 1 } else { 2 };
    canvas.rect(x0, y0, TILE, TILE, floor);
    let body = |tint: u8| {
        move |c: &mut Canvas| {
            c.shape(x0, y0, tint, |dx, dy| dx * dx + dy * dy < 0.16);
            c.shape(x0, y0, 9, |dx, dy| {
                ((dx + 0.13).powi(2) + (dy + 0.08).powi(2)).sqrt() < 0.08
                    || ((dx - 0.13).powi(2) + (dy + 0.08).powi(2)).sqrt() < 0.08
            });
            c.shape(x0, y0, 0, |dx, dy| {
                ((dx + 0.13).powi(2) + (dy + 0.05).powi(2)).sqrt() < 0.035
                    || ((dx - 0.13).powi(2) + (dy + 0.05).powi(2)).sqrt() < 0.035
            });
        }
    };
    match cell.glyph {
        '#' => {
            canvas.rect(x0, y0, TILE, TILE, 3);
            canvas.rect(x0, y0, TILE, 2, 4);
            canvas.rect(x0, y0, 2, TILE, 4);
            canvas.rect(x0, y0 + TILE - 2, TILE, 2, 5);
            canvas.rect(x0 + TILE - 2, y0, 2, TILE, 5);
        }
        '%' => {
            canvas.rect(x0 + 1, y0 + 1, TILE - 2, TILE - 2, 6);
            canvas.shape(x0, y0, 7, |dx, dy| {
                (dx - dy).abs() < 0.07
                    || (dx + dy).abs() < 0.07
                    || dx.abs() > 0.40
                    || dy.abs() > 0.40
            });
        }
        '@' => {
            body(8)(canvas);
            canvas.shape(x0, y0, 10, |dx, dy| {
                dy > 0.12 && dy < 0.2 && dx.abs() < 0.15
            });
        }
        's' => body(12)(canvas),
        'r' => {
            body(13)(canvas);
            canvas.shape(x0, y0, 13, |dx, dy| dy < -0.3 && dx.abs() < 0.06);
        }
        't' => {
            canvas.shape(x0, y0, 14, |dx, dy| dx.abs() < 0.42 && dy.abs() < 0.34);
            canvas.shape(x0, y0, 5, |dx, dy| {
                dx.abs() < 0.42 && dy > 0.22 && dy < 0.34
            });
            body(14)(canvas);
        }
        'o' => {
            canvas.shape(x0, y0, 16, |dx, dy| dx * dx + (dy - 0.05).powi(2) < 0.12);
            canvas.shape(x0, y0, 4, |dx, dy| {
                (dx + 0.1).powi(2) + (dy + 0.05).powi(2) < 0.006
            });
            canvas.shape(x0, y0, 11, |dx, dy| {
                dx > 0.12 && dx < 0.25 && dy > -0.45 && dy < -0.25
            });
        }
        '*' => {
            canvas.shape(x0, y0, 10, |dx, dy| dx.abs() + dy.abs() < 0.55);
            canvas.shape(x0, y0, 11, |dx, dy| dx.abs() + dy.abs() < 0.38);
            canvas.shape(x0, y0, 19, |dx, dy| dx.abs() + dy.abs() < 0.2);
        }
        'x' => {
            canvas.shape(x0, y0, 10, |dx, dy| {
                ((dx - dy).abs() < 0.09 || (dx + dy).abs() < 0.09) && dx.abs() < 0.35
            });
        }
        '+' | 'b' | '>' => {
            canvas.shape(x0, y0, 15, |dx, dy| dx.abs() < 0.4 && dy.abs() < 0.4);
            let letter = match cell.glyph {
                '+' => "R",
                'b' => "B",
                _ => "S",
            };
            canvas.text(x0 + (TILE - 8) / 2, y0 + (TILE - 8) / 2, letter, 0);
        }
        _ => {}
    }
}

/// One picture of the game: the status strip, then the arena.
fn snapshot(game: &Game) -> Canvas {
    let cells = game.cells();
    let (w, h) = (cells.first().map_or(0, Vec::len), cells.len());
    let mut canvas = Canvas::new(w * TILE, STRIP + h * TILE, 17);
    for (y, row) in cells.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            draw_tile(&mut canvas, x, y, cell);
        }
    }
    let level = game.level();
    let lives = game.player_state().map_or(0, |p| p.lives);
    let text = format!(
        "L{} {:>5} pts  lives {lives}  foes {}",
        level.number,
        game.journal().score,
        game.enemies_left()
    );
    canvas.text(4, 2, &text, 18);
    canvas
}

/// The smallest rectangle where two pictures differ: (x, y, w, h).
fn changed(a: &Canvas, b: &Canvas) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..a.height {
        for x in 0..a.width {
            let i = y * a.width + x;
            if a.pixels[i] != b.pixels[i] {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    (x0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

fn gif_error(e: gif::EncodingError) -> Error {
    Error::Io {
        path: "showcase.gif".into(),
        message: e.to_string(),
    }
}

/// Plays `frames` frames with the autopilot (seed `seed`) and records every
/// `every`-th as a GIF frame (only the part that changed), looping.
pub fn record_gif(frames: u32, seed: u64, every: u32) -> Result<Vec<u8>, Error> {
    let mut game = Game::new(seed)?;
    let mut ai = PlayerAi::new();
    let first = snapshot(&game);
    let palette: Vec<u8> = PALETTE.iter().flatten().copied().collect();
    let mut bytes = Vec::new();
    {
        let (w, h) = (first.width as u16, first.height as u16);
        let mut encoder = gif::Encoder::new(&mut bytes, w, h, &palette).map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        let delay = (every * 5) as u16; // centiseconds: a game frame is 50 ms
        let mut shown = first;
        let mut frame = gif::Frame::from_indexed_pixels(w, h, shown.pixels.clone(), None);
        let mut pending_delay = delay;
        for n in 1..=frames {
            let input = ai.decide(&game);
            game.step(input)?;
            if n % every != 0 && n != frames {
                continue;
            }
            let next = snapshot(&game);
            match changed(&shown, &next) {
                None => pending_delay += delay,
                Some((x, y, cw, ch)) => {
                    frame.delay = pending_delay;
                    encoder.write_frame(&frame).map_err(gif_error)?;
                    let mut crop = Vec::with_capacity(cw * ch);
                    for row in y..y + ch {
                        crop.extend_from_slice(&next.pixels[row * next.width + x..][..cw]);
                    }
                    frame = gif::Frame {
                        left: x as u16,
                        top: y as u16,
                        width: cw as u16,
                        height: ch as u16,
                        buffer: Cow::Owned(crop),
                        ..gif::Frame::default()
                    };
                    pending_delay = delay;
                    shown = next;
                }
            }
        }
        frame.delay = pending_delay.max(200); // linger on the last picture
        encoder.write_frame(&frame).map_err(gif_error)?;
    }
    Ok(bytes)
}

/// The showcase's screen with the inspector open, as a terminal of
/// `width` x `height` cells shows it, after `frames` frames of autopilot
/// play (seed `seed`), with an enemy selected.
pub fn inspector_screen(width: u16, height: u16, frames: u32, seed: u64) -> Result<Buffer, Error> {
    let mut app = App::new(seed)?;
    let mut ai = PlayerAi::new();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend");
    app.handle(&key(KeyCode::Tab));
    for _ in 0..frames {
        let input = ai.decide(&app.game);
        app.step_with(input)?;
        let start = std::time::Instant::now();
        terminal
            .draw(|f| app.draw(f))
            .expect("a test backend draws");
        app.record_draw(start.elapsed());
    }
    // Down to the first enemy in the scene graph, then its first component.
    let enemy = app
        .game
        .world
        .query::<(ecs_core::EntityId, &crate::enemies::Enemy)>()
        .into_iter()
        .next();
    if let Some((id, _)) = enemy {
        app.inspector.select(id);
        app.handle(&key(KeyCode::Right));
        app.handle(&key(KeyCode::Right));
    }
    terminal
        .draw(|f| app.draw(f))
        .expect("a test backend draws");
    Ok(terminal.backend().buffer().clone())
}

/// An xterm colour as RGB.
fn rgb(color: Color, default: [u8; 3]) -> [u8; 3] {
    const BASE: [[u8; 3]; 16] = [
        [0, 0, 0],
        [205, 49, 49],
        [13, 188, 121],
        [229, 229, 16],
        [36, 114, 200],
        [188, 63, 188],
        [17, 168, 205],
        [204, 204, 204],
        [102, 102, 102],
        [241, 76, 76],
        [35, 209, 139],
        [245, 245, 67],
        [59, 142, 234],
        [214, 112, 214],
        [41, 184, 219],
        [242, 242, 242],
    ];
    let indexed = |i: u8| -> [u8; 3] {
        match i {
            0..=15 => BASE[i as usize],
            16..=231 => {
                let i = i - 16;
                let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
                [level(i / 36), level(i / 6 % 6), level(i % 6)]
            }
            _ => {
                let v = 8 + (i - 232) * 10;
                [v, v, v]
            }
        }
    };
    match color {
        Color::Reset => default,
        Color::Black => indexed(0),
        Color::Red => indexed(1),
        Color::Green => indexed(2),
        Color::Yellow => indexed(3),
        Color::Blue => indexed(4),
        Color::Magenta => indexed(5),
        Color::Cyan => indexed(6),
        Color::Gray => indexed(7),
        Color::DarkGray => indexed(8),
        Color::LightRed => indexed(9),
        Color::LightGreen => indexed(10),
        Color::LightYellow => indexed(11),
        Color::LightBlue => indexed(12),
        Color::LightMagenta => indexed(13),
        Color::LightCyan => indexed(14),
        Color::White => indexed(15),
        Color::Indexed(i) => indexed(i),
        Color::Rgb(r, g, b) => [r, g, b],
    }
}

/// A terminal buffer as a PNG: each cell 8 pixels wide and 16 high, its
/// character drawn from an 8x8 bitmap font with every row doubled.
pub fn buffer_png(buffer: &Buffer) -> Result<Vec<u8>, Error> {
    let (cols, rows) = (buffer.area.width as usize, buffer.area.height as usize);
    let (w, h) = (cols * 8, rows * 16);
    let mut rgb_pixels = vec![0u8; w * h * 3];
    for row in 0..rows {
        for col in 0..cols {
            let cell = &buffer[(col as u16, row as u16)];
            let mut fg = rgb(cell.fg, [210, 210, 210]);
            let mut bg = rgb(cell.bg, [16, 16, 22]);
            if cell.modifier.contains(ratatui::style::Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            let bits = cell
                .symbol()
                .chars()
                .next()
                .and_then(glyph)
                .unwrap_or([0; 8]);
            for y in 0..16 {
                for x in 0..8 {
                    let on = bits[y / 2] & (1 << x) != 0;
                    let i = ((row * 16 + y) * w + col * 8 + x) * 3;
                    rgb_pixels[i..i + 3].copy_from_slice(if on { &fg } else { &bg });
                }
            }
        }
    }
    encode_png(&rgb_pixels, w, h)
}

/// A still of the game as a PNG, drawn with the GIF's tiles.
pub fn still_png(game: &Game) -> Result<Vec<u8>, Error> {
    let canvas = snapshot(game);
    let rgb_pixels: Vec<u8> = canvas
        .pixels
        .iter()
        .flat_map(|&i| PALETTE[i as usize])
        .collect();
    encode_png(&rgb_pixels, canvas.width, canvas.height)
}

fn encode_png(rgb_pixels: &[u8], w: usize, h: usize) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    let io = |e: png::EncodingError| Error::Io {
        path: "png".into(),
        message: e.to_string(),
    };
    {
        let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder.write_header().map_err(io)?;
        writer.write_image_data(rgb_pixels).map_err(io)?;
    }
    Ok(bytes)
}
