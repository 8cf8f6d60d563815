//! The Online levels screen, opened from the title: the list (`online_levels_list.rs`) driven
//! by the service (`ctx.levels_online`), and playing a level from it or from an online level link.
//! A level's text comes from the device's cache when it was played before (so it plays
//! offline), else from the service, checked against its hash and the level checks, then kept.

use super::online_board::BoardScreen;
use super::online_levels_cache::{is_level_hash, OnlineLevelError};
use super::online_levels_list::{
    row_text, ListItem, ListOutcome, Loading, OnlineLevelsList, DETAIL_ITEMS,
};
use super::online_levels_service::{BrowseQuery, LevelsReply, LevelsRequest, RequestId};
use super::online_panel::Panel;
use super::{Ctx, Screen, Transition};
use crate::app::menus::TitleItem;
use crate::app::render::hud::{draw_title_screen_backdrop, format_time};
use crate::app::{log_line, palette};

/// A level being fetched to play.
struct Opening {
    hash: String,
    request: RequestId,
}

pub struct OnlineLevelsScreen {
    list: OnlineLevelsList,
    page_request: Option<(RequestId, BrowseQuery)>,
    detail_request: Option<(RequestId, String)>,
    opening: Option<Opening>,
    /// The last thing refused (a level that cannot be played), under the list.
    message: Option<String>,
}

impl OnlineLevelsScreen {
    /// The list, its first page asked for.
    pub fn open(ctx: &mut Ctx) -> OnlineLevelsScreen {
        // Leaving an online level (or one of "My levels") puts the campaign back.
        ctx.leave_level();
        ctx.restore_campaign();
        ctx.refresh_levels_online();
        let (list, query) = OnlineLevelsList::open();
        let id = ctx
            .levels_online
            .start(LevelsRequest::Browse(query.clone()));
        OnlineLevelsScreen {
            list,
            page_request: Some((id, query)),
            detail_request: None,
            opening: None,
            message: None,
        }
    }

    /// The list, opening the level `hash` (an online level link): played as soon as its text
    /// is in; if it cannot be, the list says why.
    pub fn open_level(ctx: &mut Ctx, hash: String) -> (OnlineLevelsScreen, Transition) {
        let mut screen = OnlineLevelsScreen::open(ctx);
        let transition = screen.play(ctx, hash);
        (screen, transition)
    }

    /// Plays the level `hash`: at once from the cache, else once its text is fetched.
    fn play(&mut self, ctx: &mut Ctx, hash: String) -> Transition {
        // A row's hash is the service's word: it must be a hash before it names a file or a URL.
        if !is_level_hash(&hash) {
            let problem = OnlineLevelError::BadHash { hash }.to_string();
            log_line(&format!("online levels: {problem}"));
            self.message = Some(problem);
            return Transition::Stay;
        }
        match ctx.online_cache.load(&hash) {
            Ok(Some(text)) => {
                log_line(&format!("online levels: {hash} from the cache"));
                return Transition::reset(ctx.start_online_level(hash, text));
            }
            Ok(None) => {}
            Err(problem) => log_line(&format!("online levels: cache: {problem}")),
        }
        let request = ctx
            .levels_online
            .start(LevelsRequest::Text { hash: hash.clone() });
        self.opening = Some(Opening { hash, request });
        self.message = None;
        Transition::Stay
    }

    /// Takes the answers that are in.
    fn poll(&mut self, ctx: &mut Ctx) -> Transition {
        if let Some((id, query)) = &self.page_request {
            if let Some(answer) = ctx.levels_online.poll(*id) {
                let page = match answer {
                    Ok(LevelsReply::Page(rows)) => Loading::Loaded(rows),
                    Ok(other) => Loading::Failed(other.unexpected()),
                    Err(message) => Loading::Failed(message),
                };
                log_line(&format!(
                    "online levels: page {}: {}",
                    query.to_query_string(),
                    page_said(&page)
                ));
                self.list.show_page(query, page);
                self.page_request = None;
            }
        }
        if let Some((id, hash)) = &self.detail_request {
            if let Some(answer) = ctx.levels_online.poll(*id) {
                let detail = match answer {
                    Ok(LevelsReply::Detail(level)) => Loading::Loaded(level),
                    Ok(other) => Loading::Failed(other.unexpected()),
                    Err(message) => Loading::Failed(message),
                };
                self.list.show_detail(hash, detail);
                self.detail_request = None;
            }
        }
        let Some(opening) = &self.opening else {
            return Transition::Stay;
        };
        let Some(answer) = ctx.levels_online.poll(opening.request) else {
            return Transition::Stay;
        };
        let hash = opening.hash.clone();
        self.opening = None;
        let kept = match answer {
            Ok(LevelsReply::Text(text)) => ctx
                .online_cache
                .keep(&hash, &text, &ctx.data.tuning)
                .map(|_| text)
                .map_err(|e| e.to_string()),
            Ok(other) => Err(other.unexpected()),
            Err(message) => Err(format!("online level {hash}: {message}")),
        };
        match kept {
            Ok(text) => Transition::reset(ctx.start_online_level(hash, text)),
            Err(problem) => {
                log_line(&format!("online levels: {problem}"));
                self.message = Some(problem);
                Transition::Stay
            }
        }
    }

    fn act(&mut self, ctx: &mut Ctx, outcome: ListOutcome) -> Transition {
        match outcome {
            ListOutcome::Stay => Transition::Stay,
            ListOutcome::Back => Transition::to_title(TitleItem::OnlineLevels),
            ListOutcome::Fetch(query) => {
                let id = ctx
                    .levels_online
                    .start(LevelsRequest::Browse(query.clone()));
                self.page_request = Some((id, query));
                Transition::Stay
            }
            ListOutcome::FetchDetail { hash } => {
                let id = ctx
                    .levels_online
                    .start(LevelsRequest::Detail { hash: hash.clone() });
                self.detail_request = Some((id, hash));
                Transition::Stay
            }
            ListOutcome::Play { hash } => self.play(ctx, hash),
            ListOutcome::Board { hash } => {
                let file = online_level_file(&hash);
                let title = self
                    .list
                    .detail
                    .as_ref()
                    .map_or(file.clone(), |view| view.listed.shown_name());
                Transition::Push(Box::new(BoardScreen::new(&file, &hash, &title)))
            }
        }
    }

    fn list_panel(&self) -> Panel {
        let tabs: Vec<String> = super::online_levels_service::SortTab::ALL
            .iter()
            .map(|&tab| {
                if tab == self.list.query.sort {
                    format!("[{}]", tab.label())
                } else {
                    tab.label().to_owned()
                }
            })
            .collect();
        let cursor = if self.list.typing { "_" } else { "" };
        let rows: &[super::online_levels_service::LevelSummary] = match &self.list.page {
            Loading::Loaded(rows) => rows,
            _ => &[],
        };
        let items: Vec<String> = self
            .list
            .items()
            .iter()
            .map(|item| match item {
                ListItem::Tabs => format!("< {} >", tabs.join("  ")),
                ListItem::Search => format!(
                    "Search: {}{cursor}",
                    crate::sim::limits::printable(&self.list.query.search)
                ),
                ListItem::Row(row) => row_text(&rows[*row]),
                ListItem::PreviousPage => "Previous page".into(),
                ListItem::NextPage => "Next page".into(),
            })
            .collect();
        let mut panel = Panel::default();
        panel.menu(&items, self.list.selected);
        match &self.list.page {
            Loading::Loading => panel.say("loading..."),
            Loading::Failed(message) => panel.line(format!("cannot list levels: {message}"), true),
            Loading::Loaded(rows) if rows.is_empty() => panel.say("no levels found"),
            Loading::Loaded(_) => {}
        }
        panel.blank();
        panel.line(format!("page {}", self.list.query.page + 1), false);
        panel
    }
}

/// A page's state in a few words, for the log.
fn page_said(page: &Loading<Vec<super::online_levels_service::LevelSummary>>) -> String {
    match page {
        Loading::Loading => "loading".into(),
        Loading::Failed(message) => format!("failed: {message}"),
        Loading::Loaded(rows) => format!(
            "{} levels: {}",
            rows.len(),
            rows.iter()
                .map(|r| r.shown_name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The detail view's panel: the level's figures (the detail's when in, else the row's).
fn detail_panel(view: &super::online_levels_list::DetailView) -> Panel {
    let level = match &view.detail {
        Loading::Loaded(level) => level,
        _ => &view.listed,
    };
    let mut panel = Panel::default();
    panel.line(format!("by {}", level.shown_author()), false);
    panel.line(
        format!("author time {}", format_time(level.author_ticks)),
        false,
    );
    panel.line(
        format!(
            "played {} times, finished {} times",
            level.plays, level.finishes
        ),
        false,
    );
    if let Some(record) = &level.record {
        let name = crate::sim::limits::printable(&record.name);
        panel.line(
            format!("record {} by {name}", format_time(record.ticks)),
            false,
        );
    }
    if let Some(rating) = level.rating {
        panel.line(format!("rating {rating:.1}/5"), false);
    }
    if let Some(difficulty) = level.difficulty {
        panel.line(format!("difficulty {difficulty:.1}/5"), false);
    }
    match &view.detail {
        Loading::Loading => panel.say("loading its figures..."),
        Loading::Failed(message) => panel.line(format!("cannot load its figures: {message}"), true),
        Loading::Loaded(_) => {}
    }
    panel.blank();
    let items = DETAIL_ITEMS.map(|item| format!("{item:?}"));
    panel.menu(&items, view.selected);
    panel
}

impl Screen for OnlineLevelsScreen {
    fn update(&mut self, ctx: &mut Ctx, _frame_s: f32) -> Transition {
        let polled = self.poll(ctx);
        if !matches!(polled, Transition::Stay) {
            return polled;
        }
        if self.opening.is_some() {
            return Transition::Stay;
        }
        let typed = if self.list.typing {
            ctx.input.typed.clone()
        } else {
            Vec::new()
        };
        let outcome = self.list.update(&ctx.input.actions, &typed);
        self.act(ctx, outcome)
    }

    fn draw(&self, _ctx: &mut Ctx, _on_top: bool) {
        draw_title_screen_backdrop();
        let (title, mut panel) = match &self.list.detail {
            Some(view) => (view.listed.shown_name(), detail_panel(view)),
            None => ("Online levels".to_owned(), self.list_panel()),
        };
        if let Some(opening) = &self.opening {
            let short: String = opening.hash.chars().take(12).collect();
            panel.line(format!("fetching level {short}..."), false);
        }
        if let Some(message) = &self.message {
            panel.stress(message);
        }
        panel.draw(&title, palette::ROPE);
    }

    fn name(&self, _ctx: &Ctx) -> Option<String> {
        Some("online levels".into())
    }

    fn wants_next_press(&self) -> bool {
        // Typing a search: M is a letter, not mute.
        self.list.typing
    }
}

impl Ctx {
    /// Puts the online level `hash` (its checked `text`) in play on its own, in place of the
    /// campaign, as a level file named by its hash: its best run, ghost and progress are kept
    /// under that name as for a campaign level. Returns its play screen.
    pub fn start_online_level(&mut self, hash: String, text: String) -> Box<dyn Screen> {
        self.leave_level();
        let mut alone = crate::app::assets::GameData {
            tuning: std::sync::Arc::clone(&self.data.tuning),
            world_names: Vec::new(),
            levels: Vec::new(),
        };
        alone.with_only_level(online_level_file(&hash), Ok(text), None);
        self.level.alone = Some(alone);
        self.level.finished_run = None;
        self.level.shelf_level = None;
        self.level.online_level = Some(hash);
        self.level.index = 0;
        self.load_level(0)
    }
}

/// The level file name an online level plays under (where its best run is kept).
pub fn online_level_file(hash: &str) -> String {
    format!("online-{hash}.ron")
}
