//! A ghost: a past run (the player's best, or the author's solution) replayed by its inputs in a
//! world of its own, stepped in lockstep with play and drawn as a translucent player with its
//! rope. Re-simulating inputs keeps ghosts small and exact: the same inputs in the same level give
//! the same run, tick for tick.

use macroquad::color::Color;
use macroquad::math::Vec2 as MqVec2;
use macroquad::shapes::draw_line;

use super::palette;
use super::progress_store::GhostError;
use super::render::mq;
use super::render::player_sprite::{draw_player, PlayerAnim};
use crate::sim::hook::Hook;
use crate::sim::math::Vec2;
use crate::sim::{Event, InputFrame, Replay, World, TICK_DT_S};

/// How opaque the ghost is drawn.
const GHOST_ALPHA: f32 = 0.38;
/// Half width of the ghost's rope line, metres.
const GHOST_ROPE_HALF_WIDTH_M: f32 = 0.05;

/// Where the ghost is at one tick: enough to draw it.
#[derive(Clone, Default)]
struct GhostPose {
    player: Vec2,
    rope: Vec<Vec2>,
    hook: Option<Vec2>,
}

impl GhostPose {
    fn of(world: &World) -> GhostPose {
        let (rope, hook) = match world.hook() {
            Hook::Attached { rope, .. } => (rope.nodes.clone(), None),
            Hook::Flying { pos, .. } | Hook::Retracting { pos } => (Vec::new(), Some(*pos)),
            Hook::Idle => (Vec::new(), None),
        };
        GhostPose {
            player: world.player().pos,
            rope,
            hook,
        }
    }
}

/// Why a kept best run is not raced: re-simulated today, it does not do what its record says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StaleGhost {
    /// `ticks`: how long it played before its inputs ran out.
    NoLongerReachesGoal { level: String, ticks: u64 },
    OtherTime {
        level: String,
        ticks: u64,
        recorded_ticks: u64,
    },
}

impl std::fmt::Display for StaleGhost {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            StaleGhost::NoLongerReachesGoal { level, ticks } => write!(
                f,
                "the kept best run of {level} no longer reaches the goal ({ticks} ticks played); \
                 not raced"
            ),
            StaleGhost::OtherTime {
                level,
                ticks,
                recorded_ticks,
            } => write!(
                f,
                "the kept best run of {level} now reaches the goal in {ticks} ticks, not its \
                 recorded {recorded_ticks}; not raced"
            ),
        }
    }
}

impl std::error::Error for StaleGhost {}

/// Whether a kept best run still is the run its record says: re-simulated from `start` (the
/// level as it is now, with today's tuning) it must reach the goal, on `recorded_ticks` when
/// the progress has a time for it. The progress and the ghost are two writes, and the level or
/// the tuning may have changed since: a ghost that no longer does what the record says would
/// race the player with a run that cannot happen, so it is refused with the reason.
pub fn check_kept_run(
    start: &World,
    run: &Replay,
    recorded_ticks: Option<u64>,
) -> Result<(), StaleGhost> {
    let outcome = run.run(&mut start.clone());
    if !outcome.goal_reached {
        return Err(StaleGhost::NoLongerReachesGoal {
            level: run.level.clone(),
            ticks: outcome.ticks,
        });
    }
    match recorded_ticks {
        Some(recorded) if recorded != outcome.ticks => Err(StaleGhost::OtherTime {
            level: run.level.clone(),
            ticks: outcome.ticks,
            recorded_ticks: recorded,
        }),
        _ => Ok(()),
    }
}

/// The kept best run to race: the one loaded, if it loaded and passes `check_kept_run`; what
/// is wrong with it otherwise goes to the log.
pub fn kept_best_run(
    loaded: Result<Option<Replay>, GhostError>,
    start: &World,
    recorded_ticks: Option<u64>,
) -> Option<Replay> {
    let run = match loaded {
        Ok(run) => run?,
        Err(problem) => {
            super::log_line(&format!("ghost: {problem}"));
            return None;
        }
    };
    match check_kept_run(start, &run, recorded_ticks) {
        Ok(()) => Some(run),
        Err(problem) => {
            super::log_line(&format!("ghost: {problem}"));
            None
        }
    }
}

pub struct Ghost {
    world: World,
    inputs: Vec<InputFrame>,
    next: usize,
    anim: PlayerAnim,
    prev: GhostPose,
    now: GhostPose,
    /// The run reached the goal: the ghost stops there and fades.
    finished: bool,
    /// Whose run it is, for the HUD ("author", "best").
    pub label: &'static str,
}

impl Ghost {
    /// A ghost of `run` in a fresh copy of the level (`start`, the world as it is at tick 0).
    pub fn new(start: &World, run: &Replay, label: &'static str) -> Ghost {
        let mut world = start.clone();
        world.set_invincible(run.assists.invincible);
        let pose = GhostPose::of(&world);
        Ghost {
            world,
            inputs: run.frames().copied().collect(),
            next: 0,
            anim: PlayerAnim::default(),
            prev: pose.clone(),
            now: pose,
            finished: false,
            label,
        }
    }

    /// One tick of the run, in step with play.
    pub fn tick(&mut self) {
        if self.finished {
            return;
        }
        let Some(input) = self.inputs.get(self.next).copied() else {
            self.finished = true;
            return;
        };
        self.next += 1;
        self.prev = std::mem::take(&mut self.now);
        let events = self.world.step(&input);
        for event in &events {
            self.anim.on_event(event);
            if matches!(event, Event::GoalReached { .. }) {
                self.finished = true;
            }
        }
        self.anim.tick(&self.world, TICK_DT_S);
        self.now = GhostPose::of(&self.world);
        if self.prev.rope.len() != self.now.rope.len() || events.contains(&Event::Respawned) {
            self.prev = self.now.clone();
        }
    }

    /// Draws the ghost `alpha` of the way from the last tick to this one (inside the world's
    /// camera).
    pub fn draw(&self, alpha: f32) {
        let fade = if self.finished { 0.5 } else { 1.0 };
        let a = GHOST_ALPHA * fade;
        let color = Color {
            a,
            ..palette::ROPE.color()
        };
        let lerp = |p: Vec2, n: Vec2| mq(p.lerp(n, alpha));
        let player = lerp(self.prev.player, self.now.player);
        let mut rope_end_dir = None;
        if self.now.rope.len() >= 2 {
            let points: Vec<MqVec2> = self
                .prev
                .rope
                .iter()
                .zip(&self.now.rope)
                .map(|(&p, &n)| lerp(p, n))
                .collect();
            for pair in points.windows(2) {
                draw_line(
                    pair[0].x,
                    pair[0].y,
                    pair[1].x,
                    pair[1].y,
                    GHOST_ROPE_HALF_WIDTH_M * 2.0,
                    color,
                );
            }
            let n = points.len();
            rope_end_dir = Some(points[n - 2] - points[n - 1]);
        } else if let Some(hook) = self.now.hook {
            let hook = mq(hook);
            draw_line(
                player.x,
                player.y,
                hook.x,
                hook.y,
                GHOST_ROPE_HALF_WIDTH_M * 1.4,
                color,
            );
        }
        draw_player(&self.anim, &self.world, player, rope_end_dir, a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::LevelDef;

    fn root() -> std::path::PathBuf {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    fn start_of(text: &str) -> World {
        let tuning = crate::cli::load_tuning(&root()).unwrap();
        let level = LevelDef::from_ron(text, "01_first_swing.ron").unwrap();
        World::from_level(level, tuning, "01_first_swing.ron").unwrap()
    }

    fn level_text() -> String {
        std::fs::read_to_string(root().join("levels/01_first_swing.ron")).unwrap()
    }

    fn solution() -> (Replay, u64) {
        let text =
            std::fs::read_to_string(root().join("levels/solutions/01_first_swing.ron")).unwrap();
        let run = Replay::from_ron(&text, "01_first_swing.ron").unwrap();
        let ticks = run.run(&mut start_of(&level_text())).ticks;
        (run, ticks)
    }

    #[test]
    fn a_kept_run_that_still_does_what_its_record_says_is_raced() {
        let (run, ticks) = solution();
        assert_eq!(
            check_kept_run(&start_of(&level_text()), &run, Some(ticks)),
            Ok(())
        );
        // No time kept (the progress was lost): reaching the goal is enough.
        assert_eq!(check_kept_run(&start_of(&level_text()), &run, None), Ok(()));
        let start = start_of(&level_text());
        assert_eq!(
            kept_best_run(Ok(Some(run.clone())), &start, Some(ticks)),
            Some(run)
        );
    }

    #[test]
    fn a_kept_run_slower_than_its_record_is_not_raced() {
        // The progress was written and the ghost's write was lost: the ghost is an older run.
        let (run, ticks) = solution();
        let problem = check_kept_run(&start_of(&level_text()), &run, Some(ticks - 30)).unwrap_err();
        assert_eq!(
            problem,
            StaleGhost::OtherTime {
                level: run.level.clone(),
                ticks,
                recorded_ticks: ticks - 30
            }
        );
        assert!(
            problem.to_string().contains(&format!(
                "in {ticks} ticks, not its recorded {}",
                ticks - 30
            )),
            "{problem}"
        );
        let start = start_of(&level_text());
        assert_eq!(kept_best_run(Ok(Some(run)), &start, Some(ticks - 30)), None);
    }

    #[test]
    fn a_kept_run_that_no_longer_reaches_the_goal_is_not_raced() {
        // The level changed since: its goal moved out of the run's way.
        let (run, ticks) = solution();
        let goal = "goal: (min: (20.0, 0.0), max: (23.0, 3.0))";
        assert!(level_text().contains(goal));
        let moved = level_text().replace(goal, "goal: (min: (40.0, 0.0), max: (43.0, 3.0))");
        let problem = check_kept_run(&start_of(&moved), &run, Some(ticks)).unwrap_err();
        assert!(
            matches!(problem, StaleGhost::NoLongerReachesGoal { .. }),
            "{problem}"
        );
        assert!(
            problem.to_string().contains("no longer reaches the goal"),
            "{problem}"
        );
        assert_eq!(
            kept_best_run(Ok(Some(run)), &start_of(&moved), Some(ticks)),
            None
        );
    }
}
