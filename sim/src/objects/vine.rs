//! Vines: ropes hanging from a point of the level, optionally weighted at the end. They swing and
//! drape on the level through the same rope solver as the player's rope, and the player brushing
//! through one pushes it. A player in the air who touches a vine grabs it; the vine is then two
//! ropes split at the hand: the part above is the rope the player swings on (climbing is reeling
//! it, at the climbing speed), the part below hangs from the hand. Letting go (release, jump,
//! fire, death) joins the two again, each node keeping its motion.

use serde::{Deserialize, Serialize};

use super::{Issues, LevelIds, ObjectDef};
use crate::geometry::Geometry;
use crate::math::Vec2;
use crate::parallel;
use crate::player::Player;
use crate::rope::Rope;
use crate::shape::P;
use crate::tuning::{Tuning, TICK_DT_S};

/// Most vines a level may hold.
pub const MAX_VINES: usize = 100;
/// Vine lengths allowed. The longest is 100 nodes of the rope's 0.3 m segments.
pub const MIN_VINE_LENGTH_M: f32 = 1.5;
pub const MAX_VINE_LENGTH_M: f32 = 30.0;
/// Heaviest weight at a vine's end, kilograms.
pub const MAX_VINE_WEIGHT_KG: f32 = 500.0;
/// Climbing speed up and down a vine.
pub const CLIMB_SPEED_M_PER_S: f32 = 3.0;
/// How close the player's centre must come to a vine node to grab it.
pub const GRAB_RADIUS_M: f32 = 0.45;
/// Shortest the part above the hand gets when climbing up, and the least left below.
pub const MIN_HOLD_M: f32 = 0.6;
pub const MIN_BELOW_M: f32 = 0.3;
/// Fewest substeps a vine takes per tick when it moves slowly: one, in the open. It takes more,
/// up to the rope's full count, as its nodes near the level or its segments' turning need
/// (`Rope::substeps_needed`), and two while in contact. One changed the vines' swing from
/// stop 26 on (the solutions of levels 12, 15 and 16 were re-recorded) and halved the weather
/// vines' cost.
pub const VINE_MIN_SUBSTEPS: u32 = 1;
/// Fewest substeps a winch rope takes per tick; it takes more as its fastest node needs. Tried
/// and dropped: the vines' by-need count for winch ropes (levels 14 and 16 missed their goals).
pub const WINCH_ROPE_MIN_SUBSTEPS: u32 = 2;
/// Vine nodes within this distance of the player are pushed along by them.
const PUSH_RADIUS_M: f32 = 0.6;
/// Share of the player's velocity (relative to a node) a brushed node takes per tick.
const PUSH_SHARE: f32 = 0.15;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VineDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where the vine hangs from.
    pub at: P,
    pub length_m: f32,
    /// A weight at the end (0: none, the end is a plain node).
    #[serde(default)]
    pub weight_kg: f32,
}

/// A vine's rope: the whole vine, or while held the part below the hand (the part above is
/// the player's `Hook::Attached` rope).
#[derive(Clone, Debug, PartialEq)]
pub struct VineState {
    pub rope: Rope,
    pub held: bool,
    /// The player let go of this vine and has not landed or caught another since: it cannot
    /// be caught again yet (its lower part swings along with the player who just let go, and
    /// would be caught again at once).
    pub let_go: bool,
}

impl VineDef {
    /// The vine hanging straight down, still.
    pub fn start(&self, tuning: &Tuning) -> VineState {
        let at = self.at.v();
        let mut rope = Rope::new(
            at,
            at - Vec2::new(0.0, self.length_m),
            self.length_m,
            &tuning.rope,
        );
        let node_kg = tuning.rope.player_mass_kg / tuning.rope.player_mass_ratio.max(1e-3);
        rope.set_end_mass_ratio(1.0 + self.weight_kg / node_kg.max(1e-3));
        rope.set_min_substeps(VINE_MIN_SUBSTEPS);
        rope.set_sleeps_when_still(true);
        rope.set_substeps_by_need(true);
        VineState {
            rope,
            held: false,
            let_go: false,
        }
    }
}

impl ObjectDef for VineDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.point(&format!("{object}.at"), self.at);
        issues.in_range(
            object,
            "length_m",
            self.length_m,
            MIN_VINE_LENGTH_M,
            MAX_VINE_LENGTH_M,
        );
        issues.in_range(object, "weight_kg", self.weight_kg, 0.0, MAX_VINE_WEIGHT_KG);
    }
}

/// Free vines swing (pushed by the player brushing through); a held vine's lower part is stepped
/// after the player moves (`World::step_held_vine`). Every vine feels `blow` (the wind) first.
/// On both cores in a heavy scene (`sim::parallel`).
pub(crate) fn step_free_vines(
    vines: &mut [VineState],
    geometry: &Geometry,
    player: &Player,
    gravity: Vec2,
    blow: &(impl Fn(&mut Rope) + Sync),
) {
    let (player_pos, player_vel) = (player.pos, player.vel);
    let landed = player.grounded;
    parallel::halves_mut(
        vines,
        |v| v.rope.step_work(),
        |part| {
            for vine in part.iter_mut() {
                blow(&mut vine.rope);
                vine.let_go &= !landed;
                if vine.held {
                    continue;
                }
                for i in 1..vine.rope.nodes.len() {
                    if vine.rope.nodes[i].distance(player_pos) < PUSH_RADIUS_M {
                        let node_vel = vine.rope.node_velocity(i);
                        vine.rope.push_node(i, (player_vel - node_vel) * PUSH_SHARE);
                    }
                }
            }
            // The vines hanging free step together: alike ones solve their chains side by side.
            let mut free: Vec<&mut Rope> = part
                .iter_mut()
                .filter(|v| !v.held)
                .map(|v| &mut v.rope)
                .collect();
            Rope::step_free_all(&mut free, geometry, gravity, TICK_DT_S);
        },
    );
}
