//! The name-entry screen: the display name the player goes online under. Shown the first time
//! online is turned on or a board is opened without a name, and from the Online settings. The
//! name is checked here first (1-24 characters, nothing invisible or bidirectional), then sent;
//! a name the server refuses (409 `taken`) is asked for again with the server's reason.

use super::online_panel::Panel;
use super::text_entry::{picker_lines, TextEntry, Typed, NAME_PICKER_CHARS};
use super::{Ctx, Screen, Transition};
use crate::app::render::hud::draw_title_screen_backdrop;
use crate::app::{log_line, palette};
use crate::online::profile::check_name;

/// The longest display name the server takes.
pub const MAX_NAME_CHARS: usize = 24;

pub struct NameEntryScreen {
    entry: TextEntry,
    /// Why the last name was not accepted (ours or the server's words).
    problem: Option<String>,
    /// The name sent, while the server is asked.
    sent: Option<String>,
}

impl NameEntryScreen {
    pub fn new(ctx: &Ctx) -> NameEntryScreen {
        let current = ctx.online.profile.name.as_deref().unwrap_or("");
        NameEntryScreen {
            entry: name_entry(current),
            problem: None,
            sent: None,
        }
    }

    /// The server's answer to the name sent: back where the player came from once it is taken.
    fn wait_for_server(&mut self, ctx: &mut Ctx, sent: String) -> Transition {
        if ctx.online.name_pending() {
            self.sent = Some(sent);
            return Transition::Stay;
        }
        if let Some(why) = ctx.online.registration_problem() {
            log_line(&format!("online: name {sent:?} refused: {why}"));
            self.problem = Some(format!("\"{sent}\" was not accepted: {why}"));
            // Asked again from an empty line: the refused name is quoted above.
            self.entry = name_entry("");
            return Transition::Stay;
        }
        ctx.refresh_levels_online();
        Transition::Pop
    }

    fn submit(&mut self, ctx: &mut Ctx, name: String) -> Transition {
        if let Err(problem) = check_name(&name) {
            self.problem = Some(format!("that name {problem}"));
            return Transition::Stay;
        }
        match ctx.online.go_online(&name) {
            Ok(()) => self.wait_for_server(ctx, name),
            Err(problem) => {
                self.problem = Some(problem);
                Transition::Stay
            }
        }
    }
}

/// The name's line, typed on a keyboard or picked with a gamepad.
fn name_entry(text: &str) -> TextEntry {
    TextEntry::new(text, MAX_NAME_CHARS).with_picker(NAME_PICKER_CHARS)
}

impl Screen for NameEntryScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let Some(sent) = self.sent.take() {
            return self.wait_for_server(ctx, sent);
        }
        match self.entry.update(&ctx.input.typed, &ctx.input.actions) {
            Typed::Editing => Transition::Stay,
            Typed::Cancel => Transition::Pop,
            Typed::Submit(name) => self.submit(ctx, name),
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        draw_title_screen_backdrop();
        let mut panel = Panel::default();
        panel.say("The name others see on the boards:");
        panel.blank();
        // A fixed-width field, so an empty one still shows where the name goes.
        panel.line(
            format!(
                "[ {:<width$} ]",
                self.entry.shown(),
                width = MAX_NAME_CHARS + 1
            ),
            true,
        );
        panel.blank();
        match (&self.sent, &self.problem) {
            (Some(sent), _) => panel.line(format!("asking the server for \"{sent}\"..."), false),
            (None, Some(problem)) => panel.stress(problem),
            (None, None) => panel.line(format!("1 to {MAX_NAME_CHARS} characters"), false),
        }
        panel.blank();
        panel.extend(picker_lines(&self.entry, ctx.input.last_device));
        panel.say("Enter: go online   Esc: back");
        panel.draw("Your name", palette::ROPE);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("online name".into())
    }

    fn wants_next_press(&self) -> bool {
        // M, the volume keys and F11 are letters being typed here.
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_checked_before_it_is_sent() {
        assert!(check_name("Ada").is_ok());
        assert!(check_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        assert!(check_name("Zoë 2").is_ok());
        let refused = |name: &str| check_name(name).unwrap_err();
        assert_eq!(refused(""), "is empty");
        assert_eq!(refused("   "), "is empty");
        assert!(refused(&"x".repeat(MAX_NAME_CHARS + 1)).contains("at most 24"));
        assert!(refused("Ada\u{202e}").contains("U+202E"));
        assert!(refused("A\tda").contains("U+0009"));
        assert!(refused(" Ada").contains("space"));
    }
}
