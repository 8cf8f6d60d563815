//! The simulation version names the physics a run was played with. Whenever a solution replay's
//! final-state hash moves, `SIM_VERSION` must move with it (else old replays, ghosts and online
//! runs would be accepted and play differently), and a replay of another version is refused.

mod common;

use std::path::Path;

use tether::sim::{Replay, SIM_VERSION};

/// The simulation version `SOLUTION_HASHES` belong to.
const HASHES_SIM_VERSION: u32 = 5;

/// Every solution replay's final-state hash under `HASHES_SIM_VERSION` (as `tether replay`
/// prints it).
const SOLUTION_HASHES: &[(&str, &str)] = &[
    ("01_first_swing.ron", "625d1d2419c673bd"),
    ("02_reel_up.ron", "60c9bcbe355e448f"),
    ("03_chain.ron", "9a71796970cfbcb6"),
    ("04_down_the_shaft.ron", "87cb50953c33b88c"),
    ("05_steel_roof.ron", "355bcd8606d345e2"),
    ("06_spike_pits.ron", "b00a3ddd46997428"),
    ("07_long_haul.ron", "14717e72f3a965fd"),
    ("08_quarry_floor.ron", "1ca23f4318d823b9"),
    ("09_ferry.ron", "221cd093ac530d17"),
    ("10_rope_lift.ron", "9d9aa6c98bed149f"),
    ("11_moving_anchor.ron", "75bc86506b78c51b"),
    ("12_vines.ron", "72415c9daf4951bc"),
    ("13_shuttle_hooks.ron", "be8b00bc42963efc"),
    ("14_drawbridge.ron", "ddb7357c6cff847b"),
    ("15_vine_ferry.ron", "b53500abbfc255d8"),
    ("16_mill_run.ron", "432be81eafea0385"),
    ("17_crosswind.ron", "db8f50b12b1dba61"),
    ("18_rotten_beams.ron", "e949c22c555bb117"),
    ("19_banner_hall.ron", "1c430a9ff481ac51"),
    ("20_tailwind.ron", "356cdc8659905d68"),
    ("21_cracked_chain.ron", "df7eba7fbc6ef394"),
    ("22_gust_pit.ron", "3322437d459a6ba7"),
    ("23_rotten_tower.ron", "0c50efed9eae03ea"),
    ("24_eye_of_the_storm.ron", "613178641dd8f043"),
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
