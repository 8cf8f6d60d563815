//! Rating an online level after finishing it: 1 to 5 stars and a difficulty vote of 1 to 5,
//! sent once (the service keeps one rating per player and level, and only after a verified
//! finish). Pushed over the level-complete screen; back returns to it.

use super::online_levels_service::{LevelsReply, LevelsRequest, RequestId};
use super::online_panel::Panel;
use super::{Ctx, Screen, Transition};
use crate::app::input::{Action, ActionFrame};
use crate::app::{log_line, menus, palette};

/// Lowest and highest rating and difficulty.
const SCORE_RANGE: std::ops::RangeInclusive<u8> = 1..=5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RateItem {
    Rating,
    Difficulty,
    Send,
    Back,
}

const RATE_ITEMS: [RateItem; 4] = [
    RateItem::Rating,
    RateItem::Difficulty,
    RateItem::Send,
    RateItem::Back,
];

/// Where the vote stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RateState {
    Choosing,
    Sending(RequestId),
    /// Kept by the service: nothing more to send.
    Sent,
    /// Refused or not delivered (the message says which); the vote may be sent again.
    Failed(String),
}

/// The vote as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateModel {
    pub hash: String,
    pub rating: u8,
    pub difficulty: u8,
    selected: usize,
    pub state: RateState,
}

/// What the model asks of the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RateOutcome {
    Stay,
    Back,
    Send { rating: u8, difficulty: u8 },
}

impl RateModel {
    pub fn new(hash: String) -> RateModel {
        RateModel {
            hash,
            rating: 3,
            difficulty: 3,
            selected: 0,
            state: RateState::Choosing,
        }
    }

    pub fn update(&mut self, actions: &ActionFrame) -> RateOutcome {
        if actions.pressed(Action::MenuBack) {
            return RateOutcome::Back;
        }
        let confirmed = menus::navigate(actions, &mut self.selected, RATE_ITEMS.len());
        let step = i16::from(actions.pressed(Action::MenuRight))
            - i16::from(actions.pressed(Action::MenuLeft));
        let change = |score: u8| {
            (i16::from(score) + step).clamp(
                i16::from(*SCORE_RANGE.start()),
                i16::from(*SCORE_RANGE.end()),
            ) as u8
        };
        let may_send = matches!(self.state, RateState::Choosing | RateState::Failed(_));
        match RATE_ITEMS[self.selected] {
            RateItem::Rating if may_send => self.rating = change(self.rating),
            RateItem::Difficulty if may_send => self.difficulty = change(self.difficulty),
            RateItem::Send if confirmed && may_send => {
                return RateOutcome::Send {
                    rating: self.rating,
                    difficulty: self.difficulty,
                }
            }
            RateItem::Back if confirmed => return RateOutcome::Back,
            _ => {}
        }
        RateOutcome::Stay
    }

    /// The panel's lines.
    pub fn panel(&self) -> Panel {
        let score = |n: u8| {
            format!(
                "{}{} {n}/5",
                "*".repeat(n.into()),
                ".".repeat((5 - n).into())
            )
        };
        let send = match &self.state {
            RateState::Choosing | RateState::Failed(_) => "Send",
            RateState::Sending(_) => "Sending...",
            RateState::Sent => "Sent: thank you",
        };
        let items = [
            format!("Rating:     < {} >", score(self.rating)),
            format!(
                "Difficulty: < {} >  (1 easy, 5 very hard)",
                score(self.difficulty)
            ),
            send.to_owned(),
            "Back".to_owned(),
        ];
        let mut panel = Panel::default();
        panel.menu(&items, self.selected);
        if let RateState::Failed(message) = &self.state {
            panel.blank();
            panel.line(format!("not rated: {message}"), true);
        }
        panel
    }
}

pub struct RateScreen {
    model: RateModel,
}

impl RateScreen {
    pub fn new(hash: String) -> RateScreen {
        RateScreen {
            model: RateModel::new(hash),
        }
    }
}

impl Screen for RateScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let RateState::Sending(id) = self.model.state {
            if let Some(answer) = ctx.levels_online.poll(id) {
                self.model.state = match answer {
                    Ok(LevelsReply::Rated) => RateState::Sent,
                    Ok(other) => RateState::Failed(other.unexpected()),
                    Err(message) => RateState::Failed(message),
                };
                log_line(&match &self.model.state {
                    RateState::Failed(message) => format!("rate: not sent: {message}"),
                    _ => "rate: sent".to_owned(),
                });
            }
        }
        match self.model.update(&ctx.input.actions) {
            RateOutcome::Stay => Transition::Stay,
            RateOutcome::Back => Transition::Pop,
            RateOutcome::Send { rating, difficulty } => {
                let id = ctx.levels_online.start(LevelsRequest::Rate {
                    hash: self.model.hash.clone(),
                    rating,
                    difficulty,
                });
                self.model.state = RateState::Sending(id);
                Transition::Stay
            }
        }
    }

    fn draw(&self, _ctx: &mut Ctx, _on_top: bool) {
        self.model.panel().draw("Rate this level", palette::ROPE);
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("rate".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vote_is_chosen_within_one_to_five_and_sent_once() {
        let mut model = RateModel::new("h".into());
        for _ in 0..4 {
            model.update(&ActionFrame::only_pressed(Action::MenuRight));
        }
        assert_eq!(model.rating, 5, "clamped at 5");
        model.update(&ActionFrame::only_pressed(Action::MenuDown));
        for _ in 0..4 {
            model.update(&ActionFrame::only_pressed(Action::MenuLeft));
        }
        assert_eq!(model.difficulty, 1, "clamped at 1");
        model.update(&ActionFrame::only_pressed(Action::MenuDown));
        assert_eq!(
            model.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            RateOutcome::Send {
                rating: 5,
                difficulty: 1
            }
        );
        model.state = RateState::Sending(1);
        assert_eq!(
            model.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            RateOutcome::Stay
        );
        model.state = RateState::Failed("the server is down".into());
        assert!(model
            .panel()
            .into_lines()
            .iter()
            .any(|(l, _)| l.contains("the server is down")));
        assert!(matches!(
            model.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            RateOutcome::Send { .. }
        ));
        model.state = RateState::Sent;
        assert_eq!(
            model.update(&ActionFrame::only_pressed(Action::MenuConfirm)),
            RateOutcome::Stay,
            "sent once"
        );
        model.update(&ActionFrame::only_pressed(Action::MenuUp));
        model.update(&ActionFrame::only_pressed(Action::MenuRight));
        assert_eq!(model.difficulty, 1, "a sent vote does not change");
        assert_eq!(
            model.update(&ActionFrame::only_pressed(Action::MenuBack)),
            RateOutcome::Back
        );
    }
}
