//! The ghost menu's online choices, "the record" and "the run just ahead of mine": as a level
//! starts, the run is asked for (`online::world_ghost`), and once it is here it is checked on
//! this level (it must reach the goal in its board time) and raced from the tick play is at.
//! Online off, no run, a download that fails or a run that does not check out is a line in the
//! log and a notice: play goes on without a ghost.

use std::collections::HashMap;

use crate::app::ghost::{check_kept_run, Ghost};
use crate::app::log_line;
use crate::online::world_ghost::{DownloadedRun, GhostFetch, WorldRun};
use crate::sim::World;

use super::Ctx;

/// The online ghosts of this session: the one on its way, and those checked, by level file.
#[derive(Default)]
pub struct WorldGhosts {
    fetch: Option<(String, WorldRun, GhostFetch)>,
    raced: HashMap<(String, WorldRun), DownloadedRun>,
}

impl WorldGhosts {
    /// The player's place changed (a run finished): the run ahead of theirs may be another.
    pub fn forget_runs_ahead(&mut self) {
        self.raced
            .retain(|(_, which), _| *which != WorldRun::JustAhead);
    }
}

fn label(which: WorldRun) -> &'static str {
    match which {
        WorldRun::Record => "record",
        WorldRun::JustAhead => "ahead",
    }
}

impl Ctx {
    /// The online ghost of level `index` if it is here; otherwise it is asked for and joins
    /// play when it comes (`poll_world_ghost`).
    pub(super) fn world_ghost(
        &mut self,
        index: usize,
        start: &World,
        which: WorldRun,
    ) -> Option<Ghost> {
        if !crate::online::BUILT {
            return None;
        }
        let file = &self.levels().levels[index];
        let key = (file.name.clone(), which);
        if let Some(run) = self.world_ghosts.raced.get(&key) {
            return Some(Ghost::new(start, &run.replay, label(which)));
        }
        let hash = tether_online_proto::level_hash(file.text.as_ref().ok()?);
        let player = self.online.named_player_key();
        let Some(client) = self.online.client_if_on() else {
            log_line("ghost: online is off: no online ghost");
            return None;
        };
        match GhostFetch::start(client, which, &hash, player.as_deref()) {
            Ok(fetch) => self.world_ghosts.fetch = Some((key.0, which, fetch)),
            Err(problem) => self.ghost_problem(problem),
        }
        None
    }

    /// Moves the online ghost's download along; a run that arrives for the level in play joins
    /// it, caught up to play's tick.
    pub(super) fn poll_world_ghost(&mut self) {
        if !crate::online::BUILT {
            return;
        }
        let Some((level, which, mut fetch)) = self.world_ghosts.fetch.take() else {
            return;
        };
        let Some(client) = self.online.client_if_on() else {
            return;
        };
        let Some(result) = fetch.poll(client) else {
            self.world_ghosts.fetch = Some((level, which, fetch));
            return;
        };
        let in_play = self.level.session.is_some() && self.level_file().name == level;
        match result {
            Err(problem) => self.ghost_problem(problem),
            Ok(run) if in_play => self.race(level, which, run),
            // The player left the level: the run is asked for again next time.
            Ok(_) => {}
        }
    }

    /// Checks a downloaded run on the level in play and races it.
    fn race(&mut self, level: String, which: WorldRun, run: DownloadedRun) {
        let start = match self.build_level(self.level.index) {
            Ok(start) => start,
            Err(err) => return self.ghost_problem(err.to_string()),
        };
        if let Err(stale) = check_kept_run(&start, &run.replay, Some(run.ticks)) {
            return self.ghost_problem(format!(
                "{}'s run does not check out here: {stale}",
                run.name
            ));
        }
        log_line(&format!(
            "ghost: racing {} ({}): {}'s run {}, {} ticks",
            label(which),
            level,
            run.name,
            run.run_id,
            run.ticks
        ));
        let mut ghost = Ghost::new(&start, &run.replay, label(which));
        if let Some(session) = &mut self.level.session {
            for _ in 0..session.world.tick() {
                ghost.tick();
            }
            session.ghost = Some(ghost);
        }
        self.world_ghosts.raced.insert((level, which), run);
    }

    fn ghost_problem(&mut self, problem: String) {
        log_line(&format!("ghost: {problem}"));
        self.notify(format!("online ghost: {problem}"));
    }
}
