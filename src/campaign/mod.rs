//! The campaign around the levels: medal times, what is unlocked, the player's records and
//! splits, and the save file that keeps them. Pure (no macroquad, no clock, no files): the front
//! end reads and writes the text (`app::progress_store`) and shows the screens.

// Medal times live in the simulation crate so the online service awards the same medals.
pub use crate::sim::medals;
pub mod progress;
pub mod splits;

pub use medals::{Medal, MedalTimes};
pub use progress::{FinishReport, LevelRecord, Progress, SaveError};
pub use splits::SplitDelta;

/// `m:ss.cc` for a tick count (times on every screen and in docs/levels.md).
pub fn format_time(ticks: u64) -> String {
    let centis = ticks * 100 / crate::sim::TICKS_PER_SECOND as u64;
    format!(
        "{}:{:02}.{:02}",
        centis / 6000,
        (centis / 100) % 60,
        centis % 100
    )
}
