//! The screens, on a stack. Each screen is a file here implementing `Screen`: `update` reads
//! the frame's actions and returns a `Transition` (stay, push a screen over it, pop back to the
//! one under it, replace it, quit), `draw` draws it. A menu over play (pause, level complete,
//! the settings opened from pause) is pushed over it and drawn over it; test play is play
//! pushed over the editor, and leaving it pops back to the editor as it was. What every screen
//! needs (game data, settings, progress, audio, input, art, the level in play) is the `Ctx`
//! passed to both. The models: zemeroth's `src/screen/mod.rs` (`Transition::{Push, Pop}`) and
//! doukutsu-rs's `src/scene/` (the next scene swapped in after the tick).
//!
//! Adding a screen: its file here, implementing `Screen`, and its `mod` line below.

pub mod assists;
pub mod complete;
pub mod context;
pub mod controls;
pub mod editor;
pub mod level;
pub mod level_error;
pub mod level_files;
pub mod level_keys;
pub mod level_select;
pub mod my_levels;
pub mod online_board;
pub mod online_levels;
pub mod online_levels_cache;
pub mod online_levels_client;
pub mod online_levels_fixture;
pub mod online_levels_list;
pub mod online_levels_service;
pub mod online_name;
pub mod online_panel;
pub mod online_recovery;
pub mod online_settings;
pub mod pause;
pub mod play;
pub mod publish;
pub mod publish_proof;
pub mod race_world;
pub mod rate;
pub mod text_entry;
pub mod title;

pub use context::Ctx;

/// What a screen is, where a transition looks for one under the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A menu or a panel.
    Menu,
    /// The level in play.
    Play,
    /// Why the level cannot be played (in its place).
    LevelError,
    /// The level editor.
    Editor,
}

impl Kind {
    /// Play, or what shows in its place when the level cannot be built.
    pub fn is_level(self) -> bool {
        matches!(self, Kind::Play | Kind::LevelError)
    }
}

/// What a screen asks for after its frame.
pub enum Transition {
    Stay,
    /// Another screen over this one (a menu over play, play over the editor).
    Push(Box<dyn Screen>),
    /// Back to the screen underneath.
    Pop,
    /// Back down to the nearest screen of this kind (a test play's menus back to the editor).
    PopTo(Kind),
    /// This screen gives way to another.
    Replace(Box<dyn Screen>),
    /// The nearest screen of this kind and all over it give way to another (restarting the
    /// level from its pause menu, the next level from the complete screen).
    ReplaceFrom(Kind, Box<dyn Screen>),
    /// Every screen gives way to these, bottom first (leaving play for a menu).
    Reset(Vec<Box<dyn Screen>>),
    Quit,
}

pub trait Screen {
    /// One frame: the actions are in `ctx.input`.
    fn update(&mut self, ctx: &mut Ctx, frame_s: f32) -> Transition;

    /// Draws the screen; `on_top` is false when a menu pushed over it is drawn over it.
    fn draw(&self, ctx: &mut Ctx, on_top: bool);

    fn kind(&self) -> Kind {
        Kind::Menu
    }

    /// A menu drawn over the screen it was pushed on (which is drawn first).
    fn is_overlay(&self) -> bool {
        false
    }

    /// What the `screen:` log line calls it (none: not logged).
    fn name(&self, _ctx: &Ctx) -> Option<String> {
        None
    }

    /// Whether the screen reads the keys and mouse itself (the editor): the menu actions and
    /// global keys are left alone.
    fn reads_devices_itself(&self) -> bool {
        false
    }

    /// Whether the next key press is the screen's alone (a control being bound): the global
    /// keys (mute, volume, fullscreen) do not act on it.
    fn wants_next_press(&self) -> bool {
        false
    }

    /// The level file changed on disk and was rebuilt (`ctx.level` has the new world); the
    /// top screen's answer is acted on.
    fn level_reloaded(&mut self, _ctx: &mut Ctx, _level: &crate::sim::LevelDef) -> Transition {
        Transition::Stay
    }

    /// Whether the screen is still waiting for an answer from Tether Online (a board loading):
    /// a menu script waits for it as a player would, instead of pressing on after a fixed
    /// number of frames that a slow server outlasts.
    fn awaits_online(&self) -> bool {
        false
    }

    /// The screen is back on top: the one pushed over it popped.
    fn returned(&mut self, _ctx: &mut Ctx) {}

    /// An editor driven by a script: whether its script is done (the screenshot waits for it).
    fn editor_script_done(&self) -> Option<bool> {
        None
    }
}

/// The screens, bottom first; the top one is updated.
pub struct Stack {
    screens: Vec<Box<dyn Screen>>,
}

impl Transition {
    /// Every screen gives way to this one.
    pub fn reset(screen: Box<dyn Screen>) -> Transition {
        Transition::Reset(vec![screen])
    }
}

impl Stack {
    pub fn new(ctx: &mut Ctx, first: Box<dyn Screen>) -> Stack {
        let mut stack = Stack {
            screens: Vec::new(),
        };
        stack.open(ctx, first);
        stack
    }

    pub fn top(&self) -> &dyn Screen {
        self.screens
            .last()
            .expect("the stack is never empty")
            .as_ref()
    }

    fn top_mut(&mut self) -> &mut Box<dyn Screen> {
        self.screens.last_mut().expect("the stack is never empty")
    }

    /// Runs the top screen's frame and acts on its answer. Returns false when the game quits.
    pub fn update(&mut self, ctx: &mut Ctx, frame_s: f32) -> bool {
        let transition = self.top_mut().update(ctx, frame_s);
        self.apply(ctx, transition)
    }

    /// Tells every screen, top first, that the level file was rebuilt; acts on the top's answer.
    pub fn level_reloaded(&mut self, ctx: &mut Ctx, level: &crate::sim::LevelDef) -> bool {
        let mut answer = Transition::Stay;
        for (depth, screen) in self.screens.iter_mut().rev().enumerate() {
            let said = screen.level_reloaded(ctx, level);
            if depth == 0 {
                answer = said;
            }
        }
        self.apply(ctx, answer)
    }

    /// Acts on a transition. Returns false when the game quits.
    pub fn apply(&mut self, ctx: &mut Ctx, transition: Transition) -> bool {
        match transition {
            Transition::Stay => {}
            Transition::Push(screen) => self.open(ctx, screen),
            Transition::Pop => {
                if self.screens.len() > 1 {
                    self.screens.pop();
                }
                self.returned(ctx);
            }
            Transition::PopTo(kind) => {
                while self.screens.len() > 1 && self.top().kind() != kind {
                    self.screens.pop();
                }
                self.returned(ctx);
            }
            Transition::Replace(screen) => {
                self.screens.pop();
                self.open(ctx, screen);
            }
            Transition::ReplaceFrom(kind, screen) => {
                let from = self
                    .screens
                    .iter()
                    .rposition(|s| s.kind() == kind || (kind.is_level() && s.kind().is_level()))
                    .unwrap_or(0);
                self.screens.truncate(from);
                self.open(ctx, screen);
            }
            Transition::Reset(screens) => {
                self.screens = screens;
                self.after_change(ctx, true);
            }
            Transition::Quit => return false,
        }
        true
    }

    fn open(&mut self, ctx: &mut Ctx, screen: Box<dyn Screen>) {
        self.screens.push(screen);
        self.after_change(ctx, true);
    }

    fn returned(&mut self, ctx: &mut Ctx) {
        self.top_mut().returned(ctx);
        self.after_change(ctx, false);
    }

    fn after_change(&mut self, ctx: &mut Ctx, opened: bool) {
        ctx.editor_open = self.screens.iter().any(|s| s.kind() == Kind::Editor);
        let name = self.top().name(ctx);
        ctx.auto.screen_shown(name, opened);
    }

    /// Draws the top screen, over the screen it was pushed on when it is a menu drawn so.
    pub fn draw(&self, ctx: &mut Ctx) {
        let top = self.screens.len() - 1;
        if self.screens[top].is_overlay() {
            if let Some(under) = self.screens[..top].iter().rev().find(|s| !s.is_overlay()) {
                under.draw(ctx, false);
            }
        }
        self.screens[top].draw(ctx, true);
    }

    /// The editor's script, if an open editor has one: whether it is done.
    pub fn editor_script_done(&self) -> Option<bool> {
        self.screens.iter().find_map(|s| s.editor_script_done())
    }
}
