//! Browser audio through `web/audio_plugin.js`, a miniquad JS plugin over Web Audio.
//!
//! The plugin adds plain functions to the wasm `env` imports (like macroquad's own JS does), so
//! the wasm needs no wasm-bindgen. If the page does not load the plugin, miniquad's loader
//! stubs these imports: the stub of `tether_audio_available` returns 0 (undefined → i32) and we
//! never call the others, so the game runs silently.
//!
//! Browsers keep audio suspended until a user gesture; the plugin resumes its context on the
//! first click, key or touch, and `click_to_start` asks for one before play.

use macroquad::experimental::coroutines::{start_coroutine, Coroutine};
use macroquad::input::{get_last_key_pressed, is_mouse_button_pressed, touches, MouseButton};
use macroquad::window::next_frame;

use super::mapping::{self, LoopId, SoundId};
use super::AudioBackend;

extern "C" {
    fn tether_audio_available() -> i32;
    /// Copies `len` bytes at `ptr` and starts decoding them as sound `id`.
    fn tether_audio_decode(id: u32, ptr: *const u8, len: u32);
    /// 0 = decoding, 1 = ready, -1 = failed.
    fn tether_audio_decode_state(id: u32) -> i32;
    fn tether_audio_play(id: u32, volume: f32);
    fn tether_audio_set_loop(id: u32, volume: f32);
    /// 1 once the audio context runs (after a user gesture).
    fn tether_audio_unlocked() -> i32;
}

/// Lets the plugin's version check (miniquad's `init_plugins`) find the Rust side.
#[no_mangle]
pub extern "C" fn tether_audio_crate_version() -> u32 {
    1
}

/// Longest wait for decoding before play starts anyway: a decode that never reports back must
/// not keep the game on the loading screen.
const DECODE_TIMEOUT_S: f64 = 5.0;

static PLUGIN_PRESENT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Whether `web/audio_plugin.js` was loaded (asked once).
pub fn plugin_present() -> bool {
    // SAFETY: a plain call into the plugin (or miniquad's stub, which returns 0).
    *PLUGIN_PRESENT.get_or_init(|| unsafe { tether_audio_available() } == 1)
}

/// Sound files with their index in `mapping::all_files` (`None`: could not be loaded).
pub type SoundFiles = Vec<(usize, Option<Vec<u8>>)>;

/// The state the plugin reports for sound `id`: 0 decoding, 1 ready, -1 failed or never given.
fn decode_state(id: usize) -> i32 {
    // SAFETY: a plain call into the plugin.
    unsafe { tether_audio_decode_state(id as u32) }
}

/// Hands the loaded files to the plugin to decode; returns their ids.
fn start_decoding(files: &SoundFiles) -> Vec<usize> {
    let mut ids = Vec::with_capacity(files.len());
    for (id, bytes) in files {
        if let Some(bytes) = bytes {
            // SAFETY: the plugin copies the bytes before returning.
            unsafe { tether_audio_decode(*id as u32, bytes.as_ptr(), bytes.len() as u32) };
            ids.push(*id);
        }
    }
    ids
}

/// Marks the decoded ones of `ids` ready and names the others in one line.
fn take_decoded(ready: &mut [bool], ids: &[usize]) {
    let names = mapping::all_files();
    let mut failed = Vec::new();
    for &id in ids {
        ready[id] = decode_state(id) == 1;
        if !ready[id] {
            failed.push(names[id]);
        }
    }
    if !failed.is_empty() {
        crate::app::log_line(&format!(
            "audio: cannot decode {}; those stay silent",
            failed.join(", ")
        ));
    }
}

pub struct WebBackend {
    /// Per sound file (`mapping::all_files` order): decoded, playable.
    ready: Vec<bool>,
    /// The loops' files (music, creak, wind), fetched once the game runs (from the first
    /// `poll`, after the title shows); emptied when the fetch starts.
    loops_to_fetch: Vec<usize>,
    /// The loops' fetch under way; `None` before it starts and once it has arrived.
    loops_fetch: Option<Coroutine<SoundFiles>>,
    /// The loops' files the plugin is decoding.
    loops_decoding: Vec<usize>,
    /// The volume the game last asked of each loop (`LoopId::ALL` order): the music's layers
    /// start at it once decoded.
    loop_volumes: [f32; LoopId::ALL.len()],
}

impl WebBackend {
    /// Hands the files loaded before the title to the plugin and waits (drawing the loading
    /// screen) until all are decoded, failed, or the timeout passes; the files `loops` are
    /// fetched while the game runs (see `poll`).
    pub async fn start(files: SoundFiles, loops: Vec<usize>) -> WebBackend {
        let ids = start_decoding(&files);
        let started = macroquad::time::get_time();
        loop {
            let pending = ids.iter().filter(|&&id| decode_state(id) == 0).count();
            if pending == 0 || macroquad::time::get_time() - started > DECODE_TIMEOUT_S {
                break;
            }
            super::super::assets::draw_loading(
                files.len() - pending,
                files.len(),
                "sounds (decoding)",
            );
            next_frame().await;
        }
        let mut ready = vec![false; mapping::all_files().len()];
        take_decoded(&mut ready, &ids);
        WebBackend {
            ready,
            loops_to_fetch: loops,
            loops_fetch: None,
            loops_decoding: Vec::new(),
            loop_volumes: [0.0; LoopId::ALL.len()],
        }
    }
}

impl AudioBackend for WebBackend {
    fn play(&mut self, sound: SoundId, volume: f32) {
        let id = sound.file_index();
        if self.ready[id] {
            // SAFETY: a plain call into the plugin.
            unsafe { tether_audio_play(id as u32, volume) };
        }
    }
    fn set_loop_volume(&mut self, sound: LoopId, volume: f32) {
        self.loop_volumes[sound as usize] = volume;
        let id = sound.file_index();
        if self.ready[id] {
            // SAFETY: a plain call into the plugin.
            unsafe { tether_audio_set_loop(id as u32, volume) };
        }
    }
    /// Starts the loops' fetch (the first call), takes them once fetched, then once all are
    /// decoded starts them together (the music's layers are written to be heard in step) at the
    /// volumes asked for meanwhile.
    fn poll(&mut self) {
        if !self.loops_to_fetch.is_empty() {
            let loops = std::mem::take(&mut self.loops_to_fetch);
            self.loops_fetch = Some(start_coroutine(async move {
                let mut files = Vec::with_capacity(loops.len());
                for index in loops {
                    files.push((index, super::fetch_sound_file(index).await));
                }
                files
            }));
        }
        if let Some(files) = self.loops_fetch.as_ref().and_then(|fetch| fetch.retrieve()) {
            self.loops_fetch = None;
            super::report_missing(&files);
            self.loops_decoding = start_decoding(&files);
        }
        if self.loops_decoding.is_empty()
            || self.loops_decoding.iter().any(|&id| decode_state(id) == 0)
        {
            return;
        }
        let decoding = std::mem::take(&mut self.loops_decoding);
        take_decoded(&mut self.ready, &decoding);
        for layer in LoopId::ALL {
            if decoding.contains(&layer.file_index()) {
                self.set_loop_volume(layer, self.loop_volumes[layer as usize]);
            }
        }
        crate::app::log_line(
            "audio: the music is in (fetched after the title, with the creak and wind loops)",
        );
    }
}

/// The autoplay gate: until a click, key or touch, the browser keeps the audio context
/// suspended. Shows "click to start" until one happens (the plugin resumes the context inside
/// that same event), unless the player already gave one during loading.
pub async fn click_to_start() {
    // SAFETY: a plain call into the plugin.
    if unsafe { tether_audio_unlocked() } == 1 {
        return;
    }
    loop {
        let gesture = is_mouse_button_pressed(MouseButton::Left)
            || is_mouse_button_pressed(MouseButton::Right)
            || get_last_key_pressed().is_some()
            || !touches().is_empty();
        if gesture {
            // Let this click end before play, so it does not also fire the hook.
            next_frame().await;
            return;
        }
        draw_click_screen();
        next_frame().await;
    }
}

fn draw_click_screen() {
    use crate::app::palette;
    use crate::app::render::hud::{draw_centered, draw_title_screen};
    draw_title_screen();
    let y = macroquad::window::screen_height() * 0.55;
    draw_centered("click or press any key to start", y, 28, palette::TEXT);
}
