//! Medal times from the author time (the level's solution replay, or a shared level's verified
//! upload run), by Trackmania's rule: gold within 6 % of the author's time, silver 20 %, bronze
//! 50 %, each rounded up to a whole tenth of a second so the times shown are the times meant.
//! Matching the author's own time is a medal of its own. The game's campaign and the online
//! service both use this, so a medal shown in the game is the medal the server records.

use serde::{Deserialize, Serialize};

use crate::TICKS_PER_SECOND;

/// A medal, worst to best (so `max` keeps the better one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Medal {
    Bronze,
    Silver,
    Gold,
    Author,
}

impl Medal {
    pub const ALL: [Medal; 4] = [Medal::Author, Medal::Gold, Medal::Silver, Medal::Bronze];

    pub fn name(self) -> &'static str {
        match self {
            Medal::Bronze => "bronze",
            Medal::Silver => "silver",
            Medal::Gold => "gold",
            Medal::Author => "author",
        }
    }
}

/// How much slower than the author each medal allows, as a fraction of the author time.
pub const GOLD_FACTOR: f64 = 1.06;
pub const SILVER_FACTOR: f64 = 1.2;
pub const BRONZE_FACTOR: f64 = 1.5;
/// Medal times are rounded up to a multiple of this many ticks (a tenth of a second).
pub const MEDAL_ROUNDING_TICKS: u64 = TICKS_PER_SECOND as u64 / 10;

/// The slowest time, in ticks, that still earns each medal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MedalTimes {
    pub author: u64,
    pub gold: u64,
    pub silver: u64,
    pub bronze: u64,
}

impl MedalTimes {
    pub fn from_author(author_ticks: u64) -> MedalTimes {
        let scaled = |factor: f64| {
            // Integer maths after one exact-enough product: author times are under 2^40 ticks.
            let ticks = (author_ticks as f64 * factor).ceil() as u64;
            ticks.div_ceil(MEDAL_ROUNDING_TICKS) * MEDAL_ROUNDING_TICKS
        };
        MedalTimes {
            author: author_ticks,
            gold: scaled(GOLD_FACTOR),
            silver: scaled(SILVER_FACTOR),
            bronze: scaled(BRONZE_FACTOR),
        }
    }

    /// The limit for `medal`.
    pub fn limit(&self, medal: Medal) -> u64 {
        match medal {
            Medal::Author => self.author,
            Medal::Gold => self.gold,
            Medal::Silver => self.silver,
            Medal::Bronze => self.bronze,
        }
    }

    /// The best medal a finish in `ticks` earns, if any.
    pub fn medal_for(&self, ticks: u64) -> Option<Medal> {
        Medal::ALL
            .into_iter()
            .find(|&medal| ticks <= self.limit(medal))
    }

    /// The next medal above `current` and its limit: what to aim for.
    pub fn next_goal(&self, current: Option<Medal>) -> Option<(Medal, u64)> {
        Medal::ALL
            .into_iter()
            .rev()
            .find(|&medal| current.is_none_or(|c| medal > c))
            .map(|medal| (medal, self.limit(medal)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medal_times_follow_the_stated_rule() {
        // 10 s author time: gold 10.6 s, silver 12 s, bronze 15 s (already whole tenths).
        let times = MedalTimes::from_author(1200);
        assert_eq!(
            times,
            MedalTimes {
                author: 1200,
                gold: 1272,
                silver: 1440,
                bronze: 1800
            }
        );
        // 177 ticks: ×1.06 = 187.62 → 188 → up to 192 (1.6 s); ×1.2 = 212.4 → 213 → 216;
        // ×1.5 = 265.5 → 266 → 276.
        let times = MedalTimes::from_author(177);
        assert_eq!((times.gold, times.silver, times.bronze), (192, 216, 276));
    }

    #[test]
    fn a_time_earns_the_best_medal_it_is_within() {
        let times = MedalTimes::from_author(1200);
        assert_eq!(times.medal_for(1100), Some(Medal::Author));
        assert_eq!(times.medal_for(1200), Some(Medal::Author));
        assert_eq!(times.medal_for(1201), Some(Medal::Gold));
        assert_eq!(times.medal_for(1272), Some(Medal::Gold));
        assert_eq!(times.medal_for(1273), Some(Medal::Silver));
        assert_eq!(times.medal_for(1800), Some(Medal::Bronze));
        assert_eq!(times.medal_for(1801), None);
    }

    #[test]
    fn the_next_goal_is_the_medal_above() {
        let times = MedalTimes::from_author(1200);
        assert_eq!(times.next_goal(None), Some((Medal::Bronze, 1800)));
        assert_eq!(
            times.next_goal(Some(Medal::Gold)),
            Some((Medal::Author, 1200))
        );
        assert_eq!(times.next_goal(Some(Medal::Author)), None);
    }
}
