//! Starting, reloading and finishing the level in play (`Ctx::level`): the play session is
//! built here, and what a finish changes in the player's progress is kept here.

use std::sync::Arc;

use super::context::Ctx;
use super::level_error::LevelErrorScreen;
use super::play::PlayScreen;
use super::Screen;
use crate::app::error::DataError;
use crate::app::ghost::Ghost;
use crate::app::level_problem::LevelProblem;
use crate::app::log_line;
use crate::app::session::{Playback, Session, SessionStart};
use crate::app::settings::GhostMode;
use crate::campaign::FinishReport;
use crate::online::world_ghost::WorldRun;
use crate::sim::{LevelDef, Replay, World};

impl Ctx {
    /// (Re)starts level `index`: its play screen, or the screen that says why it cannot be
    /// played.
    pub fn load_level(&mut self, index: usize) -> Box<dyn Screen> {
        self.level.index = index;
        let camera = self.level.session.take().map(|session| session.camera);
        self.input.play.clear();
        self.art.reset();
        match self.build_level(index) {
            Ok(mut world) => {
                // Invincibility changes the simulation, so it holds for a whole attempt: from
                // its start (a replay's own assists when watching one).
                world.set_invincible(self.shown_assists().invincible);
                let start = self.session_start(index, &world, camera);
                // A level given on its own is titled by its file until it loads.
                self.levels_mut().levels[index].title = world.level().name.clone();
                let live = start.attempt.is_some();
                self.level.session = Some(Session::new(world, start));
                // One of "My levels" keeps its attempt as a proof run, not for the service.
                if live && self.level.shelf_level.is_none() && crate::online::BUILT {
                    if let Ok(text) = &self.levels().levels[index].text {
                        let hash = tether_online_proto::level_hash(text);
                        self.online.attempt_started(&hash);
                    }
                }
                Box::new(PlayScreen::default())
            }
            Err(err) => Box::new(LevelErrorScreen::new(err.to_string())),
        }
    }

    /// Builds level `index`'s world from its text, or says why it cannot be.
    pub(super) fn build_level(&mut self, index: usize) -> Result<World, DataError> {
        // The fields apart (not `self.levels()`): a problem is noted while the file is read.
        let file = &self.level.alone.as_ref().unwrap_or(&self.data).levels[index];
        let path = match &self.level.watch {
            Some(watch) => watch.path().display().to_string(),
            None => format!("levels/{}", file.name),
        };
        match &file.text {
            Ok(text) => LevelDef::from_ron(text, &path)
                .and_then(|level| World::from_level(level, Arc::clone(&self.data.tuning), &path))
                .map_err(|err| {
                    // A watched file shows where it is wrong, and reloads once fixed.
                    if self.level.watch.is_some() {
                        self.level.problem = Some(LevelProblem::of(&err, text));
                    }
                    DataError::Level(err)
                }),
            Err(err) => Err(err.clone()),
        }
    }

    /// What a session on level `index` starts with: the replay it plays, what it records, the
    /// ghost beside it.
    fn session_start(
        &mut self,
        index: usize,
        world: &World,
        camera: Option<crate::app::camera::CameraState>,
    ) -> SessionStart {
        let file = &self.levels().levels[index];
        let recording = self.options.record_to.is_some().then(|| {
            let mut recording = Replay::new(&file.name);
            recording.assists = self.settings.assists;
            recording
        });
        let playback = match &self.options.replay {
            Some(replay) => Some(Playback::of(replay)),
            None if self.options.autoplay => file
                .solution
                .as_ref()
                .map(|solution| Playback::of(&self.options.autoplay_run(solution))),
            None => None,
        };
        // One of "My levels" keeps its attempt too, not as progress: its finish in test play
        // is the level's proof run (what Publish uploads).
        let shelf_run = self.level.shelf_level.is_some() && self.options.replay.is_none();
        let attempt = (self.records_progress(playback.is_some()) || shelf_run).then(|| {
            let mut attempt = Replay::new(&file.name);
            attempt.assists = self.settings.assists;
            attempt
        });
        let best_splits = self
            .saves
            .progress
            .record(&file.name)
            .map(|r| r.best_splits.clone())
            .unwrap_or_default();
        SessionStart {
            camera,
            ghost: self.make_ghost(index, world),
            attempt,
            recording,
            playback,
            best_splits,
        }
    }

    /// Whether finishing the level counts for the player's progress: live play, or the
    /// walk-through test's autoplay (never a replay being watched).
    fn records_progress(&self, playback: bool) -> bool {
        self.options.replay.is_none()
            && self.level.shelf_level.is_none()
            && (!playback || self.options.autoplay)
    }

    /// The ghost for level `index` as the settings ask: the player's best run or the author's.
    fn make_ghost(&mut self, index: usize, start: &World) -> Option<Ghost> {
        // One of "My levels" has no best run kept (its runs are not campaign progress).
        if self.options.replay.is_some() || self.level.shelf_level.is_some() {
            return None;
        }
        let file = &self.levels().levels[index];
        match self.settings.comfort.ghost {
            GhostMode::Off => None,
            GhostMode::WorldRecord => self.world_ghost(index, start, WorldRun::Record),
            GhostMode::RunAhead => self.world_ghost(index, start, WorldRun::JustAhead),
            GhostMode::Author => file
                .solution
                .as_ref()
                .map(|run| Ghost::new(start, run, "author")),
            GhostMode::BestRun => {
                let name = file.name.clone();
                if !self.saves.best_runs.contains_key(&name) {
                    let recorded = self.saves.progress.record(&name).and_then(|r| r.best_ticks);
                    let loaded = self.saves.store.load_ghost(&name);
                    let run = crate::app::ghost::kept_best_run(loaded, start, recorded);
                    self.saves.best_runs.insert(name.clone(), run);
                }
                self.saves.best_runs[&name]
                    .as_ref()
                    .map(|run| Ghost::new(start, run, "best"))
            }
        }
    }

    /// The level `delta` places on (wrapping), started.
    pub fn change_level(&mut self, delta: isize) -> Box<dyn Screen> {
        self.save_recording();
        let count = self.levels().levels.len() as isize;
        let next = (self.level.index as isize + delta).rem_euclid(count) as usize;
        self.load_level(next)
    }

    /// Ends the level being played for a menu: the recording is written, the attempt dropped.
    pub fn leave_level(&mut self) {
        self.save_recording();
        self.level.session = None;
    }

    /// Writes the recording (atomically: a temporary file, then a rename) and stops recording.
    pub fn save_recording(&mut self) {
        let recording = self.level.session.as_mut().and_then(|s| s.recording.take());
        let (Some(path), Some(replay)) = (&self.options.record_to, recording) else {
            return;
        };
        if replay.tick_count() == 0 {
            return;
        }
        match crate::platform::storage::write_atomically(path, replay.to_ron().as_bytes()) {
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

    /// The level was finished in `ticks`: the test play's run kept for the editor, the
    /// recording written, the progress and best run saved. Returns what the finish changed
    /// (none while watching a replay).
    pub fn finish_level(&mut self, ticks: u64) -> Option<FinishReport> {
        if self.editor_open && !self.level.testing_from_cursor {
            self.level.finished_run = self.level.session.as_ref().and_then(|s| s.attempt.clone());
            self.keep_proof_run(ticks);
        }
        self.save_recording();
        self.record_finish(ticks)
    }

    /// A test play of one of "My levels" reached the goal from the spawn: its run is kept as
    /// the level's proof (what Publish uploads) with the text it played. A problem is a notice.
    /// A build without Tether Online has no Publish, so it keeps none (and links none of the
    /// proof's reading and writing).
    fn keep_proof_run(&mut self, ticks: u64) {
        let (Some(name), Some(run), true) = (
            &self.level.shelf_level,
            &self.level.finished_run,
            crate::online::BUILT,
        ) else {
            return;
        };
        let Ok(played) = &self.level_file().text else {
            return;
        };
        match self.proofs.offer(name, played, ticks, run) {
            Ok(kept) => log_line(&format!(
                "proof: {name}: {ticks} ticks {}",
                if kept {
                    "kept"
                } else {
                    "not better than the kept run"
                }
            )),
            Err(problem) => self.notify(format!("finishing run not kept: {problem}")),
        }
    }

    /// Records a finish in the progress, keeps the run as the best-run ghost when it is the
    /// fastest, and saves both. Problems become a notice; play goes on.
    fn record_finish(&mut self, ticks: u64) -> Option<FinishReport> {
        let attempt = self.level.session.as_mut()?.attempt.take()?;
        if self.level.shelf_level.is_some() {
            // Not campaign progress: no best time, medal or ghost is kept.
            return Some(FinishReport {
                ticks,
                medal: None,
                previous_best: None,
                new_best: false,
                counted: !attempt.assists.invincible,
            });
        }
        let file = self.level_file();
        let (name, author_ticks) = (file.name.clone(), file.author_ticks);
        if let (Ok(text), true) = (&file.text, crate::online::BUILT) {
            let hash = tether_online_proto::level_hash(text);
            self.online.run_finished(&name, &hash, ticks, &attempt);
            self.world_ghosts.forget_runs_ahead();
        }
        let counted = !attempt.assists.invincible;
        let splits = &self.level.session.as_ref()?.splits;
        let report = self
            .saves
            .progress
            .record_finish(&name, ticks, splits, counted, author_ticks);
        if !self.saves.may_save {
            return Some(report);
        }
        if let Err(problem) = self.saves.store.save(&self.saves.progress) {
            self.notify(format!("progress not saved: {problem}"));
        }
        if report.new_best {
            let run = attempt.without_unread_aims();
            if let Err(problem) = self.saves.store.save_ghost(&name, &run) {
                self.notify(format!("best run not saved: {problem}"));
            }
            self.saves.best_runs.insert(name, Some(run));
        }
        Some(report)
    }

    /// Hot reload: the level file's new text when it changed on disk, rebuilt into the level
    /// in play. Returns the new level when it could be built.
    pub fn poll_level_file(&mut self, frame_s: f32, keep_player: bool) -> Option<LevelDef> {
        let change = self.level.watch.as_mut()?.poll(frame_s)?;
        match change {
            Ok(text) => self.reload_level(text, keep_player),
            Err(err) => {
                log_line(&format!("reload: {err}"));
                self.level.problem = Some(LevelProblem::message(&err.to_string()));
                None
            }
        }
    }

    /// Rebuilds the level from its file's new `text`, keeping the player where they were when
    /// asked and that place is still valid, and the camera where it is. A text that cannot be
    /// used leaves the last good version running and shows why, its bad objects outlined.
    fn reload_level(&mut self, text: String, keep_player: bool) -> Option<LevelDef> {
        let path = self.level.watch.as_ref()?.path().display().to_string();
        let built = LevelDef::from_ron(&text, &path)
            .and_then(|level| World::from_level(level, Arc::clone(&self.data.tuning), &path));
        let mut world = match built {
            Ok(world) => world,
            Err(err) => {
                log_line(&format!("reload: {}", err.to_string().replace('\n', "; ")));
                self.level.problem = Some(LevelProblem::of(&err, &text));
                return None;
            }
        };
        self.level.problem = None;
        let file = self.level_file_mut();
        file.title = world.level().name.clone();
        file.text = Ok(text);
        let kept = match &self.level.session {
            Some(old) if keep_player => world.take_player_from(&old.world),
            _ => false,
        };
        world.set_invincible(self.shown_assists().invincible);
        log_line(&format!(
            "reload: {path}: ok: {} solids, {} objects; player {}",
            world.level().solids.len(),
            world
                .level()
                .object_lists()
                .iter()
                .map(|l| l.items.len())
                .sum::<usize>(),
            if kept { "kept" } else { "respawned" }
        ));
        self.art.reset();
        let level = LevelDef::clone(world.level());
        match &mut self.level.session {
            Some(session) => session.replace_world(world),
            None => self.level.session = Some(Session::new(world, SessionStart::default())),
        }
        Some(level)
    }
}
