//! Browser audio through `web/audio_plugin.js`, a miniquad JS plugin over Web Audio.
//!
//! The plugin adds plain functions to the wasm `env` imports (like macroquad's own JS does), so
//! the wasm needs no wasm-bindgen. If the page does not load the plugin, miniquad's loader
//! stubs these imports: the stub of `tether_audio_available` returns 0 (undefined → i32) and we
//! never call the others, so the game runs silently.
//!
//! Browsers keep audio suspended until a user gesture; the plugin resumes its context on the
//! first click, key or touch, and `click_to_start` asks for one before play.

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

pub struct WebBackend {
    ready: Vec<bool>,
}

impl WebBackend {
    /// Hands every loaded file to the plugin and waits (drawing the loading screen) until all
    /// are decoded, failed, or the timeout passes.
    pub async fn start(files: Vec<Option<Vec<u8>>>) -> WebBackend {
        let names = mapping::all_files();
        for (i, bytes) in files.iter().enumerate() {
            if let Some(bytes) = bytes {
                // SAFETY: the plugin copies the bytes before returning.
                unsafe { tether_audio_decode(i as u32, bytes.as_ptr(), bytes.len() as u32) };
            }
        }
        let states = |i: usize| {
            if files[i].is_none() {
                -1
            } else {
                // SAFETY: a plain call into the plugin.
                unsafe { tether_audio_decode_state(i as u32) }
            }
        };
        let started = macroquad::time::get_time();
        loop {
            let pending = (0..files.len()).filter(|&i| states(i) == 0).count();
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
        let ready: Vec<bool> = (0..files.len()).map(|i| states(i) == 1).collect();
        let failed: Vec<&str> = names
            .iter()
            .zip(&ready)
            .filter(|(_, ok)| !**ok)
            .map(|(n, _)| *n)
            .collect();
        if !failed.is_empty() {
            crate::app::log_line(&format!(
                "audio: cannot decode {}; those stay silent",
                failed.join(", ")
            ));
        }
        WebBackend { ready }
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
        let id = sound.file_index();
        if self.ready[id] {
            // SAFETY: a plain call into the plugin.
            unsafe { tether_audio_set_loop(id as u32, volume) };
        }
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
