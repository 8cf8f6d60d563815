//! What happened during a tick. The front end turns events into sound, particles and screens;
//! the simulation never calls any of those itself.

use super::math::Vec2;

/// What a hook attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttachKind {
    GrapplePoint,
    Surface,
    /// The player caught the level's vine with this index.
    Vine(u16),
}

/// What broke under the rope's pull.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakKind {
    /// The rotten beam with this index in the level's `fragile` list crumbled.
    Beam(u16),
    /// The cracked ring with this index in the level's `fragile` list snapped.
    Ring(u16),
    /// The player's rope itself snapped (the level's `fragile_rope`).
    Rope,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    Jumped,
    /// Touched ground after being airborne, with the downward speed at impact.
    Landed {
        impact_speed_m_per_s: f32,
    },
    HookFired,
    HookAttached {
        kind: AttachKind,
        at: Vec2,
    },
    /// The hook reached its range without hitting anything.
    HookMissed,
    /// The hook hit a surface it cannot stick to.
    HookBounced {
        at: Vec2,
    },
    Released,
    Died {
        at: Vec2,
    },
    Respawned,
    CheckpointReached {
        index: usize,
    },
    GoalReached {
        ticks: u64,
    },
    /// Something gave way under the rope's pull at `at` (the anchor, or where the rope snapped);
    /// the rope has let go.
    Broke {
        kind: BreakKind,
        at: Vec2,
    },
}

impl Event {
    /// A stable name per kind, for logs, tests and the sound table.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Event::Jumped => "jumped",
            Event::Landed { .. } => "landed",
            Event::HookFired => "hook_fired",
            Event::HookAttached {
                kind: AttachKind::GrapplePoint,
                ..
            } => "hook_attached_point",
            Event::HookAttached {
                kind: AttachKind::Surface,
                ..
            } => "hook_attached_surface",
            Event::HookAttached {
                kind: AttachKind::Vine(_),
                ..
            } => "vine_grabbed",
            Event::HookMissed => "hook_missed",
            Event::HookBounced { .. } => "hook_bounced",
            Event::Released => "released",
            Event::Died { .. } => "died",
            Event::Respawned => "respawned",
            Event::CheckpointReached { .. } => "checkpoint",
            Event::GoalReached { .. } => "goal",
            Event::Broke {
                kind: BreakKind::Beam(_),
                ..
            } => "beam_crumbled",
            Event::Broke {
                kind: BreakKind::Ring(_),
                ..
            } => "ring_snapped",
            Event::Broke {
                kind: BreakKind::Rope,
                ..
            } => "rope_snapped",
        }
    }
}
