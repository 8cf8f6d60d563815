//! Replays: the level and every tick's input, run-length encoded. Running one is pure, so the
//! same replay gives the same final state hash on every machine and in the browser.

use serde::{Deserialize, Serialize};

use super::assists::Assists;
use super::input::InputFrame;
use super::level::RonError;
use super::world::World;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// The level file, as named in `levels/index.ron`.
    pub level: String,
    /// `(repeat count, input)` runs, in tick order.
    pub runs: Vec<(u32, InputFrame)>,
    /// The assists the run was played with (absent in replays without any, and in replays
    /// older than assists).
    #[serde(default, skip_serializing_if = "Assists::is_default")]
    pub assists: Assists,
}

/// How a replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOutcome {
    pub goal_reached: bool,
    pub ticks: u64,
    pub deaths: u32,
    pub state_hash: u64,
}

impl std::fmt::Display for ReplayOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "goal={} ticks={} deaths={} hash={:016x}",
            if self.goal_reached {
                "reached"
            } else {
                "not-reached"
            },
            self.ticks,
            self.deaths,
            self.state_hash
        )
    }
}

impl Replay {
    pub fn new(level: impl Into<String>) -> Replay {
        Replay {
            level: level.into(),
            runs: Vec::new(),
            assists: Assists::default(),
        }
    }

    /// Appends one tick's input.
    pub fn push(&mut self, input: InputFrame) {
        match self.runs.last_mut() {
            Some((count, last)) if *last == input && *count < u32::MAX => *count += 1,
            _ => self.runs.push((1, input)),
        }
    }

    pub fn tick_count(&self) -> u64 {
        self.runs.iter().map(|(n, _)| *n as u64).sum()
    }

    /// Every tick's input in order.
    pub fn frames(&self) -> impl Iterator<Item = &InputFrame> + '_ {
        self.runs
            .iter()
            .flat_map(|(count, input)| std::iter::repeat_n(input, *count as usize))
    }

    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .compact_arrays(false);
        ron::ser::to_string_pretty(self, config).expect("a replay always serialises")
    }

    pub fn from_ron(text: &str, file: &str) -> Result<Replay, RonError> {
        RonError::parse(text, file)
    }

    /// Runs the replay on `world` (with the replay's assists) until the goal or the end of its
    /// inputs.
    pub fn run(&self, world: &mut World) -> ReplayOutcome {
        world.invincible = self.assists.invincible;
        for input in self.frames() {
            if world.is_completed() {
                break;
            }
            world.step(input);
        }
        ReplayOutcome::of(world)
    }
}

impl ReplayOutcome {
    /// Where `world` stands as a replay's outcome: the goal, its tick (or the current one),
    /// deaths and the final-state hash.
    pub fn of(world: &World) -> ReplayOutcome {
        ReplayOutcome {
            goal_reached: world.is_completed(),
            ticks: world.completed_at_tick.unwrap_or(world.tick),
            deaths: world.deaths,
            state_hash: world.state_hash(),
        }
    }
}
