//! The main loop: a fixed simulation tick driven by an accumulator, interpolated drawing, and the
//! screens around play (pause, level complete, level error).

use std::path::PathBuf;
use std::sync::Arc;

use macroquad::input::mouse_position;
use macroquad::time::get_frame_time;
use macroquad::window::{next_frame, screen_height, screen_width};

use super::assets::GameData;
use super::assists_screen::{AssistsOutcome, AssistsScreen};
use super::audio::AudioOut;
use super::camera::CameraState;
use super::controls_screen::{ControlsOutcome, ControlsScreen};
use super::frame_clock::{FrameClock, MAX_FRAME_TIME_S};
use super::input::devices::Devices;
use super::input::touch::TouchControls;
use super::input::{Action, ActionFrame, ActionMapper, PlayInput, RawFrame};
use super::palette;
use super::render::art::Art;
use super::render::hud::{draw_hud, draw_panel, format_time};
use super::render::scene::draw_world;
use super::render::{sim_vec, Snapshot};
use super::settings::{InputSettings, InputSettingsStore};
use crate::sim::{Event, InputFrame, LevelDef, Replay, World, TICK_DT_S};

/// How long the level-complete screen shows before the next level loads.
const COMPLETE_SCREEN_S: f32 = 2.5;
/// In screenshot mode, ticks per rendered frame: deterministic, whatever the frame rate.
const SCREENSHOT_TICKS_PER_FRAME: u32 = 2;

/// How the game was started (command line on the desktop, URL query in the browser).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    /// 0-based index of the first level.
    pub start_level: usize,
    /// Write the inputs of the first level played to this file when it ends.
    pub record_to: Option<PathBuf>,
    /// Play this replay instead of reading the devices.
    pub replay: Option<Replay>,
    /// Stop advancing the simulation at this tick and keep drawing it (the browser test's
    /// screenshot moment; with `screenshot`, the moment the PNG is taken).
    pub hold_at_tick: Option<u64>,
    /// Save a PNG of the screen at `hold_at_tick` (or when the replay ends) and quit.
    pub screenshot: Option<PathBuf>,
    /// Quit after the replay ends (goal or last input), printing its outcome.
    pub exit_when_replay_ends: bool,
}

enum Screen {
    Playing,
    Paused { selected: usize },
    Complete { shown_s: f32, ticks: u64 },
    AllComplete,
    LevelError(String),
    Controls(ControlsScreen),
    Assists(AssistsScreen),
}

const PAUSE_ITEMS: [&str; 5] = ["Resume", "Restart", "Controls", "Assists", "Quit"];
/// Where "Controls" and "Assists" sit in `PAUSE_ITEMS` (the pause menu comes back to them).
const PAUSE_CONTROLS: usize = 2;
const PAUSE_ASSISTS: usize = 3;

pub struct Game {
    data: GameData,
    options: LaunchOptions,
    level_index: usize,
    world: Option<World>,
    prev: Snapshot,
    clock: FrameClock,
    /// Devices → actions (`input`), and actions → one `InputFrame` per tick (`play`).
    devices: Devices,
    mapper: ActionMapper,
    /// Bindings and assists, kept between runs.
    settings: InputSettings,
    settings_store: InputSettingsStore,
    actions: ActionFrame,
    touch: TouchControls,
    play: PlayInput,
    camera: Option<CameraState>,
    screen: Screen,
    audio: Box<dyn AudioOut>,
    recording: Option<Replay>,
    /// Inputs of the replay being played, and the next one's position.
    playback: Option<(Vec<InputFrame>, usize)>,
    /// Textures, level meshes, animation and effects: what drawing keeps between frames.
    art: Art,
    quit: bool,
    fullscreen: bool,
    /// Where the last frame drew the player and the rope's anchor, in screen pixels, and the
    /// last such line logged while held: the screenshot tests check the picture against it.
    shot_layout: String,
    logged_layout: String,
}

impl Game {
    pub fn new(data: GameData, options: LaunchOptions, audio: Box<dyn AudioOut>) -> Game {
        let start = match &options.replay {
            Some(replay) => data
                .levels
                .iter()
                .position(|l| l.name == replay.level)
                .unwrap_or(0),
            None => options.start_level.min(data.levels.len().saturating_sub(1)),
        };
        let mut game = Game {
            data,
            level_index: start,
            world: None,
            prev: Snapshot::default(),
            clock: FrameClock::default(),
            devices: Devices::default(),
            mapper: ActionMapper::default(),
            settings: InputSettings::default(),
            settings_store: InputSettingsStore::platform_default(),
            actions: ActionFrame::default(),
            touch: TouchControls::default(),
            play: PlayInput::default(),
            camera: None,
            screen: Screen::Playing,
            audio,
            recording: None,
            playback: None,
            art: Art::new(),
            quit: false,
            fullscreen: false,
            shot_layout: String::new(),
            logged_layout: String::new(),
            options,
        };
        let loaded = game.settings_store.load();
        if let Some(problem) = &loaded.problem {
            super::log_line(&format!("settings: {problem}"));
        }
        game.settings = loaded.settings;
        game.play.strong_aim_assist = game.settings.assists.strong_aim_assist;
        game.load_level(start);
        if cfg!(target_arch = "wasm32") {
            // The browser test waits for this before it touches or plugs in anything.
            super::log_line("input: ready");
        }
        game.report_replay_outcome();
        game
    }

    /// Runs the whole replay at once on a copy of the world and logs its outcome, in the same
    /// words as the headless `tether replay`: the browser test compares the two hashes.
    fn report_replay_outcome(&self) {
        let (Some(replay), Some(world)) = (&self.options.replay, &self.world) else {
            return;
        };
        let outcome = replay.run(&mut world.clone());
        super::log_line(&format!("replay outcome: {}: {outcome}", replay.level));
        // The simulation's own cost here, for the browser/native ratio the browser test reports:
        // timed on a second run, so the browser's code has been through its optimising tier
        // (the first run is mostly baseline code) and both sides start warm.
        let started_s = macroquad::miniquad::date::now();
        replay.run(&mut world.clone());
        let elapsed_s = macroquad::miniquad::date::now() - started_s;
        super::log_line(&format!(
            "replay timing: {}: {} ticks, {:.1} µs per tick",
            replay.level,
            outcome.ticks,
            elapsed_s * 1e6 / outcome.ticks.max(1) as f64
        ));
    }

    /// (Re)starts level `index`, or shows why it cannot be played.
    fn load_level(&mut self, index: usize) {
        self.level_index = index;
        let file = &self.data.levels[index];
        let path = format!("levels/{}", file.name);
        let world = file.text.clone().and_then(|text| {
            let level = LevelDef::from_ron(&text, &path).map_err(|e| e.to_string())?;
            World::from_level(level, Arc::clone(&self.data.tuning), &path)
                .map_err(|e| e.to_string())
        });
        self.clock.reset();
        self.play.clear();
        self.art.reset();
        match world {
            Ok(world) => {
                self.prev = Snapshot::of(&world);
                match &mut self.camera {
                    Some(camera) => camera.snap(&world),
                    None => self.camera = Some(CameraState::new(&world)),
                }
                if self.options.record_to.is_some() {
                    let mut recording = Replay::new(&file.name);
                    recording.assists = self.settings.assists;
                    self.recording = Some(recording);
                }
                if let Some(replay) = &self.options.replay {
                    self.playback = Some((replay.frames().copied().collect(), 0));
                }
                let mut world = world;
                // Invincibility changes the simulation, so it holds for a whole attempt: from
                // its start (a replay's own assists when watching one).
                world.invincible = match &self.options.replay {
                    Some(replay) => replay.assists.invincible,
                    None => self.settings.assists.invincible,
                };
                self.world = Some(world);
                self.screen = Screen::Playing;
            }
            Err(message) => {
                self.world = None;
                self.screen = Screen::LevelError(message);
            }
        }
    }

    fn change_level(&mut self, delta: isize) {
        self.save_recording();
        let count = self.data.levels.len() as isize;
        let next = (self.level_index as isize + delta).rem_euclid(count) as usize;
        self.load_level(next);
    }

    /// Writes the recording (atomically: a temporary file, then a rename) and stops recording.
    fn save_recording(&mut self) {
        let (Some(path), Some(replay)) = (&self.options.record_to, self.recording.take()) else {
            return;
        };
        if replay.tick_count() == 0 {
            return;
        }
        match super::storage::write_atomically(path, replay.to_ron().as_bytes()) {
            Ok(()) => println!(
                "recorded {} ticks to {}",
                replay.tick_count(),
                path.display()
            ),
            Err(err) => eprintln!("could not write the recording {}: {err}", path.display()),
        }
        // Record only the first level played: the file is one level's replay.
        self.options.record_to = None;
    }

    /// Runs until the player quits.
    pub async fn run(mut self) {
        loop {
            let frame_s = get_frame_time().min(MAX_FRAME_TIME_S);
            self.handle_actions();
            if self.quit {
                self.save_recording();
                return;
            }
            let alpha = self.update(frame_s);
            self.draw(alpha);
            self.audio.draw_overlay();
            if self.take_screenshot_if_due() {
                return;
            }
            if self.replay_finished() {
                return;
            }
            next_frame().await;
        }
    }

    /// Reads the devices once per frame and acts on what is asked: volume and mute anywhere,
    /// the pause menu's navigation, play's pause/restart/level keys; play input is latched for
    /// the next tick.
    fn handle_actions(&mut self) {
        let raw = self.devices.poll();
        self.actions = self.mapper.map(&self.settings.bindings, &raw);
        self.touch.apply(
            &raw.touches,
            screen_width(),
            screen_height(),
            &mut self.actions,
        );
        let actions = self.actions;
        let pointer = self.pointer_world();
        self.play.on_frame(&actions, pointer);
        // While the controls screen waits for a new control, that press is only the new binding.
        let capturing = matches!(&self.screen, Screen::Controls(c) if c.capturing);
        if !capturing {
            self.handle_global_actions(&actions);
        }
        let focus_lost = self.devices.take_focus_lost();
        if self.handle_settings_screens(&actions, &raw) {
            return;
        }
        match &mut self.screen {
            Screen::Paused { selected } => {
                if actions.pressed(Action::MenuDown) {
                    *selected = (*selected + 1) % PAUSE_ITEMS.len();
                }
                if actions.pressed(Action::MenuUp) {
                    *selected = (*selected + PAUSE_ITEMS.len() - 1) % PAUSE_ITEMS.len();
                }
                let chosen = *selected;
                if actions.pressed(Action::MenuBack) {
                    self.resume();
                } else if actions.pressed(Action::MenuConfirm) {
                    match chosen {
                        0 => self.resume(),
                        1 => self.load_level(self.level_index),
                        PAUSE_CONTROLS => self.screen = Screen::Controls(ControlsScreen::default()),
                        PAUSE_ASSISTS => self.screen = Screen::Assists(AssistsScreen::default()),
                        _ => self.quit = true,
                    }
                }
                return;
            }
            // Losing focus pauses play (not a replay being watched or recorded to a screenshot).
            Screen::Playing
                if actions.pressed(Action::Pause) || (focus_lost && self.playback.is_none()) =>
            {
                self.screen = Screen::Paused { selected: 0 };
                return;
            }
            _ => {}
        }
        if actions.pressed(Action::Restart) {
            self.load_level(self.level_index);
        } else if actions.pressed(Action::NextLevel) {
            self.change_level(1);
        } else if actions.pressed(Action::PrevLevel) {
            self.change_level(-1);
        }
    }

    /// The controls and assists screens; true when one of them had this frame.
    fn handle_settings_screens(&mut self, actions: &ActionFrame, raw: &RawFrame) -> bool {
        let changed = match &mut self.screen {
            Screen::Controls(screen) => {
                match screen.update(actions, raw, &mut self.settings.bindings) {
                    ControlsOutcome::Stay => false,
                    ControlsOutcome::Changed => true,
                    ControlsOutcome::Back => {
                        self.screen = Screen::Paused {
                            selected: PAUSE_CONTROLS,
                        };
                        false
                    }
                }
            }
            Screen::Assists(screen) => match screen.update(
                actions,
                &mut self.settings.assists,
                &mut self.settings.comfort,
            ) {
                AssistsOutcome::Stay => false,
                AssistsOutcome::Changed => {
                    self.play.strong_aim_assist = self.settings.assists.strong_aim_assist;
                    if let Some(recording) = &mut self.recording {
                        // A run is recorded with every assist it used at any time.
                        let now = self.settings.assists;
                        let kept = &mut recording.assists;
                        kept.game_speed_percent =
                            kept.game_speed_percent.min(now.game_speed_percent);
                        kept.strong_aim_assist |= now.strong_aim_assist;
                        kept.trajectory_preview |= now.trajectory_preview;
                    }
                    true
                }
                AssistsOutcome::Back => {
                    self.screen = Screen::Paused {
                        selected: PAUSE_ASSISTS,
                    };
                    false
                }
            },
            _ => return false,
        };
        if changed {
            if let Err(problem) = self.settings_store.save(&self.settings) {
                super::log_line(&format!("settings: {problem}"));
            }
        }
        true
    }

    /// Actions read on every screen: mute, volumes, fullscreen.
    fn handle_global_actions(&mut self, actions: &ActionFrame) {
        use super::audio::VolumeChannel;
        if actions.pressed(Action::Mute) {
            self.audio.toggle_mute();
        }
        let volume_actions = [
            (
                VolumeChannel::Master,
                Action::MasterVolumeDown,
                Action::MasterVolumeUp,
            ),
            (
                VolumeChannel::Music,
                Action::MusicVolumeDown,
                Action::MusicVolumeUp,
            ),
            (
                VolumeChannel::Effects,
                Action::EffectsVolumeDown,
                Action::EffectsVolumeUp,
            ),
        ];
        for (channel, down, up) in volume_actions {
            let steps = i32::from(actions.pressed(up)) - i32::from(actions.pressed(down));
            if steps != 0 {
                self.audio.change_volume(channel, steps);
            }
        }
        // In the browser F11 is the browser's own fullscreen, and a page may only ask for
        // fullscreen inside the key's event (the page's button does); the game leaves it alone.
        if actions.pressed(Action::Fullscreen) && !cfg!(target_arch = "wasm32") {
            self.fullscreen = !self.fullscreen;
            macroquad::window::set_fullscreen(self.fullscreen);
        }
    }

    fn resume(&mut self) {
        self.screen = Screen::Playing;
        // The key or click that closed the menu must not also jump or fire.
        self.play.clear();
    }

    /// The pointer (the mouse, or the last touch on the world) in world coordinates (aiming
    /// uses the unshaken camera).
    fn pointer_world(&self) -> Option<crate::sim::math::Vec2> {
        let camera = self.camera.as_ref()?;
        let cam = camera.to_camera2d(screen_width() / screen_height().max(1.0));
        let (mx, my) = match (self.touch.active, self.touch.pointer()) {
            (true, Some(point)) => point,
            (true, None) => return None,
            (false, _) => mouse_position(),
        };
        Some(sim_vec(cam.screen_to_world(macroquad::math::vec2(mx, my))))
    }

    /// Advances the simulation by whole ticks; returns the interpolation fraction for drawing.
    fn update(&mut self, frame_s: f32) -> f32 {
        let paused = !matches!(self.screen, Screen::Playing);
        if let Screen::Complete { shown_s, .. } = &mut self.screen {
            *shown_s += frame_s;
            if *shown_s >= COMPLETE_SCREEN_S && !self.exit_on_replay() {
                if self.level_index + 1 < self.data.levels.len() {
                    self.load_level(self.level_index + 1);
                } else {
                    self.screen = Screen::AllComplete;
                }
            }
        }
        self.audio.update(self.world.as_ref(), paused);
        let held = match (&self.world, self.options.hold_at_tick) {
            (Some(world), Some(hold)) => world.tick >= hold,
            _ => false,
        };
        if paused || held || self.world.is_none() {
            return 1.0;
        }
        let deterministic = self.options.screenshot.is_some();
        let ticks_due = if deterministic {
            SCREENSHOT_TICKS_PER_FRAME
        } else {
            // The game-speed assist slows the wall-clock pace; the tick stays the same.
            self.clock
                .advance(frame_s * self.shown_assists().speed_factor())
        };
        for _ in 0..ticks_due {
            self.tick_once();
            if !matches!(self.screen, Screen::Playing) {
                return 1.0;
            }
        }
        if deterministic {
            1.0
        } else {
            self.clock.alpha()
        }
    }

    fn tick_once(&mut self) {
        let Some(world) = &mut self.world else { return };
        let input = match &mut self.playback {
            Some((frames, next)) => {
                let input = frames.get(*next).copied().unwrap_or_default();
                *next += 1;
                input
            }
            None => self.play.take(world),
        };
        self.prev = Snapshot::of(world);
        let events = world.step(&input);
        if let (Some((frames, next)), Some(replay)) = (&self.playback, &self.options.replay) {
            // The live playback's end, in the words of `tether replay`: the browser test checks
            // it against the desktop's as well as the copy run at start-up, so what was drawn
            // is what was verified.
            if events
                .iter()
                .any(|e| matches!(e, Event::GoalReached { .. }))
                || *next == frames.len()
            {
                let outcome = crate::sim::ReplayOutcome::of(world);
                super::log_line(&format!("replay live outcome: {}: {outcome}", replay.level));
            }
        }
        if let Some(recording) = &mut self.recording {
            recording.push(input);
        }
        if cfg!(target_arch = "wasm32") && self.playback.is_none() {
            // The browser test reads this line to see a gamepad's or a touch's shot arrive.
            if let (true, Some((device, aim))) =
                (events.contains(&Event::HookFired), self.play.last_fire())
            {
                super::log_line(&format!("input: hook fired by {device:?}, aim {aim:?}"));
            }
        }
        self.audio.on_events(&events, world);
        self.art.on_tick(&events, world);
        if let Some(camera) = &mut self.camera {
            camera.on_tick(&events, TICK_DT_S);
        }
        for event in &events {
            match event {
                Event::GoalReached { ticks } => {
                    let ticks = *ticks;
                    self.save_recording();
                    self.screen = Screen::Complete {
                        shown_s: 0.0,
                        ticks,
                    };
                }
                Event::Respawned => {
                    if let (Some(camera), Some(world)) = (&mut self.camera, &self.world) {
                        camera.snap(world);
                    }
                }
                _ => {}
            }
        }
    }

    fn exit_on_replay(&self) -> bool {
        self.options.exit_when_replay_ends && self.options.replay.is_some()
    }

    fn replay_finished(&mut self) -> bool {
        if !self.exit_on_replay() || self.options.screenshot.is_some() {
            return false;
        }
        let inputs_done = self
            .playback
            .as_ref()
            .is_some_and(|(frames, next)| *next >= frames.len());
        matches!(self.screen, Screen::Complete { .. }) || inputs_done
    }

    /// In screenshot mode, saves the frame once the world reaches the wanted tick (or the
    /// replay ends). Returns true when the game should quit.
    fn take_screenshot_if_due(&mut self) -> bool {
        let Some(path) = self.options.screenshot.clone() else {
            return false;
        };
        let tick = self.world.as_ref().map_or(u64::MAX, |w| w.tick);
        let inputs_done = self
            .playback
            .as_ref()
            .is_some_and(|(frames, next)| *next >= frames.len());
        let held = self.options.hold_at_tick.is_some_and(|hold| tick >= hold);
        if !held && !inputs_done && matches!(self.screen, Screen::Playing) {
            return false;
        }
        super::screenshot::save_screen(&path);
        super::log_line(&format!("screenshot at tick {tick}: {}", path.display()));
        super::log_line(&format!("screenshot layout: {}", self.shot_layout));
        true
    }

    /// Seconds the camera moves by this frame: the frame's time, or in screenshot mode the
    /// ticks run per frame, so the picture at a tick does not depend on the frame rate.
    fn camera_dt_s(&self) -> f32 {
        if self.options.screenshot.is_some() {
            SCREENSHOT_TICKS_PER_FRAME as f32 * TICK_DT_S
        } else {
            get_frame_time().min(MAX_FRAME_TIME_S)
        }
    }

    /// The assists of what is on screen: a replay's own, or the player's.
    fn shown_assists(&self) -> crate::sim::Assists {
        match &self.options.replay {
            Some(replay) => replay.assists,
            None => self.settings.assists,
        }
    }

    fn draw(&mut self, alpha: f32) {
        let Some(world) = &self.world else {
            let message = match &self.screen {
                Screen::LevelError(message) => message.clone(),
                _ => String::new(),
            };
            super::render::scene::clear();
            draw_panel(
                "This level cannot be played",
                &[
                    (message, true),
                    (String::new(), false),
                    (
                        "N: next level   P: previous level   R: try again".into(),
                        false,
                    ),
                ],
                palette::ERROR_TEXT,
            );
            return;
        };
        let now = Snapshot::of(world);
        let shown = Snapshot::interpolate(&self.prev, &now, alpha, world.teleported_at_tick);
        let camera_dt_s = self.camera_dt_s();
        let camera = self.camera.get_or_insert_with(|| CameraState::new(world));
        let aspect = screen_width() / screen_height().max(1.0);
        camera.set_shake(self.settings.comfort.screen_shake);
        camera.update(world, shown.player_pos, aspect, camera_dt_s);
        let aim = if matches!(self.screen, Screen::Playing) && self.playback.is_none() {
            Some(world.preview_aim(self.play.reticle_offset(world)))
        } else {
            None
        };
        let world = self.world.as_ref().expect("checked above");
        let build_started_s = macroquad::time::get_time();
        draw_world(
            world,
            &shown,
            self.camera.as_ref().expect("set above"),
            aim.as_ref(),
            &mut self.art,
        );
        self.shot_layout = shot_layout(
            &self
                .camera
                .as_ref()
                .expect("set above")
                .to_camera2d_shaken(aspect),
            &shown,
        );
        let held = self
            .options
            .hold_at_tick
            .is_some_and(|hold| world.tick >= hold);
        if held && self.shot_layout != self.logged_layout {
            // Logged while it changes (the camera settles on the held frame), so the last line
            // before a screenshot describes it.
            super::log_line(&format!("held layout: {}", self.shot_layout));
            self.logged_layout = self.shot_layout.clone();
        }
        if self.settings.assists.trajectory_preview && world.rope().is_some() {
            let camera = self.camera.as_ref().expect("set above");
            macroquad::camera::set_camera(&camera.to_camera2d_shaken(aspect));
            super::assists_screen::draw_release_trajectory(world);
            macroquad::camera::set_default_camera();
        }
        let ticks = world.completed_at_tick.unwrap_or(world.tick);
        draw_hud(
            &world.level.name,
            self.level_index + 1,
            self.data.levels.len(),
            ticks,
            world.deaths,
        );
        let assists = self.shown_assists();
        super::assists_screen::draw_assists_note(&assists);
        if self.playback.is_none() {
            self.touch.draw();
        }
        self.art
            .record_frame(macroquad::time::get_time() - build_started_s);
        match &self.screen {
            Screen::Paused { selected } => {
                let lines: Vec<(String, bool)> = PAUSE_ITEMS
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        let marker = if i == *selected { "> " } else { "  " };
                        (format!("{marker}{item}"), i == *selected)
                    })
                    .collect();
                draw_panel("Paused", &lines, palette::TEXT);
            }
            Screen::Complete { ticks, .. } => {
                let next = if self.level_index + 1 < self.data.levels.len() {
                    "next level coming up"
                } else {
                    "that was the last level"
                };
                draw_panel(
                    "Level complete",
                    &[
                        (format!("time {}", format_time(*ticks)), true),
                        (
                            if assists.any() {
                                format!("with assists: {}", assists.describe())
                            } else {
                                String::new()
                            },
                            false,
                        ),
                        (next.into(), false),
                    ],
                    palette::GOAL,
                );
            }
            Screen::AllComplete => draw_panel(
                "All levels complete",
                &[("N / P: pick a level   R: play this one again".into(), true)],
                palette::GOAL,
            ),
            Screen::Controls(screen) => screen.draw(&self.settings.bindings),
            Screen::Assists(screen) => screen.draw(&self.settings.assists, &self.settings.comfort),
            Screen::Playing | Screen::LevelError(_) => {}
        }
    }
}

/// `tick=T scale=S player=(x,y) anchor=(x,y)`: where `shown` puts the player and the rope's
/// anchor on screen, in physical pixels from the top left (the anchor only while there is a
/// rope). The screenshot tests look for the rope's pixels between the two.
fn shot_layout(camera: &macroquad::camera::Camera2D, shown: &Snapshot) -> String {
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
