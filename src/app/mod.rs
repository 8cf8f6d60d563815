//! The front end: window, fixed-tick loop, input mapping, drawing, camera, audio, screens and
//! asset loading. It reads the simulation and changes it only through `World::step`.

pub mod assets;
pub mod assists_screen;
pub mod audio;
/// What lets a script drive the game and read what it did (the log lines the tests match).
pub mod automation;
pub mod camera;
pub mod controls_screen;
pub mod editor_screen;
pub mod error;
pub mod frame_clock;
pub mod game_loop;
pub mod ghost;
/// Reloads the level file being played when it changes (a desktop feature: there are no files
/// to watch in the browser, where it is never started).
pub mod hot_reload;
pub mod input;
pub mod launch;
pub mod level_problem;
pub mod level_shelf;
pub mod menus;
pub mod my_levels_screen;
pub mod palette;
pub mod progress_store;
pub mod render;
pub mod screens;
pub mod screenshot;
pub mod session;
pub mod settings;
/// The browser entry (URL query, solution replay over HTTP); its parsing is tested natively.
pub mod web;

use macroquad::window::next_frame;

use self::game_loop::Game;
use self::launch::LaunchOptions;
use self::render::hud::draw_panel;

/// Prints a line where the player (or a test) can read it: stdout on the desktop, the browser
/// console on the web (macroquad routes `info!` there).
pub fn log_line(line: &str) {
    #[cfg(target_arch = "wasm32")]
    macroquad::logging::info!("{}", line);
    #[cfg(not(target_arch = "wasm32"))]
    println!("{line}");
}

/// What a level opened from a level link is called (it has no file).
pub const LINKED_LEVEL_NAME: &str = "linked level";

/// Loads the game's data and runs it. A data problem that makes play impossible (tuning, level
/// index) is shown on screen until the window is closed.
pub async fn run(options: LaunchOptions) {
    let data = match assets::load_game_data().await {
        Ok(mut data) => {
            #[cfg(not(target_arch = "wasm32"))]
            if let Some(path) = &options.level_file {
                let template = options.open_editor.then(crate::editor::new_level_text);
                data.with_only_level_file(path, template);
            }
            if let Some(linked) = &options.linked_level {
                data.with_only_level(LINKED_LEVEL_NAME.into(), linked.clone(), None);
            }
            data
        }
        Err(err) => {
            let message = err.to_string();
            log_line(&message);
            loop {
                render::scene::clear();
                draw_panel(
                    "Tether cannot start",
                    &[(message.clone(), true)],
                    palette::ERROR_TEXT,
                );
                next_frame().await;
            }
        }
    };
    // Sounds load (and on the web decode, then wait for a click) before the first level.
    let audio = audio::start(automation::Automation::drives(&options)).await;
    Game::new(data, options, audio).run().await;
}
