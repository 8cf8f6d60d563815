//! Play: the level in play (`ctx.level.session`) advanced by whole ticks and drawn between the
//! last two. Pause and the complete screen are pushed over it.

use std::cell::Cell;

use macroquad::window::{screen_height, screen_width};

use super::complete::CompleteScreen;
use super::level_keys::{editor_key, level_keys};
use super::pause::PauseScreen;
use super::{Ctx, Kind, Screen, Transition};
use crate::app::automation::Automation;
use crate::app::ghost::Ghost;
use crate::app::menus;
use crate::app::palette;
use crate::app::render::hud::{draw_hud, format_time};
use crate::app::render::scene::draw_world;
use crate::app::render::Snapshot;
use crate::campaign::splits::format_delta;
use crate::campaign::{MedalTimes, SplitDelta};
use crate::sim::Event;

/// Under a level file's problem: what the game does about it.
#[cfg(not(target_arch = "wasm32"))]
const RELOAD_FOOTER: &str =
    "the last good version keeps running: fix the file and save it   (Tab: level editor)";

#[derive(Default)]
pub struct PlayScreen {
    /// How far between the last two ticks the last frame is drawn.
    alpha: Cell<f32>,
}

impl PlayScreen {
    /// Runs the ticks this frame owes; the goal ends play for the complete screen.
    fn run_ticks(&self, ctx: &mut Ctx, frame_s: f32) -> Transition {
        self.alpha.set(1.0);
        let speed = ctx.shown_assists().speed_factor();
        let fixed = ctx.auto.fixed_ticks_per_frame();
        let Some(session) = &mut ctx.level.session else {
            return Transition::Stay;
        };
        if ctx.auto.holds(session.world.tick()) {
            return Transition::Stay;
        }
        // The game-speed assist slows the wall-clock pace; the tick stays the same.
        let ticks_due = fixed.unwrap_or_else(|| session.clock.advance(frame_s * speed));
        for _ in 0..ticks_due {
            // `--at-tick T` holds at T itself, not at the frame's last tick past it (a
            // screenshot frame runs two ticks: T and T + 1 drew the same picture).
            if ctx.auto.holds(session.world.tick()) {
                break;
            }
            let (_, events) = session.tick(&mut ctx.input.play);
            Automation::after_tick(
                session,
                &events,
                ctx.options.replay.as_ref(),
                &ctx.input.play,
            );
            ctx.audio.on_events(&events, &session.world);
            ctx.art.on_tick(&events, &session.world);
            let goal = events.iter().find_map(|event| match event {
                Event::GoalReached { ticks } => Some(*ticks),
                _ => None,
            });
            if let Some(ticks) = goal {
                let report = ctx.finish_level(ticks);
                return Transition::Push(Box::new(CompleteScreen::new(ticks, report)));
            }
        }
        if fixed.is_none() {
            self.alpha.set(session.clock.alpha());
        }
        Transition::Stay
    }
}

impl Screen for PlayScreen {
    fn update(&mut self, ctx: &mut Ctx, frame_s: f32) -> Transition {
        if let Some(transition) = editor_key(ctx) {
            return transition;
        }
        let playback = ctx.level.session.as_ref().is_some_and(|s| s.is_playback());
        // Losing focus or the gamepad pauses play (not a replay being watched or recorded to a
        // screenshot).
        if ctx
            .input
            .actions
            .pauses_play(ctx.input.focus_lost, playback)
        {
            return Transition::Push(Box::new(PauseScreen::default()));
        }
        if let Some(transition) = level_keys(ctx) {
            return transition;
        }
        self.run_ticks(ctx, frame_s)
    }

    fn draw(&self, ctx: &mut Ctx, on_top: bool) {
        let alpha = if on_top { self.alpha.get() } else { 1.0 };
        draw_level(ctx, alpha, on_top);
    }

    fn kind(&self) -> Kind {
        Kind::Play
    }

    fn name(&self, ctx: &Ctx) -> Option<String> {
        let file = ctx.level_file();
        // A linked level has no file: its title says which level the link held.
        Some(match &ctx.options.linked_level {
            Some(_) => format!("playing {}: {}", file.name, file.title),
            None => format!("playing {}", file.name),
        })
    }

    fn returned(&mut self, ctx: &mut Ctx) {
        // The key or click that closed the menu must not also jump or fire.
        ctx.input.play.clear();
    }
}

/// Draws the level in play between its last two ticks (`alpha`), the HUD over it; `live`: play
/// is on top (the aim is shown).
fn draw_level(ctx: &mut Ctx, alpha: f32, live: bool) {
    let Some(session) = &mut ctx.level.session else {
        return;
    };
    let world = &session.world;
    let shown = Snapshot::interpolate(
        &session.prev,
        &Snapshot::of(world),
        alpha,
        world.teleported_at_tick(),
    );
    let aspect = screen_width() / screen_height().max(1.0);
    session.camera.set_shake(ctx.settings.comfort.screen_shake);
    session
        .camera
        .update(world, shown.player_pos, aspect, ctx.auto.camera_dt_s());
    let aim = (live && !session.is_playback())
        .then(|| world.preview_aim(ctx.input.play.reticle_offset(world)));
    let build_started_s = macroquad::time::get_time();
    draw_world(
        world,
        &shown,
        &session.camera,
        aim.as_ref(),
        &mut ctx.art,
        session.ghost.as_ref().map(|ghost| (ghost, alpha)),
    );
    let world_camera = session.camera.to_camera2d_shaken(aspect);
    crate::app::render::objects::sign::draw_texts(
        world,
        &world_camera,
        &ctx.settings.bindings,
        ctx.input.last_device,
    );
    ctx.auto.note_layout(&world_camera, &shown, world.tick());
    if ctx.settings.assists.trajectory_preview && world.rope().is_some() {
        macroquad::camera::set_camera(&world_camera);
        crate::app::assists_screen::draw_release_trajectory(world);
        macroquad::camera::set_default_camera();
    }
    draw_play_hud(ctx, &world_camera);
    ctx.art
        .record_frame(macroquad::time::get_time() - build_started_s);
}

/// The HUD, the notice, the level file's problem, the assists note and the touch controls.
fn draw_play_hud(ctx: &Ctx, world_camera: &macroquad::camera::Camera2D) {
    let Some(session) = &ctx.level.session else {
        return;
    };
    let world = &session.world;
    let ticks = world.completed_at_tick().unwrap_or(world.tick());
    let file = ctx.level_file();
    let record = ctx.saves.progress.record(&file.name);
    let best = record.and_then(|r| r.best_ticks);
    let target = file
        .author_ticks
        .and_then(|author| MedalTimes::from_author(author).next_goal(record.and_then(|r| r.medal)));
    let hud_lines = hud_extras(
        best,
        target,
        session.split_shown.as_ref(),
        session.ghost.as_ref(),
    );
    draw_hud(
        &menus::level_label(ctx.levels(), ctx.level.index),
        ticks,
        world.deaths(),
        &hud_lines,
    );
    if let Some(notice) = ctx.notice_text() {
        crate::app::render::hud::draw_centered(notice, 40.0, 20, palette::ERROR_TEXT);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(problem) = &ctx.level.problem {
        problem.draw(
            Some(world_camera),
            macroquad::time::get_time(),
            RELOAD_FOOTER,
            0.0,
        );
    }
    #[cfg(target_arch = "wasm32")]
    let _ = world_camera;
    crate::app::assists_screen::draw_assists_note(&ctx.shown_assists());
    if !session.is_playback() {
        ctx.input.touch.draw();
    }
}

/// The HUD's lines under the timer: the best time, the medal to beat, the last split, the ghost.
fn hud_extras(
    best: Option<u64>,
    target: Option<(crate::campaign::Medal, u64)>,
    split: Option<&(SplitDelta, f32)>,
    ghost: Option<&Ghost>,
) -> Vec<(String, palette::Rgb)> {
    let mut lines = Vec::new();
    if let Some((split, _)) = split.filter(|(_, left_s)| *left_s > 0.0) {
        let (text, color) = match split.delta_ticks {
            Some(delta) => (
                format!("checkpoint {}  {}", split.order + 1, format_delta(delta)),
                if delta <= 0 {
                    palette::GOAL
                } else {
                    palette::ERROR_TEXT
                },
            ),
            None => (
                format!(
                    "checkpoint {}  {}",
                    split.order + 1,
                    format_time(split.ticks)
                ),
                palette::TEXT,
            ),
        };
        lines.push((text, color));
    }
    if let Some(best) = best {
        lines.push((format!("best {}", format_time(best)), palette::TEXT_DIM));
    }
    if let Some((medal, limit)) = target {
        lines.push((
            format!("{} {}", medal.name(), format_time(limit)),
            menus::medal_color(medal),
        ));
    }
    if let Some(ghost) = ghost {
        lines.push((format!("ghost: {}", ghost.label), palette::TEXT_DIM));
    }
    lines
}
