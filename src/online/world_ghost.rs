//! Racing the world: a run from a level's board downloaded as a ghost. `GhostFetch` finds the
//! run (the record: the board's first entry; the run just ahead of the player's: the entry
//! ranked one above theirs) and downloads its replay (`GET /api/v1/runs/{id}/replay`);
//! `check_downloaded_run` reads it and checks it is a run of this simulation version.
//!
//! The board is asked for by the hash of the level text played here, so the run is one of
//! exactly this level; the game also re-simulates it on the level and races it only if it
//! reaches the goal in the board's time (`app::ghost::check_kept_run`).

use tether_online_proto::wire::{AroundAnswer, BoardAnswer};

use super::client::{Call, OnlineClient, OnlineError};
use crate::sim::Replay;

/// Which run of the board to race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorldRun {
    Record,
    /// The run ranked one above the player's.
    JustAhead,
}

/// A run found on the board and downloaded.
#[derive(Clone, Debug)]
pub struct DownloadedRun {
    pub run_id: i64,
    /// Its time on the board.
    pub ticks: u64,
    /// Who ran it (shown; made printable).
    pub name: String,
    pub replay: Replay,
}

enum Stage {
    Board(Call<BoardAnswer>),
    Around(Call<AroundAnswer>),
    Replay {
        call: Call<String>,
        run_id: i64,
        ticks: u64,
        name: String,
    },
    Ended,
}

/// A board run on its way; poll it each frame with the client it was started on.
pub struct GhostFetch {
    stage: Stage,
}

impl GhostFetch {
    /// `player_key`: the player's key (needed for `JustAhead`).
    pub fn start(
        client: &mut OnlineClient,
        which: WorldRun,
        level_hash: &str,
        player_key: Option<&str>,
    ) -> Result<GhostFetch, String> {
        let stage = match (which, player_key) {
            (WorldRun::Record, _) => Stage::Board(client.board(level_hash, 1)),
            (WorldRun::JustAhead, Some(key)) => Stage::Around(client.around(level_hash, key, 1)),
            (WorldRun::JustAhead, None) => {
                return Err("go online under a name to race the run just ahead of yours".into())
            }
        };
        Ok(GhostFetch { stage })
    }

    /// `Some` once, when the run is here or cannot be had (the reason, fit to show).
    pub fn poll(&mut self, client: &mut OnlineClient) -> Option<Result<DownloadedRun, String>> {
        let found = match &mut self.stage {
            Stage::Board(call) => {
                client
                    .poll(call)?
                    .map_err(|e| board_problem(&e))
                    .and_then(|board| {
                        let record = board.entries.first().ok_or("no runs on this board yet")?;
                        Ok((record.run, record.ticks, record.name.clone()))
                    })
            }
            Stage::Around(call) => {
                client
                    .poll(call)?
                    .map_err(|e| board_problem(&e))
                    .and_then(|place| {
                        let ahead = place.around.iter().find(|e| e.rank == place.rank - 1);
                        let ahead = ahead.ok_or("you hold the record: no run is ahead of yours")?;
                        Ok((ahead.run, ahead.ticks, ahead.name.clone()))
                    })
            }
            Stage::Replay { call, .. } => {
                let text = client.poll(call)?;
                let Stage::Replay {
                    run_id,
                    ticks,
                    name,
                    ..
                } = std::mem::replace(&mut self.stage, Stage::Ended)
                else {
                    unreachable!("matched above")
                };
                return Some(
                    text.map_err(|e| format!("the run could not be downloaded: {e}"))
                        .and_then(|text| check_downloaded_run(&text))
                        .map(|replay| DownloadedRun {
                            run_id,
                            ticks,
                            name: crate::sim::limits::printable(&name),
                            replay,
                        }),
                );
            }
            Stage::Ended => return Some(Err("already reported".into())),
        };
        match found {
            Ok((run_id, ticks, name)) => {
                self.stage = Stage::Replay {
                    call: client.run_replay(run_id),
                    run_id,
                    ticks: ticks.max(0) as u64,
                    name,
                };
                None
            }
            Err(problem) => {
                self.stage = Stage::Ended;
                Some(Err(problem))
            }
        }
    }
}

fn board_problem(err: &OnlineError) -> String {
    match err.code() {
        Some("not_found") => "no run of yours on this board yet".into(),
        _ => format!("the board could not be read: {err}"),
    }
}

/// A downloaded replay as a run to race: it must read as a replay and be of this simulation
/// version (a run of another version would not play the same here).
pub fn check_downloaded_run(text: &str) -> Result<Replay, String> {
    let replay = Replay::from_ron(text, "the downloaded run")
        .map_err(|err| super::client::shown(&err.to_string()))?;
    replay
        .check_sim_version("the downloaded run")
        .map_err(|err| super::client::shown(&err.to_string()))?;
    Ok(replay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_download_that_is_not_a_run_of_this_version_is_a_message() {
        assert!(check_downloaded_run("<html>").is_err());
        let mut run = Replay::new("01_first_swing.ron");
        run.sim_version = crate::sim::SIM_VERSION + 1;
        let problem = check_downloaded_run(&run.to_ron()).unwrap_err();
        assert!(problem.contains("version"), "{problem}");
        run.sim_version = crate::sim::SIM_VERSION;
        assert!(check_downloaded_run(&run.to_ron()).is_ok());
    }
}
