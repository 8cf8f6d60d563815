//! The recovery code: shown in full, in groups (and put on the clipboard), or a
//! code typed in to bring a key to this device. A typed code is checked before anything is
//! replaced (its length, a bad character at position N, the checksum), and replacing a key
//! the device has is confirmed first. After an import the server is asked for the key's name.

use tether_online_proto::recovery;

use self::clipboard::Clipboard;
use super::online_panel::Panel;
use super::text_entry::{picker_lines, TextEntry, Typed, CODE_PICKER_CHARS};
use super::{Ctx, Screen, Transition};
use crate::app::input::Action;
use crate::app::log_line;
use crate::app::palette;
use crate::app::render::hud::draw_title_screen_backdrop;
use crate::sim::limits::printable;

/// Longest code typed (55 characters, with room for spaces and dashes between groups).
const MAX_CODE_CHARS: usize = 80;
/// Groups of the code drawn on one line.
const GROUPS_PER_LINE: usize = 4;

enum Mode {
    /// The code (none: no key yet), and where copying it to the clipboard stands.
    Show(Option<String>, Option<Clipboard>),
    Import(TextEntry),
    /// A good code, waiting for "yes, replace my key".
    Confirm(String),
    /// Imported: the name is being looked up.
    Imported,
}

pub struct RecoveryScreen {
    mode: Mode,
    problem: Option<String>,
}

impl RecoveryScreen {
    pub fn show(ctx: &Ctx) -> RecoveryScreen {
        let code = ctx.online.profile.recovery_code();
        let copy = code.as_deref().map(clipboard::start);
        if let Some(settled) = copy.filter(|&c| c != Clipboard::Copying) {
            log_line(settled.log_line());
        }
        RecoveryScreen {
            mode: Mode::Show(code, copy),
            problem: None,
        }
    }

    pub fn import() -> RecoveryScreen {
        RecoveryScreen {
            mode: Mode::Import(TextEntry::new("", MAX_CODE_CHARS).with_picker(CODE_PICKER_CHARS)),
            problem: None,
        }
    }

    fn replace_key(&mut self, ctx: &mut Ctx, code: &str) {
        match ctx.online.import_recovery_code(code) {
            Ok(()) => {
                log_line("online: recovery code imported");
                ctx.refresh_levels_online();
                self.mode = Mode::Imported;
            }
            Err(problem) => self.problem = Some(problem),
        }
    }

    fn type_code(&mut self, ctx: &mut Ctx) -> Transition {
        let Mode::Import(entry) = &mut self.mode else {
            return Transition::Stay;
        };
        match entry.update(&ctx.input.typed, &ctx.input.actions) {
            Typed::Editing => Transition::Stay,
            Typed::Cancel => Transition::Pop,
            Typed::Submit(code) => {
                if let Err(problem) = recovery::decode(&code) {
                    self.problem = Some(problem.to_string());
                } else if ctx.online.profile.identity().is_some() {
                    self.problem = None;
                    self.mode = Mode::Confirm(code);
                } else {
                    self.replace_key(ctx, &code);
                }
                Transition::Stay
            }
        }
    }

    fn panel(&self, ctx: &Ctx) -> Panel {
        let mut panel = Panel::default();
        match &self.mode {
            Mode::Show(None, _) => panel.say("No key on this device yet: go online first."),
            Mode::Show(Some(code), copied) => {
                panel.say("Write this down: it brings your name and runs");
                panel.say("to another device (keep it secret).");
                panel.blank();
                for line in code_lines(code) {
                    panel.line(line, true);
                }
                if let Some(copy) = copied {
                    panel.blank();
                    panel.say(copy.shown());
                }
            }
            Mode::Import(entry) => {
                panel.say("Type your recovery code (11 groups of 5):");
                panel.line(entry.shown(), true);
                panel.extend(picker_lines(entry, ctx.input.last_device));
            }
            Mode::Confirm(_) => {
                let name = ctx.online.profile.name.as_deref().unwrap_or("no name");
                panel.line(
                    format!("Replace this device's key ({})?", printable(name)),
                    true,
                );
                panel.say("Show its code first if you may want it back.");
                panel.say("Enter: replace it   Esc: keep it");
            }
            Mode::Imported => match (&ctx.online.profile.name, ctx.online.name_pending()) {
                (Some(name), _) => {
                    panel.line(format!("Imported: you are {}", printable(name)), false)
                }
                (None, true) => panel.say("Imported: asking the server for your name..."),
                (None, false) => panel.say("Imported (the name is asked for when online is on)"),
            },
        }
        if let Some(problem) = &self.problem {
            panel.stress(problem);
        }
        if matches!(self.mode, Mode::Show(..) | Mode::Imported) {
            panel.blank();
            panel.say("Enter / Esc: back");
        }
        panel
    }
}

/// The code in groups of five, `GROUPS_PER_LINE` groups a line.
fn code_lines(code: &str) -> Vec<String> {
    let groups: Vec<&str> = code.split('-').collect();
    groups
        .chunks(GROUPS_PER_LINE)
        .map(|line| line.join(" "))
        .collect()
}

/// The clipboard: miniquad's on the desktop (a call, done at once, then read back: the call
/// itself says nothing of whether the system took the text); in the browser
/// `navigator.clipboard.writeText` through web/net_plugin.js, which answers later and which the
/// page may refuse (no user gesture, no permission, not a secure context). A refusal, or no
/// answer within the plugin's timeout, is a line on the screen: write the code down.
mod clipboard {
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Clipboard {
        Copying,
        Copied,
        Refused,
    }

    impl Clipboard {
        pub fn shown(self) -> &'static str {
            match self {
                Clipboard::Copying => "(copying to the clipboard...)",
                Clipboard::Copied => "(copied to the clipboard)",
                Clipboard::Refused => "(it could not go on the clipboard: write the code down)",
            }
        }

        /// What the scripts read (the browser test compares the clipboard with the code).
        pub fn log_line(self) -> &'static str {
            match self {
                Clipboard::Copying => "online: copying the recovery code to the clipboard",
                Clipboard::Copied => "online: recovery code copied to the clipboard",
                Clipboard::Refused => "online: the clipboard refused the recovery code",
            }
        }
    }

    /// Copied only if the clipboard reads back the text written: with no clipboard (no
    /// display server's selection, a sandbox) the write is lost without a word.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(text: &str) -> Clipboard {
        use macroquad::miniquad::window::{clipboard_get, clipboard_set};
        clipboard_set(text);
        if clipboard_get().as_deref() == Some(text) {
            Clipboard::Copied
        } else {
            Clipboard::Refused
        }
    }

    /// The desktop answers with the write (`start`), so nothing is ever on its way to poll;
    /// were it asked, no answer counts as a refusal, as the page's timeout does.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn poll() -> Clipboard {
        Clipboard::Refused
    }

    #[cfg(target_arch = "wasm32")]
    extern "C" {
        // web/net_plugin.js
        fn tether_clipboard_write(ptr: *const u8, len: u32);
        fn tether_clipboard_state() -> u32;
    }

    #[cfg(target_arch = "wasm32")]
    pub fn start(text: &str) -> Clipboard {
        // SAFETY: the plugin reads `len` bytes of UTF-8 at `ptr` before returning.
        unsafe { tether_clipboard_write(text.as_ptr(), text.len() as u32) };
        poll()
    }

    /// The last write's state: 0 on its way, 1 copied, anything else refused.
    #[cfg(target_arch = "wasm32")]
    pub fn poll() -> Clipboard {
        // SAFETY: a plain call into the page's plugin.
        match unsafe { tether_clipboard_state() } {
            0 => Clipboard::Copying,
            1 => Clipboard::Copied,
            _ => Clipboard::Refused,
        }
    }
}

impl Screen for RecoveryScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if let Mode::Show(_, Some(copy @ Clipboard::Copying)) = &mut self.mode {
            *copy = clipboard::poll();
            if *copy != Clipboard::Copying {
                log_line(copy.log_line());
            }
        }
        let actions = ctx.input.actions;
        match &self.mode {
            Mode::Import(_) => self.type_code(ctx),
            Mode::Confirm(code) if actions.pressed(Action::MenuConfirm) => {
                let code = code.clone();
                self.replace_key(ctx, &code);
                Transition::Stay
            }
            _ if actions.pressed(Action::MenuBack) || actions.pressed(Action::MenuConfirm) => {
                Transition::Pop
            }
            _ => Transition::Stay,
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        draw_title_screen_backdrop();
        self.panel(ctx).draw("Recovery code", palette::ROPE);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("online recovery code".into())
    }

    fn wants_next_press(&self) -> bool {
        matches!(self.mode, Mode::Import(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_shown_in_groups_of_five_four_a_line() {
        let code = recovery::encode(&[7u8; 32]);
        let lines = code_lines(&code);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].split(' ').count(), 4);
        assert!(lines
            .iter()
            .flat_map(|l| l.split(' '))
            .all(|g| g.len() == 5));
        assert_eq!(lines.concat().replace(' ', ""), code.replace('-', ""));
    }

    #[test]
    fn a_bad_code_says_what_is_wrong_and_keeps_the_key() {
        use crate::online::service::OnlineService;
        use crate::platform::store::Store;
        let (mut online, _) = OnlineService::load(Store::memory(), None);
        let key = online.profile.identity_or_new().unwrap().public_key_hex();
        let good = recovery::encode(&[9u8; 32]);
        let short = &good[..20];
        let bad_char = format!("U{}", &good[1..]);
        let mut typo: Vec<char> = good.chars().collect();
        typo[0] = if typo[0] == 'A' { 'B' } else { 'A' };
        let typo: String = typo.into_iter().collect();
        let said =
            |online: &mut OnlineService, code: &str| online.import_recovery_code(code).unwrap_err();
        assert!(said(&mut online, short).contains("this one has 17"));
        assert!(said(&mut online, &bad_char).starts_with("character 1 (U)"));
        assert!(said(&mut online, &typo).contains("mistyped"));
        let kept = online.profile.identity().unwrap().public_key_hex();
        assert_eq!(kept, key, "a refused code replaced the key");
        online.import_recovery_code(&good.to_lowercase()).unwrap();
        let now = online.profile.identity().unwrap().public_key_hex();
        assert_ne!(now, key);
        // Online is off: the name is not looked up (no request).
        assert!(!online.name_pending());
    }
}
