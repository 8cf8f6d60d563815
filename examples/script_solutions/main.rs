//! Plays the scripted levels (04–16) with a plan per level and writes their solution replays.
//! Each step holds an input until a condition on the world is met (the ferry has arrived, the
//! lift is at the top), so the plan reads like a player's: wait for it, step on, ride, jump off.
//! The inputs go through the real simulation and are what the replay stores. The plans live one
//! module per world; `steps` holds what they share.
//!
//!   cargo run --release --example script_solutions -- levels/09_ferry.ron [OUT_DIR]
//!
//! OUT_DIR (default levels/solutions) lets a re-run be compared with the committed replays
//! without overwriting them.

mod clockwork_mill;
mod old_quarry;
mod steps;

use std::path::Path;
use std::sync::Arc;

use steps::Step;
use tether::sim::hook::Hook;
use tether::sim::{InputFrame, Replay, World};

/// Longest any step may take before the plan is called broken.
const STEP_LIMIT_TICKS: u64 = 3000;

/// The plan for the level file `level` (its file name, e.g. "09_ferry.ron").
fn plan(level: &str) -> Vec<Step> {
    match level {
        "04_down_the_shaft.ron" => old_quarry::down_the_shaft(),
        "05_steel_roof.ron" => old_quarry::steel_roof(),
        "06_spike_pits.ron" => old_quarry::spike_pits(),
        "07_long_haul.ron" => old_quarry::long_haul(),
        "08_quarry_floor.ron" => old_quarry::quarry_floor(),
        "09_ferry.ron" => clockwork_mill::ferry(),
        "10_rope_lift.ron" => clockwork_mill::rope_lift(),
        "11_moving_anchor.ron" => clockwork_mill::moving_anchor(),
        "12_vines.ron" => clockwork_mill::vines(),
        "13_shuttle_hooks.ron" => clockwork_mill::shuttle_hooks(),
        "14_drawbridge.ron" => clockwork_mill::drawbridge(),
        "15_vine_ferry.ron" => clockwork_mill::vine_ferry(),
        "16_mill_run.ron" => clockwork_mill::mill_run(),
        other => panic!("no scripted plan for {other}"),
    }
}

/// Plays `steps` from `world` to the goal, recording every input into `replay`; exits the
/// process naming the step if the player dies or a step never finishes.
fn play(steps: &[Step], world: &mut World, replay: &mut Replay) {
    let mut aim = (0.0, 0.0);
    // SCRIPT_TRACE=N prints the player every N ticks while planning a level.
    let trace_every: u64 = std::env::var("SCRIPT_TRACE")
        .ok()
        .map_or(0, |v| v.parse().unwrap_or(15).max(1));
    for (index, step) in steps.iter().enumerate() {
        let began = world.tick();
        while let Some(mut input) = next_input(step, world, &mut aim) {
            // The aim stays where it was last fired (as a player's mouse would).
            (input.aim_x, input.aim_y) = aim;
            replay.push(input);
            let events = world.step(&input);
            if trace_every > 0 && world.tick().is_multiple_of(trace_every) {
                trace(world, index);
            }
            if let Some(died) = events
                .iter()
                .find(|e| matches!(e, tether::sim::Event::Died { .. }))
            {
                eprintln!("step {index}: {died:?} at tick {}", world.tick());
                std::process::exit(1);
            }
            if world.tick() - began > STEP_LIMIT_TICKS {
                eprintln!(
                    "step {index} never finished (player at {:?}, grounded {}, hook {:?}, vine {:?})",
                    world.player().pos,
                    world.player().grounded,
                    world.hook(),
                    world.held_vine()
                );
                std::process::exit(1);
            }
            if matches!(step, Step::Tap(_) | Step::FireAt(_)) || world.is_completed() {
                break;
            }
        }
    }
}

/// The input `step` gives this tick, or None once its condition holds. Firing sets `aim`.
fn next_input(step: &Step, world: &World, aim: &mut (f32, f32)) -> Option<InputFrame> {
    match step {
        Step::Hold { input, done } => (!done(world)).then_some(*input),
        Step::Tap(input) => Some(*input),
        Step::Drive { input, done } => (!done(world)).then(|| input(world)),
        Step::FireAt(target) => {
            *aim = InputFrame::quantize_aim(target(world) - world.player().pos);
            Some(InputFrame {
                fire_pressed: true,
                ..Default::default()
            })
        }
    }
}

fn trace(world: &World, index: usize) {
    eprintln!(
        "t{} step {index} pos ({:.2}, {:.2}) vel ({:.2}, {:.2}) grounded {} hook {}",
        world.tick(),
        world.player().pos.x,
        world.player().pos.y,
        world.player().vel.x,
        world.player().vel.y,
        world.player().grounded,
        if matches!(world.hook(), Hook::Attached { .. }) {
            "on"
        } else {
            "-"
        },
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level_path = Path::new(
        args.first()
            .expect("usage: script_solutions levels/NAME.ron [OUT_DIR]"),
    );
    let out_dir = Path::new(args.get(1).map_or("levels/solutions", String::as_str));
    let name = level_path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let tuning = tether::cli::load_tuning(Path::new(".")).expect("tuning");
    let start = tether::cli::load_world(level_path, Arc::clone(&tuning)).expect("level");
    let mut world = start.clone();
    let mut replay = Replay::new(&name);
    play(&plan(&name), &mut world, &mut replay);
    if !world.is_completed() {
        eprintln!(
            "the plan ended short of the goal at {:?}",
            world.player().pos
        );
        std::process::exit(1);
    }
    let check = replay.run(&mut start.clone());
    eprintln!("re-run of the recorded inputs: {check}");
    let out = out_dir.join(&name);
    std::fs::write(&out, replay.to_ron()).expect("write replay");
    eprintln!("wrote {} ({} ticks)", out.display(), replay.tick_count());
}
