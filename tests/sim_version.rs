//! The simulation version names the physics a run was played with. Whenever a solution replay's
//! final-state hash moves, `SIM_VERSION` must move with it (else old replays, ghosts and online
//! runs would be accepted and play differently), and a replay of another version is refused.

mod common;

use std::path::Path;

use tether::sim::{Replay, SIM_VERSION};

/// The simulation version `SOLUTION_HASHES` belong to.
const HASHES_SIM_VERSION: u32 = 10;

/// Every solution replay's final-state hash under `HASHES_SIM_VERSION` (as `tether replay`
/// prints it).
const SOLUTION_HASHES: &[(&str, &str)] = &[
    ("01_first_swing.ron", "84ff48eadfbd5c4d"),
    ("02_reel_up.ron", "6f6cdc261e22a107"),
    ("03_chain.ron", "133f4a8085e4cc67"),
    ("04_down_the_shaft.ron", "5302dfba89335c7b"),
    ("05_steel_roof.ron", "90522a5a66858053"),
    ("06_spike_pits.ron", "12bafa10209ec3ef"),
    ("07_long_haul.ron", "b298565985d0647f"),
    ("08_quarry_floor.ron", "c6055d3126ba84a6"),
    ("09_ferry.ron", "2235cf528c6aa657"),
    ("10_rope_lift.ron", "05fdeb8573c73a82"),
    ("11_moving_anchor.ron", "3618cdc54b17f73b"),
    ("12_vines.ron", "ff3657bc5742c3dc"),
    ("13_shuttle_hooks.ron", "487c22223a7a6abc"),
    ("14_drawbridge.ron", "f68b7e7bee87e27e"),
    ("15_vine_ferry.ron", "d749fb9ab4f258c4"),
    ("16_mill_run.ron", "014153a3cb1d648f"),
    ("17_crosswind.ron", "e0560b6cfa2705d5"),
    ("18_rotten_beams.ron", "5808fd8c8a2c8390"),
    ("19_banner_hall.ron", "5734d7d347f13cb1"),
    ("20_tailwind.ron", "206dfad0fbf3d9a8"),
    ("21_cracked_chain.ron", "da0ff15aa38fd5c8"),
    ("22_gust_pit.ron", "4b7362bc0e955427"),
    ("23_rotten_tower.ron", "5255b31aa46aa16f"),
    ("24_eye_of_the_storm.ron", "ae3ab81394e5b403"),
];

/// Runs a solution replay whatever simulation version it names (this test is what tells when
/// the versions must move), and gives its final-state hash as `tether replay` prints it.
fn solution_hash(path: &Path) -> String {
    let name = path.display().to_string();
    let replay = Replay::from_ron(&common::read(path), &name).expect("solution parses");
    let level = common::root().join("levels").join(&replay.level);
    let mut world = tether::cli::load_world(&level, common::tuning()).expect("level loads");
    format!("{:016x}", replay.run(&mut world).state_hash)
}

#[test]
fn solution_hashes_move_only_with_the_simulation_version() {
    let solutions = common::root().join("levels/solutions");
    let now: Vec<(String, String)> = common::level_files()
        .iter()
        .map(|level| {
            let file = level.file_name().unwrap().to_string_lossy().into_owned();
            let hash = solution_hash(&solutions.join(&file));
            (file, hash)
        })
        .collect();
    let table: String = now
        .iter()
        .map(|(file, hash)| format!("    ({file:?}, {hash:?}),\n"))
        .collect();
    assert_eq!(
        HASHES_SIM_VERSION, SIM_VERSION,
        "SIM_VERSION is {SIM_VERSION} but tests/sim_version.rs lists the solution hashes of \
         simulation version {HASHES_SIM_VERSION}: set HASHES_SIM_VERSION to {SIM_VERSION} and \
         SOLUTION_HASHES to\n{table}"
    );
    let listed: Vec<(String, String)> = SOLUTION_HASHES
        .iter()
        .map(|(file, hash)| (file.to_string(), hash.to_string()))
        .collect();
    let moved: Vec<&str> = now
        .iter()
        .filter(|entry| !listed.contains(entry))
        .map(|(file, _)| file.as_str())
        .collect();
    assert!(
        moved.is_empty() && listed.len() == now.len(),
        "the simulation's results changed: the final-state hashes of {moved:?} moved (or \
         solutions were added or removed), but SIM_VERSION is still {SIM_VERSION}. If the \
         change is meant, raise SIM_VERSION in sim/src/lib.rs to {next}, give every replay in \
         levels/solutions/ `sim_version: {next},` (after its `level:` line) and set \
         HASHES_SIM_VERSION here to {next} and SOLUTION_HASHES to\n{table}",
        next = SIM_VERSION + 1
    );
}

#[test]
fn a_replay_names_its_simulation_version_and_old_files_read_as_version_1() {
    let path = common::root().join("levels/solutions/01_first_swing.ron");
    // A file from before versions: the solution without its `sim_version` line.
    let text: String = common::read(&path)
        .lines()
        .filter(|line| !line.contains("sim_version"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(!text.contains("sim_version"), "a file from before versions");
    let old = Replay::from_ron(&text, "old.ron").unwrap();
    assert_eq!(old.sim_version, 1);
    let written = Replay::new("01_first_swing.ron").to_ron();
    assert!(
        written.contains(&format!("sim_version: {SIM_VERSION}")),
        "{written}"
    );
}

#[test]
fn a_replay_of_another_simulation_version_is_refused_naming_the_file_and_both_versions() {
    let dir = common::temp_dir("sim-version", "refused");
    let solution = common::read(&common::root().join("levels/solutions/01_first_swing.ron"));
    let other = SIM_VERSION + 1;
    let text = solution.replacen(
        &format!("sim_version: {SIM_VERSION},"),
        &format!("sim_version: {other},"),
        1,
    );
    assert!(text.contains(&format!("sim_version: {other},")), "{text}");
    let path = dir.join("other_version.ron");
    std::fs::write(&path, text).unwrap();
    let Err(err) = tether::cli::load_replay(&common::root(), &path) else {
        panic!("a replay of simulation version {other} was accepted");
    };
    let tether::cli::LoadError::OtherSimVersion(refusal) = &err else {
        panic!("refused for another reason: {err}");
    };
    assert_eq!((refusal.recorded, refusal.current), (other, SIM_VERSION));
    let message = err.to_string();
    assert!(message.contains("other_version.ron"), "{message}");
    assert!(
        message.contains(&format!("simulation version {other}")),
        "{message}"
    );
    assert!(
        message.contains(&format!("simulation version {SIM_VERSION}")),
        "{message}"
    );
    let ghost = tether::app::progress_store::parse_ghost(
        &std::fs::read_to_string(&path).unwrap(),
        "ghost.ron",
        "01_first_swing.ron",
    );
    assert!(
        matches!(
            &ghost,
            Err(tether::app::progress_store::GhostError::OtherSimVersion(refusal))
                if refusal.file == "ghost.ron"
        ),
        "{ghost:?}"
    );
}
