//! Re-simulation: the only judge of a run. Pure and blocking (callers run it off the async
//! threads, see `queue`); every run is bounded by a tick budget checked before simulating.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tether_sim::{limits, LevelDef, Replay, ReplayOutcome, Tuning, World, TICKS_PER_SECOND};

/// The physics constants the simulation runs with, built in: a run's result must not depend on
/// a file beside the server. They belong to `tether_sim::SIM_VERSION` like the code does.
const TUNING_RON: &str = include_str!("../../assets/tuning.ron");

/// A run may last at most this many times its level's author time (and at least
/// `MIN_BUDGET_TICKS`), never more than the simulation's own one-hour cap.
pub const AUTHOR_TIME_MULTIPLE: u64 = 20;
pub const MIN_BUDGET_TICKS: u64 = 60 * TICKS_PER_SECOND as u64;

/// The most ticks a run on a level with this author time may be re-simulated for.
pub fn tick_budget(author_ticks: u64) -> u64 {
    (author_ticks.saturating_mul(AUTHOR_TIME_MULTIPLE))
        .clamp(MIN_BUDGET_TICKS, limits::MAX_REPLAY_TICKS)
}

/// What re-simulating a run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The inputs reach the goal at the claimed tick.
    Finished {
        ticks: u64,
    },
    Refused(String),
}

/// Levels built once and cloned for each run (building parses the text and makes colliders).
pub struct LevelBook {
    tuning: Arc<Tuning>,
    built: Mutex<HashMap<String, Arc<World>>>,
}

/// Levels kept built at once; past this the cache starts again (a simple bound on memory).
const MAX_BUILT_LEVELS: usize = 256;

impl LevelBook {
    pub fn new() -> LevelBook {
        let tuning = Tuning::from_ron(TUNING_RON, "assets/tuning.ron")
            .expect("the built-in tuning is valid (tests/campaign.rs checks the file)");
        LevelBook {
            tuning: Arc::new(tuning),
            built: Mutex::new(HashMap::new()),
        }
    }

    /// Parses and builds a level with every check `tether check` runs; the error says why.
    pub fn build(&self, text: &str, file: &str) -> Result<World, String> {
        let level = LevelDef::from_ron(text, file).map_err(|err| err.to_string())?;
        World::from_level(level, Arc::clone(&self.tuning), file).map_err(|err| err.to_string())
    }

    /// The built level with this hash, building it from `text` the first time.
    pub fn world(&self, hash: &str, text: &str) -> Result<Arc<World>, String> {
        if let Some(world) = self.built.lock().expect("not poisoned").get(hash) {
            return Ok(Arc::clone(world));
        }
        let world = Arc::new(self.build(text, hash)?);
        let mut built = self.built.lock().expect("not poisoned");
        if built.len() >= MAX_BUILT_LEVELS {
            built.clear();
        }
        built.insert(hash.to_string(), Arc::clone(&world));
        Ok(world)
    }
}

impl Default for LevelBook {
    fn default() -> Self {
        LevelBook::new()
    }
}

/// Parses a replay's RON with the simulation's limits; the error names the submission.
pub fn parse_replay(text: &str) -> Result<Replay, String> {
    if text.len() as u64 > limits::MAX_REPLAY_FILE_BYTES {
        return Err(format!(
            "replay is {} bytes, at most {}",
            text.len(),
            limits::MAX_REPLAY_FILE_BYTES
        ));
    }
    Replay::from_ron(text, "replay").map_err(|err| err.to_string())
}

/// Re-simulates `replay` on a fresh copy of `world`: finished only if it reaches the goal at
/// exactly `claimed_ticks`, having checked the length against `budget_ticks` first.
pub fn verify(world: &World, replay: &Replay, claimed_ticks: u64, budget_ticks: u64) -> Verdict {
    if claimed_ticks > budget_ticks {
        return Verdict::Refused(format!(
            "claims {claimed_ticks} ticks; runs on this level may last at most {budget_ticks}"
        ));
    }
    // `Replay::run`, stopped at the claimed tick: a goal later than claimed is a refusal anyway,
    // so no run costs more than its claim, and no claim more than the budget.
    let mut world = world.clone();
    world.set_invincible(replay.assists.invincible);
    for input in replay.frames().take(claimed_ticks as usize) {
        if world.is_completed() {
            break;
        }
        world.step(input);
    }
    let outcome = ReplayOutcome::of(&world);
    if !outcome.goal_reached {
        return Verdict::Refused(format!(
            "the inputs do not reach the goal (re-simulated {} ticks)",
            outcome.ticks
        ));
    }
    if outcome.ticks != claimed_ticks {
        return Verdict::Refused(format!(
            "the inputs reach the goal at tick {}, not at the claimed tick {claimed_ticks}",
            outcome.ticks
        ));
    }
    Verdict::Finished {
        ticks: outcome.ticks,
    }
}
