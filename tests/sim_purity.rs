//! The simulation must stay pure: no file under src/sim may use the window/audio front end
//! (macroquad, rodio), a clock, or file I/O.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_simulation_file_imports_the_front_end_a_clock_or_io() {
    let sim = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
    let mut files = Vec::new();
    rust_files(&sim, &mut files);
    assert!(
        files.len() >= 5,
        "expected the sim's files, found {files:?}"
    );
    let forbidden = [
        "macroquad",
        "rodio",
        "std::time",
        "Instant::now",
        "SystemTime",
        "std::fs",
        "std::io",
        "std::env",
        "HashMap",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    offences.push(format!("{}:{}: uses {word}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "the simulation must stay pure:\n{}",
        offences.join("\n")
    );
}
