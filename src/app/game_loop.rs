//! The frame loop: each frame the level file is watched, the devices read, the top screen of
//! the stack updated (play runs the fixed simulation ticks it owes), the stack drawn, and the
//! automation asked whether a screenshot is due or a watched replay has ended.

use macroquad::time::get_frame_time;
use macroquad::window::next_frame;

use super::assets::GameData;
use super::audio::AudioOut;
use super::automation::{Automation, ShotMoment};
use super::error::DataError;
use super::frame_clock::MAX_FRAME_TIME_S;
use super::level_shelf::linked_title;
use super::log_line;
use super::screens::editor::EditingScreen;
use super::screens::level_error::LevelErrorScreen;
use super::screens::online_levels::OnlineLevelsScreen;
use super::screens::title::TitleScreen;
use super::screens::{Ctx, Kind, Stack, Transition};

pub use super::launch::LaunchOptions;

pub struct Game {
    ctx: Ctx,
    stack: Stack,
    /// Quit before the first frame (an automated run that cannot start).
    quit: bool,
}

/// The first level to play, or why the replay given cannot be watched.
fn start_level(data: &GameData, options: &LaunchOptions) -> Result<usize, DataError> {
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
    match (&options.replay, start) {
        (Some(replay), None) => Err(DataError::ReplayNotListed {
            level: replay.level.clone(),
        }),
        _ => Ok(start.unwrap_or(0)),
    }
}

impl Game {
    pub fn new(data: GameData, options: LaunchOptions, audio: Box<dyn AudioOut>) -> Game {
        let start = start_level(&data, &options);
        let watch = options.level_file.as_ref().and_then(|path| {
            let text = data
                .levels
                .first()
                .and_then(|level| level.text.clone().ok());
            super::hot_reload::FileWatch::watch(path, text)
        });
        let mut ctx = Ctx::new(data, options, audio);
        ctx.level.index = *start.as_ref().unwrap_or(&0);
        ctx.level.watch = watch;
        // The browser test reads this after a reload to see that progress was kept.
        log_line(&format!(
            "progress: {} levels finished",
            ctx.saves
                .progress
                .levels
                .values()
                .filter(|r| r.finished)
                .count()
        ));
        let mut quit = false;
        let stack = match start {
            Err(err) => {
                log_line(&format!("error: {err}"));
                // Automated runs stop here rather than wait for a person.
                quit = ctx.auto.stops_at_error();
                Stack::new(&mut ctx, Box::new(LevelErrorScreen::new(err.to_string())))
            }
            Ok(start) => first_screens(&mut ctx, start),
        };
        if cfg!(target_arch = "wasm32") {
            // The browser test waits for this before it touches or plugs in anything.
            log_line("input: ready");
        }
        if let (Some(replay), Some(session)) = (&ctx.options.replay, &ctx.level.session) {
            Automation::report_replay_outcome(replay, &session.world);
        }
        Game { ctx, stack, quit }
    }

    /// Runs until the player quits.
    pub async fn run(mut self) {
        if self.quit {
            self.ctx.save_recording();
            return;
        }
        loop {
            let frame_s = get_frame_time().min(MAX_FRAME_TIME_S);
            if !self.update(frame_s) {
                self.ctx.save_recording();
                return;
            }
            self.stack.draw(&mut self.ctx);
            self.ctx.audio.draw_overlay();
            if self.ctx.auto.take_screenshot_if_due(&self.shot_moment()) {
                return;
            }
            if self
                .ctx
                .auto
                .replay_finished(self.ctx.level.session.as_ref())
            {
                return;
            }
            next_frame().await;
        }
    }

    /// One frame's work before drawing. Returns false when the game quits.
    fn update(&mut self, frame_s: f32) -> bool {
        let ctx = &mut self.ctx;
        ctx.on_frame(frame_s);
        let top = self.stack.top();
        // A reload keeps the player where they are in play (and paused), not after the goal.
        let in_play = ctx
            .level
            .session
            .as_ref()
            .is_some_and(|s| s.world.completed_at_tick().is_none());
        let keep_player = top.kind() == Kind::Play || (top.is_overlay() && in_play);
        if let Some(level) = ctx.poll_level_file(frame_s, keep_player) {
            if !self.stack.level_reloaded(ctx, &level) {
                return false;
            }
        }
        ctx.poll_devices();
        let top = self.stack.top();
        if !top.reads_devices_itself() {
            ctx.read_actions(
                top.kind() == Kind::Play || top.awaits_online(),
                !top.wants_next_press(),
            );
        }
        if !self.stack.update(ctx, frame_s) {
            return false;
        }
        let paused = self.stack.top().kind() != Kind::Play;
        let world = ctx.level.session.as_ref().map(|s| &s.world);
        ctx.audio.update(world, paused);
        true
    }

    /// What the screenshot waits for, as the screens stand now.
    fn shot_moment(&self) -> ShotMoment {
        let session = self.ctx.level.session.as_ref();
        ShotMoment {
            tick: session.map(|s| s.world.tick()),
            playback_done: session.is_some_and(|s| s.playback_done()),
            editor_script_done: self.stack.editor_script_done(),
            editing: self.stack.top().kind() == Kind::Editor,
            playing: self.stack.top().kind() == Kind::Play,
            online_settling: self.ctx.online_settling(),
        }
    }
}

/// The screens the game opens on: "My levels" (the browser's editor page, with a level from a
/// link in the editor), the title, or the first level (in the editor for `tether edit`).
fn first_screens(ctx: &mut Ctx, start: usize) -> Stack {
    if ctx.options.my_levels {
        let first = ctx.my_levels_screen(None);
        let mut stack = Stack::new(ctx, first);
        if let Some(text) = ctx.options.edit_linked.take() {
            let name = ctx.shelf.free_name_for(&linked_title(&text));
            let play = ctx.start_shelf_level(name, text);
            let name = play.name(ctx);
            if let Some(mut editor) = EditingScreen::open(ctx) {
                ctx.auto.screen_shown(name, true);
                editor.mark_not_kept();
                editor.say("a level from a link: Ctrl+S keeps it in My levels");
                stack.apply(ctx, Transition::reset(Box::new(editor)));
            } else {
                stack.apply(ctx, Transition::reset(play));
            }
        }
        return stack;
    }
    if let Some(link) = ctx
        .options
        .online_link
        .take()
        .filter(|_| crate::online::BUILT)
    {
        return match link {
            Ok(hash) => {
                let (list, transition) = OnlineLevelsScreen::open_level(ctx, hash);
                let mut stack = Stack::new(ctx, Box::new(list));
                stack.apply(ctx, transition);
                stack
            }
            Err(problem) => {
                log_line(&format!("online link: {problem}"));
                ctx.notify(problem.to_string());
                Stack::new(ctx, Box::new(TitleScreen::default()))
            }
        };
    }
    if ctx.options.start_at_title && ctx.options.replay.is_none() {
        return Stack::new(ctx, Box::new(TitleScreen::default()));
    }
    let play = ctx.load_level(start);
    let mut stack = Stack::new(ctx, play);
    if ctx.options.open_editor {
        if let Some(editor) = EditingScreen::open(ctx) {
            stack.apply(ctx, Transition::reset(Box::new(editor)));
        }
    }
    stack
}
