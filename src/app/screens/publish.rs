//! Publishing one of "My levels": pushed over the list once the level's kept finishing run
//! matches its text (`publish_proof.rs`), it uploads the text with that run and says how it
//! went: the level's online link, or why the service refused it.

use super::online_levels_service::{LevelsReply, LevelsRequest, RequestId};
use super::online_panel::Panel;
use super::publish_proof::{readiness, Readiness};
use super::{Ctx, Screen, Transition};
use crate::app::input::Action;
use crate::app::render::hud::{draw_title_screen_backdrop, format_time};
#[cfg(target_arch = "wasm32")]
use crate::app::web;
use crate::app::{log_line, palette};
use crate::editor::online_link::online_link;

/// Where an upload stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishState {
    Sending(RequestId),
    /// On the service under this hash.
    Published {
        hash: String,
    },
    /// Refused or not delivered: why.
    Failed(String),
}

pub struct PublishScreen {
    name: String,
    title: String,
    ticks: u64,
    state: PublishState,
}

/// Whether the shelf level `name` can be published now, from its text and its kept run.
pub fn publish_readiness(ctx: &Ctx, name: &str) -> Result<Readiness, String> {
    let text = ctx.shelf.load(name).map_err(|e| e.to_string())?;
    Ok(readiness(&text, ctx.proofs.load(name)))
}

impl PublishScreen {
    /// Starts uploading the shelf level `name` with its finishing run; `Err` says what is
    /// missing when it is not ready (nothing is sent then).
    pub fn start(ctx: &mut Ctx, name: &str) -> Result<PublishScreen, String> {
        let text = ctx.shelf.load(name).map_err(|e| e.to_string())?;
        let proof = match readiness(&text, ctx.proofs.load(name)) {
            Readiness::Ready(proof) => proof,
            not_ready => {
                return Err(format!(
                    "not published: {}",
                    not_ready.missing().unwrap_or_default()
                ))
            }
        };
        let title = crate::app::level_shelf::linked_title(&text);
        ctx.refresh_levels_online();
        let ticks = proof.ticks;
        let id = ctx.levels_online.start(LevelsRequest::Publish {
            text,
            replay: proof.replay,
            ticks,
        });
        log_line(&format!("publish: {name} ({ticks} ticks) sent"));
        Ok(PublishScreen {
            name: name.to_owned(),
            title,
            ticks,
            state: PublishState::Sending(id),
        })
    }

    fn panel(&self) -> Panel {
        let mut panel = Panel::default();
        panel.line(
            format!(
                "{}   (your time {})",
                crate::sim::limits::printable(&self.title),
                format_time(self.ticks)
            ),
            false,
        );
        match &self.state {
            PublishState::Sending(_) => panel.say("sending it with your finishing run..."),
            PublishState::Published { hash } => {
                panel.say("published: everyone can find and play it");
                panel.line(format!("its link: {}", online_link(hash)), false);
            }
            PublishState::Failed(message) => panel.line(format!("not published: {message}"), true),
        }
        panel.blank();
        panel.say("Esc / Enter: back to My levels");
        panel
    }
}

impl Screen for PublishScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let PublishState::Sending(id) = self.state {
            if let Some(answer) = ctx.levels_online.poll(id) {
                self.state = match answer {
                    Ok(LevelsReply::Published { hash }) => {
                        // In the browser the link is put in the address bar, to copy.
                        #[cfg(target_arch = "wasm32")]
                        web::show_level_link(&online_link(&hash));
                        PublishState::Published { hash }
                    }
                    Ok(other) => PublishState::Failed(other.unexpected()),
                    Err(message) => PublishState::Failed(message),
                };
                let said = match &self.state {
                    PublishState::Published { hash } => format!("published as {hash}"),
                    PublishState::Failed(message) => format!("not published: {message}"),
                    PublishState::Sending(_) => "sending".into(),
                };
                log_line(&format!("publish: {}: {said}", self.name));
            }
            return Transition::Stay;
        }
        let actions = &ctx.input.actions;
        if actions.pressed(Action::MenuBack) || actions.pressed(Action::MenuConfirm) {
            return Transition::Pop;
        }
        Transition::Stay
    }

    fn draw(&self, _ctx: &mut Ctx, _on_top: bool) {
        draw_title_screen_backdrop();
        self.panel().draw("Publish", palette::ROPE);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("publish".into())
    }
}
