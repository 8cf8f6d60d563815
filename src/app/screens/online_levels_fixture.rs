//! A stand-in for the online service, in the game's memory: a few campaign levels with made-up
//! figures to browse, search, open and play, and uploads checked as the service checks them
//! (the author's run re-simulated to the goal at its claimed tick, no assists). `tether
//! --online-fixture` runs the game on it, so the Online levels screens can be seen and tested
//! without a server; answers are in on the next poll.

use std::sync::Arc;

use super::online_levels_cache::level_sha256_hex;
use super::online_levels_service::{
    BrowseQuery, LevelSummary, LevelsOnline, LevelsReply, LevelsRequest, RequestId, SortTab,
    LEVELS_PER_PAGE,
};
use crate::app::assets::GameData;
use crate::sim::{LevelDef, Replay, ReplayOutcome, Tuning, World};

/// Campaign levels the fixture lists.
const FIXTURE_LEVELS: usize = 12;

pub struct FixtureLevels {
    tuning: Arc<Tuning>,
    /// Each level's figures and text, oldest first.
    levels: Vec<(LevelSummary, String)>,
    /// Levels rated so far (one player: once each).
    rated: Vec<String>,
    answers: Vec<(RequestId, Result<LevelsReply, String>)>,
    next_id: RequestId,
}

impl FixtureLevels {
    pub fn new(tuning: Arc<Tuning>) -> FixtureLevels {
        FixtureLevels {
            tuning,
            levels: Vec::new(),
            rated: Vec::new(),
            answers: Vec::new(),
            next_id: 0,
        }
    }

    /// The first campaign levels that read, with figures made up from their place.
    pub fn from_campaign(data: &GameData) -> FixtureLevels {
        let mut fixture = FixtureLevels::new(Arc::clone(&data.tuning));
        let authors = ["Ada", "Bo", "Cy"];
        for (i, file) in data.levels.iter().take(FIXTURE_LEVELS).enumerate() {
            let Ok(text) = &file.text else { continue };
            let n = i as u64;
            let plays = 40 + (n * 37) % 90;
            let finishes = plays * (10 - (n % 9)) / 12;
            let summary = LevelSummary {
                hash: level_sha256_hex(text),
                name: file.title.clone(),
                author: Some(authors[i % authors.len()].to_owned()),
                plays,
                finishes,
                clear_rate: Some(finishes as f64 / plays as f64),
                author_ticks: file.author_ticks.unwrap_or(600 + n * 120),
                rating: Some(2.0 + ((n * 7) % 30) as f64 / 10.0),
                difficulty: Some(1.0 + (n % 5) as f64),
                record: None,
            };
            fixture.levels.push((summary, text.clone()));
        }
        fixture
    }

    fn answer(&mut self, request: LevelsRequest) -> Result<LevelsReply, String> {
        match request {
            LevelsRequest::Browse(query) => Ok(LevelsReply::Page(self.browse(&query))),
            LevelsRequest::Detail { hash } => self
                .find(&hash)
                .map(|(summary, _)| LevelsReply::Detail(summary.clone())),
            LevelsRequest::Text { hash } => self
                .find(&hash)
                .map(|(_, text)| LevelsReply::Text(text.clone())),
            LevelsRequest::Publish {
                text,
                replay,
                ticks,
            } => self.publish(text, &replay, ticks),
            LevelsRequest::Rate { hash, .. } => {
                self.find(&hash)?;
                if self.rated.contains(&hash) {
                    return Err("already_rated: you rated this level already".into());
                }
                self.rated.push(hash);
                Ok(LevelsReply::Rated)
            }
        }
    }

    fn find(&self, hash: &str) -> Result<&(LevelSummary, String), String> {
        self.levels
            .iter()
            .find(|(summary, _)| summary.hash == hash)
            .ok_or_else(|| "not_found: no such level".to_owned())
    }

    /// The service's browse: filtered by name or author, sorted, one page.
    fn browse(&self, query: &BrowseQuery) -> Vec<LevelSummary> {
        let search = query.search.to_lowercase();
        let mut found: Vec<&LevelSummary> = self
            .levels
            .iter()
            .rev() // newest first
            .map(|(summary, _)| summary)
            .filter(|s| {
                s.name.to_lowercase().contains(&search)
                    || s.author
                        .as_deref()
                        .unwrap_or("")
                        .to_lowercase()
                        .contains(&search)
            })
            .collect();
        let by = |f: fn(&LevelSummary) -> f64| {
            move |a: &&LevelSummary, b: &&LevelSummary| f(a).total_cmp(&f(b))
        };
        match query.sort {
            SortTab::Newest => {}
            SortTab::MostPlayed => found.sort_by_key(|s| std::cmp::Reverse(s.plays)),
            SortTab::BestRated => found.sort_by(|a, b| by(|s| s.rating.unwrap_or(0.0))(b, a)),
            SortTab::Hardest => found.sort_by(by(|s| s.clear_rate.unwrap_or(0.0))),
            SortTab::Easiest => found.sort_by(|a, b| by(|s| s.clear_rate.unwrap_or(0.0))(b, a)),
        }
        found
            .into_iter()
            .skip(query.page * LEVELS_PER_PAGE)
            .take(LEVELS_PER_PAGE)
            .cloned()
            .collect()
    }

    /// The service's upload checks: a level that builds, an unassisted run that reaches the
    /// goal at exactly the claimed tick, not uploaded before.
    fn publish(&mut self, text: String, replay: &str, ticks: u64) -> Result<LevelsReply, String> {
        let hash = level_sha256_hex(&text);
        if self.find(&hash).is_ok() {
            return Err(format!("exists: level {hash} is already here"));
        }
        let level = LevelDef::from_ron(&text, "level").map_err(|e| format!("bad_level: {e}"))?;
        let mut world = World::from_level(level.clone(), Arc::clone(&self.tuning), "level")
            .map_err(|e| format!("bad_level: {e}"))?;
        let run = Replay::from_ron(replay, "replay").map_err(|e| format!("bad_replay: {e}"))?;
        if run.assists.any() {
            return Err(
                "assisted_author_run: the author's clear must be played without assists".into(),
            );
        }
        for input in run.frames().take(ticks as usize) {
            if world.is_completed() {
                break;
            }
            world.step(input);
        }
        let outcome = ReplayOutcome::of(&world);
        if !outcome.goal_reached || outcome.ticks != ticks {
            return Err(format!(
                "no_author_clear: the author's run does not finish the level at tick {ticks}"
            ));
        }
        let summary = LevelSummary {
            hash: hash.clone(),
            name: level.name,
            author: Some("you".into()),
            plays: 0,
            finishes: 0,
            clear_rate: None,
            author_ticks: ticks,
            rating: None,
            difficulty: None,
            record: None,
        };
        self.levels.push((summary, text));
        Ok(LevelsReply::Published { hash })
    }
}

impl LevelsOnline for FixtureLevels {
    fn start(&mut self, request: LevelsRequest) -> RequestId {
        self.next_id += 1;
        let answer = self.answer(request);
        self.answers.push((self.next_id, answer));
        self.next_id
    }

    fn poll(&mut self, id: RequestId) -> Option<Result<LevelsReply, String>> {
        let at = self.answers.iter().position(|(i, _)| *i == id)?;
        Some(self.answers.remove(at).1)
    }
}
