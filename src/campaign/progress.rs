//! The player's progress: which levels are finished, best times, medals and best splits, and the
//! versioned save file that holds them. Every level is keyed by its file name in the index, so
//! reordering the campaign keeps records. A save is someone else's text as far as the game knows
//! (an older version, another machine, a hand edit): it is parsed within limits and checked
//! field by field, and any problem is a `SaveError` naming what is wrong — the caller keeps the
//! file aside and starts fresh.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::medals::{Medal, MedalTimes};
use crate::sim::limits;

/// The save format this build writes. Loading a newer one is refused (with the file kept), an
/// older one would be migrated here.
pub const SAVE_VERSION: u32 = 1;
/// Most levels a save may hold records for.
pub const MAX_SAVED_LEVELS: usize = limits::MAX_INDEX_LEVELS;
/// Most checkpoint splits kept per level.
pub const MAX_SPLITS: usize = 100;

/// What the game keeps about one level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRecord {
    /// Finished at least once (with or without assists): unlocks the next level.
    #[serde(default)]
    pub finished: bool,
    /// Fastest finish without invincibility, in ticks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_ticks: Option<u64>,
    /// The tick each checkpoint was first reached on that fastest finish, in reaching order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_splits: Vec<u64>,
    /// Best medal earned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medal: Option<Medal>,
}

/// Everything saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub version: u32,
    #[serde(default)]
    pub levels: BTreeMap<String, LevelRecord>,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress {
            version: SAVE_VERSION,
            levels: BTreeMap::new(),
        }
    }
}

/// Why a save could not be used, naming the file (and line and column for syntax errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveError(pub String);

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What finishing a level changed, for the level-complete screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishReport {
    pub ticks: u64,
    /// The medal this run earned (none with invincibility, or without an author time).
    pub medal: Option<Medal>,
    /// The best time before this run, if there was one.
    pub previous_best: Option<u64>,
    /// This run is the new best time.
    pub new_best: bool,
    /// The run counted for times and medals (invincibility makes a run not count).
    pub counted: bool,
}

impl FinishReport {
    /// This run's time minus the previous best, in ticks (negative: faster).
    pub fn delta_to_best(&self) -> Option<i64> {
        self.previous_best
            .map(|best| self.ticks as i64 - best as i64)
    }
}

impl Progress {
    pub fn record(&self, level: &str) -> Option<&LevelRecord> {
        self.levels.get(level)
    }

    /// Whether the level at position `index` of the campaign (`files`, in play order) may be
    /// played: the first always, any other once the one before it is finished. Levels already
    /// finished stay open even if the campaign's order changes.
    pub fn is_unlocked(&self, files: &[String], index: usize) -> bool {
        index == 0
            || files.get(index).is_some_and(|f| self.is_finished(f))
            || index
                .checked_sub(1)
                .and_then(|before| files.get(before))
                .is_some_and(|f| self.is_finished(f))
    }

    pub fn is_finished(&self, level: &str) -> bool {
        self.levels.get(level).is_some_and(|r| r.finished)
    }

    /// Records a finish of `level` in `ticks` with `splits` (the tick of each checkpoint first
    /// reached, in order). `counted` is false for a run with invincibility: it unlocks the next
    /// level but sets no time or medal. Returns what changed.
    pub fn record_finish(
        &mut self,
        level: &str,
        ticks: u64,
        splits: &[u64],
        counted: bool,
        author_ticks: Option<u64>,
    ) -> FinishReport {
        let record = self.levels.entry(level.to_owned()).or_default();
        record.finished = true;
        let previous_best = record.best_ticks;
        let medal = if counted {
            author_ticks.and_then(|a| MedalTimes::from_author(a).medal_for(ticks))
        } else {
            None
        };
        let new_best = counted && previous_best.is_none_or(|best| ticks < best);
        if new_best {
            record.best_ticks = Some(ticks);
            record.best_splits = splits.iter().copied().take(MAX_SPLITS).collect();
        }
        if medal > record.medal {
            record.medal = medal;
        }
        FinishReport {
            ticks,
            medal,
            previous_best,
            new_best,
            counted,
        }
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default();
        let body = ron::ser::to_string_pretty(self, pretty).unwrap_or_default();
        format!("// Tether progress (save format {SAVE_VERSION}). Written by the game.\n{body}\n")
    }

    /// Parses a save (`source` names it in messages) and checks every field.
    pub fn from_ron(text: &str, source: &str) -> Result<Progress, SaveError> {
        if text.len() as u64 > limits::MAX_SAVE_FILE_BYTES {
            return Err(SaveError(format!(
                "{source}: is {} bytes, at most {} allowed",
                text.len(),
                limits::MAX_SAVE_FILE_BYTES
            )));
        }
        let progress: Progress =
            crate::sim::RonError::parse(text, source).map_err(|err| SaveError(err.to_string()))?;
        progress.problem().map_or(Ok(progress), |problem| {
            Err(SaveError(format!("{source}: {problem}")))
        })
    }

    fn problem(&self) -> Option<String> {
        if self.version > SAVE_VERSION {
            return Some(format!(
                "is save format {}, newer than this game's ({SAVE_VERSION}): written by a newer version",
                self.version
            ));
        }
        if self.version == 0 {
            return Some("version 0 is not a save format".into());
        }
        if self.levels.len() > MAX_SAVED_LEVELS {
            return Some(format!(
                "holds {} levels, at most {MAX_SAVED_LEVELS} allowed",
                self.levels.len()
            ));
        }
        self.levels.iter().find_map(|(level, record)| {
            let name = limits::printable(level);
            if let Err(problem) = limits::check_level_path(level) {
                return Some(format!("levels[\"{name}\"]: {problem}"));
            }
            let bad_ticks = |t: u64| t == 0 || t > limits::MAX_REPLAY_TICKS;
            if record.best_ticks.is_some_and(bad_ticks) {
                return Some(format!(
                    "levels[\"{name}\"].best_ticks: must be from 1 to {}",
                    limits::MAX_REPLAY_TICKS
                ));
            }
            if record.best_splits.len() > MAX_SPLITS {
                return Some(format!(
                    "levels[\"{name}\"].best_splits: holds {}, at most {MAX_SPLITS} allowed",
                    record.best_splits.len()
                ));
            }
            let best = record.best_ticks.unwrap_or(0);
            if record.best_splits.iter().any(|&s| s > best)
                || record.best_splits.windows(2).any(|w| w[0] > w[1])
            {
                return Some(format!(
                    "levels[\"{name}\"].best_splits: must rise and end before the best time"
                ));
            }
            if (record.best_ticks.is_some() || record.medal.is_some()) && !record.finished {
                return Some(format!(
                    "levels[\"{name}\"]: has a time or medal but is not finished"
                ));
            }
            None
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<String> {
        ["a.ron", "b.ron", "c.ron"].map(String::from).to_vec()
    }

    #[test]
    fn the_first_level_is_open_and_each_finish_opens_the_next() {
        let mut progress = Progress::default();
        let files = files();
        assert!(progress.is_unlocked(&files, 0));
        assert!(!progress.is_unlocked(&files, 1));
        assert!(!progress.is_unlocked(&files, 2));
        progress.record_finish("a.ron", 900, &[], true, None);
        assert!(progress.is_unlocked(&files, 1));
        assert!(!progress.is_unlocked(&files, 2));
        // A run with invincibility still unlocks.
        progress.record_finish("b.ron", 900, &[], false, None);
        assert!(progress.is_unlocked(&files, 2));
        assert!(!progress.is_unlocked(&files, 3), "past the end");
    }

    #[test]
    fn a_finished_level_stays_open_when_the_order_changes() {
        let mut progress = Progress::default();
        progress.record_finish("c.ron", 900, &[], true, None);
        let reordered: Vec<String> = ["a.ron", "b.ron", "c.ron", "d.ron"]
            .map(String::from)
            .into();
        assert!(progress.is_unlocked(&reordered, 2));
        assert!(progress.is_unlocked(&reordered, 3));
        assert!(!progress.is_unlocked(&reordered, 1));
    }

    #[test]
    fn finishes_keep_the_best_time_its_splits_and_the_best_medal() {
        let mut progress = Progress::default();
        let first = progress.record_finish("a.ron", 1400, &[400, 900], true, Some(1200));
        assert_eq!(first.medal, Some(Medal::Silver));
        assert!(first.new_best);
        assert_eq!(first.delta_to_best(), None);
        let slower = progress.record_finish("a.ron", 1700, &[500, 1000], true, Some(1200));
        assert!(!slower.new_best);
        assert_eq!(slower.delta_to_best(), Some(300));
        assert_eq!(slower.medal, Some(Medal::Bronze));
        let record = progress.record("a.ron").unwrap();
        assert_eq!(record.best_ticks, Some(1400));
        assert_eq!(record.best_splits, vec![400, 900]);
        assert_eq!(
            record.medal,
            Some(Medal::Silver),
            "a worse run keeps the medal"
        );
        let faster = progress.record_finish("a.ron", 1190, &[300, 700], true, Some(1200));
        assert_eq!(faster.delta_to_best(), Some(-210));
        assert_eq!(faster.medal, Some(Medal::Author));
        assert_eq!(
            progress.record("a.ron").unwrap().best_splits,
            vec![300, 700]
        );
    }

    #[test]
    fn an_invincible_run_sets_no_time_and_no_medal() {
        let mut progress = Progress::default();
        let report = progress.record_finish("a.ron", 100, &[], false, Some(1200));
        assert!(!report.counted && !report.new_best && report.medal.is_none());
        let record = progress.record("a.ron").unwrap();
        assert!(record.finished);
        assert_eq!((record.best_ticks, record.medal), (None, None));
    }

    #[test]
    fn a_save_round_trips() {
        let mut progress = Progress::default();
        progress.record_finish("01_first_swing.ron", 300, &[120], true, Some(177));
        progress.record_finish("world2/05.ron", 900, &[], false, Some(800));
        let text = progress.to_ron();
        assert_eq!(Progress::from_ron(&text, "progress.ron").unwrap(), progress);
    }

    #[test]
    fn bad_saves_name_what_is_wrong() {
        let bad = |text: &str| Progress::from_ron(text, "progress.ron").unwrap_err().0;
        let broken = bad("(version: 1, levels: {\"a.ron\": (finished: tru");
        assert!(broken.starts_with("progress.ron:1:"), "{broken}");
        assert!(bad("(version: 99)").contains("newer"));
        assert!(bad("(version: 0)").contains("version 0"));
        assert!(
            bad("(version: 1, levels: {\"../x.ron\": (finished: true)})")
                .contains("leaves the levels folder")
        );
        assert!(
            bad("(version: 1, levels: {\"a.ron\": (finished: true, best_ticks: 0)})")
                .contains("best_ticks")
        );
        assert!(bad(
            "(version: 1, levels: {\"a.ron\": (finished: true, best_ticks: 10, best_splits: [20])})"
        )
        .contains("best_splits"));
        assert!(bad("(version: 1, levels: {\"a.ron\": (best_ticks: 10)})").contains("not finished"));
        assert!(bad("(version: 1, extra: 3)").contains("extra"));
        let huge = "x".repeat(limits::MAX_SAVE_FILE_BYTES as usize + 1);
        assert!(bad(&huge).contains("at most"));
        assert!(bad("").starts_with("progress.ron:"));
    }
}
