//! The simulation: pure and deterministic. No window, sound, clock or file I/O here — callers
//! pass text in and get state and events out. Tests, benches, replays and the browser build all
//! run exactly this code.

pub mod assists;
pub mod cloth;
pub mod event;
pub mod geometry;
pub mod hook;
pub mod input;
pub mod level;
pub mod limits;
pub mod math;
pub mod medals;
pub mod objects;
pub mod parallel;
pub mod player;
pub mod replay;
pub mod rope;
pub mod rope_shape;
pub mod shape;
pub mod solver;
pub mod state_hash;
pub mod tuning;
pub mod world;

pub use assists::Assists;
pub use event::{AttachKind, Event};
pub use input::InputFrame;
pub use level::{IndexLevel, IndexWorld, LevelDef, LevelError, LevelIndex, RonError};
pub use medals::{Medal, MedalTimes};
pub use replay::{OtherSimVersion, Replay, ReplayOutcome};
pub use tuning::{Tuning, TICKS_PER_SECOND, TICK_DT_S};
pub use world::World;

/// The simulation's version: raised whenever the simulation's results change for the same level
/// and inputs (the solution replays' final-state hashes move). Replays, ghosts and the online
/// service's runs carry it, so a run is only ever compared or verified under the physics it was
/// played with.
pub const SIM_VERSION: u32 = 10;
