//! The front end's sound. The simulation emits events; an `AudioOut` turns them into sound.
//!
//! Layers:
//! - `AudioOut`: what the game loop calls (events per tick, `update` per frame, keys).
//! - `GameAudio<B>`: the one implementation of it — event → sound mapping (`mapping`), rope
//!   creak and wind from the swing, music, volume settings and mute (`settings`).
//! - `AudioBackend`: plays preloaded sounds. `rodio_backend` on the desktop (an audio thread,
//!   so a missing or hanging device never stalls or crashes the game), `web_backend` in the
//!   browser (a miniquad JS plugin, `web/audio_plugin.js`, over Web Audio), `Recorder` in tests,
//!   `NoDevice` when there is nothing to play on.
//!
//! Why not macroquad's `audio` feature on the web: cargo's `links` check ignores target cfgs,
//! and macroquad's audio (quad-snd → quad-alsa-sys, `links = "alsa"`) collides with rodio's
//! cpal → alsa-sys (`links = "alsa"`) even when each is declared for a different target — the
//! dependency graph does not resolve at all. The JS plugin needs no Rust dependency and keeps
//! the wasm free of wasm-bindgen.

pub mod mapping;
#[cfg(not(target_arch = "wasm32"))]
pub mod rodio_backend;
pub mod settings;
#[cfg(target_arch = "wasm32")]
pub mod web_backend;

pub use self::mapping::{LoopId, SoundId};
pub use self::settings::{AudioSettings, SettingsStore, VolumeChannel};
use crate::sim::{Event, World};

pub trait AudioOut {
    /// Called once per tick with that tick's events.
    fn on_events(&mut self, events: &[Event], world: &World);
    /// Called once per rendered frame, for continuous sounds (rope creak, wind).
    fn update(&mut self, world: Option<&World>, paused: bool);
    /// Toggles mute (the Mute action).
    fn toggle_mute(&mut self) {}
    /// Moves a volume by `steps` presses of its volume actions.
    fn change_volume(&mut self, _channel: VolumeChannel, _steps: i32) {}
    /// Draws a short note after a settings change (screen space, over everything).
    fn draw_overlay(&mut self) {}
}

/// Plays sounds that were loaded before play started. Volumes are final gains (0..=1).
pub trait AudioBackend {
    fn play(&mut self, sound: SoundId, volume: f32);
    /// Loops run from the start at volume 0; this sets how loud one is now.
    fn set_loop_volume(&mut self, sound: LoopId, volume: f32);
    /// Once per frame: a backend that loads sounds while the game runs (the browser's music)
    /// takes them in here.
    fn poll(&mut self) {}
}

/// A backend that plays nothing (no device, audio turned off).
pub struct NoDevice;

impl AudioBackend for NoDevice {
    fn play(&mut self, _sound: SoundId, _volume: f32) {}
    fn set_loop_volume(&mut self, _sound: LoopId, _volume: f32) {}
}

/// A backend that writes down what it was asked to play (tests).
#[derive(Debug, Default)]
pub struct Recorder {
    pub played: Vec<(SoundId, f32)>,
    /// Last volume set per loop, in `LoopId::ALL` order.
    pub loop_volumes: [f32; LoopId::ALL.len()],
    /// Highest volume each loop reached.
    pub loop_peaks: [f32; LoopId::ALL.len()],
}

impl AudioBackend for Recorder {
    fn play(&mut self, sound: SoundId, volume: f32) {
        self.played.push((sound, volume));
    }
    fn set_loop_volume(&mut self, sound: LoopId, volume: f32) {
        let i = sound as usize;
        self.loop_volumes[i] = volume;
        self.loop_peaks[i] = self.loop_peaks[i].max(volume);
    }
}

/// How far loop volumes move towards their target per `update` (per frame): smooths the
/// swing speed's jitter so the creak does not zipper.
const LOOP_SMOOTHING: f32 = 0.25;
/// Loop volume changes smaller than this are not sent to the backend.
const LOOP_VOLUME_EPSILON: f32 = 0.002;
/// Music plays quieter under the pause menu.
const PAUSED_MUSIC_FACTOR: f32 = 0.5;
/// How long the note after a settings change shows.
const NOTE_SHOWN_S: f64 = 1.5;

/// The game's sound: event mapping, rope loops, music, settings. Generic over the backend so
/// every platform (and the tests) runs the same logic.
pub struct GameAudio<B: AudioBackend> {
    backend: B,
    settings: AudioSettings,
    store: SettingsStore,
    /// Smoothed rope loop levels before settings.
    creak: f32,
    wind: f32,
    /// Last gain sent per loop (`LoopId::ALL` order); NaN = never sent.
    sent: [f32; LoopId::ALL.len()],
    /// The world whose music backing plays (kept while no level is loaded).
    music_world: usize,
    /// Text of the last settings change, and when it was first drawn (macroquad's `get_time`;
    /// read only while drawing, so the logic runs without a window in tests).
    note: Option<(String, Option<f64>)>,
}

impl<B: AudioBackend> GameAudio<B> {
    /// Loads the settings from `store` and starts the music at its volume.
    pub fn new(backend: B, store: SettingsStore) -> GameAudio<B> {
        let settings = store.load();
        let mut audio = GameAudio {
            backend,
            settings,
            store,
            creak: 0.0,
            wind: 0.0,
            sent: [f32::NAN; LoopId::ALL.len()],
            music_world: 0,
            note: None,
        };
        audio.apply_loop_volumes(false);
        audio
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The backend, for tests that need to reset what a recorder has seen.
    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    pub fn settings(&self) -> &AudioSettings {
        &self.settings
    }

    /// The note shown after the last settings change, if any.
    pub fn note(&self) -> Option<&str> {
        self.note.as_ref().map(|(text, _)| text.as_str())
    }

    fn apply_loop_volumes(&mut self, paused: bool) {
        let music = mapping::MUSIC_BASE_VOLUME
            * self.settings.music_gain()
            * if paused { PAUSED_MUSIC_FACTOR } else { 1.0 };
        let effects = self.settings.effects_gain();
        for (i, id) in LoopId::ALL.into_iter().enumerate() {
            let target = match id.music_mix(self.music_world) {
                Some(share) => music * share,
                None if id == LoopId::RopeCreak => self.creak * effects,
                None => self.wind * effects,
            };
            // Always send silence exactly, so a loop never hums on at a tiny volume.
            let changed = self.sent[i].is_nan()
                || (target - self.sent[i]).abs() > LOOP_VOLUME_EPSILON
                || (target == 0.0 && self.sent[i] != 0.0);
            if changed {
                self.backend.set_loop_volume(id, target);
                self.sent[i] = target;
            }
        }
    }

    fn settings_changed(&mut self, note: String) {
        self.store.save(&self.settings);
        self.note = Some((note, None));
        self.apply_loop_volumes(false);
    }
}

impl<B: AudioBackend> AudioOut for GameAudio<B> {
    fn on_events(&mut self, events: &[Event], world: &World) {
        let gain = self.settings.effects_gain();
        if gain <= 0.0 {
            return;
        }
        for event in events {
            if let Some((sound, volume)) = mapping::sound_for(event, world) {
                self.backend.play(sound, volume * gain);
            }
        }
    }

    fn update(&mut self, world: Option<&World>, paused: bool) {
        self.backend.poll();
        if let Some(world) = world {
            self.music_world = mapping::music_world(world);
        }
        let target = mapping::rope_levels(world, paused);
        let approach = |now: f32, to: f32| {
            let next = now + (to - now) * LOOP_SMOOTHING;
            // Snap the tail of the fade so it reaches silence.
            if (next - to).abs() < LOOP_VOLUME_EPSILON {
                to
            } else {
                next
            }
        };
        self.creak = approach(self.creak, target.creak);
        self.wind = approach(self.wind, target.wind);
        self.apply_loop_volumes(paused);
    }

    fn toggle_mute(&mut self) {
        self.settings.muted = !self.settings.muted;
        let note = if self.settings.muted {
            "Sound off (M)"
        } else {
            "Sound on (M)"
        };
        self.settings_changed(note.to_owned());
    }

    fn change_volume(&mut self, channel: VolumeChannel, steps: i32) {
        self.settings.change(channel, steps);
        // Changing a volume while muted means the player wants to hear it.
        self.settings.muted = false;
        let percent = (self.settings.volume(channel) * 100.0).round() as i32;
        self.settings_changed(format!("{} {percent}%", channel.label()));
    }

    fn draw_overlay(&mut self) {
        let Some((text, since)) = &mut self.note else {
            return;
        };
        let now = macroquad::time::get_time();
        if now - *since.get_or_insert(now) > NOTE_SHOWN_S {
            self.note = None;
            return;
        }
        draw_note(text);
    }
}

fn draw_note(text: &str) {
    use crate::app::render::text::{draw_text, measure_text};
    use macroquad::shapes::draw_rectangle;
    use macroquad::window::screen_width;
    macroquad::camera::set_default_camera();
    let size = 26;
    let dims = measure_text(text, None, size, 1.0);
    let x = (screen_width() - dims.width) * 0.5;
    let y = 70.0;
    let pad = 10.0;
    draw_rectangle(
        x - pad,
        y - dims.offset_y - pad,
        dims.width + 2.0 * pad,
        dims.height + 2.0 * pad,
        crate::app::palette::BACKGROUND.color(),
    );
    draw_text(text, x, y, size as f32, crate::app::palette::TEXT.color());
}

/// Whether the player turned sound off for this run (`TETHER_AUDIO=off`): no device is opened.
fn disabled_by_env() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::env::var("TETHER_AUDIO").is_ok_and(|v| v == "off" || v == "0")
    }
    #[cfg(target_arch = "wasm32")]
    {
        false
    }
}

/// The bytes of sound file `index` (`mapping::all_files` order) through macroquad's loader
/// (a file on the desktop, an HTTP request in the browser); `None` when it cannot be had.
async fn fetch_sound_file(index: usize) -> Option<Vec<u8>> {
    let name = mapping::all_files()[index];
    macroquad::file::load_file(&format!("{}/{name}", mapping::SOUNDS_DIR))
        .await
        .ok()
}

/// Says which of the files could not be loaded (they stay silent), in one line.
fn report_missing(files: &[(usize, Option<Vec<u8>>)]) {
    let names = mapping::all_files();
    let missing: Vec<&str> = files
        .iter()
        .filter(|(_, bytes)| bytes.is_none())
        .map(|(i, _)| names[*i])
        .collect();
    if !missing.is_empty() {
        super::log_line(&format!(
            "audio: cannot load {} from {}; those stay silent",
            missing.join(", "),
            mapping::SOUNDS_DIR
        ));
    }
}

/// Loads the sound files `indices` (`mapping::all_files` order), with the loading screen. A
/// missing file is reported in one line; that sound stays silent.
async fn load_sound_files(indices: &[usize]) -> Vec<(usize, Option<Vec<u8>>)> {
    let names = mapping::all_files();
    let mut loaded = Vec::with_capacity(indices.len());
    for (done, &index) in indices.iter().enumerate() {
        super::assets::draw_loading(done, indices.len(), &format!("sounds/{}", names[index]));
        macroquad::window::next_frame().await;
        loaded.push((index, fetch_sound_file(index).await));
    }
    report_missing(&loaded);
    loaded
}

/// Builds the game's audio: loads and decodes every sound before play (loading screen), opens
/// the platform's output, and on the web shows "click to start" so the browser lets sound play
/// (`automated` skips that screen for replays and screenshots, which no one clicks).
/// Never fails: without a device the game runs silently after one log line.
pub async fn start(automated: bool) -> Box<dyn AudioOut> {
    let store = SettingsStore::platform_default();
    if disabled_by_env() {
        super::log_line("audio: off (TETHER_AUDIO)");
        return Box::new(GameAudio::new(NoDevice, store));
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = automated;
        let every_file: Vec<usize> = (0..mapping::all_files().len()).collect();
        let files = load_sound_files(&every_file).await;
        let files = files.into_iter().map(|(_, bytes)| bytes).collect();
        match rodio_backend::RodioBackend::start(files) {
            Some(backend) => Box::new(GameAudio::new(backend, store)),
            None => Box::new(GameAudio::new(NoDevice, store)),
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        if !web_backend::plugin_present() {
            super::log_line("audio: web/audio_plugin.js is not loaded; playing silently");
            return Box::new(GameAudio::new(NoDevice, store));
        }
        // The loops are most of the sound's bytes: they are fetched once the game runs (after
        // the title shows: the first visit's download stays small), the effects before.
        let (loops, before_title): (Vec<usize>, Vec<usize>) = (0..mapping::all_files().len())
            .partition(|&index| mapping::is_fetched_after_title(index));
        let files = load_sound_files(&before_title).await;
        let backend = web_backend::WebBackend::start(files, loops).await;
        if !automated {
            web_backend::click_to_start().await;
        }
        Box::new(GameAudio::new(backend, store))
    }
}
