//! The main loop: a fixed simulation tick driven by an accumulator, interpolated drawing, and the
//! screens around play (pause, level complete, level error).

use std::collections::HashMap;
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
use super::editor_screen::{EditorOutcome, EditorScreen, MyLevelsScreen};
use super::frame_clock::{FrameClock, MAX_FRAME_TIME_S};
use super::ghost::Ghost;
use super::input::devices::Devices;
use super::input::touch::TouchControls;
use super::input::{Action, ActionFrame, ActionMapper, DeviceKind, PlayInput, RawFrame};
use super::level_problem::LevelProblem;
use super::level_shelf::LevelShelf;
use super::menus::{self, LevelSelect, SelectOutcome, TitleItem};
use super::palette;
use super::progress_store::ProgressStore;
use super::render::art::Art;
use super::render::hud::{draw_hud, draw_panel, format_time};
use super::render::scene::draw_world;
use super::render::{sim_vec, Snapshot};
use super::settings::{GhostMode, InputSettings, InputSettingsStore};
use crate::campaign::splits::{format_delta, split_delta};
use crate::campaign::{FinishReport, MedalTimes, Progress, SplitDelta};
use crate::sim::level::RonError;
use crate::sim::{Event, InputFrame, LevelDef, Replay, World, TICK_DT_S};

mod my_levels;
use my_levels::linked_title;

/// How long the level-complete screen shows before the next level loads (watching replays; in
/// play the player chooses).
const COMPLETE_SCREEN_S: f32 = 2.5;
/// How long a checkpoint split stays on screen.
const SPLIT_SHOWN_S: f32 = 3.0;
/// How long a notice (a save problem) stays on screen in play.
const NOTICE_SHOWN_S: f32 = 8.0;
/// Frames between the steps of a menu script (`--menu-script`), so each screen is drawn.
const MENU_SCRIPT_FRAMES_PER_STEP: u32 = 12;
/// Under a level file's problem: what the game does about it (with a good version running,
/// and with none yet).
#[cfg(not(target_arch = "wasm32"))]
const RELOAD_FOOTER: &str =
    "the last good version keeps running: fix the file and save it   (Tab: level editor)";
#[cfg(not(target_arch = "wasm32"))]
const FIX_FILE_FOOTER: &str =
    "fix the file and save it: it loads as soon as it is valid   (Tab: level editor)";
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
    /// Open on the title screen (a plain start) instead of straight into `start_level`.
    pub start_at_title: bool,
    /// Menu actions pressed one after another (the walk-through test drives the menus so).
    pub menu_script: Vec<Action>,
    /// Levels started from the menus play their solution replay (with `menu_script`: a whole
    /// walk from the title to a finished level without a person).
    pub autoplay: bool,
    /// Steps that drive the editor instead of the mouse and keys (`--editor-script`, the Xvfb
    /// test of the editor).
    pub editor_script: Vec<super::editor_screen::input::ScriptStep>,
    /// `tether play FILE` / `tether edit FILE`: the one level file played, watched for changes
    /// (hot reload). Its run is not campaign progress.
    pub level_file: Option<PathBuf>,
    /// `tether edit FILE`: open the level file in the editor rather than in play.
    pub open_editor: bool,
    /// A level link opened in the browser (`#level=<code>`): the level's text, or why the link
    /// cannot be read. Played as the only level, like a level file.
    pub linked_level: Option<Result<String, String>>,
    /// Start at "My levels" (the browser's editor page, `?edit`).
    pub my_levels: bool,
    /// A level link opened on the editor page: its text, opened in the editor as a new level of
    /// "My levels" (kept when the author saves it).
    pub edit_linked: Option<String>,
}

enum Screen {
    Title {
        selected: usize,
    },
    LevelSelect(LevelSelect),
    Playing,
    Paused {
        selected: usize,
    },
    Complete {
        shown_s: f32,
        ticks: u64,
        /// What the finish changed (none while watching a replay).
        report: Option<FinishReport>,
        selected: usize,
    },
    AllComplete,
    LevelError(String),
    Controls(ControlsScreen),
    Assists(AssistsScreen),
    /// The level editor (`Game::editor` holds it, so test play can come back to it).
    Editing,
    /// The author's own levels (`Game::shelf`).
    MyLevels(MyLevelsScreen),
}

/// The pause menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PauseItem {
    Resume,
    Restart,
    LevelSelect,
    Ghost,
    Controls,
    Assists,
    Quit,
}

const PAUSE_ITEMS: [PauseItem; 7] = [
    PauseItem::Resume,
    PauseItem::Restart,
    PauseItem::LevelSelect,
    PauseItem::Ghost,
    PauseItem::Controls,
    PauseItem::Assists,
    PauseItem::Quit,
];

/// The level-complete menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CompleteItem {
    Next,
    Retry,
    LevelSelect,
    /// A test play from the editor that reached the goal from the spawn: keep it as the level's
    /// solution replay (its proof of play in CI).
    SaveSolution,
    BackToEditor,
    /// Back to "My levels" after playing one of them.
    MyLevels,
}

/// Where the controls and assists screens go back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SettingsFrom {
    Pause,
    Title,
}

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
    /// Finished levels, best times, medals and splits, and where they are kept.
    progress: Progress,
    progress_store: ProgressStore,
    /// False when an old save could not be read or kept aside: saving would lose it.
    progress_may_save: bool,
    /// A problem to show (a save that could not be used or written), and for how long more.
    notice: Option<(String, f32)>,
    /// The inputs of the attempt in progress (live play): the best run's ghost when it wins.
    attempt: Option<Replay>,
    /// The tick each checkpoint was first reached on this attempt, in reaching order.
    splits: Vec<u64>,
    /// The last split, shown for a while.
    split_shown: Option<(SplitDelta, f32)>,
    ghost: Option<Ghost>,
    /// Best runs read from the store, by level file (read once a session; `None`: there is none).
    best_runs: HashMap<String, Option<Replay>>,
    /// Where the controls and assists screens return.
    settings_from: SettingsFrom,
    /// The position in `options.menu_script` and frames until its next step.
    script_step: usize,
    script_wait: u32,
    /// The device the player last pressed something on: signs name its controls.
    last_device: DeviceKind,
    /// The level file being played when it was named on the command line: reloaded on change.
    watch: Option<super::hot_reload::FileWatch>,
    /// Why the level file's latest text cannot be used (the last good version keeps running).
    level_problem: Option<LevelProblem>,
    /// The level editor, kept while its level is test-played.
    editor: Option<EditorScreen>,
    /// The last test play that reached the goal, offered as the level's solution.
    finished_run: Option<Replay>,
    /// Whether the level being played is the editor's test play from the cursor (a run that
    /// proves nothing about the level from its spawn).
    testing_from_cursor: bool,
    /// Whether the previous level file was kept as FILE.bak this session (the first save only:
    /// later saves would replace the author's hand-written original with the editor's output).
    backup_written: bool,
    /// The author's own levels ("My levels").
    shelf: LevelShelf,
    /// The name in `shelf` of the level being played or edited (None: the campaign, a file).
    shelf_level: Option<String>,
    /// The campaign's worlds and levels, put aside while one of "My levels" is the only level.
    campaign_aside: Option<(Vec<String>, Vec<super::assets::LevelFile>)>,
}

impl Game {
    pub fn new(data: GameData, options: LaunchOptions, audio: Box<dyn AudioOut>) -> Game {
        let single_level = options.level_file.is_some() || options.linked_level.is_some();
        let start = match &options.replay {
            // One level given on its own (a file, a link): the replay is played on it, whatever
            // file it was recorded on.
            Some(_) if single_level => Some(0),
            Some(replay) => data.levels.iter().position(|l| l.name == replay.level),
            None => Some(options.start_level.min(data.levels.len().saturating_sub(1))),
        };
        // A replay of a level the index does not list cannot be watched (playing its inputs in
        // another level would show something that never happened).
        let unlisted = match (&options.replay, start) {
            (Some(replay), None) => Some(format!(
                "the replay is a run of \"{}\", which {} does not list",
                crate::sim::limits::printable(&replay.level),
                crate::cli::LEVEL_INDEX_PATH
            )),
            _ => None,
        };
        let start = start.unwrap_or(0);
        let watch = options.level_file.as_ref().and_then(|path| {
            let text = data
                .levels
                .first()
                .and_then(|level| level.text.clone().ok());
            super::hot_reload::FileWatch::watch(path, text)
        });
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
            progress: Progress::default(),
            // Watching a replay records nothing of the player's.
            progress_store: if options.replay.is_some() || single_level {
                ProgressStore::Memory
            } else {
                ProgressStore::platform_default()
            },
            progress_may_save: true,
            notice: None,
            attempt: None,
            splits: Vec::new(),
            split_shown: None,
            ghost: None,
            best_runs: HashMap::new(),
            settings_from: SettingsFrom::Pause,
            script_step: 0,
            script_wait: MENU_SCRIPT_FRAMES_PER_STEP,
            last_device: DeviceKind::Keyboard,
            watch,
            level_problem: None,
            editor: None,
            finished_run: None,
            testing_from_cursor: false,
            backup_written: false,
            shelf: LevelShelf::platform_default(),
            shelf_level: None,
            campaign_aside: None,
            options,
        };
        let loaded = game.settings_store.load();
        if let Some(problem) = &loaded.problem {
            super::log_line(&format!("settings: {problem}"));
        }
        game.settings = loaded.settings;
        game.play.strong_aim_assist = game.settings.assists.strong_aim_assist;
        let progress = game.progress_store.load();
        if let Some(problem) = &progress.problem {
            super::log_line(&format!("progress: {problem}"));
            game.notice = Some((problem.clone(), NOTICE_SHOWN_S));
        }
        game.progress = progress.progress;
        game.progress_may_save = progress.may_save;
        // The browser test reads this after a reload to see that progress was kept.
        super::log_line(&format!(
            "progress: {} levels finished",
            game.progress.levels.values().filter(|r| r.finished).count()
        ));
        if let Some(message) = unlisted {
            super::log_line(&format!("error: {message}"));
            game.screen = Screen::LevelError(message);
            // Automated runs stop here rather than wait for a person.
            game.quit = game.options.exit_when_replay_ends || game.options.screenshot.is_some();
        } else if EditorScreen::AVAILABLE && game.options.my_levels {
            // The browser's editor page.
            game.open_my_levels(None);
            if let Some(text) = game.options.edit_linked.take() {
                let name = game.shelf.free_name_for(&linked_title(&text));
                game.start_shelf_level(name, text, true);
                if let Some(editor) = &mut game.editor {
                    editor.mark_not_kept();
                    editor.say("a level from a link: Ctrl+S keeps it in My levels");
                }
            }
        } else if game.options.start_at_title && game.options.replay.is_none() {
            game.show_screen(Screen::Title { selected: 0 });
        } else {
            game.load_level(start);
            if game.options.open_editor {
                game.open_editor();
            }
        }
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
        let path = match &self.watch {
            Some(watch) => watch.path().display().to_string(),
            None => format!("levels/{}", file.name),
        };
        let world = match &file.text {
            Ok(text) => LevelDef::from_ron(text, &path)
                .and_then(|level| World::from_level(level, Arc::clone(&self.data.tuning), &path))
                .map_err(|err| {
                    // A watched file shows where it is wrong, and reloads once fixed.
                    if self.watch.is_some() {
                        self.level_problem = Some(LevelProblem::of(&err, text));
                    }
                    err.to_string()
                }),
            Err(message) => Err(message.clone()),
        };
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
                } else if self.options.autoplay {
                    self.playback = file
                        .solution
                        .as_ref()
                        .map(|run| (run.frames().copied().collect(), 0));
                }
                let mut world = world;
                // Invincibility changes the simulation, so it holds for a whole attempt: from
                // its start (a replay's own assists when watching one).
                world.invincible = match &self.options.replay {
                    Some(replay) => replay.assists.invincible,
                    None => self.settings.assists.invincible,
                };
                self.splits.clear();
                self.split_shown = None;
                self.attempt = self.records_progress().then(|| {
                    let mut attempt = Replay::new(&file.name);
                    attempt.assists = self.settings.assists;
                    attempt
                });
                self.ghost = self.make_ghost(index, &world);
                // A level given on its own is titled by its file until it loads.
                self.data.levels[index].title = world.level.name.clone();
                self.world = Some(world);
                self.show_screen(Screen::Playing);
            }
            Err(message) => {
                self.world = None;
                self.ghost = None;
                self.attempt = None;
                self.show_screen(Screen::LevelError(message));
            }
        }
    }

    /// Hot reload: takes the level file's new text when it changed on disk.
    fn poll_level_file(&mut self, frame_s: f32) {
        let Some(change) = self.watch.as_mut().and_then(|watch| watch.poll(frame_s)) else {
            return;
        };
        match change {
            Ok(text) => self.reload_level(text),
            Err(message) => {
                super::log_line(&format!("reload: {message}"));
                self.level_problem = Some(LevelProblem::message(&message));
            }
        }
    }

    /// Rebuilds the level from its file's new `text`, keeping the player where they were when
    /// that place is still valid and the camera where it is. A text that cannot be used leaves
    /// the last good version running and shows why, its bad objects outlined.
    fn reload_level(&mut self, text: String) {
        let Some(path) = self.watch.as_ref().map(|w| w.path().display().to_string()) else {
            return;
        };
        let built = LevelDef::from_ron(&text, &path)
            .and_then(|level| World::from_level(level, Arc::clone(&self.data.tuning), &path));
        let mut world = match built {
            Ok(world) => world,
            Err(err) => {
                super::log_line(&format!("reload: {}", err.to_string().replace('\n', "; ")));
                self.level_problem = Some(LevelProblem::of(&err, &text));
                return;
            }
        };
        self.level_problem = None;
        let file = &mut self.data.levels[self.level_index];
        file.title = world.level.name.clone();
        file.text = Ok(text);
        let kept = match (&self.world, &self.screen) {
            (Some(old), Screen::Playing | Screen::Paused { .. }) => world.take_player_from(old),
            _ => false,
        };
        world.invincible = self.shown_assists().invincible;
        super::log_line(&format!(
            "reload: {path}: ok: {} solids, {} objects; player {}",
            world.level.solids.len(),
            world
                .level
                .object_lists()
                .iter()
                .map(|l| l.items.len())
                .sum::<usize>(),
            if kept { "kept" } else { "respawned" }
        ));
        self.prev = Snapshot::of(&world);
        self.art.reset();
        self.ghost = None;
        // A run that began in the old version proves nothing about the new one.
        self.attempt = None;
        self.splits.clear();
        if self.camera.is_none() {
            self.camera = Some(CameraState::new(&world));
        }
        let level = (*world.level).clone();
        self.world = Some(world);
        if let Some(editor) = &mut self.editor {
            // Someone saved the file in a text editor while the level editor is open: take
            // their version unless that would throw away unsaved edits here.
            if editor.is_dirty() {
                editor.say("the file changed on disk: Ctrl+S here would overwrite that change");
            } else {
                editor.replace_level(level);
                editor.mark_saved();
            }
        } else if self.options.open_editor {
            // `tether edit` of a file that did not parse: now it does.
            self.open_editor();
            return;
        }
        if !matches!(
            self.screen,
            Screen::Playing | Screen::Paused { .. } | Screen::Editing
        ) {
            self.show_screen(Screen::Playing);
        }
    }

    /// Opens the level editor on the level being played (the same editor, with its view and
    /// history, when coming back from a test play). A file that does not parse cannot be
    /// edited: its problem stays on screen until it is fixed.
    fn open_editor(&mut self) {
        if !EditorScreen::AVAILABLE {
            // The browser's game page: the editor's page opens the same level link.
            super::web::open_editor_page();
            return;
        }
        if self.editor.is_none() {
            let file = &self.data.levels[self.level_index];
            let label = match (&self.watch, &self.shelf_level) {
                (Some(watch), _) => watch.path().display().to_string(),
                (None, Some(name)) => self.shelf.place_of(name),
                (None, None) => file.name.clone(),
            };
            // Read without the checks: a level with problems opens, and the editor shows them.
            let level = file
                .text
                .as_ref()
                .ok()
                .and_then(|text| RonError::parse::<LevelDef>(text, &label).ok());
            let Some(level) = level else {
                self.notice = Some((
                    "the file must parse before it can be edited: fix it and save, it reloads"
                        .into(),
                    NOTICE_SHOWN_S,
                ));
                return;
            };
            let Some(mut editor) = EditorScreen::open(level, label, Arc::clone(&self.data.tuning))
            else {
                return;
            };
            if !self.options.editor_script.is_empty() {
                editor.set_script(std::mem::take(&mut self.options.editor_script));
            }
            self.editor = Some(editor);
        }
        self.save_recording();
        self.attempt = None;
        self.show_screen(Screen::Editing);
    }

    /// One frame of the editor, and what it asks for.
    fn update_editor(&mut self, frame_s: f32) {
        if !matches!(self.screen, Screen::Editing) {
            return;
        }
        let Some(editor) = &mut self.editor else {
            return;
        };
        match editor.update(frame_s) {
            EditorOutcome::Stay => {}
            EditorOutcome::Leave => self.leave_editor(),
            EditorOutcome::Save { text } => {
                let title = editor.level_name();
                let saved = match self.shelf_level.clone() {
                    Some(name) => self.save_to_shelf(&name, &text, &title),
                    None => self.write_level_file(&text, &title),
                };
                match saved {
                    Ok(message) => {
                        let editor = self.editor.as_mut().expect("editing");
                        editor.mark_saved();
                        editor.say(message);
                    }
                    Err(problem) => {
                        let editor = self.editor.as_mut().expect("editing");
                        editor.say(format!("not saved: {problem} (the level is still here)"));
                    }
                }
            }
            EditorOutcome::TestPlay { level, from_cursor } => {
                let label = editor.file_label().to_owned();
                if let Err(err) =
                    World::from_level(*level.clone(), Arc::clone(&self.data.tuning), &label)
                {
                    let first = err
                        .to_string()
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    editor.say(format!("cannot test: {first}"));
                    return;
                }
                self.testing_from_cursor = from_cursor;
                self.data.levels[self.level_index].text = Ok(crate::editor::to_ron(&level));
                self.load_level(self.level_index);
            }
        }
    }

    /// Writes the level's `text` to its file (atomically), the first time keeping the file as
    /// it was as FILE.bak (the editor's text has no comments). Returns what to tell the author.
    fn write_level_file(&mut self, text: &str, title: &str) -> Result<String, String> {
        let Some(path) = self.watch.as_ref().map(|w| w.path().to_path_buf()) else {
            return Err("this level has no file (saving in the browser is not built yet)".into());
        };
        let mut backup_name = path.file_name().unwrap_or_default().to_os_string();
        backup_name.push(".bak");
        let backup = path.with_file_name(backup_name);
        let mut said = format!("saved {}", path.display());
        if !self.backup_written && path.is_file() {
            std::fs::copy(&path, &backup).map_err(|err| {
                format!("cannot keep the old file as {}: {err}", backup.display())
            })?;
            self.backup_written = true;
        }
        if self.backup_written {
            said += &format!(
                " (comments are not kept: the file as it was is {})",
                backup.display()
            );
        }
        super::storage::write_atomically(&path, text.as_bytes())
            .map_err(|err| format!("{}: {err}", path.display()))?;
        if let Some(watch) = &mut self.watch {
            watch.note_written(text);
        }
        let file = &mut self.data.levels[self.level_index];
        file.text = Ok(text.to_owned());
        file.title = title.to_owned();
        Ok(said)
    }

    /// Keeps the test play that just reached the goal as the level's solution replay, saving
    /// the level as it was played too, so the file and its proof agree.
    fn save_solution(&mut self) {
        let Some(run) = self.finished_run.take() else {
            return;
        };
        let Some(path) = self.watch.as_ref().map(|w| w.path().to_path_buf()) else {
            return;
        };
        let played = self.data.levels[self.level_index]
            .text
            .clone()
            .unwrap_or_default();
        let title = self.data.levels[self.level_index].title.clone();
        let on_disk =
            crate::files::read_text_bounded(&path, crate::sim::limits::MAX_LEVEL_FILE_BYTES).ok();
        let mut result = if on_disk.as_deref() == Some(played.as_str()) {
            Ok(String::new())
        } else {
            self.write_level_file(&played, &title)
                .map(|said| format!("{said}; "))
        };
        let solution = super::assets::solution_path_of(&path);
        if let Ok(said) = &result {
            result = super::storage::write_atomically(&solution, run.to_ron().as_bytes())
                .map(|()| {
                    format!(
                        "{said}the run ({} ticks) is the level's solution: {}",
                        run.tick_count(),
                        solution.display()
                    )
                })
                .map_err(|err| format!("{}: {err}", solution.display()));
        }
        if let Some(editor) = &mut self.editor {
            match result {
                Ok(message) => {
                    if on_disk.as_deref() != Some(played.as_str()) {
                        editor.mark_saved();
                    }
                    editor.say(message);
                }
                Err(problem) => editor.say(format!("solution not saved: {problem}")),
            }
        }
        self.show_screen(Screen::Editing);
    }

    /// Whether finishing the level now counts for the player's progress: live play, or the
    /// walk-through test's autoplay (never a replay being watched).
    fn records_progress(&self) -> bool {
        self.options.replay.is_none()
            && self.shelf_level.is_none()
            && (self.playback.is_none() || self.options.autoplay)
    }

    /// The ghost for level `index` as the settings ask: the player's best run or the author's.
    fn make_ghost(&mut self, index: usize, start: &World) -> Option<Ghost> {
        // One of "My levels" has no best run kept (its runs are not campaign progress).
        if self.options.replay.is_some() || self.shelf_level.is_some() {
            return None;
        }
        let file = &self.data.levels[index];
        match self.settings.comfort.ghost {
            GhostMode::Off => None,
            GhostMode::Author => file
                .solution
                .as_ref()
                .map(|run| Ghost::new(start, run, "author")),
            GhostMode::BestRun => {
                let name = file.name.clone();
                if !self.best_runs.contains_key(&name) {
                    let recorded = self.progress.record(&name).and_then(|r| r.best_ticks);
                    let loaded = self.progress_store.load_ghost(&name);
                    let run = super::ghost::kept_best_run(loaded, start, recorded);
                    self.best_runs.insert(name.clone(), run);
                }
                self.best_runs[&name]
                    .as_ref()
                    .map(|run| Ghost::new(start, run, "best"))
            }
        }
    }

    /// Changes screen and logs it (the walk-through test follows the screens in the log).
    fn show_screen(&mut self, screen: Screen) {
        let line = match &screen {
            Screen::Title { .. } => Some("title".to_owned()),
            Screen::LevelSelect(_) => Some("level select".to_owned()),
            Screen::Editing => Some("editor".to_owned()),
            Screen::MyLevels(_) => Some("my levels".to_owned()),
            Screen::LevelError(message) => Some(format!(
                "level error: {}",
                message.lines().next().unwrap_or_default()
            )),
            Screen::Playing => {
                let file = &self.data.levels[self.level_index];
                // A linked level has no file: its title says which level the link held.
                Some(match &self.options.linked_level {
                    Some(_) => format!("playing {}: {}", file.name, file.title),
                    None => format!("playing {}", file.name),
                })
            }
            Screen::Complete { ticks, report, .. } => Some(format!(
                "complete {} ticks={ticks} medal={}",
                self.data.levels[self.level_index].name,
                report
                    .as_ref()
                    .and_then(|r| r.medal)
                    .map_or("none", |m| m.name())
            )),
            _ => None,
        };
        if let Some(line) = line {
            super::log_line(&format!("screen: {line}"));
        }
        self.screen = screen;
    }

    /// Records a finish in the progress, keeps the run as the best-run ghost when it is the
    /// fastest, and saves both. Problems become a notice; play goes on.
    fn record_finish(&mut self, ticks: u64) -> Option<FinishReport> {
        let attempt = self.attempt.take()?;
        let file = &self.data.levels[self.level_index];
        let counted = !attempt.assists.invincible;
        let report = self.progress.record_finish(
            &file.name,
            ticks,
            &self.splits,
            counted,
            file.author_ticks,
        );
        let name = file.name.clone();
        if !self.progress_may_save {
            return Some(report);
        }
        if let Err(problem) = self.progress_store.save(&self.progress) {
            self.notice = Some((format!("progress not saved: {problem}"), NOTICE_SHOWN_S));
        }
        if report.new_best {
            let run = attempt.without_unread_aims();
            if let Err(problem) = self.progress_store.save_ghost(&name, &run) {
                self.notice = Some((format!("best run not saved: {problem}"), NOTICE_SHOWN_S));
            }
            self.best_runs.insert(name, Some(run));
        }
        Some(report)
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
            self.poll_level_file(frame_s);
            self.handle_actions();
            self.update_editor(frame_s);
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
        if matches!(self.screen, Screen::Editing) {
            // The editor reads the mouse and keys itself (`update_editor`).
            return;
        }
        let editable_screen = matches!(
            self.screen,
            Screen::Playing
                | Screen::Paused { .. }
                | Screen::Complete { .. }
                | Screen::LevelError(_)
        );
        let editable_level = self.options.level_file.is_some()
            || self.options.linked_level.is_some()
            || self.shelf_level.is_some();
        if editable_level && editable_screen && editor_key_pressed() {
            self.open_editor();
            return;
        }
        let mut scripted = self.actions;
        self.apply_menu_script(&mut scripted);
        self.actions = scripted;
        if let Some(device) = Action::ALL
            .iter()
            .find_map(|&action| self.actions.pressed_by(action))
        {
            self.last_device = device;
        }
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
        let complete_items = self.complete_items();
        match &mut self.screen {
            Screen::Title { selected } => {
                let items = menus::title_items();
                if menus::navigate(&actions, selected, items.len()) {
                    let item = items[*selected];
                    self.choose_title_item(item);
                }
                return;
            }
            Screen::MyLevels(_) => {
                self.update_my_levels(&actions);
                return;
            }
            Screen::LevelSelect(select) => {
                match select.update(&actions, &self.data, &self.progress) {
                    SelectOutcome::Stay => {}
                    SelectOutcome::Play(index) => self.load_level(index),
                    SelectOutcome::Back => self.show_screen(Screen::Title { selected: 1 }),
                }
                return;
            }
            Screen::Paused { selected } => {
                let confirmed = menus::navigate(&actions, selected, PAUSE_ITEMS.len());
                let chosen = PAUSE_ITEMS[*selected];
                if actions.pressed(Action::MenuBack) {
                    self.resume();
                } else if confirmed {
                    self.choose_pause_item(chosen);
                }
                return;
            }
            Screen::Complete {
                selected, report, ..
            } if report.is_some() => {
                let items = complete_items;
                let confirmed = menus::navigate(&actions, selected, items.len());
                let chosen = items[(*selected).min(items.len() - 1)];
                if confirmed {
                    match chosen {
                        CompleteItem::Next => self.load_level(self.level_index + 1),
                        CompleteItem::Retry => self.load_level(self.level_index),
                        CompleteItem::LevelSelect => self.open_level_select(),
                        CompleteItem::SaveSolution => self.save_solution(),
                        CompleteItem::BackToEditor => self.open_editor(),
                        CompleteItem::MyLevels => {
                            let name = self.shelf_level.clone();
                            self.open_my_levels(name.as_deref());
                        }
                    }
                } else if actions.pressed(Action::Restart) {
                    self.load_level(self.level_index);
                } else if actions.pressed(Action::MenuBack) {
                    self.open_level_select();
                }
                return;
            }
            // Losing focus or the gamepad pauses play (not a replay being watched or recorded
            // to a screenshot).
            Screen::Playing if actions.pauses_play(focus_lost, self.playback.is_some()) => {
                self.show_screen(Screen::Paused { selected: 0 });
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

    fn choose_title_item(&mut self, item: TitleItem) {
        match item {
            TitleItem::Play => self.load_level(menus::next_to_play(&self.data, &self.progress)),
            TitleItem::LevelSelect => self.open_level_select(),
            TitleItem::Ghost => self.cycle_ghost_mode(),
            TitleItem::Controls => self.open_settings(
                SettingsFrom::Title,
                Screen::Controls(ControlsScreen::default()),
            ),
            TitleItem::Assists => self.open_settings(
                SettingsFrom::Title,
                Screen::Assists(AssistsScreen::default()),
            ),
            TitleItem::MyLevels => self.open_my_levels(None),
            TitleItem::Quit => self.quit = true,
        }
    }

    /// Whether this pause item leads back to "My levels" (one of them is being played: its list
    /// is where it came from, in place of the level select and the title).
    fn pause_item_goes_to_my_levels(&self, item: PauseItem) -> bool {
        EditorScreen::AVAILABLE
            && self.shelf_level.is_some()
            && matches!(item, PauseItem::LevelSelect | PauseItem::Quit)
    }

    fn choose_pause_item(&mut self, item: PauseItem) {
        if self.pause_item_goes_to_my_levels(item) {
            let name = self.shelf_level.clone();
            self.open_my_levels(name.as_deref());
            return;
        }
        match item {
            PauseItem::Resume => self.resume(),
            PauseItem::Restart => self.load_level(self.level_index),
            PauseItem::LevelSelect => self.open_level_select(),
            PauseItem::Ghost => {
                self.cycle_ghost_mode();
                // The new ghost starts with the next attempt; this one keeps its own.
            }
            PauseItem::Controls => self.open_settings(
                SettingsFrom::Pause,
                Screen::Controls(ControlsScreen::default()),
            ),
            PauseItem::Assists => self.open_settings(
                SettingsFrom::Pause,
                Screen::Assists(AssistsScreen::default()),
            ),
            PauseItem::Quit => {
                self.leave_level();
                self.show_screen(Screen::Title { selected: 0 });
            }
        }
    }

    /// Opens the controls or assists screen, which returns to the menu it came `from`.
    fn open_settings(&mut self, from: SettingsFrom, screen: Screen) {
        self.settings_from = from;
        self.screen = screen;
    }

    /// Ends the level being played for a menu: the recording is written, the attempt dropped.
    fn leave_level(&mut self) {
        self.save_recording();
        self.world = None;
        self.ghost = None;
        self.attempt = None;
    }

    fn cycle_ghost_mode(&mut self) {
        self.settings.comfort.ghost = self.settings.comfort.ghost.next();
        if let Err(problem) = self.settings_store.save(&self.settings) {
            super::log_line(&format!("settings: {problem}"));
        }
    }

    fn open_level_select(&mut self) {
        self.leave_level();
        self.show_screen(Screen::LevelSelect(LevelSelect::at(self.level_index)));
    }

    fn title_item_text(&self, item: TitleItem) -> String {
        match item {
            TitleItem::Play if self.progress.levels.is_empty() => "Play".into(),
            TitleItem::Play => format!(
                "Continue: {}",
                menus::level_label(&self.data, menus::next_to_play(&self.data, &self.progress))
            ),
            TitleItem::LevelSelect => "Level select".into(),
            TitleItem::Ghost => format!("Ghost: {}", self.settings.comfort.ghost.label()),
            TitleItem::Controls => "Controls".into(),
            TitleItem::Assists => "Assists".into(),
            TitleItem::MyLevels => "My levels (level editor)".into(),
            TitleItem::Quit => "Quit".into(),
        }
    }

    fn pause_item_text(&self, item: PauseItem) -> String {
        match item {
            PauseItem::Resume => "Resume".into(),
            PauseItem::Restart => "Restart".into(),
            _ if self.pause_item_goes_to_my_levels(item) => "My levels".into(),
            PauseItem::LevelSelect => "Level select".into(),
            PauseItem::Ghost => format!("Ghost: {}", self.settings.comfort.ghost.label()),
            PauseItem::Controls => "Controls".into(),
            PauseItem::Assists => "Assists".into(),
            PauseItem::Quit => "Quit to title".into(),
        }
    }

    /// The notice to show now, if any.
    fn notice_text(&self) -> Option<&str> {
        self.notice
            .as_ref()
            .filter(|(_, left_s)| *left_s > 0.0)
            .map(|(text, _)| text.as_str())
    }

    fn complete_items(&self) -> Vec<CompleteItem> {
        let mut items = Vec::new();
        if self.shelf_level.is_some() && self.editor.is_none() {
            return self.shelf_complete_items();
        }
        if self.editor.is_some() {
            // A run is kept as the solution beside a level file (its proof in CI); "My levels"
            // keep no solutions.
            if self.finished_run.is_some() && self.watch.is_some() {
                items.push(CompleteItem::SaveSolution);
            }
            items.push(CompleteItem::Retry);
            items.push(CompleteItem::BackToEditor);
            return items;
        }
        if self.level_index + 1 < self.data.levels.len() {
            items.push(CompleteItem::Next);
        }
        items.push(CompleteItem::Retry);
        items.push(CompleteItem::LevelSelect);
        items
    }

    /// The next step of a menu script, pressed into this frame's actions.
    fn apply_menu_script(&mut self, actions: &mut ActionFrame) {
        // The script waits while a level is played (autoplay drives it) and moves on at the
        // screens around it.
        if matches!(self.screen, Screen::Playing) {
            return;
        }
        if self.script_wait > 0 {
            self.script_wait -= 1;
            return;
        }
        let Some(&action) = self.options.menu_script.get(self.script_step) else {
            return;
        };
        actions.press(action, DeviceKind::Keyboard);
        super::log_line(&format!("menu script: {action:?}"));
        self.script_step += 1;
        self.script_wait = MENU_SCRIPT_FRAMES_PER_STEP;
    }

    /// The controls and assists screens; true when one of them had this frame.
    fn handle_settings_screens(&mut self, actions: &ActionFrame, raw: &RawFrame) -> bool {
        let changed = match &mut self.screen {
            Screen::Controls(screen) => {
                match screen.update(actions, raw, &mut self.settings.bindings) {
                    ControlsOutcome::Stay => false,
                    ControlsOutcome::Changed => true,
                    ControlsOutcome::Back => {
                        self.return_from_settings(PauseItem::Controls, TitleItem::Controls);
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
                    self.return_from_settings(PauseItem::Assists, TitleItem::Assists);
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

    /// Back from the controls or assists screen to the menu it was opened from, on its item.
    fn return_from_settings(&mut self, pause_item: PauseItem, title_item: TitleItem) {
        self.screen = match self.settings_from {
            SettingsFrom::Pause => Screen::Paused {
                selected: PAUSE_ITEMS
                    .iter()
                    .position(|&i| i == pause_item)
                    .unwrap_or(0),
            },
            SettingsFrom::Title => Screen::Title {
                selected: menus::title_items()
                    .iter()
                    .position(|&i| i == title_item)
                    .unwrap_or(0),
            },
        };
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
        if let Some((_, left_s)) = &mut self.notice {
            *left_s -= frame_s;
        }
        if let Some((_, left_s)) = &mut self.split_shown {
            *left_s -= frame_s;
        }
        if let Screen::Complete {
            shown_s, report, ..
        } = &mut self.screen
        {
            *shown_s += frame_s;
            let (shown_s, player_chooses) = (*shown_s, report.is_some());
            if shown_s >= COMPLETE_SCREEN_S && !player_chooses && !self.exit_on_replay() {
                // Watching replays: on to the next level by itself.
                if self.level_index + 1 < self.data.levels.len() {
                    self.load_level(self.level_index + 1);
                } else {
                    self.show_screen(Screen::AllComplete);
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
        if let Some(ghost) = &mut self.ghost {
            ghost.tick();
        }
        if let Some(attempt) = &mut self.attempt {
            attempt.push(input);
        }
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
                Event::CheckpointReached { .. } => {
                    let Some(world) = &self.world else { continue };
                    let best = self
                        .progress
                        .record(&self.data.levels[self.level_index].name)
                        .map(|r| r.best_splits.clone())
                        .unwrap_or_default();
                    let split = split_delta(self.splits.len(), world.tick, &best);
                    self.splits.push(world.tick);
                    self.split_shown = Some((split, SPLIT_SHOWN_S));
                }
                Event::GoalReached { ticks } => {
                    let ticks = *ticks;
                    if self.editor.is_some() && !self.testing_from_cursor {
                        self.finished_run = self.attempt.clone();
                    }
                    self.save_recording();
                    let report = self.record_finish(ticks);
                    self.show_screen(Screen::Complete {
                        shown_s: 0.0,
                        ticks,
                        report,
                        selected: 0,
                    });
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
        if self.editor.as_ref().is_some_and(EditorScreen::has_script) {
            // Driven by an editor script: the picture is of the editor when the script ends.
            let done = self.editor.as_ref().is_some_and(EditorScreen::script_done);
            if !done || !matches!(self.screen, Screen::Editing) {
                return false;
            }
        } else if !self.options.menu_script.is_empty() {
            // Driven by a menu script: the picture is of where the script ends (a menu), or of
            // the level-complete screen it plays to.
            let script_done =
                self.script_step >= self.options.menu_script.len() && self.script_wait == 0;
            if !script_done || matches!(self.screen, Screen::Playing) {
                return false;
            }
        } else if !held && !inputs_done && matches!(self.screen, Screen::Playing) {
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
        match &self.screen {
            Screen::Title { selected } => {
                let items: Vec<String> = menus::title_items()
                    .iter()
                    .map(|item| self.title_item_text(*item))
                    .collect();
                menus::draw_title_menu(&items, *selected, self.notice_text());
                return;
            }
            Screen::LevelSelect(select) => {
                select.draw(&self.data, &self.progress);
                return;
            }
            Screen::Editing => {
                if let Some(editor) = &self.editor {
                    editor.draw(&mut self.art, macroquad::time::get_time());
                }
                return;
            }
            Screen::MyLevels(screen) => {
                screen.draw(&self.shelf.place_of("*"));
                return;
            }
            Screen::Controls(screen) if self.world.is_none() => {
                super::render::hud::draw_title_screen_backdrop();
                screen.draw(&self.settings.bindings);
                return;
            }
            Screen::Assists(screen) if self.world.is_none() => {
                super::render::hud::draw_title_screen_backdrop();
                screen.draw(&self.settings.assists, &self.settings.comfort);
                return;
            }
            _ => {}
        }
        let Some(world) = &self.world else {
            // Level files are a desktop feature: the browser build leaves their panel out.
            #[cfg(not(target_arch = "wasm32"))]
            if let Some(problem) = &self.level_problem {
                super::render::scene::clear();
                problem.draw(None, macroquad::time::get_time(), FIX_FILE_FOOTER, 0.0);
                return;
            }
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
            self.ghost.as_ref().map(|ghost| (ghost, alpha)),
        );
        let world_camera = self
            .camera
            .as_ref()
            .expect("set above")
            .to_camera2d_shaken(aspect);
        super::render::objects::sign::draw_texts(
            world,
            &world_camera,
            &self.settings.bindings,
            self.last_device,
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
        let file = &self.data.levels[self.level_index];
        let best = self.progress.record(&file.name).and_then(|r| r.best_ticks);
        let target = file.author_ticks.and_then(|author| {
            let medal = self.progress.record(&file.name).and_then(|r| r.medal);
            MedalTimes::from_author(author).next_goal(medal)
        });
        let hud_lines = hud_extras(best, target, self.split_shown.as_ref(), self.ghost.as_ref());
        draw_hud(
            &menus::level_label(&self.data, self.level_index),
            ticks,
            world.deaths,
            &hud_lines,
        );
        if let Some(notice) = self.notice_text() {
            super::render::hud::draw_centered(notice, 40.0, 20, palette::ERROR_TEXT);
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(problem) = &self.level_problem {
            problem.draw(
                Some(&world_camera),
                macroquad::time::get_time(),
                RELOAD_FOOTER,
                0.0,
            );
        }
        let assists = self.shown_assists();
        super::assists_screen::draw_assists_note(&assists);
        if self.playback.is_none() {
            self.touch.draw();
        }
        self.art
            .record_frame(macroquad::time::get_time() - build_started_s);
        match &self.screen {
            Screen::Paused { selected } => {
                let items: Vec<String> = PAUSE_ITEMS
                    .iter()
                    .map(|item| self.pause_item_text(*item))
                    .collect();
                draw_panel(
                    "Paused",
                    &menus::menu_lines(&items, *selected),
                    palette::TEXT,
                );
            }
            Screen::Complete {
                ticks,
                report,
                selected,
                ..
            } => {
                let mut lines = vec![(format!("time {}", format_time(*ticks)), true)];
                if assists.any() {
                    lines.push((format!("with assists: {}", assists.describe()), false));
                }
                match report {
                    Some(report) => {
                        lines.extend(complete_lines(report));
                        lines.push((String::new(), false));
                        let items: Vec<String> = self
                            .complete_items()
                            .iter()
                            .map(|item| match item {
                                CompleteItem::Next => "Next level".to_owned(),
                                CompleteItem::Retry => "Retry".to_owned(),
                                CompleteItem::LevelSelect => "Level select".to_owned(),
                                CompleteItem::SaveSolution => {
                                    "Save this run as the level's solution".to_owned()
                                }
                                CompleteItem::BackToEditor => "Back to the editor".to_owned(),
                                CompleteItem::MyLevels => "My levels".to_owned(),
                            })
                            .collect();
                        lines.extend(menus::menu_lines(&items, *selected));
                    }
                    None => lines.push((
                        if self.level_index + 1 < self.data.levels.len() {
                            "next level coming up"
                        } else {
                            "that was the last level"
                        }
                        .into(),
                        false,
                    )),
                }
                let title_color = report
                    .as_ref()
                    .and_then(|r| r.medal)
                    .map_or(palette::GOAL, menus::medal_color);
                draw_panel("Level complete", &lines, title_color);
            }
            Screen::AllComplete => draw_panel(
                "All levels complete",
                &[("N / P: pick a level   R: play this one again".into(), true)],
                palette::GOAL,
            ),
            Screen::Controls(screen) => screen.draw(&self.settings.bindings),
            Screen::Assists(screen) => screen.draw(&self.settings.assists, &self.settings.comfort),
            Screen::Playing
            | Screen::LevelError(_)
            | Screen::Title { .. }
            | Screen::LevelSelect(_)
            | Screen::Editing
            | Screen::MyLevels(_) => {}
        }
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

/// The level-complete screen's lines about the run: medal, new best, the difference to the best.
fn complete_lines(report: &FinishReport) -> Vec<(String, bool)> {
    let mut lines = Vec::new();
    if !report.counted {
        lines.push(("invincible runs set no time or medal".into(), false));
        return lines;
    }
    if let Some(medal) = report.medal {
        lines.push((format!("{} medal", medal.name()), true));
    }
    match (report.new_best, report.delta_to_best()) {
        (true, Some(delta)) => lines.push((format!("new best! {}", format_delta(delta)), true)),
        (true, None) => lines.push(("first finish".into(), false)),
        (false, Some(delta)) => {
            lines.push((format!("{} to your best", format_delta(delta)), false))
        }
        (false, None) => {}
    }
    lines
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

/// Tab or F2: from play of a level file to the editor (and, in the editor, back to play).
fn editor_key_pressed() -> bool {
    use macroquad::input::{is_key_pressed, KeyCode};
    is_key_pressed(KeyCode::Tab) || is_key_pressed(KeyCode::F2)
}
