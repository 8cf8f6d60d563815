//! The Online levels screens' service (`LevelsOnline`) on the game's online client
//! (`crate::online::OnlineClient`): each request becomes one of the client's calls, polled when
//! its screen asks, its answer turned into the screens' plain data. Publishing and rating are
//! signed writes: they need the player's identity, and say so without one.

use super::online_levels_service::{
    LevelRecord, LevelSummary, LevelsOnline, LevelsReply, LevelsRequest, RequestId, LEVELS_PER_PAGE,
};
use crate::online::wire::{LevelInfo, LevelList, PublishAnswer, PublishBody, RatingBody};
use crate::online::{Call, Identity, LevelQuery, OnlineClient, OnlineError};

/// A request on its way, as the client's call.
enum Pending {
    Page(Call<LevelList>),
    Detail(Call<LevelInfo>),
    Text(Call<String>),
    Publish(Call<PublishAnswer>),
    Rate(Call<crate::online::client::RatedAnswer>),
    /// Ended before it was sent (no identity for a signed write): its answer.
    Answered(Result<LevelsReply, String>),
}

pub struct ClientLevels {
    client: OnlineClient,
    identity: Option<Identity>,
    pending: Vec<(RequestId, Pending)>,
    next_id: RequestId,
}

impl ClientLevels {
    /// The levels of the server `client` talks to, written (published, rated) as `identity`.
    pub fn new(client: OnlineClient, identity: Option<Identity>) -> ClientLevels {
        ClientLevels {
            client,
            identity,
            pending: Vec::new(),
            next_id: 0,
        }
    }

    /// Signs later writes as `identity` (the player named themselves).
    pub fn set_identity(&mut self, identity: Option<Identity>) {
        self.identity = identity;
    }

    fn call(&mut self, request: LevelsRequest) -> Pending {
        let no_identity = || {
            Pending::Answered(Err(
                "choose a name for online play first (Settings: Online)".into(),
            ))
        };
        match request {
            LevelsRequest::Browse(query) => {
                let search = (!query.search.is_empty()).then_some(query.search);
                Pending::Page(self.client.levels(&LevelQuery {
                    sort: Some(query.sort.query_value().to_owned()),
                    search,
                    limit: Some(LEVELS_PER_PAGE as u32),
                    offset: Some((query.page * LEVELS_PER_PAGE) as u32),
                }))
            }
            LevelsRequest::Detail { hash } => Pending::Detail(self.client.level(&hash)),
            LevelsRequest::Text { hash } => Pending::Text(self.client.level_text(&hash)),
            LevelsRequest::Publish {
                text,
                replay,
                ticks,
            } => match &self.identity {
                Some(identity) => Pending::Publish(self.client.publish(
                    identity,
                    &PublishBody {
                        text,
                        replay,
                        ticks,
                    },
                )),
                None => no_identity(),
            },
            LevelsRequest::Rate {
                hash,
                rating,
                difficulty,
            } => match &self.identity {
                Some(identity) => Pending::Rate(self.client.rate(
                    identity,
                    &hash,
                    &RatingBody { rating, difficulty },
                )),
                None => no_identity(),
            },
        }
    }
}

/// A failure as the screens show it: the server's words, and its refusal code when it refused
/// (`assisted_author_run`, `already_rated`: stable, so tests and players can tell them apart).
fn said(error: OnlineError) -> String {
    match error.code() {
        Some(code) => format!("{error} ({code})"),
        None => error.to_string(),
    }
}

/// The service's level as the list shows it (counts below zero read as zero).
pub fn summary_of(level: LevelInfo) -> LevelSummary {
    let count = |n: i64| n.max(0) as u64;
    LevelSummary {
        hash: level.hash,
        name: level.name,
        author: level.author,
        plays: count(level.plays),
        finishes: count(level.finishes),
        clear_rate: level.clear_rate,
        author_ticks: count(level.author_ticks),
        rating: level.rating,
        difficulty: level.difficulty,
        record: level.record.map(|record| LevelRecord {
            run: record.run,
            ticks: count(record.ticks),
            name: record.name,
        }),
    }
}

impl LevelsOnline for ClientLevels {
    fn start(&mut self, request: LevelsRequest) -> RequestId {
        self.next_id += 1;
        let pending = self.call(request);
        self.pending.push((self.next_id, pending));
        self.next_id
    }

    fn poll(&mut self, id: RequestId) -> Option<Result<LevelsReply, String>> {
        let at = self.pending.iter().position(|(i, _)| *i == id)?;
        if matches!(self.pending[at].1, Pending::Answered(_)) {
            if let (_, Pending::Answered(answer)) = self.pending.remove(at) {
                return Some(answer);
            }
        }
        let client = &mut self.client;
        let answer = match &mut self.pending[at].1 {
            Pending::Page(call) => client.poll(call).map(|answer| {
                answer.map(|list| {
                    LevelsReply::Page(list.levels.into_iter().map(summary_of).collect())
                })
            }),
            Pending::Detail(call) => client
                .poll(call)
                .map(|answer| answer.map(|level| LevelsReply::Detail(summary_of(level)))),
            Pending::Text(call) => client
                .poll(call)
                .map(|answer| answer.map(LevelsReply::Text)),
            Pending::Publish(call) => client.poll(call).map(|answer| {
                answer.map(|published| LevelsReply::Published {
                    hash: published.hash,
                })
            }),
            Pending::Rate(call) => client
                .poll(call)
                .map(|answer| answer.map(|_| LevelsReply::Rated)),
            Pending::Answered(_) => None,
        }?;
        self.pending.remove(at);
        Some(answer.map_err(said))
    }
}
