//! The inspector widget: left, the scene tree over the world's counts,
//! tables and frame timings; right, the selected entity (or the type
//! hierarchy); a help line at the bottom.

use std::time::Duration;

use ecs_core::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Sparkline, Widget, Wrap};

use crate::model::{self, TreeRow};
use crate::{Inspector, Pane};

const ACCENT: Color = Color::Cyan;
const DIM: Color = Color::DarkGray;
const DEAD: Color = Color::Red;
const OFF: Color = Color::Yellow;

/// The inspector drawn over one world; made by [`Inspector::view`].
pub struct InspectorView<'a> {
    inspector: &'a Inspector,
    world: &'a World,
}

impl<'a> InspectorView<'a> {
    pub(crate) fn new(inspector: &'a Inspector, world: &'a World) -> Self {
        Self { inspector, world }
    }
}

impl Widget for InspectorView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut block = Block::bordered()
            .title(Span::styled(" inspector ", Style::new().fg(ACCENT).bold()))
            .title_bottom(Line::from(Span::styled(
                format!(" {} ", Inspector::HELP),
                Style::new().fg(DIM),
            )))
            .border_style(Style::new().fg(ACCENT));
        if let Some(note) = self.inspector.note() {
            block = block.title(Span::styled(
                format!(" last: {note} "),
                Style::new().fg(OFF),
            ));
        }
        let inner = block.inner(area);
        block.render(area, buf);
        let rows = model::tree_rows(self.world);
        let selected = self.inspector.resolve(&rows);
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(42), Constraint::Fill(1)]).areas(inner);
        let [tree, stats] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(11)]).areas(left);
        self.tree(&rows, selected, tree, buf);
        self.stats(stats, buf);
        match self.inspector.pane {
            Pane::Entity => self.entity(selected.map(|i| rows[i].id), right, buf),
            Pane::Types => self.types(selected.map(|i| rows[i].id), right, buf),
        }
    }
}

impl InspectorView<'_> {
    fn tree(&self, rows: &[TreeRow], selected: Option<usize>, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(format!(" scene graph ({}) ", rows.len()))
            .border_style(Style::new().fg(DIM));
        let inner = block.inner(area);
        block.render(area, buf);
        let height = inner.height as usize;
        // Keep the selected row in view, a third of the way down.
        let top = match selected {
            Some(i) if i >= height => (i + 1 + height / 3)
                .saturating_sub(height)
                .min(rows.len() - height),
            _ => 0,
        };
        let lines: Vec<Line> = rows
            .iter()
            .enumerate()
            .skip(top)
            .take(height)
            .map(|(i, row)| {
                let mut style = Style::new();
                let mut flags = String::new();
                if row.dead {
                    style = style.fg(DEAD);
                    flags.push_str(" [dead]");
                }
                if row.disabled {
                    style = style.fg(OFF);
                    flags.push_str(" [off]");
                }
                let marker = if Some(i) == selected { ">" } else { " " };
                if Some(i) == selected {
                    style = style
                        .bg(Color::Blue)
                        .fg(Color::White)
                        .add_modifier(Modifier::BOLD);
                }
                Line::from(vec![
                    Span::styled(marker, Style::new().fg(ACCENT)),
                    Span::styled(row.prefix.clone(), Style::new().fg(DIM)),
                    Span::styled(format!("{}{flags}", row.label), style),
                ])
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }

    fn stats(&self, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(" world ")
            .border_style(Style::new().fg(DIM));
        let inner = block.inner(area);
        block.render(area, buf);
        let c = model::census(self.world);
        let layouts = model::layouts(self.world);
        let mut lines = vec![
            Line::from(format!(
                "{} entities: {} on, {} dead, {} off",
                c.total, c.active, c.dead, c.disabled
            )),
            Line::from(format!(
                "{} components, {} tables, {} in use:",
                c.components,
                self.world.table_count(),
                layouts.len()
            )),
        ];
        for layout in layouts.iter().take(3) {
            lines.push(Line::from(vec![
                Span::styled(format!("{:>4} ", layout.entities), Style::new().fg(ACCENT)),
                Span::raw(layout.types.join(" ")),
            ]));
        }
        let timings: Vec<_> = self.inspector.timings().copied().collect();
        let avg = |f: fn(&crate::FrameTiming) -> Duration| {
            let n = timings.len().max(1) as u32;
            timings.iter().map(f).sum::<Duration>() / n
        };
        let max = timings
            .iter()
            .map(|t| t.update + t.draw)
            .max()
            .unwrap_or_default();
        lines.push(Line::from(format!(
            "frame: update {} draw {} max {}",
            micros(avg(|t| t.update)),
            micros(avg(|t| t.draw)),
            micros(max)
        )));
        let [text, graph] =
            Layout::vertical([Constraint::Length(lines.len() as u16), Constraint::Fill(1)])
                .areas(inner);
        Paragraph::new(lines).render(text, buf);
        let data: Vec<u64> = timings
            .iter()
            .rev()
            .take(graph.width as usize)
            .rev()
            .map(|t| (t.update + t.draw).as_micros() as u64)
            .collect();
        Sparkline::default()
            .data(&data)
            .style(Style::new().fg(Color::Green))
            .render(graph, buf);
    }

    fn entity(&self, id: Option<EntityId>, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(" entity ")
            .border_style(Style::new().fg(DIM));
        let inner = block.inner(area);
        block.render(area, buf);
        let Some(e) = id.and_then(|id| self.world.entity(id).ok()) else {
            Paragraph::new("the world is empty").render(inner, buf);
            return;
        };
        let name = e.name().unwrap_or("(unnamed)");
        let mut state = vec![];
        state.push(if e.is_enabled() {
            "enabled"
        } else {
            "disabled"
        });
        if e.is_dead() {
            state.push("dead");
        }
        let mut lines = vec![Line::from(vec![
            Span::styled(name.to_owned(), Style::new().fg(ACCENT).bold()),
            Span::raw(format!(" {:?}  {}", e.id(), state.join(", "))),
        ])];
        let family = match e.parent() {
            Some(p) => format!("parent {}", label(self.world, p)),
            None => "a root".to_owned(),
        };
        lines.push(Line::from(Span::styled(
            format!(
                "{family}, {} children, layers {:#x}",
                e.children().count(),
                e.layers()
            ),
            Style::new().fg(DIM),
        )));
        let picked = self.inspector.selected_component();
        for (i, c) in e.components().enumerate() {
            let chosen = picked == Some(i);
            let mut head = Style::new().bold();
            if chosen {
                head = head.bg(Color::Blue).fg(Color::White);
            }
            let enabled = if c.enabled {
                Span::styled(" on", Style::new().fg(Color::Green))
            } else {
                Span::styled(" off", Style::new().fg(OFF))
            };
            lines.push(Line::from(vec![
                Span::styled(if chosen { ">" } else { " " }, Style::new().fg(ACCENT)),
                Span::styled(c.name(), head),
                Span::raw(format!(" {:?}", c.instance)),
                enabled,
                Span::styled(
                    format!("  is-a {}", model::type_chain(c.name()).join(" > ")),
                    Style::new().fg(DIM),
                ),
            ]));
            let value = c
                .value
                .map_or_else(|| "(no Debug)".to_owned(), |v| format!("{v:?}"));
            lines.push(Line::from(format!("   {value}")));
            lines.push(Line::from(Span::styled(
                format!("   handle ({:?}, {:?})", e.id(), c.instance),
                Style::new().fg(DIM),
            )));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }

    fn types(&self, id: Option<EntityId>, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(" component types (is-a tree; * multiple) ")
            .border_style(Style::new().fg(DIM));
        let inner = block.inner(area);
        block.render(area, buf);
        // The selected entity's types are highlighted.
        let held: Vec<&'static str> = id
            .and_then(|id| self.world.entity(id).ok())
            .map(|e| e.components().map(|c| c.name()).collect())
            .unwrap_or_default();
        let lines: Vec<Line> = model::type_rows()
            .into_iter()
            .map(|row| {
                let style = if held.contains(&row.name) {
                    Style::new().fg(ACCENT).bold()
                } else {
                    Style::new()
                };
                let star = if row.multiple { " *" } else { "" };
                Line::from(vec![
                    Span::styled("  ".repeat(row.depth), Style::new()),
                    Span::styled(if row.depth > 0 { "└ " } else { "" }, Style::new().fg(DIM)),
                    Span::styled(format!("{}{star}", row.name), style),
                ])
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }
}

fn label(world: &World, id: EntityId) -> String {
    match world.entity(id).ok().and_then(|e| e.name()) {
        Some(name) => format!("{name} {id:?}"),
        None => format!("{id:?}"),
    }
}

fn micros(d: Duration) -> String {
    format!("{:.2}ms", d.as_secs_f64() * 1000.0)
}
