//! A play session: one attempt at one level and everything that follows it tick by tick (the
//! world and its previous snapshot for interpolation, the camera, the ghost, the attempt's
//! inputs and splits, the recording and a replay's playback). `tick` runs one simulation step
//! and returns its events; what the game does about them (sound, effects, the complete screen)
//! is up to the screen that drives the session.

use crate::app::camera::CameraState;
use crate::app::frame_clock::FrameClock;
use crate::app::ghost::Ghost;
use crate::app::input::PlayInput;
use crate::app::render::Snapshot;
use crate::campaign::splits::split_delta;
use crate::campaign::SplitDelta;
use crate::sim::{Event, InputFrame, Replay, World, TICK_DT_S};

/// How long a checkpoint split stays on screen.
const SPLIT_SHOWN_S: f32 = 3.0;

/// The inputs of a replay being played, and the next one's position.
pub struct Playback {
    frames: Vec<InputFrame>,
    next: usize,
}

impl Playback {
    pub fn of(replay: &Replay) -> Playback {
        Playback {
            frames: replay.frames().copied().collect(),
            next: 0,
        }
    }

    /// Whether every input has been played.
    pub fn done(&self) -> bool {
        self.next >= self.frames.len()
    }

    /// Whether the last input was just played (not before, not long after).
    pub fn just_ended(&self) -> bool {
        self.next == self.frames.len()
    }

    fn take(&mut self) -> InputFrame {
        let input = self.frames.get(self.next).copied().unwrap_or_default();
        self.next += 1;
        input
    }
}

/// What a session starts from besides the world.
#[derive(Default)]
pub struct SessionStart {
    /// The camera of the session before, whose shake carries over (none: a fresh camera).
    pub camera: Option<CameraState>,
    pub ghost: Option<Ghost>,
    /// The attempt to fill with inputs (live play that counts for progress).
    pub attempt: Option<Replay>,
    /// The recording to fill (`--record`).
    pub recording: Option<Replay>,
    pub playback: Option<Playback>,
    /// The best run's tick at each checkpoint, to show splits against.
    pub best_splits: Vec<u64>,
}

pub struct Session {
    pub world: World,
    /// The world as it was before the last tick, drawn between the two.
    pub prev: Snapshot,
    pub camera: CameraState,
    pub ghost: Option<Ghost>,
    /// The inputs of the attempt in progress (live play): the best run's ghost when it wins.
    pub attempt: Option<Replay>,
    /// The tick each checkpoint was first reached on this attempt, in reaching order.
    pub splits: Vec<u64>,
    /// The last split, shown for a while.
    pub split_shown: Option<(SplitDelta, f32)>,
    pub recording: Option<Replay>,
    pub playback: Option<Playback>,
    /// Real time not yet simulated.
    pub clock: FrameClock,
    best_splits: Vec<u64>,
}

impl Session {
    pub fn new(world: World, start: SessionStart) -> Session {
        let camera = match start.camera {
            Some(mut camera) => {
                camera.snap(&world);
                camera
            }
            None => CameraState::new(&world),
        };
        Session {
            prev: Snapshot::of(&world),
            world,
            camera,
            ghost: start.ghost,
            attempt: start.attempt,
            splits: Vec::new(),
            split_shown: None,
            recording: start.recording,
            playback: start.playback,
            clock: FrameClock::default(),
            best_splits: start.best_splits,
        }
    }

    /// Takes over a rebuilt world (hot reload): the attempt, splits and ghost of the old version
    /// prove nothing about the new one.
    pub fn replace_world(&mut self, world: World) {
        self.prev = Snapshot::of(&world);
        self.world = world;
        self.ghost = None;
        self.attempt = None;
        self.splits.clear();
    }

    /// Whether a replay drives the player (not the devices).
    pub fn is_playback(&self) -> bool {
        self.playback.is_some()
    }

    /// Whether a replay drives the player and has played all its inputs.
    pub fn playback_done(&self) -> bool {
        self.playback.as_ref().is_some_and(Playback::done)
    }

    /// Seconds a frame lasts on the screen: the split's display counts down.
    pub fn on_frame(&mut self, frame_s: f32) {
        if let Some((_, left_s)) = &mut self.split_shown {
            *left_s -= frame_s;
        }
    }

    /// Runs one tick with the replay's next input or the player's (`live`), and returns the
    /// input and the tick's events.
    pub fn tick(&mut self, live: &mut PlayInput) -> (InputFrame, Vec<Event>) {
        let input = match &mut self.playback {
            Some(playback) => playback.take(),
            None => live.take(&self.world),
        };
        self.prev = Snapshot::of(&self.world);
        let events = self.world.step(&input);
        if let Some(ghost) = &mut self.ghost {
            ghost.tick();
        }
        if let Some(attempt) = &mut self.attempt {
            attempt.push(input);
        }
        if let Some(recording) = &mut self.recording {
            recording.push(input);
        }
        self.camera.on_tick(&events, TICK_DT_S);
        for event in &events {
            match event {
                Event::CheckpointReached { .. } => {
                    let split =
                        split_delta(self.splits.len(), self.world.tick(), &self.best_splits);
                    self.splits.push(self.world.tick());
                    self.split_shown = Some((split, SPLIT_SHOWN_S));
                }
                Event::Respawned => self.camera.snap(&self.world),
                _ => {}
            }
        }
        (input, events)
    }
}
