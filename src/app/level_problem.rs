//! Why a level text cannot be used, shown over the world that keeps running (hot reload) or
//! over the editor (live validation): the message as `check` words it, the offending line of
//! the file with a caret under the column for a syntax error, and the bad objects outlined in
//! the world.

use crate::app::render::text::draw_text;
use macroquad::camera::{set_camera, set_default_camera, Camera2D};
use macroquad::shapes::{draw_rectangle, draw_rectangle_lines};
use macroquad::window::screen_width;

use super::palette;
use super::render::hud::{scaled, ui_scale};
use crate::editor::{bounds, object_ref_from_issue};
use crate::sim::level::{LevelError, RonError};
use crate::sim::math::Vec2;
use crate::sim::LevelDef;

/// Lines of the message shown at most (a level with many problems lists the first ones).
const MAX_SHOWN_LINES: usize = 6;
/// Margin drawn around a bad object's bounds, in metres, so thin objects show.
const HIGHLIGHT_MARGIN_M: f32 = 0.4;

/// A level text's problem, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelProblem {
    /// The message lines: `FILE:LINE:COL: message`, or one line per semantic issue.
    pub lines: Vec<String>,
    /// For a syntax error, the file's line at fault and a caret line under its column.
    pub source_excerpt: Option<(String, String)>,
    /// World-space boxes (min, max) of the objects the problem is about.
    pub highlights: Vec<(Vec2, Vec2)>,
}

impl LevelProblem {
    /// A problem with no place in the level (a file that cannot be read).
    pub fn message(message: &str) -> LevelProblem {
        LevelProblem {
            lines: vec![crate::sim::limits::printable(message)],
            source_excerpt: None,
            highlights: Vec::new(),
        }
    }

    /// The problem of `error`, raised by the level `text`.
    pub fn of(error: &LevelError, text: &str) -> LevelProblem {
        let lines: Vec<String> = error.to_string().lines().map(str::to_owned).collect();
        match error {
            LevelError::Syntax(err) => LevelProblem {
                lines,
                source_excerpt: excerpt(text, err),
                highlights: Vec::new(),
            },
            LevelError::Semantic { issues, .. } => {
                // A semantic error means the text parsed: read it again without the checks to
                // find where the named objects are.
                let level: Option<LevelDef> = RonError::parse(text, "").ok();
                let highlights = level
                    .map(|level| {
                        issues
                            .iter()
                            .filter_map(|issue| object_ref_from_issue(&issue.object))
                            .filter_map(|object| bounds(&level, object))
                            .collect()
                    })
                    .unwrap_or_default();
                LevelProblem {
                    lines,
                    source_excerpt: None,
                    highlights,
                }
            }
        }
    }

    /// Draws the bad objects' outlines in the world (pulsing), then the message panel across
    /// the screen from `top_px` down, with `footer` under it.
    pub fn draw(&self, world_camera: Option<&Camera2D>, time_s: f64, footer: &str, top_px: f32) {
        if let Some(camera) = world_camera.filter(|_| !self.highlights.is_empty()) {
            set_camera(camera);
            let pulse = 0.55 + 0.45 * (time_s * 6.0).sin().abs() as f32;
            let width_m = 0.12 + 0.08 * pulse;
            for (min, max) in &self.highlights {
                let (min, max) = (
                    *min - Vec2::splat(HIGHLIGHT_MARGIN_M),
                    *max + Vec2::splat(HIGHLIGHT_MARGIN_M),
                );
                let size = max - min;
                draw_rectangle(
                    min.x,
                    min.y,
                    size.x,
                    size.y,
                    palette::ERROR_TEXT.with_alpha(0.18 * pulse),
                );
                draw_rectangle_lines(
                    min.x,
                    min.y,
                    size.x,
                    size.y,
                    width_m,
                    palette::ERROR_TEXT.with_alpha(pulse),
                );
            }
        }
        set_default_camera();
        let k = ui_scale();
        let size = scaled(20);
        let line_h = 24.0 * k;
        let mut shown: Vec<(String, palette::Rgb)> = self
            .lines
            .iter()
            .take(MAX_SHOWN_LINES)
            .map(|line| (line.clone(), palette::ERROR_TEXT))
            .collect();
        if self.lines.len() > MAX_SHOWN_LINES {
            shown.push((
                format!("... and {} more", self.lines.len() - MAX_SHOWN_LINES),
                palette::ERROR_TEXT,
            ));
        }
        if let Some((line, caret)) = &self.source_excerpt {
            shown.push((line.clone(), palette::TEXT));
            shown.push((caret.clone(), palette::ERROR_TEXT));
        }
        shown.push((footer.to_owned(), palette::TEXT_DIM));
        let height = line_h * shown.len() as f32 + 16.0 * k;
        draw_rectangle(
            0.0,
            top_px,
            screen_width(),
            height,
            palette::PANEL.with_alpha(0.92),
        );
        for (i, (line, color)) in shown.iter().enumerate() {
            draw_text(
                line,
                12.0 * k,
                top_px + 8.0 * k + line_h * (i as f32 + 0.8),
                size as f32,
                color.color(),
            );
        }
    }
}

/// The line of `text` a syntax error points at, and a caret under its column (tabs kept so the
/// caret lines up; long lines cut around the column).
fn excerpt(text: &str, err: &RonError) -> Option<(String, String)> {
    const SHOWN_CHARS: usize = 100;
    let line = text.lines().nth(err.line.checked_sub(1)?)?;
    let chars: Vec<char> = crate::sim::limits::printable(line).chars().collect();
    let column = err.column.saturating_sub(1).min(chars.len());
    let start = column.saturating_sub(SHOWN_CHARS / 2);
    let end = (start + SHOWN_CHARS).min(chars.len());
    let shown: String = chars[start..end].iter().collect();
    let caret: String = chars[start..column]
        .iter()
        .map(|&c| if c == '\t' { '\t' } else { ' ' })
        .chain(std::iter::once('^'))
        .collect();
    Some((shown, caret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_shows_its_line_with_a_caret_under_the_column() {
        let text = "Level(\n    name: \"x\",\n    spawn: (0.0, 1.0,\n)";
        let err = LevelDef::from_ron(text, "x.ron").unwrap_err();
        let problem = LevelProblem::of(&err, text);
        assert!(
            problem.lines[0].starts_with("x.ron:"),
            "{:?}",
            problem.lines
        );
        let (line, caret) = problem.source_excerpt.expect("an excerpt");
        let LevelError::Syntax(syntax) = &err else {
            panic!("a syntax error")
        };
        assert_eq!(line, text.lines().nth(syntax.line - 1).unwrap());
        assert_eq!(
            caret.len(),
            syntax.column,
            "the caret sits under the column"
        );
    }

    #[test]
    fn a_semantic_error_outlines_the_object_it_names() {
        let text =
            "Level(name: \"x\", spawn: (0.0, 1.0), goal: (min: (9.0, 0.0), max: (10.0, 2.0)),
            solids: [(shape: Box(center: (0.0, -1.0), half_extents: (5.0, 0.5))),
                     (shape: Circle(center: (3.0, 4.0), radius: 0.0))])";
        let err = LevelDef::from_ron(text, "x.ron").unwrap_err();
        let problem = LevelProblem::of(&err, text);
        assert!(
            problem.lines.iter().any(|l| l.contains("solids[1]")),
            "{:?}",
            problem.lines
        );
        assert_eq!(problem.highlights.len(), 1, "{:?}", problem.highlights);
        let (min, max) = problem.highlights[0];
        let middle = (min + max) * 0.5;
        assert!(
            (middle - Vec2::new(3.0, 4.0)).length() < 0.01,
            "outlines the circle: {min:?} {max:?}"
        );
    }
}
