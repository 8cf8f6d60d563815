//! What every screen shares: the game's data and how it was started, the player's settings and
//! progress, audio, input, drawing's art, the level in play, the automation.

use std::collections::HashMap;

use macroquad::input::mouse_position;
use macroquad::window::{screen_height, screen_width};

use crate::app::assets::{GameData, LevelFile};
use crate::app::audio::{AudioOut, VolumeChannel};
use crate::app::automation::Automation;
use crate::app::hot_reload::FileWatch;
use crate::app::input::devices::Devices;
use crate::app::input::touch::TouchControls;
use crate::app::input::{Action, ActionFrame, ActionMapper, DeviceKind, PlayInput, RawFrame};
use crate::app::launch::LaunchOptions;
use crate::app::level_problem::LevelProblem;
use crate::app::level_shelf::LevelShelf;
use crate::app::log_line;
use crate::app::progress_store::ProgressStore;
use crate::app::render::art::Art;
use crate::app::render::sim_vec;
use crate::app::screens::online_levels_cache::OnlineLevelCache;
use crate::app::screens::online_levels_client::ClientLevels;
use crate::app::screens::online_levels_fixture::FixtureLevels;
use crate::app::screens::online_levels_service::{LevelsOnline, NoService};
use crate::app::screens::publish_proof::ProofShelf;
use crate::app::session::Session;
use crate::app::settings::{InputSettings, InputSettingsStore};
use crate::campaign::Progress;
use crate::online::service::OnlineService;
use crate::platform::store::{Area, Store};
use crate::sim::Replay;

/// How long a notice (a save problem) stays on screen.
pub const NOTICE_SHOWN_S: f32 = 8.0;

/// The devices, read once a frame, and what they ask for.
pub struct Input {
    devices: Devices,
    mapper: ActionMapper,
    pub touch: TouchControls,
    /// Actions → one `InputFrame` per tick.
    pub play: PlayInput,
    /// This frame's actions (with a menu script's step pressed in).
    pub actions: ActionFrame,
    /// The characters typed this frame (`text_entry`: Backspace, Enter, Escape as `\u{8}`,
    /// `\n`, `\u{1b}`), with a menu script's text.
    pub typed: Vec<char>,
    /// This frame's raw device state (the controls screen binds from it).
    pub raw: RawFrame,
    /// Whether the window lost focus this frame (play pauses).
    pub focus_lost: bool,
    /// The device the player last pressed something on: signs name its controls.
    pub last_device: DeviceKind,
}

/// Finished levels, best times, medals, splits and best runs, and where they are kept.
pub struct Saves {
    pub progress: Progress,
    pub store: ProgressStore,
    /// False when an old save could not be read or kept aside: saving would lose it.
    pub may_save: bool,
    /// Best runs read from the store, by level file (read once a session; `None`: there is none).
    pub best_runs: HashMap<String, Option<Replay>>,
}

/// The level being played or edited, and where it comes from.
#[derive(Default)]
pub struct LevelPlace {
    /// Its position in `levels().levels`.
    pub index: usize,
    /// The level in play (none: it could not be built, or a menu is shown instead).
    pub session: Option<Session>,
    /// The level file named on the command line: reloaded on change.
    pub watch: Option<FileWatch>,
    /// Why the level file's latest text cannot be used (the last good version keeps running).
    pub problem: Option<LevelProblem>,
    /// Whether the previous level file was kept as FILE.bak this session (the first save only:
    /// later saves would replace the author's hand-written original with the editor's output).
    pub backup_written: bool,
    /// The name in the shelf of the level being played or edited (None: the campaign, a file).
    pub shelf_level: Option<String>,
    /// The hash of the online level being played (None: not one).
    pub online_level: Option<String>,
    /// One of "My levels" played on its own, in place of the campaign.
    pub alone: Option<GameData>,
    /// The last test play that reached the goal, offered as the level's solution.
    pub finished_run: Option<Replay>,
    /// Whether the level being played is the editor's test play from the cursor (a run that
    /// proves nothing about the level from its spawn).
    pub testing_from_cursor: bool,
    /// What to tell the editor when it is back on top (a solution saved from the complete
    /// screen), and whether the level was saved with it.
    pub editor_news: Option<(String, bool)>,
}

pub struct Ctx {
    pub data: GameData,
    pub options: LaunchOptions,
    pub audio: Box<dyn AudioOut>,
    pub input: Input,
    /// Bindings, assists and comfort, kept between runs.
    pub settings: InputSettings,
    settings_store: InputSettingsStore,
    pub saves: Saves,
    /// Textures, level meshes, animation and effects: what drawing keeps between frames.
    pub art: Art,
    /// A problem to show (a save that could not be used or written), and for how long more.
    pub notice: Option<(String, f32)>,
    /// The author's own levels ("My levels").
    pub shelf: LevelShelf,
    /// The finishing runs of "My levels" that Publish uploads.
    pub proofs: ProofShelf,
    /// The online levels service the Online levels screens poll (`levels_service`).
    pub levels_online: Box<dyn LevelsOnline>,
    /// Online levels played before, kept to play offline.
    pub online_cache: OnlineLevelCache,
    pub level: LevelPlace,
    pub auto: Automation,
    /// Whether an editor is on the stack (set by the stack).
    pub editor_open: bool,
    fullscreen: bool,
    /// Tether Online: the profile, the run queue, the attempt's run session.
    pub online: OnlineService,
    /// Seconds since the game started, summed from frames (the online queue's backoff clock).
    online_clock_s: f64,
    /// The last online state logged (the Xvfb script reads the log lines).
    online_logged: Option<String>,
    /// The ghost menu's online runs ("the record", "the run just ahead").
    pub world_ghosts: crate::app::screens::race_world::WorldGhosts,
}

impl Ctx {
    /// Reads the player's settings and progress (logging any problem with them).
    pub fn new(data: GameData, options: LaunchOptions, audio: Box<dyn AudioOut>) -> Ctx {
        let single_level = options.level_file.is_some() || options.linked_level.is_some();
        let settings_store = InputSettingsStore::platform_default();
        let loaded = settings_store.load();
        if let Some(problem) = &loaded.problem {
            log_line(&format!("settings: {problem}"));
        }
        // Watching a replay records nothing of the player's.
        let store = if options.replay.is_some() || single_level {
            ProgressStore::memory()
        } else {
            ProgressStore::platform_default()
        };
        let progress = store.load();
        let notice = progress.problem.as_ref().map(|problem| {
            log_line(&format!("progress: {problem}"));
            (problem.clone(), NOTICE_SHOWN_S)
        });
        // Watching a replay or playing a file on its own sends nothing and keeps nothing online.
        let online_store = if options.replay.is_some() || single_level {
            Store::memory()
        } else {
            Area::Main.store()
        };
        let (mut online, online_problem) =
            OnlineService::load(online_store, options.server.clone());
        if let Some(problem) = online_problem {
            log_line(&format!("online: {problem}"));
        }
        if let Some(name) = &options.online_name {
            if let Err(problem) = online.go_online(name) {
                log_line(&format!("online: {problem}"));
            }
        }
        let levels_online = levels_service(options.online_fixture, &online, &data);
        let mut play = PlayInput::default();
        play.strong_aim_assist = loaded.settings.assists.strong_aim_assist;
        Ctx {
            data,
            auto: Automation::new(&options),
            options,
            audio,
            input: Input {
                devices: Devices::default(),
                mapper: ActionMapper::default(),
                touch: TouchControls::default(),
                play,
                actions: ActionFrame::default(),
                typed: Vec::new(),
                raw: RawFrame::default(),
                focus_lost: false,
                last_device: DeviceKind::Keyboard,
            },
            settings: loaded.settings,
            settings_store,
            saves: Saves {
                progress: progress.progress,
                store,
                may_save: progress.may_save,
                best_runs: HashMap::new(),
            },
            art: Art::new(),
            notice,
            shelf: LevelShelf::platform_default(),
            proofs: ProofShelf::platform_default(),
            levels_online,
            online_cache: OnlineLevelCache::platform_default(),
            level: LevelPlace::default(),
            editor_open: false,
            fullscreen: false,
            online,
            online_clock_s: 0.0,
            online_logged: None,
            world_ghosts: Default::default(),
        }
    }

    /// Polls the devices and maps them to this frame's actions (touches included).
    pub fn poll_devices(&mut self) {
        let input = &mut self.input;
        input.raw = input.devices.poll();
        input.actions = input.mapper.map(&self.settings.bindings, &input.raw);
        input.touch.apply(
            &input.raw.touches,
            screen_width(),
            screen_height(),
            &mut input.actions,
        );
    }

    /// The frame's actions as menus and play read them: a menu script's step pressed in, the
    /// device last used noted, play's input latched, and (unless the screen takes the next
    /// press for itself) mute, volume and fullscreen acted on.
    /// `holds_script`: play is on top, or a screen waiting for Tether Online (the script waits).
    pub fn read_actions(&mut self, holds_script: bool, global_keys: bool) {
        self.input.typed = crate::app::screens::text_entry::read_typed_keys();
        // A script waits while a name is with the server, as a player would.
        let busy = holds_script || self.online.name_pending();
        self.auto
            .press_menu_script(&mut self.input.actions, &mut self.input.typed, busy);
        if let Some(device) = Action::ALL
            .iter()
            .find_map(|&action| self.input.actions.pressed_by(action))
        {
            self.input.last_device = device;
        }
        let pointer = self.pointer_world();
        let actions = self.input.actions;
        self.input.play.on_frame(&actions, pointer);
        if global_keys {
            self.handle_global_actions(&actions);
        }
        self.input.focus_lost = self.input.devices.take_focus_lost();
    }

    /// The pointer (the mouse, or the last touch on the world) in world coordinates (aiming
    /// uses the unshaken camera).
    fn pointer_world(&self) -> Option<crate::sim::math::Vec2> {
        let camera = &self.level.session.as_ref()?.camera;
        let cam = camera.to_camera2d(screen_width() / screen_height().max(1.0));
        let touch = &self.input.touch;
        let (mx, my) = match (touch.active, touch.pointer()) {
            (true, Some(point)) => point,
            (true, None) => return None,
            (false, _) => mouse_position(),
        };
        Some(sim_vec(cam.screen_to_world(macroquad::math::vec2(mx, my))))
    }

    /// Actions read on every screen: mute, volumes, fullscreen.
    fn handle_global_actions(&mut self, actions: &ActionFrame) {
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

    /// Counts down what is shown for a while (a notice, a split).
    pub fn on_frame(&mut self, frame_s: f32) {
        if let Some((_, left_s)) = &mut self.notice {
            *left_s -= frame_s;
        }
        if let Some(session) = &mut self.level.session {
            session.on_frame(frame_s);
        }
        self.online_clock_s += f64::from(frame_s);
        self.online.update(self.online_clock_s);
        self.poll_world_ghost();
        let status = self.online.status_line();
        if status != self.online_logged {
            if let Some(line) = &status {
                log_line(line);
            }
            self.online_logged = status;
        }
    }

    /// Whether Tether Online is still busy with the name or the last run (for at most a
    /// minute of play: a server that stays away does not hold a screenshot forever).
    pub fn online_settling(&self) -> bool {
        const MAX_SETTLING_S: f64 = 60.0;
        self.online_clock_s < MAX_SETTLING_S && self.online.is_settling()
    }

    /// Shows a problem for a while.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.notice = Some((text.into(), NOTICE_SHOWN_S));
    }

    /// The notice to show now, if any.
    pub fn notice_text(&self) -> Option<&str> {
        self.notice
            .as_ref()
            .filter(|(_, left_s)| *left_s > 0.0)
            .map(|(text, _)| text.as_str())
    }

    /// Keeps the settings (a problem is logged: play goes on with them).
    pub fn save_settings(&mut self) {
        if let Err(problem) = self.settings_store.save(&self.settings) {
            log_line(&format!("settings: {problem}"));
        }
    }

    pub fn cycle_ghost_mode(&mut self) {
        self.settings.comfort.ghost = self.settings.comfort.ghost.next();
        self.save_settings();
    }

    /// The assists of what is on screen: a replay's own, or the player's.
    pub fn shown_assists(&self) -> crate::sim::Assists {
        match &self.options.replay {
            Some(replay) => replay.assists,
            None => self.settings.assists,
        }
    }

    /// The level file (or link, or one of "My levels") can be opened in the editor.
    pub fn level_is_editable(&self) -> bool {
        self.options.level_file.is_some()
            || self.options.linked_level.is_some()
            || self.level.shelf_level.is_some()
    }

    /// The levels played: the campaign (or the level file, or link, given on its own), or one
    /// of "My levels" on its own.
    pub fn levels(&self) -> &GameData {
        self.level.alone.as_ref().unwrap_or(&self.data)
    }

    pub fn levels_mut(&mut self) -> &mut GameData {
        self.level.alone.as_mut().unwrap_or(&mut self.data)
    }

    /// The level file being played.
    pub fn level_file(&self) -> &LevelFile {
        &self.levels().levels[self.level.index]
    }

    pub fn level_file_mut(&mut self) -> &mut LevelFile {
        let index = self.level.index;
        &mut self.levels_mut().levels[index]
    }
}

/// The Online levels screens' service: the sample levels (`--online-fixture`), the server of
/// the online profile (writes signed with its key), or none while online is off.
pub fn levels_service(
    fixture: bool,
    online: &OnlineService,
    data: &GameData,
) -> Box<dyn LevelsOnline> {
    // The browser has no `--online-fixture`: without this the sample levels ship in its download.
    if crate::online::BUILT && fixture && cfg!(not(target_arch = "wasm32")) {
        return Box::new(FixtureLevels::from_campaign(data));
    }
    if !crate::online::BUILT || !online.profile.enabled {
        return Box::new(NoService::new(
            "online is off: turn it on in the title's Online settings",
        ));
    }
    let client = crate::online::OnlineClient::new(&online.profile.server_url());
    Box::new(ClientLevels::new(client, online.identity()))
}

impl Ctx {
    /// The Online levels service again, as the online profile now stands (a name chosen, the
    /// server changed): the screens call it as they open.
    pub fn refresh_levels_online(&mut self) {
        self.levels_online = levels_service(self.options.online_fixture, &self.online, &self.data);
    }
}
