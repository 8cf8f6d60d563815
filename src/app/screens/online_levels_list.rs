//! The Online levels list as plain data: the sort tabs, the search text, the page, the rows
//! (loading, failed with a message, or loaded) and one level's detail view. It turns the
//! frame's menu actions and typed characters into what the screen should ask the service for;
//! the screen (`online_levels.rs`) draws it and talks to the service.

use super::online_levels_service::{
    BrowseQuery, LevelSummary, SortTab, LEVELS_PER_PAGE, MAX_SEARCH_CHARS,
};
use crate::app::input::{Action, ActionFrame};
use crate::app::menus;

/// Where a request for the list or a detail stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Loading<T> {
    Loading,
    /// Why it failed, to show in its place.
    Failed(String),
    Loaded(T),
}

/// One level opened from the list: its figures, fuller once its detail is in.
#[derive(Clone, Debug, PartialEq)]
pub struct DetailView {
    /// The row as listed (shown while the detail loads, or when it fails).
    pub listed: LevelSummary,
    pub detail: Loading<LevelSummary>,
    pub selected: usize,
}

/// The detail view's menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetailItem {
    Play,
    Board,
    Back,
}

pub const DETAIL_ITEMS: [DetailItem; 3] = [DetailItem::Play, DetailItem::Board, DetailItem::Back];

/// What the list asks of the screen after a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListOutcome {
    Stay,
    Back,
    /// Ask the service for this page (the list shows "loading" until `show_page`).
    Fetch(BrowseQuery),
    /// Ask for one level's detail (the view shows the row until `show_detail`).
    FetchDetail {
        hash: String,
    },
    Play {
        hash: String,
    },
    Board {
        hash: String,
    },
}

/// A line of the list the cursor can be on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListItem {
    /// The sort tabs: left and right change the order.
    Tabs,
    /// The search text: confirm starts and ends typing.
    Search,
    Row(usize),
    PreviousPage,
    NextPage,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OnlineLevelsList {
    pub query: BrowseQuery,
    pub page: Loading<Vec<LevelSummary>>,
    pub selected: usize,
    /// Whether typed characters go into the search text.
    pub typing: bool,
    /// The search text of the page shown (what Escape puts back while typing).
    searched: String,
    pub detail: Option<DetailView>,
}

impl OnlineLevelsList {
    /// The list's first page, newest first; returns the fetch to start.
    pub fn open() -> (OnlineLevelsList, BrowseQuery) {
        let list = OnlineLevelsList {
            query: BrowseQuery::default(),
            page: Loading::Loading,
            selected: 0,
            typing: false,
            searched: String::new(),
            detail: None,
        };
        let query = list.query.clone();
        (list, query)
    }

    /// The lines the cursor moves through, in order.
    pub fn items(&self) -> Vec<ListItem> {
        let mut items = vec![ListItem::Tabs, ListItem::Search];
        if let Loading::Loaded(rows) = &self.page {
            items.extend((0..rows.len()).map(ListItem::Row));
            if self.query.page > 0 {
                items.push(ListItem::PreviousPage);
            }
            // A full page may have more after it.
            if rows.len() == LEVELS_PER_PAGE {
                items.push(ListItem::NextPage);
            }
        }
        items
    }

    /// The page the service answered for `query` (an answer to an older query is dropped).
    pub fn show_page(&mut self, query: &BrowseQuery, page: Loading<Vec<LevelSummary>>) {
        if *query == self.query {
            self.page = page;
            self.selected = self.selected.min(self.items().len() - 1);
        }
    }

    /// The detail the service answered for `hash` (dropped if another level is open).
    pub fn show_detail(&mut self, hash: &str, detail: Loading<LevelSummary>) {
        if let Some(view) = &mut self.detail {
            if view.listed.hash == hash {
                view.detail = detail;
            }
        }
    }

    /// One frame: the menu actions, and the characters typed (read only while typing).
    pub fn update(&mut self, actions: &ActionFrame, typed: &[char]) -> ListOutcome {
        if self.detail.is_some() {
            return self.update_detail(actions);
        }
        if self.typing {
            return self.update_typing(typed);
        }
        if actions.pressed(Action::MenuBack) {
            return ListOutcome::Back;
        }
        let items = self.items();
        let confirmed = menus::navigate(actions, &mut self.selected, items.len());
        match items[self.selected] {
            ListItem::Tabs => {
                let step = i32::from(actions.pressed(Action::MenuRight))
                    - i32::from(actions.pressed(Action::MenuLeft));
                if step == 0 {
                    return ListOutcome::Stay;
                }
                let at = SortTab::ALL.iter().position(|&t| t == self.query.sort);
                let count = SortTab::ALL.len() as i32;
                let next = (at.unwrap_or(0) as i32 + step).rem_euclid(count) as usize;
                self.query.sort = SortTab::ALL[next];
                self.refetch(0)
            }
            ListItem::Search if confirmed => {
                self.typing = true;
                ListOutcome::Stay
            }
            ListItem::Row(row) if confirmed => self.open_detail(row),
            ListItem::PreviousPage if confirmed => self.refetch(self.query.page - 1),
            ListItem::NextPage if confirmed => self.refetch(self.query.page + 1),
            _ => ListOutcome::Stay,
        }
    }

    /// Typing the search: characters go in, backspace (`\u{8}`) takes one out, Enter (`\n`)
    /// searches, Escape (`\u{1b}`) puts back the text last searched. The menu's actions are not
    /// read (space and the WASD keys are letters here).
    fn update_typing(&mut self, typed: &[char]) -> ListOutcome {
        for &c in typed {
            match c {
                '\u{8}' => {
                    self.query.search.pop();
                }
                '\n' | '\r' => {
                    self.typing = false;
                    return self.refetch(0);
                }
                '\u{1b}' => {
                    self.typing = false;
                    self.query.search = self.searched.clone();
                    return ListOutcome::Stay;
                }
                c if !c.is_control() && self.query.search.chars().count() < MAX_SEARCH_CHARS => {
                    self.query.search.push(c);
                }
                _ => {}
            }
        }
        ListOutcome::Stay
    }

    fn update_detail(&mut self, actions: &ActionFrame) -> ListOutcome {
        let Some(view) = &mut self.detail else {
            return ListOutcome::Stay;
        };
        let confirmed = menus::navigate(actions, &mut view.selected, DETAIL_ITEMS.len());
        let hash = view.listed.hash.clone();
        if actions.pressed(Action::MenuBack) {
            self.detail = None;
            return ListOutcome::Stay;
        }
        if !confirmed {
            return ListOutcome::Stay;
        }
        match DETAIL_ITEMS[view.selected] {
            DetailItem::Play => ListOutcome::Play { hash },
            DetailItem::Board => ListOutcome::Board { hash },
            DetailItem::Back => {
                self.detail = None;
                ListOutcome::Stay
            }
        }
    }

    fn open_detail(&mut self, row: usize) -> ListOutcome {
        let Loading::Loaded(rows) = &self.page else {
            return ListOutcome::Stay;
        };
        let listed = rows[row].clone();
        let hash = listed.hash.clone();
        self.detail = Some(DetailView {
            listed,
            detail: Loading::Loading,
            selected: 0,
        });
        ListOutcome::FetchDetail { hash }
    }

    /// The current order and search at `page`, loading.
    fn refetch(&mut self, page: usize) -> ListOutcome {
        self.query.page = page;
        self.searched = self.query.search.clone();
        self.page = Loading::Loading;
        self.selected = self.selected.min(1);
        ListOutcome::Fetch(self.query.clone())
    }
}

/// The figures of a level as one row of the list: name, author, author time, record, clear
/// rate, rating.
pub fn row_text(level: &LevelSummary) -> String {
    use crate::app::render::hud::format_time;
    let record = level
        .record
        .as_ref()
        .map_or_else(|| "-".to_owned(), |r| format_time(r.ticks));
    let percent =
        |rate: Option<f64>| rate.map_or_else(|| "-".to_owned(), |r| format!("{:.0}%", r * 100.0));
    let stars =
        |rating: Option<f64>| rating.map_or_else(|| "-".to_owned(), |r| format!("{r:.1}/5"));
    format!(
        "{}  by {}   author {}   record {}   clears {}   rating {}",
        level.shown_name(),
        level.shown_author(),
        format_time(level.author_ticks),
        record,
        percent(level.clear_rate),
        stars(level.rating)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(n: usize) -> LevelSummary {
        LevelSummary {
            hash: format!("{n:064x}"),
            name: format!("Level {n}"),
            author: Some("Ada".into()),
            plays: 10,
            finishes: 4,
            clear_rate: Some(0.4),
            author_ticks: 600,
            rating: Some(4.25),
            difficulty: None,
            record: None,
        }
    }

    fn full_page() -> Vec<LevelSummary> {
        (0..LEVELS_PER_PAGE).map(level).collect()
    }

    #[test]
    fn tabs_search_and_paging_ask_for_the_right_page() {
        let (mut list, first) = OnlineLevelsList::open();
        assert_eq!(first.to_query_string(), "sort=newest&limit=8&offset=0");
        assert_eq!(list.items(), [ListItem::Tabs, ListItem::Search], "loading");
        list.show_page(&first, Loading::Loaded(full_page()));
        let ListOutcome::Fetch(q) = list.update(&ActionFrame::only_pressed(Action::MenuRight), &[])
        else {
            panic!("a tab change fetches");
        };
        assert_eq!(q.sort, SortTab::MostPlayed);
        assert_eq!(list.page, Loading::Loading);
        // An answer to the old query is dropped.
        list.show_page(&first, Loading::Loaded(vec![level(99)]));
        assert_eq!(list.page, Loading::Loading);
        list.show_page(&q, Loading::Loaded(full_page()));
        let ListOutcome::Fetch(q) = list.update(&ActionFrame::only_pressed(Action::MenuLeft), &[])
        else {
            panic!()
        };
        assert_eq!(q.sort, SortTab::Newest);
        let ListOutcome::Fetch(q) = list.update(&ActionFrame::only_pressed(Action::MenuLeft), &[])
        else {
            panic!()
        };
        assert_eq!(q.sort, SortTab::Easiest, "tabs wrap around");
        list.show_page(&q, Loading::Loaded(full_page()));

        // Search: confirm, type (backspace too), confirm.
        list.update(&ActionFrame::only_pressed(Action::MenuDown), &[]);
        assert_eq!(
            list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
            ListOutcome::Stay
        );
        assert!(list.typing);
        // Space and WASD are letters while typing; control characters are dropped.
        list.update(
            &ActionFrame::only_pressed(Action::MenuConfirm),
            &['s', 'w', ' ', 'x', '\u{8}', '\u{7}'],
        );
        assert!(list.typing, "the menu's confirm does not end typing");
        let long = vec!['i'; 60];
        let ListOutcome::Fetch(q) = list.update(&ActionFrame::default(), &['a', '\n']) else {
            panic!("Enter searches")
        };
        assert_eq!(q.search, "sw a");
        assert_eq!(q.page, 0);
        assert!(q.to_query_string().ends_with("&q=sw%20a"));
        list.show_page(&q, Loading::Loaded(full_page()));

        // To the end of the list: "next page" after a full page.
        list.selected = list.items().len() - 1;
        assert_eq!(list.items()[list.selected], ListItem::NextPage);
        let ListOutcome::Fetch(q) =
            list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[])
        else {
            panic!()
        };
        assert_eq!(q.page, 1);
        assert_eq!(
            q.to_query_string(),
            "sort=easiest&limit=8&offset=8&q=sw%20a"
        );
        list.show_page(&q, Loading::Loaded(vec![level(8)]));
        assert_eq!(
            list.items()[2..],
            [ListItem::Row(0), ListItem::PreviousPage],
            "a short page is the last"
        );
        list.typing = true;
        list.update(&ActionFrame::default(), &long);
        assert_eq!(list.query.search.chars().count(), MAX_SEARCH_CHARS);
        list.update(&ActionFrame::default(), &['\u{1b}']);
        assert!(!list.typing);
        assert_eq!(
            list.query.search, "sw a",
            "Escape puts back the text searched"
        );
    }

    #[test]
    fn a_row_opens_its_detail_with_play_board_back() {
        let (mut list, first) = OnlineLevelsList::open();
        list.show_page(&first, Loading::Failed("the server is down".into()));
        assert_eq!(list.items().len(), 2, "a failed page has no rows");
        list.show_page(&first, Loading::Loaded(full_page()));
        list.selected = 3; // Row(1)
        let hash = level(1).hash;
        assert_eq!(
            list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
            ListOutcome::FetchDetail { hash: hash.clone() }
        );
        let mut detail = level(1);
        detail.finishes = 5;
        list.show_detail(&level(2).hash, Loading::Loaded(level(2)));
        assert_eq!(list.detail.as_ref().unwrap().detail, Loading::Loading);
        list.show_detail(&hash, Loading::Loaded(detail.clone()));
        assert_eq!(
            list.detail.as_ref().unwrap().detail,
            Loading::Loaded(detail)
        );
        assert_eq!(
            list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
            ListOutcome::Play { hash: hash.clone() }
        );
        list.update(&ActionFrame::only_pressed(Action::MenuDown), &[]);
        assert_eq!(
            list.update(&ActionFrame::only_pressed(Action::MenuConfirm), &[]),
            ListOutcome::Board { hash }
        );
        list.update(&ActionFrame::only_pressed(Action::MenuBack), &[]);
        assert!(list.detail.is_none());
        assert_eq!(
            list.update(&ActionFrame::only_pressed(Action::MenuBack), &[]),
            ListOutcome::Back
        );
    }

    #[test]
    fn a_row_shows_the_figures_and_escapes_names() {
        let mut row = level(1);
        row.name = "Evil\u{1b}[31m".into();
        row.record = Some(super::super::online_levels_service::LevelRecord {
            run: 3,
            ticks: 480,
            name: "Bo".into(),
        });
        let text = row_text(&row);
        assert!(
            text.contains("Evil\\u{1b}[31m") && !text.contains('\u{1b}'),
            "{text}"
        );
        assert!(text.contains("by Ada"), "{text}");
        assert!(
            text.contains("clears 40%") && text.contains("rating 4.2/5"),
            "{text}"
        );
        assert!(
            text.contains("author 0:05.00") && text.contains("record 0:04.00"),
            "{text}"
        );
    }
}
