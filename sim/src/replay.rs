//! Replays: the level and every tick's input, run-length encoded. Running one is pure, so the
//! same replay gives the same final state hash on every machine and in the browser.

use serde::{Deserialize, Serialize};

use super::assists::Assists;
use super::input::InputFrame;
use super::level::RonError;
use super::limits;
use super::world::World;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// The level file, as named in `levels/index.ron`.
    pub level: String,
    /// The simulation version the run was recorded with (`crate::SIM_VERSION`). Always written;
    /// replays from before it was kept read as version 1, the physics they were played with.
    #[serde(default = "first_sim_version")]
    pub sim_version: u32,
    /// `(repeat count, input)` runs, in tick order.
    pub runs: Vec<(u32, InputFrame)>,
    /// The assists the run was played with (absent in replays without any, and in replays
    /// older than assists).
    #[serde(default, skip_serializing_if = "Assists::is_default")]
    pub assists: Assists,
}

/// The simulation version of replays written before replays named theirs.
fn first_sim_version() -> u32 {
    1
}

/// A run recorded with another simulation version than this build's: its inputs would not play
/// the same run here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherSimVersion {
    pub file: String,
    pub recorded: u32,
    pub current: u32,
}

impl std::fmt::Display for OtherSimVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: recorded with simulation version {}, but this game runs simulation version {}: \
             its inputs would not play the same run here",
            self.file, self.recorded, self.current
        )
    }
}

impl std::error::Error for OtherSimVersion {}

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
            sim_version: crate::SIM_VERSION,
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

    /// The same run with the aim cleared on every tick that does not fire: the simulation reads
    /// the aim only when the hook is fired, and a recording holds the mouse's every move, so
    /// this keeps stored runs (ghosts) small without changing what they do.
    pub fn without_unread_aims(&self) -> Replay {
        let mut out = Replay::new(self.level.clone());
        out.sim_version = self.sim_version;
        out.assists = self.assists;
        for input in self.frames() {
            let mut input = *input;
            if !input.fire_pressed {
                input.aim_x = 0.0;
                input.aim_y = 0.0;
            }
            out.push(input);
        }
        out
    }

    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .compact_arrays(false);
        ron::ser::to_string_pretty(self, config).expect("a replay always serialises")
    }

    /// Parses a replay and checks it against the limits on replays (`sim::limits`): the level
    /// is a path inside the levels folder, it lasts at most `MAX_REPLAY_TICKS`, and every input
    /// is in its range. The error names the file and the run.
    pub fn from_ron(text: &str, file: &str) -> Result<Replay, RonError> {
        let replay: Replay = RonError::parse(text, file)?;
        replay.problem().map_or(Ok(replay), |message| {
            Err(RonError {
                file: file.to_string(),
                line: 0,
                column: 0,
                message,
            })
        })
    }

    /// `Err` naming `file` and both versions when the run was recorded with another simulation
    /// version than this build's: its inputs would not play the same run here. (Parsing alone
    /// does not refuse it, so tools can still read and convert old runs.)
    pub fn check_sim_version(&self, file: &str) -> Result<(), OtherSimVersion> {
        if self.sim_version == crate::SIM_VERSION {
            return Ok(());
        }
        Err(OtherSimVersion {
            file: file.to_owned(),
            recorded: self.sim_version,
            current: crate::SIM_VERSION,
        })
    }

    /// The first way the replay breaks the limits on replays, if any.
    fn problem(&self) -> Option<String> {
        if let Err(problem) = limits::check_level_path(&self.level) {
            return Some(format!("level: {problem}"));
        }
        let ticks = self.tick_count();
        if ticks > limits::MAX_REPLAY_TICKS {
            return Some(format!(
                "lasts {ticks} ticks, at most {} (one hour) allowed",
                limits::MAX_REPLAY_TICKS
            ));
        }
        if self.assists != self.assists.sanitised() {
            return Some(format!(
                "assists: game_speed_percent {} is not one of 50, 60, ... 100",
                self.assists.game_speed_percent
            ));
        }
        self.runs.iter().enumerate().find_map(|(i, (_, input))| {
            input_problem(input).map(|problem| format!("runs[{i}]: {problem}"))
        })
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

/// Why one tick's input is out of range, if it is.
fn input_problem(input: &InputFrame) -> Option<String> {
    let unit = |name: &str, value: i8| {
        (!(-1..=1).contains(&value)).then(|| format!("{name} is {value}, must be -1, 0 or 1"))
    };
    let max_notches = limits::MAX_WHEEL_NOTCHES_PER_TICK;
    let aim_ok = |v: f32| v.is_finite() && v.abs() <= limits::MAX_AIM_M;
    unit("move_x", input.move_x)
        .or_else(|| unit("reel", input.reel))
        .or_else(|| {
            (input.wheel_notches.unsigned_abs() > max_notches.unsigned_abs()).then(|| {
                format!(
                    "wheel_notches is {}, at most {max_notches} either way",
                    input.wheel_notches
                )
            })
        })
        .or_else(|| {
            (!aim_ok(input.aim_x) || !aim_ok(input.aim_y)).then(|| {
                format!(
                    "aim ({}, {}) must be finite and within {} m",
                    input.aim_x,
                    input.aim_y,
                    limits::MAX_AIM_M
                )
            })
        })
}
