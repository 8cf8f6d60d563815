//! How the game was started: the command line on the desktop, the URL query in the browser.

use std::path::PathBuf;

use super::input::Action;
use crate::sim::Replay;

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
    pub menu_script: Vec<MenuStep>,
    /// Levels started from the menus play their solution replay (with `menu_script`: a whole
    /// walk from the title to a finished level without a person).
    pub autoplay: bool,
    /// Ticks of no input autoplay plays before a solution (`--autoplay-idle-ticks N`, the
    /// browser's `autoplay_idle=N`): the same path finished that much later, so the online
    /// tests' second player is slower in ticks, not only second to submit.
    pub autoplay_idle_ticks: u32,
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
    pub linked_level: Option<Result<String, super::error::DataError>>,
    /// Start at "My levels" (the browser's editor page, `?edit`).
    pub my_levels: bool,
    /// A level link opened on the editor page: its text, opened in the editor as a new level of
    /// "My levels" (kept when the author saves it).
    pub edit_linked: Option<String>,
    /// `--online-fixture`: the Online levels screens run on sample levels in memory, not the
    /// service.
    pub online_fixture: bool,
    /// An online level link (`#online=<hash>`, `--online LINK`): the level's hash, or why the
    /// link names none. The game opens on it.
    pub online_link: Option<Result<String, crate::editor::online_link::OnlineLinkError>>,
    /// Tether Online's address (`--server URL`), in place of the profile's.
    pub server: Option<String>,
    /// Go online under this name (`--online-name NAME`): the key is made and registered if
    /// need be.
    pub online_name: Option<String>,
}

impl LaunchOptions {
    /// The run autoplay plays on a level with this solution: `autoplay_idle_ticks` of no input,
    /// then the solution's inputs.
    pub fn autoplay_run(&self, solution: &Replay) -> Replay {
        let mut run = solution.clone();
        if self.autoplay_idle_ticks > 0 {
            run.runs.insert(
                0,
                (self.autoplay_idle_ticks, crate::sim::InputFrame::default()),
            );
        }
        run
    }
}

/// One step of a menu script (`--menu-script`, the browser's `menu=`): a menu action pressed
/// as by the keyboard, `Pad:ACTION` the same pressed as by a gamepad (what a screen shows a
/// gamepad player, such as the name entry's character picker), or `Type:TEXT`, text typed into
/// the screen's text entry followed by Enter (a name, a recovery code): what lets a script fill
/// in the name-entry screen like a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuStep {
    Press(Action),
    PadPress(Action),
    Type(String),
}

impl MenuStep {
    /// `MenuDown` (an action's name), `Pad:MenuDown` or `Type:Ada`; `None` when it is none of
    /// them.
    pub fn parse(step: &str) -> Option<MenuStep> {
        let step = step.trim();
        let action = |name: &str| ron::from_str::<Action>(name).ok();
        if let Some(text) = step.strip_prefix("Type:") {
            Some(MenuStep::Type(text.to_owned()))
        } else if let Some(name) = step.strip_prefix("Pad:") {
            action(name).map(MenuStep::PadPress)
        } else {
            action(step).map(MenuStep::Press)
        }
    }
}

impl PartialEq<Action> for MenuStep {
    fn eq(&self, action: &Action) -> bool {
        *self == MenuStep::Press(*action)
    }
}
