//! Finds a solution replay for a shipped level by searching over a simple bot's parameters.
//!
//! The bot plays like a person with a plan: run, jump, fire at the next target (aiming at it
//! from wherever the player is), pump and reel while swinging, let go, repeat, then run for the
//! goal. Every candidate is an ordinary input sequence run through the real simulation, and the
//! winning sequence is written as the level's replay: honest inputs, nothing injected.
//!
//!   cargo run --release --example solve -- levels/03_chain.ron [seed]

use std::path::Path;
use std::sync::Arc;

use tether::sim::hook::Hook;
use tether::sim::math::Vec2;
use tether::sim::objects::fragile::FragileAnchorDef;
use tether::sim::{InputFrame, Replay, World};

const MAX_TICKS: u64 = 2400;
const ITERATIONS: usize = 6000;

#[derive(Clone, Debug)]
struct Stage {
    target: Vec2,
    fire_delay: u32,
    hold: u32,
    pump: i8,
    reel: i8,
    reel_ticks: u32,
    release_by_jump: bool,
}

#[derive(Clone, Debug)]
struct Plan {
    wait: u32,
    jump_at: u32,
    jump_hold: u32,
    stages: Vec<Stage>,
}

/// A small deterministic generator (xorshift), so a seed reproduces a search exactly.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % (hi - lo + 1) as u64) as u32
    }
    fn sign(&mut self) -> i8 {
        self.range(0, 2) as i8 - 1
    }
}

fn random_stage(rng: &mut Rng, target: Vec2) -> Stage {
    let hold = rng.range(10, 220);
    Stage {
        target,
        fire_delay: rng.range(0, 90),
        hold,
        pump: rng.sign(),
        reel: rng.sign(),
        reel_ticks: rng.range(0, hold),
        release_by_jump: rng.range(0, 1) == 1,
    }
}

fn random_plan(rng: &mut Rng, targets: &[Vec2]) -> Plan {
    Plan {
        wait: rng.range(0, 40),
        jump_at: rng.range(0, 90),
        jump_hold: rng.range(0, 20),
        stages: targets.iter().map(|&t| random_stage(rng, t)).collect(),
    }
}

fn mutate(rng: &mut Rng, plan: &Plan) -> Plan {
    let mut p = plan.clone();
    for _ in 0..rng.range(1, 3) {
        let which = rng.range(0, 2 + p.stages.len() as u32 * 2);
        let jitter = |rng: &mut Rng, v: u32, lo: u32, hi: u32| {
            let d = rng.range(0, 20) as i64 - 10;
            (v as i64 + d).clamp(lo as i64, hi as i64) as u32
        };
        match which {
            0 => p.wait = jitter(rng, p.wait, 0, 60),
            1 => p.jump_at = jitter(rng, p.jump_at, 0, 120),
            2 => p.jump_hold = jitter(rng, p.jump_hold, 0, 20),
            n => {
                let s = &mut p.stages[((n - 3) / 2) as usize % plan.stages.len()];
                match rng.range(0, 5) {
                    0 => s.fire_delay = jitter(rng, s.fire_delay, 0, 120),
                    1 => s.hold = jitter(rng, s.hold, 5, 260),
                    2 => s.pump = rng.sign(),
                    3 => {
                        s.reel = rng.sign();
                        s.reel_ticks = rng.range(0, s.hold);
                    }
                    4 => s.reel_ticks = jitter(rng, s.reel_ticks, 0, s.hold),
                    _ => s.release_by_jump = !s.release_by_jump,
                }
            }
        }
    }
    p
}

/// Runs the bot; returns the score (higher is better), whether the goal was reached, and the
/// inputs it gave.
fn play(start: &World, plan: &Plan) -> (f32, bool, Replay) {
    play_segment(start, plan, start.level().goal.center(), &|w| {
        w.is_completed()
    })
}

/// Runs the bot from `start` (any tick), counting the plan's times from there, running toward
/// `aim` and winning when `done` holds: the whole level (`play`), or one stretch of a level
/// played in stages (`SOLVE_STAGED`).
fn play_segment(
    start: &World,
    plan: &Plan,
    aim: Vec2,
    done: &dyn Fn(&World) -> bool,
) -> (f32, bool, Replay) {
    let mut world = start.clone();
    let mut replay = Replay::new("");
    let goal = aim;
    let start_tick = world.tick();
    let mut progress = Progress::default();
    let mut best_dist = f32::MAX;
    let mut started_run = false;
    let mut last_aim = (0.0, 0.0);
    while world.tick() < start_tick + MAX_TICKS {
        let t = (world.tick() - start_tick) as u32;
        let mut input = InputFrame::default();
        if t >= plan.wait {
            started_run = true;
        }
        if started_run {
            input.move_x = (goal.x - world.player().pos.x).signum() as i8;
        }
        let since_run = t.saturating_sub(plan.wait);
        if started_run && since_run == plan.jump_at {
            input.jump_pressed = true;
        }
        input.jump_held =
            started_run && since_run >= plan.jump_at && since_run < plan.jump_at + plan.jump_hold;
        stage_input(plan, &mut progress, &world, since_run, &mut input);
        // Between shots the aim stays where it was last fired (keeps the replay compact).
        if input.fire_pressed {
            last_aim = (input.aim_x, input.aim_y);
        } else {
            (input.aim_x, input.aim_y) = last_aim;
        }
        replay.push(input);
        let events = world.step(&input);
        best_dist = best_dist.min(world.player().pos.distance(goal));
        if world.player().vel.length() > max_speed() {
            break; // a fling no person would count on
        }
        if done(&world) {
            let score = 1e6 - (world.tick() - start_tick) as f32;
            return (score, true, replay);
        }
        if events
            .iter()
            .any(|e| matches!(e, tether::sim::Event::Died { .. }))
        {
            break;
        }
    }
    (-best_dist, false, replay)
}

/// Where the bot is in its plan: the stage, and the ticks counted within it.
#[derive(Default)]
struct Progress {
    stage: usize,
    /// Ticks since the current phase began.
    phase_tick: u32,
    attached_for: u32,
}

/// The current stage's part of this tick's input: on the rope, pump, reel and let go when its
/// time is up; off it, fire at the stage's target once its delay has passed.
fn stage_input(
    plan: &Plan,
    progress: &mut Progress,
    world: &World,
    since_run: u32,
    input: &mut InputFrame,
) {
    let attached = matches!(world.hook(), Hook::Attached { .. });
    if let Some(s) = plan.stages.get(progress.stage) {
        if attached {
            progress.attached_for += 1;
            input.move_x = s.pump;
            if progress.attached_for <= s.reel_ticks {
                input.reel = s.reel;
            }
            if progress.attached_for >= s.hold {
                if s.release_by_jump {
                    input.jump_pressed = true;
                } else {
                    input.release_pressed = true;
                }
                progress.stage += 1;
                progress.phase_tick = 0;
                progress.attached_for = 0;
            }
        } else if matches!(world.hook(), Hook::Idle | Hook::Retracting { .. })
            && since_run >= plan.jump_at
        {
            progress.phase_tick += 1;
            if progress.phase_tick >= s.fire_delay {
                let aim = s.target - world.player().pos;
                let (ax, ay) = InputFrame::quantize_aim(aim);
                input.fire_pressed = true;
                input.aim_x = ax;
                input.aim_y = ay;
                progress.phase_tick = 0;
            }
        }
    }
}

/// Plays a level with checkpoints one stretch at a time (`SOLVE_STAGED=1`): the targets before
/// the first checkpoint, searched until the player stands in it, then from there the next
/// stretch, and so on to the goal; the winning stretches' inputs are joined into one replay.
fn solve_staged(world: &World, targets: &[Vec2], rng: &mut Rng) -> Option<Replay> {
    let (iterations, stale_after_win) = search_budget();
    let mut marks: Vec<(f32, Vec2)> = world
        .level()
        .checkpoints
        .iter()
        .map(|c| (c.min.0, c.center()))
        .collect();
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut state = world.clone();
    let mut all = Replay::new("");
    let mut lo = f32::MIN;
    for k in 0..=marks.len() {
        let hi = marks.get(k).map_or(f32::MAX, |m| m.0);
        let stretch: Vec<Vec2> = targets
            .iter()
            .copied()
            .filter(|t| t.x > lo && t.x <= hi)
            .collect();
        lo = hi;
        let aim = marks.get(k).map_or(world.level().goal.center(), |m| m.1);
        let want = marks.len().min(k + 1);
        let last = k == marks.len();
        let done = move |w: &World| {
            if last {
                w.is_completed()
            } else {
                w.checkpoints().reached.iter().filter(|r| **r).count() >= want
                    && w.player().grounded
            }
        };
        let mut best = random_plan(rng, &stretch);
        let (mut best_score, mut best_won, mut best_replay) =
            play_segment(&state, &best, aim, &done);
        let mut stale = 0;
        for i in 0..iterations {
            let candidate = if stale > 400 && !best_won {
                stale = 0;
                random_plan(rng, &stretch)
            } else if stretch.is_empty() {
                random_plan(rng, &stretch)
            } else {
                mutate(rng, &best)
            };
            let (score, won, replay) = play_segment(&state, &candidate, aim, &done);
            if score > best_score {
                (best, best_score, best_won, best_replay) = (candidate, score, won, replay);
                stale = 0;
                eprintln!("stretch {k} iter {i}: score {score:.2} won {won}");
            } else {
                stale += 1;
            }
            if best_won && stale > stale_after_win {
                break;
            }
        }
        if !best_won {
            eprintln!("stretch {k}: no solution found; best plan {best:?}");
            return None;
        }
        for input in best_replay.frames() {
            state.step(input);
            all.push(*input);
        }
    }
    Some(all)
}

/// With `SOLVE_MAX_SPEED` set, a run that goes faster than that many m/s counts as failed: it
/// keeps the search off wild flings (a rope yanked over a corner).
fn max_speed() -> f32 {
    use std::sync::OnceLock;
    static MAX: OnceLock<f32> = OnceLock::new();
    *MAX.get_or_init(|| {
        std::env::var("SOLVE_MAX_SPEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(f32::INFINITY)
    })
}

/// The search's budget: `ITERATIONS` candidates, stopping once a win has not improved for 300,
/// unless `SOLVE_ITERS` / `SOLVE_STALE` say otherwise (a quicker search while designing).
fn search_budget() -> (usize, usize) {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    (env("SOLVE_ITERS", ITERATIONS), env("SOLVE_STALE", 300))
}

/// What the bot fires at: every grapple point in order, or, without any, the middle of each
/// hookable solid's underside.
fn targets_of(world: &World) -> Vec<Vec2> {
    let mut targets: Vec<Vec2> = world.level().grapple_points.iter().map(|p| p.v()).collect();
    // Fragile anchors too (a cracked ring's centre, a rotten beam's underside), all left to right.
    if !world.level().fragile.is_empty() {
        for fragile in &world.level().fragile {
            targets.push(match &fragile.anchor {
                FragileAnchorDef::Ring { at } => at.v(),
                FragileAnchorDef::Beam { shape } => {
                    let (shape, pose) =
                        tether::sim::objects::shape_collider(shape).expect("checked level");
                    let aabb = shape.compute_aabb(&pose);
                    Vec2::new((aabb.mins.x + aabb.maxs.x) * 0.5, aabb.mins.y)
                }
            });
        }
        targets.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    if targets.is_empty() {
        for solid in world.level().solids.iter().filter(|s| s.hookable) {
            if let tether::sim::level::ShapeDef::Box {
                center,
                half_extents,
                ..
            } = &solid.shape
            {
                if center.1 > world.player().pos.y + 4.0 {
                    targets.push(Vec2::new(
                        center.0 + half_extents.0 * 0.5,
                        center.1 - half_extents.1,
                    ));
                }
            }
        }
    }
    targets
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level_path = Path::new(args.first().expect("usage: solve LEVEL.ron [seed]"));
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let tuning = tether::cli::load_tuning(Path::new(".")).expect("tuning");
    let world = tether::cli::load_world(level_path, Arc::clone(&tuning)).expect("level");
    let targets = targets_of(&world);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    if std::env::var("SOLVE_STAGED").is_ok_and(|v| v == "1") {
        let Some(replay) = solve_staged(&world, &targets, &mut rng) else {
            std::process::exit(1);
        };
        write_solution(level_path, &world, replay);
        return;
    }
    let mut best = random_plan(&mut rng, &targets);
    let (mut best_score, mut best_won, mut best_replay) = play(&world, &best);
    let (iterations, stale_after_win) = search_budget();
    let mut stale = 0;
    for i in 0..iterations {
        let candidate = if stale > 400 && !best_won {
            stale = 0;
            random_plan(&mut rng, &targets)
        } else {
            mutate(&mut rng, &best)
        };
        let (score, won, replay) = play(&world, &candidate);
        if score > best_score {
            best = candidate;
            best_score = score;
            best_won = won;
            best_replay = replay;
            stale = 0;
            eprintln!("iter {i}: score {score:.2} won {won}");
        } else {
            stale += 1;
        }
        if best_won && stale > stale_after_win {
            break;
        }
    }
    if !best_won {
        eprintln!("no solution found; best plan {best:?}");
        std::process::exit(1);
    }
    write_solution(level_path, &world, best_replay);
}

/// Re-runs the found inputs (printing the outcome) and writes them as the level's solution.
fn write_solution(level_path: &Path, world: &World, mut best_replay: Replay) {
    let check = best_replay.run(&mut world.clone());
    eprintln!("re-run of the recorded inputs: {check}");
    best_replay.level = level_path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let out = Path::new("levels/solutions").join(level_path.file_name().unwrap());
    std::fs::write(&out, best_replay.to_ron()).expect("write replay");
    eprintln!(
        "wrote {} ({} ticks)",
        out.display(),
        best_replay.tick_count()
    );
}
