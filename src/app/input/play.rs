//! Actions → one `InputFrame` per tick, with the aim chosen by the device that fired: the mouse
//! (or a touch) aims at the pointer, a key along the movement keys, a gamepad along the right
//! stick, the fire-at-target action at the best target ahead. Pure apart from reading the
//! world, so a test can play a level through exactly the path the game uses.

use super::action::Action;
use super::aim::{best_target_offset, key_aim_offset, stick_aim_offset, strongly_assisted};
use super::binding::DeviceKind;
use super::latch::{AimKind, FramePresses, HeldInput, InputLatch};
use super::mapping::ActionFrame;
use crate::sim::math::Vec2;
use crate::sim::{InputFrame, World};

/// Play input between ticks: what is held, what was pressed, and what the player aims with.
#[derive(Default)]
pub struct PlayInput {
    latch: InputLatch,
    held: HeldInput,
    /// What the reticle follows: the device last used to aim.
    source: Option<AimKind>,
    /// The last right-stick direction (kept when the stick is let go, so a trigger fires
    /// where the reticle was).
    stick: Vec2,
    /// The pointer in world coordinates, when there is one.
    pointer_world: Option<Vec2>,
    /// The "stronger aim assist" assist.
    pub strong_aim_assist: bool,
    /// The device and aim of the latched fire press, and of the last one taken by a tick.
    fire_from: Option<(DeviceKind, AimKind)>,
    last_fire: Option<(DeviceKind, AimKind)>,
}

impl PlayInput {
    /// Takes one rendered frame's actions; `pointer_world` is the mouse (or last touch) in
    /// world coordinates.
    pub fn on_frame(&mut self, actions: &ActionFrame, pointer_world: Option<Vec2>) {
        if actions.mouse_moved {
            self.source = Some(AimKind::Pointer);
        }
        if let Some(stick) = actions.aim_stick {
            self.stick = stick;
            self.source = Some(AimKind::Stick);
        }
        if pointer_world.is_some() {
            self.pointer_world = pointer_world;
        }
        let fire = actions.pressed(Action::Fire);
        let at_target = actions.pressed(Action::FireAtTarget);
        self.latch.latch(FramePresses {
            jump: actions.pressed(Action::Jump),
            fire: fire || at_target,
            release: actions.pressed(Action::Release),
            wheel_y: actions.wheel_y,
        });
        if at_target {
            self.latch.latch_fire_aim(AimKind::Target);
            let device = actions.pressed_by(Action::FireAtTarget);
            self.fire_from = Some((device.unwrap_or(DeviceKind::Keyboard), AimKind::Target));
        } else if fire {
            let aim = match actions.pressed_by(Action::Fire) {
                Some(DeviceKind::Mouse | DeviceKind::Touch) => AimKind::Pointer,
                Some(DeviceKind::Gamepad) if self.stick != Vec2::ZERO => AimKind::Stick,
                Some(DeviceKind::Keyboard | DeviceKind::Gamepad) | None => AimKind::Keys,
            };
            self.source = Some(aim);
            self.latch.latch_fire_aim(aim);
            let device = actions.pressed_by(Action::Fire);
            self.fire_from = Some((device.unwrap_or(DeviceKind::Keyboard), aim));
        }
        self.held = HeldInput {
            move_x: actions.axis(Action::MoveLeft, Action::MoveRight),
            reel: actions.axis(Action::Down, Action::Up),
            jump: actions.down(Action::Jump),
        };
    }

    /// Forgets latched presses (after a menu closes, so its click does not fire the hook).
    pub fn clear(&mut self) {
        self.latch.clear();
        self.fire_from = None;
        self.held = HeldInput::default();
    }

    /// What the reticle follows now.
    pub fn aim_source(&self) -> AimKind {
        self.source.unwrap_or(AimKind::Keys)
    }

    /// The aim offset from the player for a shot aimed `kind`.
    pub fn aim_offset(&self, world: &World, kind: AimKind) -> Vec2 {
        let facing = world.player().facing;
        let offset = match kind {
            AimKind::Pointer => self
                .pointer_world
                .map_or_else(|| key_aim_offset(0, 0, facing), |p| p - world.player().pos),
            AimKind::Keys => key_aim_offset(self.held.move_x, self.held.reel, facing),
            AimKind::Stick => stick_aim_offset(self.stick, facing),
            AimKind::Target => {
                return best_target_offset(world).unwrap_or_else(|| key_aim_offset(0, 0, facing));
            }
        };
        if self.strong_aim_assist {
            strongly_assisted(world, offset)
        } else {
            offset
        }
    }

    /// Where the reticle points.
    pub fn reticle_offset(&self, world: &World) -> Vec2 {
        self.aim_offset(world, self.aim_source())
    }

    /// The input for the next tick.
    pub fn take(&mut self, world: &World) -> InputFrame {
        let kind = self.latch.fire_aim().unwrap_or(self.aim_source());
        let aim = self.aim_offset(world, kind);
        let input = self.latch.take_with(self.held, aim);
        self.last_fire = self.fire_from.take().filter(|_| input.fire_pressed);
        input
    }

    /// The device and aim of the fire press the last tick took, if it took one.
    pub fn last_fire(&self) -> Option<(DeviceKind, AimKind)> {
        self.last_fire
    }
}
