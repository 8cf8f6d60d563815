//! A gamepad pulled out mid-play, through the game's own input path (bindings → actions → play
//! input → `InputFrame`): whatever it held (the stick running, a shoulder reeling, the trigger
//! down, the right stick aiming) stops on the very next tick, and play pauses, as it does when
//! the window loses focus.

mod common;

use tether::app::input::pad::{PadAxis, PadButton, PadEvent};
use tether::app::input::play::PlayInput;
use tether::app::input::{Action, ActionFrame, ActionMapper, Bindings, RawFrame};
use tether::sim::hook::Hook;
use tether::sim::{InputFrame, World};

struct Player {
    bindings: Bindings,
    mapper: ActionMapper,
    play: PlayInput,
}

impl Player {
    /// One rendered frame with these pad events, then one tick.
    fn frame(&mut self, world: &mut World, pad_events: Vec<PadEvent>) -> (ActionFrame, InputFrame) {
        let raw = RawFrame {
            pad_events,
            ..RawFrame::default()
        };
        let actions = self.mapper.map(&self.bindings, &raw);
        self.play.on_frame(&actions, None);
        let input = self.play.take(world);
        world.step(&input);
        (actions, input)
    }
}

#[test]
fn a_gamepad_pulled_out_lets_go_of_everything_and_pauses_play() {
    let mut world = tether::cli::load_world(
        &common::root().join("levels/01_first_swing.ron"),
        common::tuning(),
    )
    .expect("level 1 loads");
    let mut player = Player {
        bindings: Bindings::default(),
        mapper: ActionMapper::default(),
        play: PlayInput::default(),
    };
    // Plugged in; running right on the stick, aiming up and right on the right stick.
    player.frame(
        &mut world,
        vec![
            PadEvent::Connected,
            PadEvent::Axis(PadAxis::LeftX, 0.9),
            PadEvent::Axis(PadAxis::RightX, 0.6),
            PadEvent::Axis(PadAxis::RightY, 0.6),
        ],
    );
    for _ in 0..40 {
        player.frame(&mut world, vec![]);
    }
    // The trigger fires and stays down; the right shoulder reels in.
    let (actions, input) = player.frame(
        &mut world,
        vec![
            PadEvent::Button(PadButton::RightTrigger, 1.0),
            PadEvent::Button(PadButton::RightShoulder, 1.0),
        ],
    );
    assert!(actions.pressed(Action::Fire) && input.fire_pressed);
    let mut held = input;
    for _ in 0..30 {
        held = player.frame(&mut world, vec![]).1;
    }
    assert!(
        matches!(world.hook(), Hook::Attached { .. }),
        "the stick-aimed shot hooks: {:?}",
        world.hook()
    );
    assert_eq!((held.move_x, held.reel), (1, 1), "held by the pad");
    let (actions, _) = player.frame(&mut world, vec![]);
    assert!(actions.down(Action::Fire) && actions.aim_stick.is_some());
    assert!(
        !actions.pauses_play(false, false),
        "nothing to pause for yet"
    );

    // Pulled out: the very next tick holds nothing.
    let (actions, input) = player.frame(&mut world, vec![PadEvent::Disconnected]);
    for action in [Action::MoveRight, Action::Up, Action::Fire] {
        assert!(!actions.down(action), "{action:?} still held");
    }
    assert_eq!(actions.aim_stick, None);
    assert_eq!(
        input,
        InputFrame {
            aim_x: input.aim_x,
            aim_y: input.aim_y,
            ..common::IDLE
        },
        "the tick after the pad went still holds something"
    );
    // Play pauses, as on focus loss (a replay being watched goes on).
    assert!(actions.pad_unplugged);
    assert!(actions.pauses_play(false, false));
    assert!(!actions.pauses_play(false, true));
    // Once: the next frame has nothing new to pause for.
    let (actions, input) = player.frame(&mut world, vec![]);
    assert!(!actions.pad_unplugged && !actions.pauses_play(false, false));
    assert_eq!((input.move_x, input.reel), (0, 0));
}
