//! The world's state hash: every bit of state that a step reads, so two runs that agree on it
//! agree on everything to come.

use crate::event::AttachKind;
use crate::hook::Hook;
use crate::objects::checkpoint::CheckpointProgress;
use crate::objects::vine::VineState;
use crate::objects::winch::WinchState;
use crate::player::Player;
use crate::state_hash::StateHasher;
use crate::world::World;

impl World {
    /// A hash of everything that evolves.
    pub fn state_hash(&self) -> u64 {
        let World {
            // What the world plays on, not what evolves.
            level: _,
            tuning: _,
            // Fixed colliders never change; moving ones are posed from the tick and the winches.
            geometry: _,
            // Fixed zones (wind, above); the gusts follow from the tick.
            player,
            hook,
            tick,
            respawn_point,
            checkpoints,
            winches,
            vines,
            switches_pressed,
            completed_at_tick,
            teleported_at_tick,
            deaths,
            invincible,
            wind: _,
            fragile,
            rope_strain,
            loose_ropes,
            cloths,
            // A record of the last tick for tests, never read by the step.
            energy: _,
        } = self;
        let mut h = StateHasher::new();
        h.u64(*tick);
        hash_player(&mut h, player);
        hash_hook(&mut h, hook);
        h.vec(*respawn_point);
        let CheckpointProgress { reached, current } = checkpoints;
        for &r in reached {
            h.bool(r);
        }
        h.option_u64(current.map(|c| c as u64));
        for winch in winches {
            let WinchState {
                rope,
                reeling_in,
                wait_ticks_left,
            } = winch;
            rope.hash_into(&mut h);
            h.bool(*reeling_in);
            h.u64(*wait_ticks_left as u64);
        }
        for vine in vines {
            let VineState { rope, held, let_go } = vine;
            rope.hash_into(&mut h);
            h.bool(*held);
            h.bool(*let_go);
        }
        for &pressed in switches_pressed {
            h.bool(pressed);
        }
        h.option_u64(*completed_at_tick);
        h.option_u64(*teleported_at_tick);
        h.u64(*deaths as u64);
        h.bool(*invincible);
        for strain in fragile {
            strain.hash_into(&mut h);
        }
        rope_strain.hash_into(&mut h);
        for loose in loose_ropes {
            loose.hash_into(&mut h);
        }
        for cloth in cloths {
            cloth.hash_into(&mut h);
        }
        h.finish()
    }
}

fn hash_player(h: &mut StateHasher, player: &Player) {
    let Player {
        pos,
        vel,
        grounded,
        coyote_ticks_left,
        jump_pressed_ticks_ago,
        variable_jump_ticks_left,
        facing,
        flung,
        ground_body,
        ground_velocity,
    } = player;
    h.vec(*pos);
    h.vec(*vel);
    h.bool(*grounded);
    h.u64(*coyote_ticks_left as u64);
    h.option_u64(jump_pressed_ticks_ago.map(u64::from));
    h.u64(*variable_jump_ticks_left as u64);
    h.u64(*facing as u8 as u64);
    h.bool(*flung);
    h.u64(ground_body.map_or(u64::MAX, |b| b.code()));
    h.vec(*ground_velocity);
}

fn hash_hook(h: &mut StateHasher, hook: &Hook) {
    match hook {
        Hook::Idle => h.u64(0),
        Hook::Flying {
            pos,
            dir,
            traveled_m,
        } => {
            h.u64(1);
            h.vec(*pos);
            h.vec(*dir);
            h.f32(*traveled_m);
        }
        Hook::Retracting { pos } => {
            h.u64(2);
            h.vec(*pos);
        }
        Hook::Attached {
            rope,
            kind,
            body,
            anchor_in_body,
            wheel_queue_m,
        } => {
            h.u64(3);
            rope.hash_into(h);
            h.u64(match kind {
                AttachKind::GrapplePoint => 0,
                AttachKind::Surface => 1,
                AttachKind::Vine(i) => 2 + *i as u64,
            });
            h.u64(body.code());
            h.vec(*anchor_in_body);
            h.f32(*wheel_queue_m);
        }
    }
}
