//! The simulation must stay pure: no file under sim/src may use the window/audio front end
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
    let sim = Path::new(env!("CARGO_MANIFEST_DIR")).join("sim/src");
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
        let code: String = simulation_code(&text)
            .map(|(_, code)| code)
            .collect::<Vec<_>>()
            .join("\n");
        for module in grouped_std_imports(&code) {
            if ["fs", "io", "env", "time", "net", "process", "thread"].contains(&module) {
                offences.push(format!("{}: uses std::{module}", file.display()));
            }
        }
        for (n, code) in simulation_code(&text) {
            for word in forbidden {
                if code.contains(word) {
                    offences.push(format!("{}:{}: uses {word}", file.display(), n));
                }
            }
            for function in NOT_THE_SAME_ON_EVERY_TARGET {
                if code.contains(function) {
                    offences.push(format!(
                        "{}:{}: calls {function} (std's and glam's transcendental functions \
                         differ between native and wasm32: use libm, see sim::math)",
                        file.display(),
                        n
                    ));
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

/// Float functions whose results differ between targets (std calls the platform's libm on the
/// desktop and a different implementation on wasm32), and glam methods built on them. Square
/// roots, products and sums are exact IEEE operations and allowed. `to_radians` is a product.
const NOT_THE_SAME_ON_EVERY_TARGET: &[&str] = &[
    ".sin(",
    ".cos(",
    ".tan(",
    ".sin_cos(",
    ".asin(",
    ".acos(",
    ".atan(",
    ".atan2(",
    ".sinh(",
    ".cosh(",
    ".tanh(",
    ".exp(",
    ".exp2(",
    ".exp_m1(",
    ".ln(",
    ".ln_1p(",
    ".log(",
    ".log2(",
    ".log10(",
    ".powf(",
    ".powi(",
    ".cbrt(",
    ".hypot(",
    "from_angle(",
    "angle_to(",
    "angle_between(",
    "Rotation::new(",
];

/// The lines of a simulation file that build into the game, numbered from 1, without comments:
/// unit-test modules (from a `#[cfg(test)]` line on, where the project keeps them) may use
/// anything.
fn simulation_code(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .map(|(n, line)| (n + 1, line.split("//").next().unwrap_or("")))
}

/// The modules grouped imports take from std, over the whole text (groups may span lines and
/// nest): `use std::{fs, io::{Read, Write}};` gives fs and io.
fn grouped_std_imports(code: &str) -> Vec<&str> {
    let mut modules = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find("std::{") {
        let group = &rest[start + "std::{".len()..];
        let (mut depth, mut item_start) = (0usize, 0usize);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    modules.push(first_segment(&group[item_start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    modules.push(first_segment(&group[item_start..i]));
                    item_start = i + 1;
                }
                _ => {}
            }
        }
        rest = group;
    }
    modules.retain(|m| !m.is_empty());
    modules
}

fn first_segment(item: &str) -> &str {
    item.trim().split("::").next().unwrap_or("").trim()
}

#[test]
fn the_purity_check_sees_grouped_imports_and_target_dependent_floats() {
    assert_eq!(
        grouped_std_imports("use std::{fs, io::Read, sync::Arc};"),
        ["fs", "io", "sync"]
    );
    assert_eq!(
        grouped_std_imports(
            "use std::{\n    env,\n    io::{Read, Write},\n};\nuse std::{f32::consts::PI};"
        ),
        ["env", "io", "f32"]
    );
    let planted = "fn f(x: f32) -> f32 {\n    x.sin() + x.powf(2.0)\n}\n#[cfg(test)]\nfn t() { 1f32.cos(); }\n";
    let found: Vec<_> = simulation_code(planted)
        .flat_map(|(n, code)| {
            NOT_THE_SAME_ON_EVERY_TARGET
                .iter()
                .filter(move |f| code.contains(*f))
                .map(move |f| (n, *f))
        })
        .collect();
    assert_eq!(found, [(2, ".sin("), (2, ".powf(")]);
}
