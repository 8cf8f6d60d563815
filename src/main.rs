//! Entry point. Window-less commands (`check`, `replay`) branch off before any window opens, so
//! they run on machines with no display or GPU. In the browser (wasm32) there is no command line:
//! `app::web` reads the page's URL query instead, then runs the same game.
// On Windows the game is a GUI program, so a double-click opens no console window beside it;
// the window-less commands print through the console of the terminal that started them
// (`windows_console`).
#![cfg_attr(windows, windows_subsystem = "windows")]

#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

#[cfg(not(target_arch = "wasm32"))]
use tether::app::game_loop::LaunchOptions;

#[cfg(not(target_arch = "wasm32"))]
const USAGE: &str = "usage:
  tether                   the title screen
  tether [--level N] [--record FILE] [--replay FILE [--exit]] [--screenshot PNG] [--at-tick T]
         [--menu-script STEP,STEP... [--autoplay]] [--server URL] [--online-name NAME]
                           (a STEP: a menu action, Pad:ACTION as by a gamepad, or Type:TEXT typed with Enter;
                           --autoplay-idle-ticks N: autoplay waits N ticks first)
                           (--server: Tether Online's address; --online-name: go online under
                           NAME, making this device's key and registering it if need be)
  tether play FILE [OPTIONS] play any level file, reloading it whenever it is saved
  tether edit FILE [--editor-script STEPS] [--screenshot PNG]
                           open a level file in the editor (a new level if it does not exist)
  tether check FILE...     validate level files
  tether replay FILE       run a replay headless and print its outcome
  tether link FILE         print a level file's level link (#level=..., for the browser game)
  tether --version         the game's version and the simulation version its replays need";

#[cfg(target_arch = "wasm32")]
fn main() {
    macroquad::Window::from_config(window_conf(), tether::app::web::run_from_query());
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    #[cfg(windows)]
    windows_console::attach_to_parent_console();
    // Heavy scenes step their objects on both cores (`sim::parallel`). This thread, which runs
    // the simulation, joins the pool: it works through its share instead of waiting for a core
    // that slept between ticks to wake (63 µs on the project's machine, more than a light
    // level's whole tick). Failing that (a pool already built), one thread is still correct.
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = tether::platform::paths::data_root();
    match args.first().map(String::as_str) {
        Some("check") => {
            let files: Vec<PathBuf> = args[1..].iter().map(PathBuf::from).collect();
            std::process::exit(tether::cli::check(&root, &files));
        }
        Some("replay") => {
            let Some(file) = args.get(1) else {
                eprintln!("{USAGE}");
                std::process::exit(2);
            };
            std::process::exit(tether::cli::replay(&root, Path::new(file)));
        }
        Some("link") => {
            let Some(file) = args.get(1) else {
                eprintln!("{USAGE}");
                std::process::exit(2);
            };
            std::process::exit(tether::cli::link(&root, Path::new(file)));
        }
        Some("--version" | "-V") => {
            println!("{}", tether::version_text());
            return;
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            return;
        }
        _ => {}
    }
    // `play FILE` and `edit FILE` take the level file first, then the usual options.
    let (level_file, editor, option_args) = match args.first().map(String::as_str) {
        Some(command @ ("play" | "edit")) => {
            let Some(file) = args.get(1) else {
                eprintln!("{command} needs a level file\n{USAGE}");
                std::process::exit(2);
            };
            (Some(absolute(file)), command == "edit", &args[2..])
        }
        _ => (None, false, &args[..]),
    };
    let options = match parse_options(option_args).map(|mut options| {
        if level_file.is_some() {
            options.start_at_title = false;
            options.level_file = level_file;
            options.open_editor = editor;
        }
        options
    }) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    // Logged so a player's report (and scripts/new_player_test.sh) shows which data was used.
    tether::app::log_line(&format!("data folder: {}", root.display()));
    // macroquad loads files relative to the working directory; output paths were made absolute
    // before the change.
    if let Err(err) = std::env::set_current_dir(&root) {
        eprintln!("cannot enter the data folder {}: {err}", root.display());
        std::process::exit(2);
    }
    macroquad::Window::from_config(window_conf(), tether::app::run(options));
}

fn window_conf() -> macroquad::window::Conf {
    macroquad::window::Conf {
        window_title: "Tether".to_owned(),
        window_width: 1280,
        window_height: 720,
        high_dpi: std::env::var_os("TETHER_LOW_DPI").is_none(),
        window_resizable: true,
        sample_count: 4,
        ..Default::default()
    }
}

/// A command line the game cannot start from; printed above the usage.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
enum ArgsError {
    /// The option given last has no value after it.
    NeedsValue(String),
    /// `--level` and `--at-tick` take a number: what the option says it needs.
    NotANumber {
        option: &'static str,
        needs: &'static str,
    },
    NotAnAction(String),
    Unknown(String),
    Replay(tether::cli::LoadError),
    EditorScript(tether::app::editor_screen::input::ScriptError),
}

#[cfg(not(target_arch = "wasm32"))]
impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ArgsError::NeedsValue(option) => write!(f, "{option} needs a value"),
            ArgsError::NotANumber { option, needs } => write!(f, "{option} needs {needs}"),
            ArgsError::NotAnAction(name) => {
                write!(
                    f,
                    "--menu-script: {name:?} is not an action, Pad:ACTION or Type:TEXT"
                )
            }
            ArgsError::Unknown(arg) => write!(f, "unknown argument {arg}"),
            ArgsError::Replay(err) => write!(f, "{err}"),
            ArgsError::EditorScript(err) => write!(f, "{err}"),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_options(args: &[String]) -> Result<LaunchOptions, ArgsError> {
    let mut options = LaunchOptions {
        // A plain start opens the title screen; any option (a level, a replay, a screenshot,
        // a menu script) goes where it says.
        start_at_title: args.is_empty(),
        ..LaunchOptions::default()
    };
    let mut i = 0;
    while i < args.len() {
        let option = args[i].as_str();
        match option {
            "--exit" => options.exit_when_replay_ends = true,
            "--autoplay" => options.autoplay = true,
            "--online-fixture" => options.online_fixture = true,
            _ => {
                let value = args
                    .get(i + 1)
                    .map(String::as_str)
                    .ok_or_else(|| ArgsError::NeedsValue(option.to_owned()));
                set_option(&mut options, option, value)?;
                i += 1;
            }
        }
        i += 1;
    }
    Ok(options)
}

/// Sets the option that takes a value (`--level 3`); `value` is the argument after it, or the
/// error to give if there is none (an unknown option is reported as unknown first).
#[cfg(not(target_arch = "wasm32"))]
fn set_option(
    options: &mut LaunchOptions,
    option: &str,
    value: Result<&str, ArgsError>,
) -> Result<(), ArgsError> {
    match option {
        "--level" => {
            let n: usize = value?.parse().map_err(|_| ArgsError::NotANumber {
                option: "--level",
                needs: "a number (1 = first)",
            })?;
            options.start_level = n.saturating_sub(1);
        }
        "--record" => options.record_to = Some(absolute(value?)),
        "--replay" => {
            let path = PathBuf::from(value?);
            let replay = tether::cli::read_replay(&path).map_err(ArgsError::Replay)?;
            options.replay = Some(replay);
        }
        "--menu-script" => {
            // Starts at the title and presses these menu actions in turn.
            options.start_at_title = true;
            options.menu_script = value?
                .split(',')
                .map(|name| {
                    tether::app::launch::MenuStep::parse(name)
                        .ok_or_else(|| ArgsError::NotAnAction(name.to_owned()))
                })
                .collect::<Result<_, _>>()?;
        }
        "--online" => {
            // An online level link (`#online=<hash>`) or its hash: opened once running, a
            // bad one is said on screen.
            options.online_link = Some(tether::editor::online_link::parse_online_link(value?));
        }
        "--editor-script" => {
            // With `edit FILE`: drives the editor (steps separated by `;`).
            options.editor_script =
                tether::app::editor_screen::input::ScriptStep::parse_script(value?)
                    .map_err(ArgsError::EditorScript)?;
        }
        "--server" => options.server = Some(value?.to_owned()),
        "--online-name" => options.online_name = Some(value?.to_owned()),
        "--autoplay-idle-ticks" => {
            options.autoplay_idle_ticks = value?.parse().map_err(|_| ArgsError::NotANumber {
                option: "--autoplay-idle-ticks",
                needs: "a number of ticks",
            })?;
        }
        "--screenshot" => options.screenshot = Some(absolute(value?)),
        "--at-tick" => {
            options.hold_at_tick = Some(value?.parse().map_err(|_| ArgsError::NotANumber {
                option: "--at-tick",
                needs: "a number",
            })?);
        }
        other => return Err(ArgsError::Unknown(other.to_owned())),
    }
    Ok(())
}

#[cfg(not(target_arch = "wasm32"))]
fn absolute(path: &str) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| PathBuf::from(path))
}

/// A GUI-subsystem program starts with no console, so `tether.exe replay`, `check` or
/// `--version` typed in a terminal would print nothing. Attaching to the terminal's console gives
/// Rust's stdout and stderr (which ask Windows for the handles on every write) somewhere to go.
/// Output the parent redirected to a file or pipe already has a handle and is left alone; so is
/// a program started from Explorer, which has no parent console (the call fails, harmlessly).
/// Two kernel32 functions, declared here rather than through the windows-sys crate.
#[cfg(windows)]
mod windows_console {
    use std::ffi::c_void;

    /// `ATTACH_PARENT_PROCESS`, `(DWORD)-1`.
    const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
    /// `STD_OUTPUT_HANDLE`, `(DWORD)-11`.
    const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;
    /// `INVALID_HANDLE_VALUE`, `(HANDLE)-1`.
    const INVALID_HANDLE_VALUE: isize = -1;

    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn AttachConsole(process_id: u32) -> i32;
        fn GetStdHandle(std_handle: u32) -> *mut c_void;
    }

    pub fn attach_to_parent_console() {
        // SAFETY: both take plain integers and touch only this process's standard handles.
        unsafe {
            let stdout = GetStdHandle(STD_OUTPUT_HANDLE);
            if stdout.is_null() || stdout as isize == INVALID_HANDLE_VALUE {
                AttachConsole(ATTACH_PARENT_PROCESS);
            }
        }
    }
}
