//! Online settings, from the title: online on or off (off: the game makes no request at all),
//! the display name, the server's address (desktop; `--server URL` wins over it, the browser
//! uses the page's own site), and the recovery code shown or imported (`online_recovery.rs`).

use super::online_name::NameEntryScreen;
use super::online_panel::Panel;
use super::online_recovery::RecoveryScreen;
use super::text_entry::{TextEntry, Typed};
use super::{Ctx, Screen, Transition};
use crate::app::render::hud::draw_title_screen_backdrop;
use crate::app::{log_line, menus, palette};
use crate::sim::limits::printable;

/// Longest server address typed.
const MAX_SERVER_CHARS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SettingsItem {
    OnOff,
    Name,
    Server,
    ShowCode,
    ImportCode,
    Back,
}

const ITEMS: [SettingsItem; 6] = [
    SettingsItem::OnOff,
    SettingsItem::Name,
    SettingsItem::Server,
    SettingsItem::ShowCode,
    SettingsItem::ImportCode,
    SettingsItem::Back,
];

#[derive(Default)]
pub struct OnlineSettingsScreen {
    selected: usize,
    /// The server's address being typed.
    server_entry: Option<TextEntry>,
    /// The last thing said (a save that failed, why the server cannot be changed).
    message: Option<String>,
    /// Online was turned on with a key but no name: the server is asked for the key's name,
    /// and the player names themselves if it has none.
    looking_up: bool,
}

impl OnlineSettingsScreen {
    fn choose(&mut self, ctx: &mut Ctx, item: SettingsItem) -> Transition {
        self.message = None;
        match item {
            SettingsItem::OnOff if ctx.online.profile.enabled => {
                self.message = ctx.online.go_offline().err();
                log_line("online: off");
                ctx.refresh_levels_online();
                Transition::Stay
            }
            SettingsItem::OnOff => {
                self.message = ctx.online.turn_on().err();
                log_line("online: on");
                ctx.refresh_levels_online();
                // A new player (no key, no name) names themselves now; an imported key's name
                // is being looked up (`returned` asks if the server has none).
                self.looking_up = ctx.online.name_pending();
                if ctx.online.profile.name.is_none() && !self.looking_up {
                    return Transition::Push(Box::new(NameEntryScreen::new(ctx)));
                }
                Transition::Stay
            }
            SettingsItem::Name => Transition::Push(Box::new(NameEntryScreen::new(ctx))),
            SettingsItem::Server if ctx.options.server.is_some() => {
                self.message = Some("set by --server for this run".into());
                Transition::Stay
            }
            SettingsItem::Server if cfg!(target_arch = "wasm32") => {
                self.message = Some("the browser game talks to the site it came from".into());
                Transition::Stay
            }
            SettingsItem::Server => {
                let server = ctx.online.profile.server_url();
                self.server_entry = Some(TextEntry::new(&server, MAX_SERVER_CHARS));
                Transition::Stay
            }
            SettingsItem::ShowCode => Transition::Push(Box::new(RecoveryScreen::show(ctx))),
            SettingsItem::ImportCode => Transition::Push(Box::new(RecoveryScreen::import())),
            SettingsItem::Back => Transition::Pop,
        }
    }

    fn type_server(&mut self, ctx: &mut Ctx) {
        let Some(entry) = &mut self.server_entry else {
            return;
        };
        match entry.update(&ctx.input.typed, &ctx.input.actions) {
            Typed::Editing => return,
            Typed::Cancel => {}
            Typed::Submit(server) => {
                let server = server.trim();
                let is_address = server.starts_with("http://") || server.starts_with("https://");
                if !(server.is_empty() || is_address) {
                    self.message = Some("a server address starts with http:// or https://".into());
                    return;
                }
                self.message = ctx.online.set_server(server).err();
                ctx.refresh_levels_online();
            }
        }
        self.server_entry = None;
    }

    fn item_text(&self, ctx: &Ctx, item: SettingsItem) -> String {
        let profile = &ctx.online.profile;
        match item {
            SettingsItem::OnOff if profile.enabled => "Online: on".into(),
            SettingsItem::OnOff => "Online: off (no request is made)".into(),
            SettingsItem::Name => match &profile.name {
                Some(name) => format!("Name: {}", printable(name)),
                None if ctx.online.name_pending() => "Name: asking the server...".into(),
                None => "Name: none yet".into(),
            },
            SettingsItem::Server => match &self.server_entry {
                Some(entry) => format!("Server: {}", entry.shown()),
                None if profile.server_url().is_empty() => "Server: this page's site".into(),
                None => format!("Server: {}", printable(&profile.server_url())),
            },
            SettingsItem::ShowCode => "Show my recovery code".into(),
            SettingsItem::ImportCode => "Import a recovery code".into(),
            SettingsItem::Back => "Back".into(),
        }
    }
}

impl Screen for OnlineSettingsScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        if self.server_entry.is_some() {
            self.type_server(ctx);
            return Transition::Stay;
        }
        if self.looking_up && !ctx.online.name_pending() {
            self.looking_up = false;
            let unnamed = ctx.online.profile.enabled && ctx.online.profile.name.is_none();
            if unnamed && ctx.online.registration_problem().is_none() {
                return Transition::Push(Box::new(NameEntryScreen::new(ctx)));
            }
            self.returned(ctx);
        }
        if ctx
            .input
            .actions
            .pressed(crate::app::input::Action::MenuBack)
        {
            return Transition::Pop;
        }
        if menus::navigate(&ctx.input.actions, &mut self.selected, ITEMS.len()) {
            return self.choose(ctx, ITEMS[self.selected]);
        }
        Transition::Stay
    }

    fn returned(&mut self, ctx: &mut Ctx) {
        if let Some(why) = ctx.online.registration_problem() {
            self.message = Some(why.to_owned());
        }
    }

    fn draw(&self, ctx: &mut Ctx, _on_top: bool) {
        draw_title_screen_backdrop();
        let items: Vec<String> = ITEMS.iter().map(|&i| self.item_text(ctx, i)).collect();
        let mut panel = Panel::default();
        panel.menu(&items, self.selected);
        panel.blank();
        match (&self.server_entry, &self.message) {
            (Some(_), Some(_)) => panel.stress("type the address   Enter: keep it   Esc: leave it"),
            (Some(_), None) => panel.say("type the address   Enter: keep it   Esc: leave it"),
            (None, Some(message)) => panel.stress(message),
            (None, None) => panel.say("Up/Down: choose   Enter: change   Esc: back"),
        }
        panel.draw("Online", palette::ROPE);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("online settings".into())
    }

    fn wants_next_press(&self) -> bool {
        self.server_entry.is_some()
    }
}
