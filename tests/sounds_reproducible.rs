//! The committed sounds are exactly what `gen_sounds` makes: regenerate them into a temporary
//! folder and compare byte for byte (so nobody commits a hand-edited or stale file, and the
//! generator stays deterministic: the MP3 encoder, rusty_mp3, is pure Rust and its SIMD kernels
//! give the same bits as its scalar ones).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn sound_names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
        .map(|entry| {
            entry
                .expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".mp3") || name.ends_with(".wav"))
        .collect()
}

#[test]
fn generated_sounds_match_committed_files_byte_for_byte() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds");
    let out: PathBuf =
        std::env::temp_dir().join(format!("tether-gen-sounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_gen_sounds"))
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run gen_sounds");
    assert!(status.success(), "gen_sounds failed: {status}");

    let generated = sound_names(&out);
    assert_eq!(
        generated.len(),
        21,
        "gen_sounds should write 21 files, wrote {generated:?}"
    );
    assert_eq!(
        sound_names(&committed),
        generated,
        "assets/sounds holds other files than gen_sounds writes (stale or missing files)"
    );
    let mut different = Vec::new();
    for name in &generated {
        let fresh = std::fs::read(out.join(name)).expect("read generated");
        let kept = std::fs::read(committed.join(name)).expect("read committed");
        if fresh != kept {
            different.push(format!("{name} ({} vs {} bytes)", fresh.len(), kept.len()));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        different.is_empty(),
        "regenerate with `cargo run --bin gen_sounds` and commit: differs: {}",
        different.join(", ")
    );
}

/// All the sounds together. They were 1.49 MB as WAV (1.32 MB gzipped); the browser's first
/// visit, sounds included, must stay within 1.0 MB gzipped (scripts/web_test.py).
const SOUNDS_MAX_BYTES: u64 = 300_000;

#[test]
fn sounds_stay_small() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds");
    let total: u64 = sound_names(&committed)
        .iter()
        .map(|name| std::fs::metadata(committed.join(name)).expect("stat").len())
        .sum();
    // MP3 hardly compresses further: these bytes are about what the browser downloads.
    assert!(
        total <= SOUNDS_MAX_BYTES,
        "assets/sounds is {total} bytes; keep it within {SOUNDS_MAX_BYTES} for the web download \
         (issue 33)"
    );
}
