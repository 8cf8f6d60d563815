//! The browser entry: reads the page's URL query (through `web/query_plugin.js`), turns it into
//! the same `LaunchOptions` the desktop builds from its command line, loads the solution replay
//! over HTTP when asked, then runs the same game as the desktop.
//!
//! Query keys (all optional, unknown keys ignored):
//! - `level=N`  start at level N (1 = first, as on the desktop's `--level`)
//! - `replay=1` play level N's solution, `levels/solutions/<its file name in levels/index.ron>`
//! - `hold=T`   stop the simulation at tick T and keep drawing (the browser test's screenshot)
//! - `edit`     the editor's page: the game opens at "My levels" (the same `tether.wasm`); with
//!   a level link in the fragment, that level opens in the editor
//! - `editor_script=STEPS` drives the editor as `--editor-script` does (the browser test)
//! - `online_name=NAME` goes online under NAME, as the desktop's `--online-name` (the key is
//!   made from `crypto.getRandomValues` and kept in localStorage, the name registered): the
//!   way in until the settings screen asks for a name
//! - `server=URL` Tether Online's address, as `--server` (default: the page's own origin)
//!
//! The fragment may hold a level link, `#level=<code>` (`crate::editor::link`): the page
//! inflates it (web/query_plugin.js: the browser's inflater, so the .wasm carries none) and that
//! level is played on its own (with `replay=1&level=N`, level N's solution is played on it).
//!
//! The parsing is plain Rust and is unit-tested natively; only the JS bridge is wasm-only.

use super::launch::LaunchOptions;
use super::launch::MenuStep;

/// What the query asks for, before any file is loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WebQuery {
    /// 0-based level index.
    pub start_level: usize,
    /// The query named a level: go straight into it (else the title screen).
    pub level_given: bool,
    pub play_solution: bool,
    pub hold_at_tick: Option<u64>,
    /// `menu=MenuDown,MenuConfirm,Type:Ada`: menu steps taken in turn from the title (the
    /// browser tests' walks; `Type:TEXT` percent-decoded), and `autoplay=1`: levels started
    /// from the menus play their solutions, after `autoplay_idle=N` ticks of no input.
    pub menu_script: Vec<MenuStep>,
    pub autoplay: bool,
    pub autoplay_idle_ticks: u32,
    /// `edit`: the editor's page.
    pub edit: bool,
    /// `editor_script=...` as given (URL-encoded steps, `;`-separated as on the command line).
    pub editor_script: String,
    /// `online_name=NAME` (percent-decoded): go online under NAME.
    pub online_name: Option<String>,
    /// `server=URL` (percent-decoded): Tether Online's address in place of the page's origin.
    pub server: Option<String>,
    /// Values that could not be used, in words for the console.
    pub warnings: Vec<String>,
}

impl WebQuery {
    /// Parses `level=2&replay=1&hold=90` (with or without the leading `?`).
    pub fn parse(query: &str) -> WebQuery {
        let mut parsed = WebQuery::default();
        let query = query.strip_prefix('?').unwrap_or(query);
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "level" => match value.parse::<usize>() {
                    Ok(n) if n >= 1 => {
                        parsed.start_level = n - 1;
                        parsed.level_given = true;
                    }
                    _ => parsed
                        .warnings
                        .push(format!("level={value}: expected a level number from 1")),
                },
                "replay" => match value {
                    "" | "1" | "true" | "yes" | "on" => parsed.play_solution = true,
                    "0" | "false" | "no" | "off" => parsed.play_solution = false,
                    _ => parsed
                        .warnings
                        .push(format!("replay={value}: expected 1 or 0")),
                },
                "menu" => {
                    // Split before decoding: a typed text may hold an escaped comma.
                    for step in value.split(',').map(percent_decode) {
                        match MenuStep::parse(&step) {
                            Some(step) => parsed.menu_script.push(step),
                            None => parsed.warnings.push(format!(
                                "menu: {step:?} is not an action, Pad:ACTION or Type:TEXT"
                            )),
                        }
                    }
                }
                "autoplay" => parsed.autoplay = value != "0",
                "autoplay_idle" => match value.parse::<u32>() {
                    Ok(ticks) => parsed.autoplay_idle_ticks = ticks,
                    Err(_) => parsed
                        .warnings
                        .push(format!("autoplay_idle={value}: expected a number of ticks")),
                },
                "edit" => parsed.edit = value != "0",
                "editor_script" => parsed.editor_script = value.to_owned(),
                "online_name" => parsed.online_name = Some(percent_decode(value)),
                "server" => parsed.server = Some(percent_decode(value)),
                "hold" => match value.parse::<u64>() {
                    Ok(tick) => parsed.hold_at_tick = Some(tick),
                    Err(_) => parsed
                        .warnings
                        .push(format!("hold={value}: expected a tick number")),
                },
                _ => {}
            }
        }
        parsed
    }

    /// The launch options, without the replay (which needs loading first) and without a level
    /// link (decoded by the page, see `run_from_query`).
    pub fn launch_options(&self) -> LaunchOptions {
        LaunchOptions {
            start_level: self.start_level,
            hold_at_tick: self.hold_at_tick,
            start_at_title: !self.level_given && !self.play_solution && self.hold_at_tick.is_none(),
            menu_script: self.menu_script.clone(),
            autoplay: self.autoplay,
            autoplay_idle_ticks: self.autoplay_idle_ticks,
            my_levels: self.edit,
            online_name: self.online_name.clone(),
            server: self.server.clone(),
            ..LaunchOptions::default()
        }
    }
}

/// `%XX` escapes and `+` (a space) decoded; a broken escape is kept as it is.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where level `level_file`'s solution replay lives, relative to the page.
pub fn solution_path(level_file: &str) -> String {
    format!(
        "{}/solutions/{level_file}",
        crate::platform::paths::LEVELS_DIR
    )
}

/// Loads the solution replay of the 0-based level `index`: the level index names the file.
pub async fn load_solution(index: usize) -> Result<crate::sim::Replay, super::error::DataError> {
    use crate::platform::paths::LEVEL_INDEX_PATH;
    use crate::sim::limits;
    let index_text =
        super::assets::load_text(LEVEL_INDEX_PATH, limits::MAX_LEVEL_INDEX_FILE_BYTES).await?;
    let levels = crate::sim::LevelIndex::from_ron(&index_text, LEVEL_INDEX_PATH)?;
    let files = levels.files();
    let Some(level_file) = files.get(index) else {
        return Err(super::error::DataError::NoSolution {
            level: index + 1,
            count: files.len(),
        });
    };
    let path = solution_path(level_file);
    let text = super::assets::load_text(&path, limits::MAX_REPLAY_FILE_BYTES).await?;
    let replay = crate::sim::Replay::from_ron(&text, &path)?;
    replay.check_sim_version(&path)?;
    Ok(replay)
}

/// Puts a level link in the page's address bar, where the author copies it from (the game's
/// address: the link opens in play).
#[cfg(target_arch = "wasm32")]
pub fn show_level_link(fragment: &str) {
    js::set_fragment(fragment);
}

/// Asks the page for a level file (its file picker). The desktop's levels are files already.
pub fn start_import() {
    #[cfg(target_arch = "wasm32")]
    js::start_import(crate::sim::limits::MAX_LEVEL_FILE_BYTES as u32);
}

/// A level file the page's picker read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickedFile {
    /// The file's name as the person's system gave it (not yet made printable).
    pub name: String,
    pub text: String,
}

/// Why the page would not hand over the picked file (too large, unreadable, …). It holds a
/// `String` because the page's own words (web/query_plugin.js) are the data: they are shown as
/// they are, and the game has no finer reason to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRefusal(pub String);

impl std::fmt::Display for PageRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PageRefusal {}

/// A file the picker read, or why it cannot be used. `None` while nothing was picked (always
/// on the desktop).
pub fn poll_import() -> Option<Result<PickedFile, PageRefusal>> {
    #[cfg(target_arch = "wasm32")]
    return js::poll_import();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Hands `text` to the person as a download called `file_name` (the browser's downloads).
pub fn export_file(file_name: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    js::export_file(file_name, text);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (file_name, text);
}

#[cfg(target_arch = "wasm32")]
mod js {
    // Provided by web/query_plugin.js (registered into the loader's `env` import module). If the
    // plugin is missing, the loader stubs these and they return 0: no query, time 0.
    extern "C" {
        fn tether_query_length() -> u32;
        fn tether_query_copy(ptr: *mut u8, capacity: u32) -> u32;
        fn tether_link_start(max_code_bytes: u32, max_text_bytes: u32) -> i32;
        fn tether_link_state() -> i32;
        fn tether_link_length() -> u32;
        fn tether_link_copy(ptr: *mut u8, capacity: u32) -> u32;
        fn tether_set_fragment(ptr: *const u8, len: u32);
        fn tether_import_start(max_bytes: u32);
        fn tether_import_state() -> i32;
        fn tether_import_length() -> u32;
        fn tether_import_copy(ptr: *mut u8, capacity: u32) -> u32;
        fn tether_export(name: *const u8, name_len: u32, text: *const u8, text_len: u32);
        fn tether_now_ms() -> f64;
        fn tether_fragment_length() -> u32;
        fn tether_fragment_copy(ptr: *mut u8, capacity: u32) -> u32;
        fn tether_first_frame();
    }

    /// Text the page hands over: its UTF-8 length from `length`, then at most `max_bytes` of it
    /// copied into a buffer we own by `copy` (a plugin function that writes at most `capacity`
    /// bytes and returns how many it wrote).
    fn text_from_page(
        length: unsafe extern "C" fn() -> u32,
        copy: unsafe extern "C" fn(ptr: *mut u8, capacity: u32) -> u32,
        max_bytes: usize,
    ) -> String {
        // SAFETY: plain calls into the JS plugin; `copy` writes within the buffer's length.
        let len = (unsafe { length() } as usize).min(max_bytes);
        let mut buf = vec![0u8; len];
        let written = unsafe { copy(buf.as_mut_ptr(), len as u32) } as usize;
        buf.truncate(written.min(len));
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The page's URL query, without the `?`.
    pub fn query() -> String {
        text_from_page(tether_query_length, tether_query_copy, usize::MAX)
    }

    /// The page's URL fragment without the `#`, cut at `max_bytes` (read for an online level
    /// link; a level link's code is left to the page's decoder).
    pub fn fragment(max_bytes: usize) -> String {
        text_from_page(tether_fragment_length, tether_fragment_copy, max_bytes)
    }

    /// Where the page is with the fragment's level link.
    pub enum LinkState {
        None,
        Decoding,
        Ready(String),
        Failed(String),
    }

    /// Starts decoding the fragment's level link (if any) with the game's limits.
    pub fn start_link() -> bool {
        use crate::sim::limits::{MAX_LEVEL_FILE_BYTES, MAX_LEVEL_LINK_BYTES};
        // SAFETY: plain numbers in and out.
        unsafe { tether_link_start(MAX_LEVEL_LINK_BYTES as u32, MAX_LEVEL_FILE_BYTES as u32) == 1 }
    }

    pub fn link_state() -> LinkState {
        // SAFETY: no arguments, a number back.
        let state = unsafe { tether_link_state() };
        // The text is at most a level file (or a short message), as the page enforces.
        let text = || {
            let cap = crate::sim::limits::MAX_LEVEL_FILE_BYTES as usize;
            text_from_page(tether_link_length, tether_link_copy, cap)
        };
        match state {
            1 => LinkState::Decoding,
            2 => LinkState::Ready(text()),
            3 => LinkState::Failed(text()),
            _ => LinkState::None,
        }
    }

    /// Puts `fragment` in the page's address (a level link to copy), without a reload.
    pub fn set_fragment(fragment: &str) {
        // SAFETY: the plugin reads `len` bytes from the pointer we pass.
        unsafe { tether_set_fragment(fragment.as_ptr(), fragment.len() as u32) }
    }

    pub fn start_import(max_bytes: u32) {
        // SAFETY: a plain number.
        unsafe { tether_import_start(max_bytes) }
    }

    /// The picked file once read (state 2: "NAME\nTEXT"), or why not (state 3); `None` while
    /// there is nothing (0) or the person is choosing (1). Taking it clears it.
    pub fn poll_import() -> Option<Result<super::PickedFile, super::PageRefusal>> {
        // SAFETY: no arguments, a number back.
        let state = unsafe { tether_import_state() };
        if state < 2 {
            return None;
        }
        // A level file with its name before it (the page refused anything larger).
        let cap = crate::sim::limits::MAX_LEVEL_FILE_BYTES as usize + 1024;
        let text = text_from_page(tether_import_length, tether_import_copy, cap);
        if state == 3 {
            return Some(Err(super::PageRefusal(text)));
        }
        let (name, body) = text.split_once('\n').unwrap_or(("level file", ""));
        Some(Ok(super::PickedFile {
            name: name.to_owned(),
            text: body.to_owned(),
        }))
    }

    pub fn export_file(file_name: &str, text: &str) {
        // SAFETY: the plugin copies both byte ranges before returning.
        unsafe {
            tether_export(
                file_name.as_ptr(),
                file_name.len() as u32,
                text.as_ptr(),
                text.len() as u32,
            )
        }
    }

    /// Milliseconds since the page's navigation started (`performance.now()`).
    pub fn now_ms() -> f64 {
        // SAFETY: no arguments, returns a number.
        unsafe { tether_now_ms() }
    }

    /// Tells the page the game has drawn a frame (it hides its own status text).
    pub fn mark_first_frame() {
        // SAFETY: no arguments, no result.
        unsafe { tether_first_frame() }
    }

    /// The loader checks `<plugin name>_crate_version` against the plugin's version.
    #[no_mangle]
    pub extern "C" fn tether_query_crate_version() -> u32 {
        1
    }
}

/// The browser's `main` future: the first frame, the query, the replay, then the game.
#[cfg(target_arch = "wasm32")]
pub async fn run_from_query() {
    use super::log_line;
    use macroquad::window::next_frame;

    super::assets::draw_loading(0, 1, "");
    next_frame().await;
    js::mark_first_frame();
    log_line(&format!(
        "first frame drawn {:.0} ms after navigation start",
        js::now_ms()
    ));

    let query = WebQuery::parse(&js::query());
    for warning in &query.warnings {
        log_line(&format!("URL query: {warning} (ignored)"));
    }
    let mut options = query.launch_options();
    // An online level link names a level by its hash: the game fetches it once running. More
    // than a link's length is cut; the parser then names the length as wrong.
    let fragment = js::fragment(2 * crate::editor::online_link::HASH_HEX_CHARS);
    if crate::editor::online_link::is_online_fragment(&fragment) {
        options.online_link = Some(crate::editor::online_link::parse_online_link(&fragment));
    } else if js::start_link() {
        // The page inflates the link (asynchronously): wait for it, drawing.
        loop {
            match js::link_state() {
                js::LinkState::Decoding => {
                    super::assets::draw_loading(0, 1, "level link");
                    next_frame().await;
                }
                js::LinkState::Ready(text) if query.edit => {
                    options.edit_linked = Some(text);
                    break;
                }
                js::LinkState::Ready(text) => {
                    options.linked_level = Some(Ok(text));
                    options.start_at_title = false;
                    break;
                }
                js::LinkState::Failed(reason) => {
                    options.linked_level =
                        Some(Err(super::error::DataError::LinkRefusedByPage { reason }));
                    options.start_at_title = false;
                    break;
                }
                js::LinkState::None => break,
            }
        }
    }
    if !query.editor_script.is_empty() {
        match super::editor_screen::input::ScriptStep::parse_script(&percent_decode(
            &query.editor_script,
        )) {
            Ok(steps) => options.editor_script = steps,
            Err(problem) => log_line(&format!("editor_script: {problem} (ignored)")),
        }
    }
    if query.play_solution {
        super::assets::draw_loading(0, 1, "solution replay");
        next_frame().await;
        match load_solution(query.start_level).await {
            Ok(replay) => options.replay = Some(replay),
            // Still a playable game: the level starts under the player's control.
            Err(message) => log_line(&format!("cannot play the solution replay: {message}")),
        }
    }
    super::run(options).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_query_opens_the_title_screen() {
        assert_eq!(WebQuery::parse(""), WebQuery::default());
        assert_eq!(WebQuery::parse("?"), WebQuery::default());
        assert!(WebQuery::parse("").launch_options().start_at_title);
        assert!(!WebQuery::parse("?level=1").launch_options().start_at_title);
        assert!(!WebQuery::parse("?replay=1").launch_options().start_at_title);
        let walk = WebQuery::parse("?menu=MenuDown,MenuConfirm&autoplay=1").launch_options();
        assert!(walk.start_at_title && walk.autoplay);
        assert_eq!(
            walk.menu_script,
            vec![
                MenuStep::Press(crate::app::input::Action::MenuDown),
                MenuStep::Press(crate::app::input::Action::MenuConfirm)
            ]
        );
        assert_eq!(WebQuery::parse("?menu=Fly").warnings.len(), 1);
        // A step pressed as by a gamepad; a gamepad cannot press what is not an action.
        let pad = WebQuery::parse("?menu=Pad:MenuLeft,Pad:Fly");
        assert_eq!(
            pad.menu_script,
            vec![MenuStep::PadPress(crate::app::input::Action::MenuLeft)]
        );
        assert_eq!(pad.warnings.len(), 1);
        // A name typed through the menu, escapes decoded after the steps are split.
        let named = WebQuery::parse("?menu=MenuUp,Type:Zo%C3%AB%2C%202&autoplay_idle=60");
        assert_eq!(
            named.menu_script,
            vec![
                MenuStep::Press(crate::app::input::Action::MenuUp),
                MenuStep::Type("Zoë, 2".into())
            ]
        );
        assert_eq!(named.launch_options().autoplay_idle_ticks, 60);
        assert_eq!(WebQuery::parse("?autoplay_idle=soon").warnings.len(), 1);
    }

    #[test]
    fn level_replay_and_hold_are_read() {
        let q = WebQuery::parse("?level=3&replay=1&hold=120");
        assert_eq!(q.start_level, 2);
        assert!(q.play_solution);
        assert_eq!(q.hold_at_tick, Some(120));
        assert!(q.warnings.is_empty());
        let options = q.launch_options();
        assert_eq!(options.start_level, 2);
        assert_eq!(options.hold_at_tick, Some(120));
        assert!(options.replay.is_none());
    }

    #[test]
    fn bad_values_are_ignored_with_a_warning() {
        let q = WebQuery::parse("level=0&hold=soon&replay=maybe&utm_source=x");
        assert_eq!(q.start_level, 0);
        assert_eq!(q.hold_at_tick, None);
        assert!(!q.play_solution);
        assert_eq!(q.warnings.len(), 3);
    }

    #[test]
    fn the_editor_page_and_its_script_are_read() {
        let q = WebQuery::parse("edit&editor_script=palette%20solid%3B+click+4+5");
        assert!(q.edit && q.launch_options().my_levels);
        assert_eq!(percent_decode(&q.editor_script), "palette solid; click 4 5");
        assert!(q.warnings.is_empty());
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%C3%A9"), "é");
    }

    #[test]
    fn the_online_name_and_server_are_read_as_the_desktop_flags() {
        let q = WebQuery::parse(
            "?online_name=Ada%20L&server=http%3A%2F%2F127.0.0.1%3A9&menu=MenuConfirm",
        );
        let options = q.launch_options();
        assert_eq!(options.online_name.as_deref(), Some("Ada L"));
        assert_eq!(options.server.as_deref(), Some("http://127.0.0.1:9"));
        assert!(options.start_at_title);
        assert!(q.warnings.is_empty());
        let plain = WebQuery::parse("?level=1").launch_options();
        assert_eq!((plain.online_name, plain.server), (None, None));
    }

    #[test]
    fn the_solution_shares_the_level_file_name() {
        assert_eq!(
            solution_path("01_first_swing.ron"),
            "levels/solutions/01_first_swing.ron"
        );
    }
}
