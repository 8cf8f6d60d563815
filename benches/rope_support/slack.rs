//! Slack-rope workloads: the game's rope (0.3 m segments, 12 m at most, the player a 50× heavy
//! end, 8 substeps of a 1/120 s tick) in the open, driven the way play drives it. None of the
//! taut workloads ever lets the rope go slack, which is how a rope that knotted when slack
//! passed them all. Each measures the rope's shape every tick (`tether::sim::rope_shape`).
//!
//! The player here is the rope's end with no body: gravity, the rope, and what the workload
//! does to it (a throw, a reel). The game adds only collision with the level.

use tether::sim::geometry::Geometry;
use tether::sim::math::Vec2;
use tether::sim::rope::Rope;
use tether::sim::rope_shape::{measure, ShapeTally};
use tether::sim::tuning::RopeTuning;
use tether::sim::{Tuning, TICK_DT_S};

/// What a slack workload does to the player's end.
#[derive(Clone, Copy, Debug)]
pub enum SlackDrive {
    /// Hanging still under the anchor, reeled in to the minimum length, then held.
    ReelWhileHanging,
    /// Released from level with the anchor, reeled in to the minimum while it swings.
    ReelWhileSwinging,
    /// Thrown up from the bottom of the hanging rope, past the anchor, faster than a full swing
    /// from level reaches (√(2 g L) = 31 m/s for 12 m at 40 m/s²).
    ThrowUpPastAnchor,
    /// Let go from straight above the anchor, the rope standing taut: end and rope fall past it.
    DropTowardAnchor,
}

pub struct SlackWorkload {
    pub name: &'static str,
    pub drive: SlackDrive,
    pub ticks: usize,
}

/// Speed of the throw: a little more than a 12 m swing from level reaches at the bottom, so the
/// end rises about 2.5 m above the anchor.
pub const THROW_SPEED_M_PER_S: f32 = 34.0;
/// Sideways offset of the end's start, so it passes beside the anchor rather than through it.
const SIDE_OFFSET_M: f32 = 0.6;

pub fn slack_workloads() -> Vec<SlackWorkload> {
    use SlackDrive::*;
    vec![
        SlackWorkload {
            name: "reel-hanging",
            drive: ReelWhileHanging,
            ticks: 360,
        },
        SlackWorkload {
            name: "reel-swinging",
            drive: ReelWhileSwinging,
            ticks: 480,
        },
        SlackWorkload {
            name: "throw-up",
            drive: ThrowUpPastAnchor,
            ticks: 360,
        },
        SlackWorkload {
            name: "drop-to-anchor",
            drive: DropTowardAnchor,
            ticks: 360,
        },
    ]
}

/// The game's tuning, read from the repository's `assets/tuning.ron`.
pub fn game_tuning() -> std::sync::Arc<Tuning> {
    tether::cli::load_tuning(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("assets/tuning.ron loads")
}

/// One run of a slack workload: the rope, the player's end and the tick.
pub struct SlackRun<'a> {
    pub workload: &'a SlackWorkload,
    pub rope: Rope,
    pub player_pos: Vec2,
    pub player_vel: Vec2,
    pub tick: usize,
    tuning: RopeTuning,
    gravity: Vec2,
    geometry: Geometry,
}

impl<'a> SlackRun<'a> {
    pub fn new(workload: &'a SlackWorkload, tuning: &Tuning) -> SlackRun<'a> {
        let rope_tuning = tuning.rope.clone();
        let max_m = rope_tuning.max_length_m;
        let anchor = Vec2::ZERO;
        // Every workload starts with the rope straight and at its full 12 m.
        let along = |dir: Vec2| anchor + dir.normalize() * max_m;
        let (player_pos, player_vel) = match workload.drive {
            SlackDrive::ReelWhileHanging => (along(Vec2::new(0.0, -1.0)), Vec2::ZERO),
            SlackDrive::ReelWhileSwinging => (along(Vec2::new(1.0, 0.0)), Vec2::ZERO),
            SlackDrive::ThrowUpPastAnchor => (
                along(Vec2::new(SIDE_OFFSET_M, -max_m)),
                Vec2::new(0.0, THROW_SPEED_M_PER_S),
            ),
            SlackDrive::DropTowardAnchor => (along(Vec2::new(SIDE_OFFSET_M, max_m)), Vec2::ZERO),
        };
        let rope = Rope::new(anchor, player_pos, max_m, &rope_tuning);
        SlackRun {
            workload,
            rope,
            player_pos,
            player_vel,
            tick: 0,
            gravity: Vec2::new(0.0, -tuning.player.gravity_m_per_s2),
            tuning: rope_tuning,
            geometry: Geometry::of_solids(vec![]),
        }
    }

    /// One game tick: reel, gravity, the rope step, the player moved where the rope lets it.
    pub fn step(&mut self) {
        let reeling = matches!(
            self.workload.drive,
            SlackDrive::ReelWhileHanging | SlackDrive::ReelWhileSwinging
        );
        if reeling {
            let t = &self.tuning;
            let length_m = self.rope.length_m - t.reel_speed_m_per_s * TICK_DT_S;
            self.rope
                .set_length(length_m, t.min_length_m, t.max_length_m);
        }
        self.player_vel += self.gravity * TICK_DT_S;
        let (pos, vel) = self.rope.step(
            &self.geometry,
            &self.tuning,
            self.gravity,
            self.player_pos,
            self.player_vel,
            TICK_DT_S,
        );
        self.player_pos = pos;
        self.player_vel = vel;
        self.rope.set_player(pos);
        self.tick += 1;
    }
}

/// Runs a slack workload to its end and tallies the rope's shape after every tick.
pub fn run_slack(workload: &SlackWorkload, tuning: &Tuning) -> ShapeTally {
    let mut run = SlackRun::new(workload, tuning);
    let mut tally = ShapeTally::default();
    for _ in 0..workload.ticks {
        run.step();
        let rope = &run.rope;
        tally.add(measure(
            &rope.nodes,
            rope.touching(),
            rope.nominal_segment_m(),
        ));
    }
    tally
}
