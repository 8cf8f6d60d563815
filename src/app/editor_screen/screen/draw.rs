//! Drawing the editor: the level (as the game draws it when it is valid, as outlines when it is
//! not), the grid, the selection and its handles, the reach overlay, the palette, the property
//! panel and the status bar.

use crate::app::render::text::draw_text;
use macroquad::camera::{set_camera, set_default_camera, Camera2D};
use macroquad::color::Color;
use macroquad::shapes::{draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines};
use macroquad::window::{screen_height, screen_width};

use super::{
    Drag, EditorScreen, Layout, PALETTE_ROW_PX, PANEL_ROW_PX, PANEL_WIDTH_PX, STATUS_BAR_PX,
};
use crate::app::camera::CameraState;
use crate::app::palette::{self, Rgb};
use crate::app::render::art::Art;
use crate::app::render::hud::scaled;
use crate::app::render::scene::draw_world;
use crate::app::render::Snapshot;
use crate::editor::{bounds, handles, HandleRole, Kind, ObjectRef};
use crate::sim::level::{LevelDef, ShapeDef};
use crate::sim::math::Vec2;
use crate::sim::{InputFrame, World};

/// Side of a handle's square on screen, in pixels at a UI scale of 1.
const HANDLE_PX: f32 = 9.0;
/// Outline width of objects and the selection, in pixels.
const OUTLINE_PX: f32 = 1.5;
const SELECTION_PX: f32 = 3.0;
/// Grid lines are drawn only when they are at least this far apart on screen.
const MIN_GRID_SPACING_PX: f32 = 7.0;
/// Ticks of the jump arcs the reach overlay simulates.
const REACH_JUMP_TICKS: u32 = 150;
/// Segments of a circle outline.
const CIRCLE_SEGMENTS: usize = 32;
/// Colours of the editor's own marks.
const SELECTION: Rgb = Rgb(255, 255, 255);
const HANDLE_FILL: Rgb = Rgb(255, 214, 120);
const WAYPOINT: Rgb = Rgb(120, 200, 255);
const REACH: Rgb = Rgb(255, 150, 30);

impl EditorScreen {
    pub fn draw(&self, art: &mut Art, time_s: f64) {
        let camera = self.camera();
        match &self.preview {
            Some(world) => {
                let mut state = CameraState::new(world);
                state.center = self.view.center;
                state.view_height_m = self.view.view_height_m;
                state.center_offset_x_ndc = Layout::now().center_offset_x_ndc();
                state.set_shake(false);
                draw_world(world, &Snapshot::of(world), &state, None, art, None);
            }
            None => crate::app::render::scene::clear(),
        }
        set_camera(&camera);
        let px = self.pixels_to_m(1.0);
        if self.grid_on {
            self.draw_grid(&camera, px);
        }
        let level = &self.doc.level;
        let filled = self.preview.is_none();
        for kind in Kind::ALL {
            for index in 0..kind.count(level) {
                draw_object_outline(level, ObjectRef { kind, index }, px, filled);
            }
        }
        draw_spawn(level, px);
        for object in &self.selection {
            self.draw_selected(*object, px);
        }
        if let Some(Drag::Box { from }) = &self.drag {
            let to = self.pointer_world(self.pointer_px);
            let (min, max) = (from.min(to), from.max(to));
            draw_rectangle_lines(
                min.x,
                min.y,
                max.x - min.x,
                max.y - min.y,
                OUTLINE_PX * px,
                SELECTION.with_alpha(0.8),
            );
        }
        if self.show_reach && Layout::now().in_world(self.pointer_px) {
            self.draw_reach(px);
        }
        set_default_camera();
        let layout = Layout::now();
        if let Some(problem) = &self.problem {
            problem.draw(
                Some(&camera),
                time_s,
                "the level cannot be played until this is fixed (Ctrl+Z undoes)",
                screen_height() - problem_height(problem),
            );
            set_default_camera();
        }
        self.draw_palette(&layout);
        self.draw_panel(&layout);
        self.draw_status(&layout);
    }

    fn draw_grid(&self, camera: &Camera2D, px: f32) {
        let step = self.grid_step_m();
        if step / px < MIN_GRID_SPACING_PX {
            return;
        }
        let top_left = camera.screen_to_world(macroquad::math::vec2(0.0, 0.0));
        let bottom_right =
            camera.screen_to_world(macroquad::math::vec2(screen_width(), screen_height()));
        let color = Color::new(1.0, 1.0, 1.0, 0.06);
        let mut x = (top_left.x / step).floor() * step;
        while x <= bottom_right.x {
            draw_line(x, top_left.y, x, bottom_right.y, px, color);
            x += step;
        }
        let mut y = (bottom_right.y / step).floor() * step;
        while y <= top_left.y {
            draw_line(top_left.x, y, bottom_right.x, y, px, color);
            y += step;
        }
    }

    fn draw_selected(&self, object: ObjectRef, px: f32) {
        let level = &self.doc.level;
        if let Some((min, max)) = bounds(level, object) {
            let pad = 3.0 * px;
            draw_rectangle_lines(
                min.x - pad,
                min.y - pad,
                max.x - min.x + 2.0 * pad,
                max.y - min.y + 2.0 * pad,
                SELECTION_PX * px,
                SELECTION.with_alpha(0.9),
            );
        }
        let list = handles(level, object);
        // A moving platform's path: its waypoints joined in order.
        let waypoints: Vec<Vec2> = list
            .iter()
            .filter(|h| h.role == HandleRole::Waypoint)
            .map(|h| h.pos)
            .collect();
        for pair in waypoints.windows(2) {
            draw_line(
                pair[0].x,
                pair[0].y,
                pair[1].x,
                pair[1].y,
                OUTLINE_PX * px,
                WAYPOINT.with_alpha(0.8),
            );
        }
        let side = HANDLE_PX * crate::app::render::hud::ui_scale() * px;
        for handle in &list {
            let fill = match handle.role {
                HandleRole::Waypoint => WAYPOINT,
                _ => HANDLE_FILL,
            };
            draw_rectangle(
                handle.pos.x - side * 0.5,
                handle.pos.y - side * 0.5,
                side,
                side,
                fill.color(),
            );
            draw_rectangle_lines(
                handle.pos.x - side * 0.5,
                handle.pos.y - side * 0.5,
                side,
                side,
                px,
                Color::new(0.0, 0.0, 0.0, 0.8),
            );
        }
    }

    /// The rope's reach around the pointer and the player's jump arcs from it (simulated with
    /// the game's own player, so apex gravity and the variable jump are in them).
    fn draw_reach(&self, px: f32) {
        let at = self.pointer_world(self.pointer_px);
        let reach_m = self
            .doc
            .level
            .max_rope_length_m
            .unwrap_or(self.tuning.rope.max_length_m);
        draw_circle_lines(at.x, at.y, reach_m, 2.0 * px, REACH.with_alpha(0.7));
        let Some(world) = &self.preview else { return };
        for direction in [-1, 1] {
            let arc = jump_arc(world, at, direction);
            for pair in arc.windows(2) {
                draw_line(
                    pair[0].x,
                    pair[0].y,
                    pair[1].x,
                    pair[1].y,
                    2.0 * px,
                    palette::PLAYER.with_alpha(0.8),
                );
            }
        }
    }

    fn draw_palette(&self, layout: &Layout) {
        let k = layout.scale;
        draw_rectangle(
            0.0,
            layout.top(),
            layout.palette_width(),
            layout.height,
            palette::PANEL.color(),
        );
        for (i, kind) in Layout::palette_kinds().enumerate() {
            let top = layout.palette_button_top(i);
            let chosen = self.placing == Some(kind);
            draw_rectangle(
                6.0 * k,
                top + 2.0 * k,
                layout.palette_width() - 12.0 * k,
                PALETTE_ROW_PX * k - 4.0 * k,
                if chosen {
                    kind_color(kind).with_alpha(0.6)
                } else {
                    Color::new(1.0, 1.0, 1.0, 0.06)
                },
            );
            draw_rectangle(
                10.0 * k,
                top + 10.0 * k,
                12.0 * k,
                12.0 * k,
                kind_color(kind).color(),
            );
            draw_text(
                kind.label(),
                30.0 * k,
                top + 22.0 * k,
                scaled(20) as f32,
                palette::TEXT.color(),
            );
        }
    }

    fn draw_panel(&self, layout: &Layout) {
        let k = layout.scale;
        let left = layout.panel_left();
        draw_rectangle(
            left,
            layout.top(),
            PANEL_WIDTH_PX * k,
            layout.height,
            palette::PANEL.color(),
        );
        let title = match self.selection.as_slice() {
            [] => "level".to_owned(),
            [object] => format!("{} {}", object.kind.label(), object.index + 1),
            many => format!("{} objects (drag, Q/E, Ctrl+D, Del)", many.len()),
        };
        draw_text(
            &title,
            left + 10.0 * k,
            layout.top() + 30.0 * k,
            scaled(24) as f32,
            palette::TEXT.color(),
        );
        let size = scaled(17) as f32;
        let max_chars = ((PANEL_WIDTH_PX - 20.0) / 8.5) as usize;
        for (i, row) in self.panel_rows().iter().enumerate() {
            let y = layout.panel_rows_top() + (i as f32 + 0.75) * PANEL_ROW_PX * k;
            let editing = self.field_edit.as_ref().filter(|e| e.field == row.name);
            let (text, color) = match editing {
                // While typing, the end of the text shows (where the typing is).
                Some(edit) => (
                    clip_start(&format!("{}: {}_", row.name, edit.text), max_chars),
                    palette::GOAL,
                ),
                None if row.set => (format!("{}: {}", row.name, row.value), palette::TEXT),
                None => (format!("{}: {}", row.name, row.value), palette::TEXT_DIM),
            };
            if editing.is_some() {
                draw_rectangle(
                    left + 4.0 * k,
                    y - 0.75 * PANEL_ROW_PX * k,
                    PANEL_WIDTH_PX * k - 8.0 * k,
                    PANEL_ROW_PX * k,
                    Color::new(1.0, 1.0, 1.0, 0.08),
                );
            }
            draw_text(
                clip_end(&text, max_chars),
                left + 10.0 * k,
                y,
                size,
                color.color(),
            );
        }
        self.draw_panel_help(layout, size, max_chars);
    }

    /// The keys at the panel's foot and, above them, the last typed value's error.
    fn draw_panel_help(&self, layout: &Layout, size: f32, max_chars: usize) {
        let k = layout.scale;
        let left = layout.panel_left();
        let mut y = layout.height - 12.0 * k;
        let help = [
            "click: select / place   drag: move   shift: add",
            "Q/E rotate  Ctrl+D duplicate  Del delete",
            "Ctrl+Z/Y undo/redo  Ctrl+S save  G/Shift+G grid",
            "F5/Tab test from spawn  F6 from cursor  H reach",
            "L level link",
            "right drag: pan   wheel: zoom",
        ];
        for line in help.iter().rev() {
            draw_text(
                line,
                left + 10.0 * k,
                y,
                size * 0.9,
                palette::TEXT_DIM.color(),
            );
            y -= 20.0 * k;
        }
        if let Some(error) = &self.field_error {
            for (i, line) in wrap_chars(error, max_chars).iter().enumerate().take(4) {
                draw_text(
                    line,
                    left + 10.0 * k,
                    y - 90.0 * k + i as f32 * 20.0 * k,
                    size,
                    palette::ERROR_TEXT.color(),
                );
            }
        }
    }

    fn draw_status(&self, layout: &Layout) {
        let k = layout.scale;
        draw_rectangle(
            0.0,
            0.0,
            layout.width,
            STATUS_BAR_PX * k,
            palette::PANEL.with_alpha(0.97),
        );
        let dirty = if self.doc.dirty() { " *" } else { "" };
        let grid = if self.grid_on {
            format!("grid {} m", self.grid_step_m())
        } else {
            "grid off".to_owned()
        };
        let left = format!("Editor: {}{dirty}   {grid}", self.file_label);
        draw_text(
            &left,
            10.0 * k,
            24.0 * k,
            scaled(20) as f32,
            palette::TEXT.color(),
        );
        if let Some((message, left_s)) = &self.status {
            if *left_s > 0.0 {
                draw_text(
                    message,
                    layout.width * 0.42,
                    24.0 * k,
                    scaled(20) as f32,
                    palette::GOAL.color(),
                );
            }
        }
    }
}

/// The problem panel's height (as `LevelProblem::draw` lays it out), to sit it at the bottom.
fn problem_height(problem: &crate::app::level_problem::LevelProblem) -> f32 {
    let k = crate::app::render::hud::ui_scale();
    let lines = problem.lines.len().min(7) + 1 + 2 * usize::from(problem.source_excerpt.is_some());
    24.0 * k * lines as f32 + 16.0 * k
}

/// The colour that stands for a kind in the palette and the outlines.
fn kind_color(kind: Kind) -> Rgb {
    match kind {
        Kind::Goal => palette::GOAL,
        Kind::Solid => palette::WOOD,
        Kind::Hazard => palette::HAZARD,
        Kind::Checkpoint => palette::CHECKPOINT,
        Kind::Ring => palette::GRAPPLE_POINT,
        Kind::Platform => palette::STEEL_LIGHT,
        Kind::Switch => palette::SWITCH,
        Kind::Winch => palette::TRACK,
        Kind::Vine => palette::VINE_LEAF,
        Kind::Wind => palette::WIND_STREAK,
        Kind::Fragile => palette::CRACKED_RING,
        Kind::Cloth => palette::BANNER,
        Kind::Sign => palette::SIGN_BOARD,
    }
}

/// The shape an object is drawn with, when it has one (else its bounds are drawn).
fn object_shape(level: &LevelDef, object: ObjectRef) -> Option<&ShapeDef> {
    use crate::sim::objects::fragile::FragileAnchorDef;
    match object.kind {
        Kind::Solid => level.solids.get(object.index).map(|s| &s.shape),
        Kind::Hazard => level.hazards.get(object.index).map(|h| &h.0),
        Kind::Platform => level.platforms.get(object.index).map(|p| &p.shape),
        Kind::Wind => level.wind.get(object.index).map(|w| &w.region),
        Kind::Fragile => match level.fragile.get(object.index).map(|f| &f.anchor) {
            Some(FragileAnchorDef::Beam { shape }) => Some(shape),
            _ => None,
        },
        _ => None,
    }
}

/// The outline of a shape as a closed list of points.
fn shape_outline(shape: &ShapeDef) -> Vec<Vec2> {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => crate::editor::geometry::box_corners(*center, *half_extents, *rotation_deg).to_vec(),
        ShapeDef::Circle { center, radius } => (0..CIRCLE_SEGMENTS)
            .map(|i| {
                let a = i as f32 / CIRCLE_SEGMENTS as f32 * std::f32::consts::TAU;
                center.v() + Vec2::new(a.cos(), a.sin()) * *radius
            })
            .collect(),
        ShapeDef::Polygon { points } => points.iter().map(|p| p.v()).collect(),
    }
}

/// An object's outline; `filled` also fills it faintly (the level is not valid, so the game's
/// drawing of it is not there).
fn draw_object_outline(level: &LevelDef, object: ObjectRef, px: f32, filled: bool) {
    let color = kind_color(object.kind);
    let points = match object_shape(level, object) {
        Some(shape) => shape_outline(shape),
        None => match bounds(level, object) {
            Some((min, max)) => vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)],
            None => return,
        },
    };
    if points.len() < 2 {
        return;
    }
    if filled && points.len() >= 3 {
        let center = points.iter().copied().sum::<Vec2>() / points.len() as f32;
        for i in 0..points.len() {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            macroquad::shapes::draw_triangle(
                macroquad::math::vec2(center.x, center.y),
                macroquad::math::vec2(a.x, a.y),
                macroquad::math::vec2(b.x, b.y),
                color.with_alpha(0.35),
            );
        }
    }
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        draw_line(a.x, a.y, b.x, b.y, OUTLINE_PX * px, color.with_alpha(0.9));
    }
}

/// The spawn: the player's box where play starts.
fn draw_spawn(level: &LevelDef, px: f32) {
    let at = level.spawn.v();
    let (hw, hh) = (0.4, 0.8);
    draw_rectangle_lines(
        at.x - hw,
        at.y - hh,
        2.0 * hw,
        2.0 * hh,
        2.0 * px,
        palette::PLAYER.color(),
    );
}

/// Where the player goes jumping from `at` while holding `direction` (-1 left, 1 right),
/// until they land, die or the ticks run out.
fn jump_arc(world: &World, at: Vec2, direction: i8) -> Vec<Vec2> {
    let mut world = world.clone();
    // A few coyote ticks, so the jump pressed on the first tick counts as from the ground.
    world.place_player_standing(at, 4);
    let mut points = vec![at];
    for tick in 0..REACH_JUMP_TICKS {
        let input = InputFrame {
            move_x: direction,
            jump_held: true,
            jump_pressed: tick == 0,
            ..InputFrame::default()
        };
        let deaths = world.deaths();
        world.step(&input);
        if world.deaths() != deaths {
            break;
        }
        points.push(world.player().pos);
        if tick > 4 && world.player().grounded {
            break;
        }
    }
    points
}

/// `text` cut to `max_chars`, with dots where it was cut (the UI font has no ellipsis).
fn clip_end(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut clipped: String = text.chars().take(max_chars.saturating_sub(3)).collect();
    clipped.push_str("...");
    clipped
}

/// `text`'s last `max_chars` characters, with dots where it was cut.
fn clip_start(text: &str, max_chars: usize) -> String {
    let count = text.chars().count();
    if count <= max_chars {
        return text.to_owned();
    }
    let tail: String = text.chars().skip(count + 3 - max_chars).collect();
    format!("...{tail}")
}

/// `text` in lines of at most `max_chars` characters.
fn wrap_chars(text: &str, max_chars: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(max_chars.max(1))
        .map(|chunk| chunk.iter().collect())
        .collect()
}
