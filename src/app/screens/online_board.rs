//! A level's board on Tether Online, opened from the level-complete screen, the level select
//! (R / gamepad Y on a level) and an online level's detail: the record, the player's rank and
//! percentile, the runs around theirs with names, and their medal. It is a screen the player
//! leaves at any time; loading, online off and failures are lines on it, never a wait for play.
//!
//! A player without a name is asked for one first (`online_name.rs`); after a finish the board
//! is asked for once the run has settled (on the board, or refused), so it shows that run.

use tether_online_proto::wire::{AroundAnswer, BoardAnswer, BoardEntry};

use super::online_name::NameEntryScreen;
use super::online_panel::Panel;
use super::{Ctx, Screen, Transition};
use crate::app::input::Action;
use crate::app::render::hud::draw_title_screen_backdrop;
use crate::app::{log_line, palette};
use crate::campaign::format_time;
use crate::online::client::MEDAL_NAMES;
use crate::online::queue::rank_text;
use crate::online::{Call, MedalsAnswer, OnlineError};
use crate::sim::limits::printable;

/// Runs shown either side of the player's.
const AROUND: u32 = 2;
/// Frames a menu script waits at most for the board to load (30 s at 60 frames a second): a
/// server that never settles the run must not hang a scripted game.
const SCRIPT_WAIT_MAX_FRAMES: u32 = 1800;

/// One answer the board waits for.
enum Load<T> {
    NotAsked,
    Loading(Call<T>),
    Done(Result<T, String>),
}

impl<T> Load<T> {
    fn poll(&mut self, ctx: &mut Ctx) {
        let Load::Loading(call) = self else { return };
        let Some(client) = ctx.online.client_if_on() else {
            return;
        };
        if let Some(result) = client.poll(call) {
            *self = Load::Done(result.map_err(|err| describe(&err)));
        }
    }

    fn is_loading(&self) -> bool {
        matches!(self, Load::Loading(_))
    }
}

/// A failure in the board's words: no run of the player's is not a failure.
fn describe(err: &OnlineError) -> String {
    match err.code() {
        Some("not_found") => "no run of yours on this board yet".into(),
        _ => format!("cannot load: {err}"),
    }
}

pub struct BoardScreen {
    level_file: String,
    level_hash: String,
    title: String,
    asked_name: bool,
    top: Load<BoardAnswer>,
    mine: Load<AroundAnswer>,
    medals: Load<MedalsAnswer>,
    logged: bool,
    /// Frames spent waiting for the run to settle or the answers to come (see `awaits_online`).
    waited_frames: u32,
}

impl BoardScreen {
    /// The board of the level with this hash (`level_file`: its name in the log).
    pub fn new(level_file: &str, level_hash: &str, title: &str) -> BoardScreen {
        BoardScreen {
            level_file: level_file.to_owned(),
            level_hash: level_hash.to_owned(),
            title: title.to_owned(),
            asked_name: false,
            top: Load::NotAsked,
            mine: Load::NotAsked,
            medals: Load::NotAsked,
            logged: false,
            waited_frames: 0,
        }
    }

    /// The board of the level in play (or just finished).
    pub fn of_level(ctx: &Ctx) -> Option<BoardScreen> {
        let file = ctx.level_file();
        let text = file.text.as_ref().ok()?;
        let hash = tether_online_proto::level_hash(text);
        Some(BoardScreen::new(&file.name, &hash, &file.title))
    }

    /// Asks for the board, the player's place and medals (online only; after a finish, once
    /// the run has settled).
    fn ask(&mut self, ctx: &mut Ctx) {
        if !matches!(self.top, Load::NotAsked) || ctx.online.is_settling() {
            return;
        }
        let key = ctx.online.named_player_key();
        let Some(client) = ctx.online.client_if_on() else {
            return;
        };
        self.top = Load::Loading(client.board(&self.level_hash, 1));
        if let Some(key) = key {
            self.mine = Load::Loading(client.around(&self.level_hash, &key, AROUND));
            self.medals = Load::Loading(client.medals(&key));
        }
    }

    fn log_once(&mut self) {
        let busy = self.top.is_loading() || self.mine.is_loading() || self.medals.is_loading();
        if self.logged || busy || matches!(self.top, Load::NotAsked) {
            return;
        }
        self.logged = true;
        log_line(&format!(
            "board: {}: {}",
            self.level_file,
            self.lines().join("; ")
        ));
    }

    /// What the board says, line by line.
    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match &self.top {
            Load::NotAsked => {}
            Load::Loading(_) => lines.push("loading the board...".into()),
            Load::Done(Err(problem)) => lines.push(problem.clone()),
            Load::Done(Ok(board)) => lines.push(match board.entries.first() {
                Some(record) => format!("record {}", entry_text(record)),
                None => "no runs on this board yet".into(),
            }),
        }
        match &self.mine {
            Load::NotAsked => {}
            Load::Loading(_) => lines.push("finding your place...".into()),
            Load::Done(Err(problem)) => lines.push(problem.clone()),
            Load::Done(Ok(place)) => lines.extend(place_lines(place)),
        }
        if let Load::Done(Ok(medals)) = &self.medals {
            lines.push(medal_line(medals, &self.level_hash));
        }
        lines
    }
}

/// `#3 Ada 0:01.47`.
fn entry_text(entry: &BoardEntry) -> String {
    format!(
        "#{} {} {}",
        entry.rank,
        printable(&entry.name),
        format_time(entry.ticks.max(0) as u64)
    )
}

/// The player's rank and percentile, then the runs around theirs (theirs marked).
fn place_lines(place: &AroundAnswer) -> Vec<String> {
    let mut lines = vec![format!(
        "you: {} (top {:.0}%) in {}",
        rank_text(place.rank, Some(place.of)),
        place.top_percent.clamp(0.0, 100.0),
        format_time(place.ticks.max(0) as u64)
    )];
    for entry in &place.around {
        let marker = if entry.rank == place.rank { "> " } else { "  " };
        lines.push(format!("{marker}{}", entry_text(entry)));
    }
    lines
}

/// The player's medal on this level and how many they hold in all.
fn medal_line(medals: &MedalsAnswer, level_hash: &str) -> String {
    let here = medals
        .medals
        .iter()
        .find(|(level, _)| level == level_hash)
        .map_or("no medal here".to_owned(), |(_, medal)| {
            format!("{} medal here", printable(medal))
        });
    let counts: Vec<String> = (medals.counts.iter().zip(MEDAL_NAMES))
        .map(|(count, name)| format!("{count} {name}"))
        .collect();
    format!("{here}; medals: {}", counts.join(", "))
}

impl Screen for BoardScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        let actions = ctx.input.actions;
        if actions.pressed(Action::MenuBack) || actions.pressed(Action::MenuConfirm) {
            return Transition::Pop;
        }
        if !ctx.online.profile.enabled {
            return Transition::Stay;
        }
        if ctx.online.profile.name.is_none() && !self.asked_name && !ctx.online.name_pending() {
            self.asked_name = true;
            return Transition::Push(Box::new(NameEntryScreen::new(ctx)));
        }
        self.ask(ctx);
        self.top.poll(ctx);
        self.mine.poll(ctx);
        self.medals.poll(ctx);
        self.log_once();
        let waiting = ctx.online.is_settling()
            || self.top.is_loading()
            || self.mine.is_loading()
            || self.medals.is_loading();
        self.waited_frames = if waiting && !self.logged {
            self.waited_frames.saturating_add(1)
        } else {
            0
        };
        Transition::Stay
    }

    fn awaits_online(&self) -> bool {
        (1..SCRIPT_WAIT_MAX_FRAMES).contains(&self.waited_frames)
    }

    fn draw(&self, ctx: &mut Ctx, on_top: bool) {
        if ctx.level.session.is_none() {
            draw_title_screen_backdrop();
        }
        if !on_top {
            return;
        }
        let mut panel = Panel::default();
        panel.line(printable(&self.title), false);
        if !ctx.online.profile.enabled {
            panel.stress("Online is off: turn it on in Online, on the title.");
        } else if matches!(self.top, Load::NotAsked) {
            panel.say("waiting for your run to reach the server...");
        }
        for line in self.lines() {
            let mine = line.starts_with("> ") || line.starts_with("you:");
            panel.line(line, mine);
        }
        panel.blank();
        panel.say("Enter / Esc: back");
        panel.draw("Board", palette::GOAL);
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some(format!("board {}", self.level_file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(rank: i64, name: &str, ticks: i64) -> BoardEntry {
        BoardEntry {
            rank,
            player: format!("{rank:064x}"),
            name: name.into(),
            ticks,
            run: rank,
        }
    }

    #[test]
    fn the_board_says_record_rank_percentile_neighbours_and_medals() {
        let mut board = BoardScreen::new("01.ron", "ab", "First swing");
        board.top = Load::Done(Ok(BoardAnswer {
            entries: vec![entry(1, "Ada", 177)],
        }));
        board.mine = Load::Done(Ok(AroundAnswer {
            rank: 2,
            of: 3,
            top_percent: 66.7,
            ticks: 180,
            run: 2,
            around: vec![entry(1, "Ada", 177), entry(2, "Bob\u{202e}", 180)],
        }));
        let medals = r#"{"counts":{"gold":1},"medals":[{"level":"ab","medal":"gold"}]}"#;
        board.medals = Load::Done(Ok(miniserde::json::from_str(medals).unwrap()));
        let lines = board.lines();
        assert_eq!(lines[0], "record #1 Ada 0:01.47");
        assert_eq!(lines[1], "you: rank 2 of 3 (top 67%) in 0:01.50");
        assert_eq!(lines[2], "  #1 Ada 0:01.47");
        assert!(lines[3].starts_with("> #2 Bob"), "{}", lines[3]);
        assert!(!lines[3].contains('\u{202e}'));
        assert!(lines[4].starts_with("gold medal here; medals: 0 author, 1 gold"));
    }

    #[test]
    fn no_run_of_mine_is_said_as_such() {
        let not_found = OnlineError::Refused {
            status: 404,
            code: "not_found".into(),
            message: "no such run".into(),
        };
        assert_eq!(describe(&not_found), "no run of yours on this board yet");
        let down = OnlineError::Http(crate::online::http::HttpFailure::Unreachable(
            "refused".into(),
        ));
        assert!(describe(&down).starts_with("cannot load: "));
    }
}
