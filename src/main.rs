//! Entry point. Window-less commands (`check`, `replay`) branch off before any window opens, so
//! they run on machines with no display or GPU.

use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = data_root();
    match args.first().map(String::as_str) {
        Some("check") => {
            let files: Vec<PathBuf> = args[1..].iter().map(PathBuf::from).collect();
            std::process::exit(tether::cli::check(&root, &files));
        }
        Some("replay") => {
            let Some(file) = args.get(1) else {
                eprintln!("usage: tether replay FILE");
                std::process::exit(2);
            };
            std::process::exit(tether::cli::replay(&root, Path::new(file)));
        }
        _ => {}
    }
}

/// The folder holding `assets/` and `levels/`: the working directory when it has them, else
/// the crate's folder (so `cargo run` works from anywhere in the checkout).
fn data_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    if cwd.join("levels").is_dir() && cwd.join("assets").is_dir() {
        cwd
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}
