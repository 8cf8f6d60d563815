//! Where the game's files are: its data (tuning and levels, read-only: beside the program on the
//! desktop, served with the page in the browser) and the player's own config folder (settings,
//! progress, ghosts, levels made in the editor; see `store::Area` for what lies where in it).

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// The tuning file, relative to the game's data root.
pub const TUNING_PATH: &str = "assets/tuning.ron";
/// The campaign's levels, relative to the data root.
pub const LEVELS_DIR: &str = "levels";
/// The campaign's level index, relative to the data root.
pub const LEVEL_INDEX_PATH: &str = "levels/index.ron";

/// The folder holding `assets/` and `levels/`: the program's own folder in a release archive
/// (wherever it was unpacked, whatever the working folder), else the working folder when it has
/// them, else the crate's folder (so `cargo run` works from anywhere in the checkout). With none
/// of them, the program's folder: the messages then name the files missing beside it.
#[cfg(not(target_arch = "wasm32"))]
pub fn data_root() -> PathBuf {
    let program_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(PathBuf::from));
    let candidates = [
        program_dir.clone(),
        std::env::current_dir().ok(),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
    ];
    first_data_folder(candidates.into_iter().flatten())
        .or(program_dir)
        .unwrap_or_default()
}

/// The first of `candidates` that holds the game's data (a `levels/` and an `assets/` folder).
#[cfg(not(target_arch = "wasm32"))]
pub fn first_data_folder(candidates: impl IntoIterator<Item = PathBuf>) -> Option<PathBuf> {
    candidates
        .into_iter()
        .find(|dir| dir.join(LEVELS_DIR).is_dir() && dir.join("assets").is_dir())
}

/// `config_dir` from this process's environment: where every kept file lives on the desktop.
#[cfg(not(target_arch = "wasm32"))]
pub fn process_config_dir() -> Option<PathBuf> {
    config_dir(|key| std::env::var_os(key).map(PathBuf::from))
}

/// Tether's folder in the user's config directory, from environment variables only:
/// `%APPDATA%\Tether` on Windows, `~/Library/Application Support/Tether` on macOS,
/// `$XDG_CONFIG_HOME/tether` or `~/.config/tether` elsewhere. A relative value is ignored (the
/// XDG rule), so the folder never depends on where the game was started.
#[cfg(not(target_arch = "wasm32"))]
pub fn config_dir(env: impl Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    let absolute = |key: &str| env(key).filter(|p| p.is_absolute());
    if cfg!(windows) {
        absolute("APPDATA").map(|p| p.join("Tether"))
    } else if cfg!(target_os = "macos") {
        absolute("HOME").map(|p| p.join("Library/Application Support/Tether"))
    } else {
        absolute("XDG_CONFIG_HOME")
            .or_else(|| absolute("HOME").map(|p| p.join(".config")))
            .map(|p| p.join("tether"))
    }
}
