//! Which sound each simulation event makes, and how loud the continuous sounds are. Written once,
//! used by every backend (rodio on the desktop, Web Audio in the browser, the recorder in tests).

use crate::sim::event::BreakKind;
use crate::sim::{AttachKind, Event, World};

/// Folder of the sound files, relative to the data root (and to the page on the web).
pub const SOUNDS_DIR: &str = "assets/sounds";

/// One-shot sound effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoundId {
    HookFire,
    AttachPoint,
    AttachSurface,
    HookMiss,
    HookBounce,
    Release,
    Jump,
    Land,
    Death,
    Respawn,
    Checkpoint,
    Goal,
    Snap,
    Crumble,
}

impl SoundId {
    pub const ALL: [SoundId; 14] = [
        SoundId::HookFire,
        SoundId::AttachPoint,
        SoundId::AttachSurface,
        SoundId::HookMiss,
        SoundId::HookBounce,
        SoundId::Release,
        SoundId::Jump,
        SoundId::Land,
        SoundId::Death,
        SoundId::Respawn,
        SoundId::Checkpoint,
        SoundId::Goal,
        SoundId::Snap,
        SoundId::Crumble,
    ];

    /// File name inside `SOUNDS_DIR` (as written by `gen_sounds`).
    pub fn file_name(self) -> &'static str {
        match self {
            SoundId::HookFire => "hook_fire.mp3",
            SoundId::AttachPoint => "attach_point.mp3",
            SoundId::AttachSurface => "attach_surface.mp3",
            SoundId::HookMiss => "hook_miss.mp3",
            SoundId::HookBounce => "hook_bounce.mp3",
            SoundId::Release => "release.mp3",
            SoundId::Jump => "jump.mp3",
            SoundId::Land => "land.mp3",
            SoundId::Death => "death.mp3",
            SoundId::Respawn => "respawn.mp3",
            SoundId::Checkpoint => "checkpoint.mp3",
            SoundId::Goal => "goal.mp3",
            SoundId::Snap => "snap.mp3",
            SoundId::Crumble => "crumble.mp3",
        }
    }

    /// Position in `all_files()`: the id both backends use for the decoded sound.
    pub fn file_index(self) -> usize {
        self as usize
    }
}

/// Sounds that loop for as long as the game runs, at a volume set every frame.
///
/// The music is layered from loops of different lengths that all start together (see
/// `gen_sounds`): the melody (`Music`, always on), percussion (always on) and one backing per
/// world, of which only the current world's is heard. The whole repeats after three minutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopId {
    Music,
    RopeCreak,
    Wind,
    MusicPercussion,
    MusicDusk,
    MusicForest,
    MusicEmber,
}

impl LoopId {
    pub const ALL: [LoopId; 7] = [
        LoopId::Music,
        LoopId::RopeCreak,
        LoopId::Wind,
        LoopId::MusicPercussion,
        LoopId::MusicDusk,
        LoopId::MusicForest,
        LoopId::MusicEmber,
    ];

    /// The world backings, in the order of the background themes.
    pub const BACKINGS: [LoopId; 3] = [LoopId::MusicDusk, LoopId::MusicForest, LoopId::MusicEmber];

    pub fn file_name(self) -> &'static str {
        match self {
            LoopId::Music => "music_melody.mp3",
            LoopId::RopeCreak => "rope_creak.mp3",
            LoopId::Wind => "wind.mp3",
            LoopId::MusicPercussion => "music_perc.mp3",
            LoopId::MusicDusk => "music_dusk.mp3",
            LoopId::MusicForest => "music_forest.mp3",
            LoopId::MusicEmber => "music_ember.mp3",
        }
    }

    pub fn file_index(self) -> usize {
        SoundId::ALL.len() + self as usize
    }

    /// Music follows the music volume; creak and wind are effects.
    pub fn is_music(self) -> bool {
        !matches!(self, LoopId::RopeCreak | LoopId::Wind)
    }

    /// This loop's share of the music volume in `world` (0..=1): the melody and percussion
    /// always, a backing only in its own world. `None` for the effect loops.
    pub fn music_mix(self, world: usize) -> Option<f32> {
        match self {
            LoopId::RopeCreak | LoopId::Wind => None,
            LoopId::Music => Some(0.7),
            LoopId::MusicPercussion => Some(0.45),
            backing => Some(if LoopId::BACKINGS[world % 3] == backing {
                1.0
            } else {
                0.0
            }),
        }
    }
}

/// Every sound file, effects first then loops, in `file_index` order.
pub fn all_files() -> Vec<&'static str> {
    SoundId::ALL
        .iter()
        .map(|s| s.file_name())
        .chain(LoopId::ALL.iter().map(|l| l.file_name()))
        .collect()
}

/// Whether file `index` (`all_files` order) is one of the music's layers.
/// The browser fetches the loops (the music and the ambient creak and wind) once the title
/// shows: they are the largest files, and nothing on the title or in the menus plays them, so
/// the first visit waits only for the short effects.
pub fn is_fetched_after_title(index: usize) -> bool {
    LoopId::ALL.iter().any(|l| l.file_index() == index)
}

/// The quietest audible landing makes this much sound (relative to a hard landing).
const SOFT_LANDING_VOLUME: f32 = 0.15;
/// Landings slower than this make no sound: a step down a few centimetres, or ground contact
/// flickering for a tick while running (one tick of gravity is ~0.7 m/s), is not a thud.
pub const SILENT_LANDING_BELOW_M_PER_S: f32 = 1.5;
/// Which world's music a level plays: the same choice as its background theme.
pub fn music_world(world: &World) -> usize {
    crate::app::render::background::theme_index(&world.level().name)
}

/// Music sits under the effects.
pub const MUSIC_BASE_VOLUME: f32 = 0.5;
/// Swing speed at which the rope creak is at full volume.
const CREAK_FULL_SPEED_M_PER_S: f32 = 10.0;
/// Swing speeds between these fade the wind in.
const WIND_START_SPEED_M_PER_S: f32 = 3.0;
const WIND_FULL_SPEED_M_PER_S: f32 = 18.0;
const CREAK_MAX_VOLUME: f32 = 0.45;
const WIND_MAX_VOLUME: f32 = 0.6;

/// The sound an event makes and its volume before the player's settings (0..=1); `None` for a
/// landing too soft to hear.
///
/// The match is exhaustive on purpose: a new event kind does not compile until someone decides
/// what it sounds like.
pub fn sound_for(event: &Event, world: &World) -> Option<(SoundId, f32)> {
    let sound = match event {
        Event::HookFired => (SoundId::HookFire, 0.55),
        Event::HookAttached {
            kind: AttachKind::GrapplePoint,
            ..
        } => (SoundId::AttachPoint, 0.8),
        Event::HookAttached {
            kind: AttachKind::Surface,
            ..
        } => (SoundId::AttachSurface, 0.9),
        // Catching a vine: the soft grab of a hand, the surface thud played quieter.
        Event::HookAttached {
            kind: AttachKind::Vine(_),
            ..
        } => (SoundId::AttachSurface, 0.4),
        Event::HookMissed => (SoundId::HookMiss, 0.5),
        Event::HookBounced { .. } => (SoundId::HookBounce, 0.6),
        Event::Released => (SoundId::Release, 0.6),
        Event::Jumped => (SoundId::Jump, 0.45),
        Event::Landed {
            impact_speed_m_per_s,
        } => {
            let audible = impact_speed_m_per_s.abs() >= SILENT_LANDING_BELOW_M_PER_S;
            if !audible {
                // Also a NaN speed.
                return None;
            }
            let hard = world.tuning().player.hard_landing_speed_m_per_s;
            (SoundId::Land, landing_volume(*impact_speed_m_per_s, hard))
        }
        Event::Died { .. } => (SoundId::Death, 0.85),
        Event::Respawned => (SoundId::Respawn, 0.5),
        Event::CheckpointReached { .. } => (SoundId::Checkpoint, 0.8),
        Event::GoalReached { .. } => (SoundId::Goal, 0.9),
        Event::Broke {
            kind: BreakKind::Beam(_),
            ..
        } => (SoundId::Crumble, 0.95),
        Event::Broke {
            kind: BreakKind::Ring(_) | BreakKind::Rope,
            ..
        } => (SoundId::Snap, 0.9),
    };
    Some(sound)
}

/// Louder with impact speed: soft at a step down, full at the tuning's hard-landing speed.
pub fn landing_volume(impact_speed_m_per_s: f32, hard_landing_speed_m_per_s: f32) -> f32 {
    let hard = hard_landing_speed_m_per_s.max(0.1);
    let x = (impact_speed_m_per_s.abs() / hard).clamp(0.0, 1.0);
    if x.is_nan() {
        return SOFT_LANDING_VOLUME;
    }
    SOFT_LANDING_VOLUME + (1.0 - SOFT_LANDING_VOLUME) * x
}

/// Target volumes of the rope sounds (before settings): both silent unless the player hangs on
/// the rope, then rising with swing speed — creak first, wind only when swinging fast.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RopeLevels {
    pub creak: f32,
    pub wind: f32,
}

pub fn rope_levels(world: Option<&World>, paused: bool) -> RopeLevels {
    let Some(world) = world.filter(|w| !paused && w.rope().is_some()) else {
        return RopeLevels::default();
    };
    let speed = world.player().vel.length();
    if !speed.is_finite() {
        return RopeLevels::default();
    }
    let creak = (speed / CREAK_FULL_SPEED_M_PER_S).clamp(0.0, 1.0);
    let wind = ((speed - WIND_START_SPEED_M_PER_S)
        / (WIND_FULL_SPEED_M_PER_S - WIND_START_SPEED_M_PER_S))
        .clamp(0.0, 1.0);
    RopeLevels {
        creak: CREAK_MAX_VOLUME * creak,
        wind: WIND_MAX_VOLUME * wind * wind,
    }
}
