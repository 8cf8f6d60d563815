//! The world's state hash: every bit of state that a step reads, so two runs that agree on it
//! agree on everything to come.

use crate::event::AttachKind;
use crate::hook::Hook;
use crate::objects::checkpoint::CheckpointProgress;
use crate::objects::vine::VineState;
use crate::objects::winch::WinchState;
use crate::objects::ObjectKind;
use crate::player::Player;
use crate::state_hash::StateHasher;
use crate::world::World;

/// The kinds whose state a hash asked for, a bit per `ObjectKind`.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
struct KindsAsked(u64);

impl KindsAsked {
    fn ask(&mut self, kind: ObjectKind) {
        self.0 |= 1 << kind as u64;
    }
}

impl World {
    /// A hash of everything that evolves.
    pub fn state_hash(&self) -> u64 {
        self.state_hash_asking().0
    }

    /// The state hash, and which kinds of object it asked [`World::hash_objects`] for: every
    /// kind must be asked, even one with nothing that evolves (the test below).
    fn state_hash_asking(&self) -> (u64, KindsAsked) {
        let World {
            // What the world plays on, not what evolves.
            level: _,
            tuning: _,
            // Fixed colliders never change; moving ones are posed from the tick and the winches.
            geometry: _,
            player,
            hook,
            tick,
            respawn_point,
            completed_at_tick,
            teleported_at_tick,
            deaths,
            invincible,
            rope_strain,
            loose_ropes,
            // The level objects' own state: `hash_objects`.
            checkpoints: _,
            winches: _,
            vines: _,
            switches_pressed: _,
            wind: _,
            fragile: _,
            cloths: _,
            // A record of the last tick for tests, never read by the step.
            energy: _,
        } = self;
        let mut h = StateHasher::new();
        let mut asked = KindsAsked::default();
        let mut objects = |kind: ObjectKind, h: &mut StateHasher| {
            asked.ask(kind);
            self.hash_objects(kind, h);
        };
        h.u64(*tick);
        hash_player(&mut h, player);
        hash_hook(&mut h, hook);
        h.vec(*respawn_point);
        for kind in [
            ObjectKind::Checkpoint,
            ObjectKind::Winch,
            ObjectKind::Vine,
            ObjectKind::Switch,
        ] {
            objects(kind, &mut h);
        }
        h.option_u64(*completed_at_tick);
        h.option_u64(*teleported_at_tick);
        h.u64(*deaths as u64);
        h.bool(*invincible);
        objects(ObjectKind::Fragile, &mut h);
        rope_strain.hash_into(&mut h);
        for loose in loose_ropes {
            loose.hash_into(&mut h);
        }
        objects(ObjectKind::Cloth, &mut h);
        // The kinds with nothing that evolves add nothing; asking them keeps the test honest.
        for kind in [
            ObjectKind::Goal,
            ObjectKind::Solid,
            ObjectKind::Hazard,
            ObjectKind::Ring,
            ObjectKind::Platform,
            ObjectKind::Wind,
            ObjectKind::Sign,
        ] {
            objects(kind, &mut h);
        }
        (h.finish(), asked)
    }

    /// Hashes what of the level's objects of `kind` evolves. The match is exhaustive, so a new
    /// kind does not compile until it says what of it evolves.
    fn hash_objects(&self, kind: ObjectKind, h: &mut StateHasher) {
        match kind {
            // Fixed: the level's definition, the same on every tick.
            ObjectKind::Goal
            | ObjectKind::Solid
            | ObjectKind::Hazard
            | ObjectKind::Ring
            | ObjectKind::Sign => {}
            // Posed from the tick alone: a platform's motion, the wind's gusts.
            ObjectKind::Platform | ObjectKind::Wind => {}
            ObjectKind::Checkpoint => {
                let CheckpointProgress { reached, current } = &self.checkpoints;
                for &r in reached {
                    h.bool(r);
                }
                h.option_u64(current.map(|c| c as u64));
            }
            ObjectKind::Winch => {
                for winch in &self.winches {
                    let WinchState {
                        rope,
                        reeling_in,
                        wait_ticks_left,
                    } = winch;
                    rope.hash_into(h);
                    h.bool(*reeling_in);
                    h.u64(*wait_ticks_left as u64);
                }
            }
            ObjectKind::Vine => {
                for vine in &self.vines {
                    let VineState { rope, held, let_go } = vine;
                    rope.hash_into(h);
                    h.bool(*held);
                    h.bool(*let_go);
                }
            }
            ObjectKind::Switch => {
                for &pressed in &self.switches_pressed {
                    h.bool(pressed);
                }
            }
            ObjectKind::Fragile => {
                for strain in &self.fragile {
                    strain.hash_into(h);
                }
            }
            ObjectKind::Cloth => {
                for cloth in &self.cloths {
                    cloth.hash_into(h);
                }
            }
        }
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
        stumble_velocity,
        air_ticks,
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
    h.vec(*stumble_velocity);
    h.u64(*air_ticks as u64);
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::geometry::Body;
    use crate::input::InputFrame;
    use crate::math::Vec2;
    use crate::objects::fragile::LooseRope;

    /// A new kind must be asked for by `state_hash`, even when nothing of it evolves: whoever
    /// adds one decides where its state enters the hash (and, with the order of the hash fixed,
    /// every solution's hash stays as recorded).
    #[test]
    fn the_hash_asks_for_every_kind_of_object() {
        let level = crate::level::LevelDef::empty("t");
        let world = World::from_level(level, shipped_tuning(), "t").expect("builds");
        let (hash, asked) = world.state_hash_asking();
        assert_eq!(hash, world.state_hash());
        for kind in ObjectKind::ALL {
            let mut alone = KindsAsked::default();
            alone.ask(kind);
            assert_eq!(
                asked.0 & alone.0,
                alone.0,
                "state_hash never asks for the {} objects' state",
                kind.label()
            );
        }
    }

    /// The tuning the game ships with.
    fn shipped_tuning() -> std::sync::Arc<crate::tuning::Tuning> {
        let text = include_str!("../../../assets/tuning.ron");
        let tuning = crate::tuning::Tuning::from_ron(text, "tuning.ron").expect("tuning parses");
        std::sync::Arc::new(tuning)
    }

    /// A world on a long floor at y = 0 with a far goal, plus `objects` (RON fields). For the
    /// world's unit tests that reach its fields (here and in setup.rs).
    pub(in crate::world) fn test_world(objects: &str) -> World {
        let floor = "solids: [(shape: Box(center: (0.0, -1.0), half_extents: (60.0, 1.0)))]";
        let text = format!(
            r#"Level(name: "objects", spawn: (0.0, 1.0), kill_y_m: -30.0,
                goal: (min: (90.0, 0.0), max: (92.0, 2.0)), {floor}, {objects})"#
        );
        let level = crate::level::LevelDef::from_ron(&text, "test.ron").expect("parses");
        World::from_level(level, shipped_tuning(), "test.ron").expect("builds")
    }

    type Change = fn(&mut World);

    /// The hash covers every field that changes in play: poking any one of them changes it.
    #[test]
    fn the_state_hash_changes_with_every_piece_of_evolving_state() {
        let objects = r#"checkpoints: [(id: "c", min: (20.0, 0.0), max: (21.0, 2.0))],
            switches: [(id: "s", min: (30.0, 0.0), max: (31.0, 1.0))],
            winches: [(id: "w", at: (10.0, 14.0), min_length_m: 3.0, max_length_m: 9.0,
                speed_m_per_s: 3.0, load: Weight(radius_m: 0.5, mass_kg: 50.0), drive: Switch("s"))],
            vines: [(at: (-10.0, 14.0), length_m: 6.0)],
            fragile: [(anchor: Ring(at: (5.0, 12.0)), breaks_at_n: 900.0)],
            cloths: [(top_left: (12.0, 10.0), columns: 4, rows: 4, spacing_m: 0.2, pins: TopRow)],"#;
        let mut base = test_world(objects);
        for _ in 0..5 {
            base.step(&InputFrame::default());
        }
        let h = base.state_hash();
        let changes: Vec<(&str, Change)> = vec![
            ("tick", |w| w.tick += 1),
            ("player.pos", |w| w.player.pos.x += 1e-3),
            ("player.vel", |w| w.player.vel.y += 1e-3),
            ("player.grounded", |w| {
                w.player.grounded = !w.player.grounded
            }),
            ("player.coyote", |w| w.player.coyote_ticks_left += 1),
            ("player.jump buffer", |w| {
                w.player.jump_pressed_ticks_ago = Some(3)
            }),
            ("player.variable jump", |w| {
                w.player.variable_jump_ticks_left += 1
            }),
            ("player.facing", |w| w.player.facing = -w.player.facing),
            ("player.flung", |w| w.player.flung = !w.player.flung),
            ("player.ground_body", |w| {
                w.player.ground_body = Some(Body::Platform(7))
            }),
            ("player.ground_velocity", |w| {
                w.player.ground_velocity.x += 0.5
            }),
            ("player.stumble_velocity", |w| {
                w.player.stumble_velocity.x += 0.5
            }),
            ("player.air_ticks", |w| w.player.air_ticks += 1),
            ("hook", |w| {
                w.hook = Hook::Retracting {
                    pos: Vec2::new(1.0, 1.0),
                }
            }),
            ("respawn_point", |w| w.respawn_point.x += 1.0),
            ("checkpoints", |w| {
                w.checkpoints.touch(0);
            }),
            ("winch rope", |w| w.winches[0].rope.nodes[3].x += 1e-3),
            ("winch length", |w| w.winches[0].rope.length_m -= 0.1),
            ("winch direction", |w| {
                w.winches[0].reeling_in = !w.winches[0].reeling_in
            }),
            ("winch wait", |w| w.winches[0].wait_ticks_left += 1),
            ("switches", |w| {
                w.switches_pressed[0] = !w.switches_pressed[0]
            }),
            ("vine rope", |w| w.vines[0].rope.nodes[2].y += 1e-3),
            ("vine held", |w| w.vines[0].held = !w.vines[0].held),
            ("vine let go", |w| w.vines[0].let_go = !w.vines[0].let_go),
            ("completed", |w| w.completed_at_tick = Some(9)),
            ("teleported", |w| w.teleported_at_tick = Some(9)),
            ("deaths", |w| w.deaths += 1),
            ("invincible", |w| w.invincible = !w.invincible),
            ("fragile strain", |w| w.fragile[0].ticks += 1),
            ("fragile broken", |w| w.fragile[0].broken = true),
            ("rope strain", |w| w.rope_strain.ticks += 1),
            ("cloth", |w| {
                w.cloths[0].set_velocity(Vec2::new(0.5, 0.0), 1.0 / 120.0)
            }),
            ("loose ropes", |w| {
                let rope = w.vines[0].rope.clone();
                w.loose_ropes.push(LooseRope {
                    rope,
                    held_by_player: false,
                    ticks_left: 5,
                })
            }),
        ];
        for (what, change) in changes {
            let mut world = base.clone();
            change(&mut world);
            assert_ne!(
                world.state_hash(),
                h,
                "changing {what} must change the hash"
            );
        }
    }
}
