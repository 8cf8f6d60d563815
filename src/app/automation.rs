//! What lets a script drive the game and read what it did, in one place: menu scripts, holding
//! the world at a tick, screenshots, and the log lines that scripts/web_test.py and the Xvfb
//! scripts (scripts/*_test.sh) match. Change a line's words here only together with the
//! scripts that read it.

use std::path::PathBuf;

use macroquad::camera::Camera2D;

use super::frame_clock::MAX_FRAME_TIME_S;
use super::input::{ActionFrame, DeviceKind, PlayInput};
use super::launch::{LaunchOptions, MenuStep};
use super::log_line;
use super::render::Snapshot;
use super::session::Session;
use crate::sim::{Event, Replay, World, TICK_DT_S};

/// Frames between the steps of a menu script (`--menu-script`), so each screen is drawn.
const MENU_SCRIPT_FRAMES_PER_STEP: u32 = 12;
/// In screenshot mode, ticks per rendered frame: deterministic, whatever the frame rate.
const SCREENSHOT_TICKS_PER_FRAME: u32 = 2;

/// What the screenshot waits for, as the screens stand this frame.
pub struct ShotMoment {
    /// The tick of the world in play, if there is one.
    pub tick: Option<u64>,
    /// Whether a replay drives play and has played all its inputs.
    pub playback_done: bool,
    /// An open editor driven by a script: whether the script is done.
    pub editor_script_done: Option<bool>,
    /// Whether the editor is on top.
    pub editing: bool,
    /// Whether play is on top (the world runs).
    pub playing: bool,
    /// Whether Tether Online is still busy with the last run or the name (a picture of the
    /// complete screen waits for the run to settle: the online test reads its line).
    pub online_settling: bool,
}

pub struct Automation {
    menu_script: Vec<MenuStep>,
    /// The position in `menu_script` and frames until its next step.
    script_step: usize,
    script_wait: u32,
    hold_at_tick: Option<u64>,
    screenshot: Option<PathBuf>,
    /// Quit when the replay being watched ends.
    exit_when_replay_ends: bool,
    /// Where the last frame drew the player and the rope's anchor, in screen pixels, and the
    /// last such line logged while held: the screenshot tests check the picture against it.
    shot_layout: String,
    logged_layout: String,
    /// The last `screen:` line, so going back to a screen already named says nothing new.
    last_screen: String,
}

impl Automation {
    pub fn new(options: &LaunchOptions) -> Automation {
        Automation {
            menu_script: options.menu_script.clone(),
            script_step: 0,
            script_wait: MENU_SCRIPT_FRAMES_PER_STEP,
            hold_at_tick: options.hold_at_tick,
            screenshot: options.screenshot.clone(),
            exit_when_replay_ends: options.exit_when_replay_ends && options.replay.is_some(),
            shot_layout: String::new(),
            logged_layout: String::new(),
            last_screen: String::new(),
        }
    }

    /// Whether a script rather than a person runs the game (no waiting for a click to start
    /// the sound).
    pub fn drives(options: &LaunchOptions) -> bool {
        options.replay.is_some()
            || options.screenshot.is_some()
            || options.hold_at_tick.is_some()
            || !options.menu_script.is_empty()
    }

    /// Whether a screen that waits for a person (a level that cannot be loaded) ends the run.
    pub fn stops_at_error(&self) -> bool {
        self.exit_when_replay_ends || self.screenshot.is_some()
    }

    /// Whether the game quits when the replay being watched ends (its screens do not move on).
    pub fn exits_when_replay_ends(&self) -> bool {
        self.exit_when_replay_ends
    }

    /// Ticks to run this frame when the run must not depend on the frame rate (screenshots).
    pub fn fixed_ticks_per_frame(&self) -> Option<u32> {
        self.screenshot
            .is_some()
            .then_some(SCREENSHOT_TICKS_PER_FRAME)
    }

    /// Seconds the camera moves by this frame: the frame's time, or in screenshot mode the
    /// ticks run per frame, so the picture at a tick does not depend on the frame rate.
    pub fn camera_dt_s(&self) -> f32 {
        match self.fixed_ticks_per_frame() {
            Some(ticks) => ticks as f32 * TICK_DT_S,
            None => macroquad::time::get_frame_time().min(MAX_FRAME_TIME_S),
        }
    }

    /// Whether the world is held at this tick (`--at-tick`).
    pub fn holds(&self, tick: u64) -> bool {
        self.hold_at_tick.is_some_and(|hold| tick >= hold)
    }

    /// The next step of the menu script, pressed into this frame's actions (or its text added
    /// to the characters typed this frame, then Enter as `\n`). The script waits while a level
    /// is played (autoplay drives it) and moves on at the screens around it.
    pub fn press_menu_script(
        &mut self,
        actions: &mut ActionFrame,
        typed: &mut Vec<char>,
        playing: bool,
    ) {
        if playing {
            return;
        }
        if self.script_wait > 0 {
            self.script_wait -= 1;
            return;
        }
        let Some(step) = self.menu_script.get(self.script_step) else {
            return;
        };
        match step {
            MenuStep::Press(action) => {
                actions.press(*action, DeviceKind::Keyboard);
                log_line(&format!("menu script: {action:?}"));
            }
            MenuStep::PadPress(action) => {
                actions.press(*action, DeviceKind::Gamepad);
                log_line(&format!("menu script: gamepad {action:?}"));
            }
            MenuStep::Type(text) => {
                typed.extend(text.chars().chain(['\n']));
                log_line(&format!("menu script: typed {text:?}"));
            }
        }
        self.script_step += 1;
        self.script_wait = MENU_SCRIPT_FRAMES_PER_STEP;
    }

    /// Logs the screen now on top (the walk-through test follows the screens in the log):
    /// always when it was just opened, when it comes back only if another was named meanwhile.
    pub fn screen_shown(&mut self, name: Option<String>, opened: bool) {
        let Some(name) = name else { return };
        if opened || name != self.last_screen {
            log_line(&format!("screen: {name}"));
            self.last_screen = name;
        }
    }

    /// Runs the whole replay at once on a copy of the world and logs its outcome, in the same
    /// words as the headless `tether replay`: the browser test compares the two hashes.
    pub fn report_replay_outcome(replay: &Replay, world: &World) {
        let outcome = replay.run(&mut world.clone());
        log_line(&format!("replay outcome: {}: {outcome}", replay.level));
        // The simulation's own cost here, for the browser/native ratio the browser test reports:
        // timed on a second run, so the browser's code has been through its optimising tier
        // (the first run is mostly baseline code) and both sides start warm.
        let started_s = macroquad::miniquad::date::now();
        replay.run(&mut world.clone());
        let elapsed_s = macroquad::miniquad::date::now() - started_s;
        log_line(&format!(
            "replay timing: {}: {} ticks, {:.1} µs per tick",
            replay.level,
            outcome.ticks,
            elapsed_s * 1e6 / outcome.ticks.max(1) as f64
        ));
    }

    /// The lines a tick gives the scripts: a watched replay's live end, and in the browser a
    /// shot fired by a gamepad or a touch.
    pub fn after_tick(
        session: &Session,
        events: &[Event],
        watched: Option<&Replay>,
        live: &PlayInput,
    ) {
        if let (Some(playback), Some(replay)) = (&session.playback, watched) {
            // The live playback's end, in the words of `tether replay`: the browser test checks
            // it against the desktop's as well as the copy run at start-up, so what was drawn
            // is what was verified.
            let goal = events
                .iter()
                .any(|e| matches!(e, Event::GoalReached { .. }));
            if goal || playback.just_ended() {
                let outcome = crate::sim::ReplayOutcome::of(&session.world);
                log_line(&format!("replay live outcome: {}: {outcome}", replay.level));
            }
        }
        if cfg!(target_arch = "wasm32") && session.playback.is_none() {
            // The browser test reads this line to see a gamepad's or a touch's shot arrive.
            if let (true, Some((device, aim))) =
                (events.contains(&Event::HookFired), live.last_fire())
            {
                log_line(&format!("input: hook fired by {device:?}, aim {aim:?}"));
            }
        }
    }

    /// Notes where this frame drew the player and the rope's anchor; while the world is held,
    /// logs it whenever it changes (the camera settles on the held frame), so the last line
    /// before a screenshot describes it.
    pub fn note_layout(&mut self, camera: &Camera2D, shown: &Snapshot, tick: u64) {
        self.shot_layout = shot_layout(camera, shown);
        if self.holds(tick) && self.shot_layout != self.logged_layout {
            log_line(&format!("held layout: {}", self.shot_layout));
            self.logged_layout = self.shot_layout.clone();
        }
    }

    /// In screenshot mode, saves the frame once the wanted moment has come. Returns true when
    /// the game should quit.
    pub fn take_screenshot_if_due(&mut self, now: &ShotMoment) -> bool {
        let Some(path) = self.screenshot.clone() else {
            return false;
        };
        let tick = now.tick.unwrap_or(u64::MAX);
        let held = self.holds(tick);
        if let Some(done) = now.editor_script_done {
            // Driven by an editor script: the picture is of the editor when the script ends.
            if !done || !now.editing {
                return false;
            }
        } else if !self.menu_script.is_empty() {
            // Driven by a menu script: the picture is of where the script ends (a menu), or of
            // the level-complete screen it plays to.
            let script_done = self.script_step >= self.menu_script.len() && self.script_wait == 0;
            if !script_done || now.playing || now.online_settling {
                return false;
            }
        } else if !held && !now.playback_done && now.playing {
            return false;
        }
        super::screenshot::save_screen(&path);
        log_line(&format!("screenshot at tick {tick}: {}", path.display()));
        log_line(&format!("screenshot layout: {}", self.shot_layout));
        true
    }

    /// Whether the replay being watched has ended and the game should quit (`--exit`).
    pub fn replay_finished(&self, session: Option<&Session>) -> bool {
        if !self.exit_when_replay_ends || self.screenshot.is_some() {
            return false;
        }
        session.is_some_and(|s| s.world.completed_at_tick().is_some() || s.playback_done())
    }
}

/// `tick=T scale=S player=(x,y) anchor=(x,y)`: where `shown` puts the player and the rope's
/// anchor on screen, in physical pixels from the top left (the anchor only while there is a
/// rope). The screenshot tests look for the rope's pixels between the two.
fn shot_layout(camera: &Camera2D, shown: &Snapshot) -> String {
    let scale = macroquad::window::screen_dpi_scale();
    let pixel = |v: crate::sim::math::Vec2| {
        let p = camera.world_to_screen(super::render::mq(v)) * scale;
        format!("({:.0},{:.0})", p.x, p.y)
    };
    let mut layout = format!(
        "tick={} scale={scale} player={}",
        shown.tick,
        pixel(shown.player_pos)
    );
    if let Some(anchor) = shown.rope_nodes.first() {
        layout += &format!(" anchor={}", pixel(*anchor));
    }
    layout
}
