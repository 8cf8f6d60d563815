//! Desktop audio through rodio 0.21.
//!
//! Sounds are decoded on the main thread before play. The output device lives on its own
//! thread, which the game talks to through a channel and never waits for: opening a device can
//! fail, take long or panic on some systems (no card, a stuck sound server), and none of that
//! may stall or crash the game. If the thread cannot open a device it logs one line and ends;
//! later sends fail quietly and the game plays on in silence.

use std::io::Cursor;
use std::sync::mpsc::{channel, Receiver, Sender};

use rodio::buffer::SamplesBuffer;
use rodio::{Decoder, OutputStreamBuilder, Sink, Source};

use super::mapping::{self, LoopId, SoundId};
use super::AudioBackend;

enum Command {
    Play(SoundId, f32),
    LoopVolume(LoopId, f32),
}

pub struct RodioBackend {
    commands: Sender<Command>,
}

/// Why a sound file gives no sound.
#[derive(Debug)]
pub enum DecodeError {
    /// rodio cannot read it (not a format it was built with, or damaged).
    Unreadable(rodio::decoder::DecoderError),
    NoChannelsOrRate,
    NoSamples,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            DecodeError::Unreadable(err) => write!(f, "{err}"),
            DecodeError::NoChannelsOrRate => write!(f, "no channels or no sample rate"),
            DecodeError::NoSamples => write!(f, "no samples"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a whole sound file into memory (any format rodio was built with; we ship MP3).
pub fn decode(bytes: Vec<u8>) -> Result<SamplesBuffer, DecodeError> {
    let decoder = Decoder::new(Cursor::new(bytes)).map_err(DecodeError::Unreadable)?;
    let channels = decoder.channels();
    let rate = decoder.sample_rate();
    if channels == 0 || rate == 0 {
        return Err(DecodeError::NoChannelsOrRate);
    }
    let samples: Vec<f32> = decoder.collect();
    if samples.is_empty() {
        return Err(DecodeError::NoSamples);
    }
    Ok(SamplesBuffer::new(channels, rate, samples))
}

impl RodioBackend {
    /// Decodes the loaded files (in `mapping::all_files` order; `None` = not loaded) and starts
    /// the audio thread. `None` if the thread could not even be spawned.
    pub fn start(files: Vec<Option<Vec<u8>>>) -> Option<RodioBackend> {
        let names = mapping::all_files();
        let mut failed = Vec::new();
        let decoded: Vec<Option<SamplesBuffer>> = files
            .into_iter()
            .zip(&names)
            .map(|(bytes, name)| match decode(bytes?) {
                Ok(buffer) => Some(buffer),
                Err(err) => {
                    failed.push(format!("{name} ({err})"));
                    None
                }
            })
            .collect();
        if !failed.is_empty() {
            crate::app::log_line(&format!(
                "audio: cannot decode {}; those stay silent",
                failed.join(", ")
            ));
        }
        let (commands, receiver) = channel();
        let spawned = std::thread::Builder::new()
            .name("tether-audio".to_owned())
            .spawn(move || audio_thread(decoded, receiver));
        match spawned {
            Ok(_) => Some(RodioBackend { commands }),
            Err(err) => {
                crate::app::log_line(&format!(
                    "audio: cannot start the audio thread ({err}); playing silently"
                ));
                None
            }
        }
    }
}

impl AudioBackend for RodioBackend {
    fn play(&mut self, sound: SoundId, volume: f32) {
        // A closed channel means no device: silence is the right outcome.
        let _ = self.commands.send(Command::Play(sound, volume));
    }
    fn set_loop_volume(&mut self, sound: LoopId, volume: f32) {
        let _ = self.commands.send(Command::LoopVolume(sound, volume));
    }
}

fn audio_thread(sounds: Vec<Option<SamplesBuffer>>, commands: Receiver<Command>) {
    let opened = quiet_alsa::during(OutputStreamBuilder::open_default_stream);
    let mut stream = match opened {
        Ok(stream) => stream,
        Err(err) => {
            crate::app::log_line(&format!(
                "audio: no output device ({err}); playing silently"
            ));
            return;
        }
    };
    stream.log_on_drop(false);
    let mixer = stream.mixer();
    // Each loop runs for the whole game in its own sink, at volume 0 until told otherwise.
    let loops: Vec<Option<Sink>> = LoopId::ALL
        .iter()
        .map(|id| {
            let buffer = sounds[id.file_index()].clone()?;
            let sink = Sink::connect_new(mixer);
            sink.set_volume(0.0);
            sink.append(buffer.repeat_infinite());
            Some(sink)
        })
        .collect();
    // Ends when the game drops its sender (quit).
    while let Ok(command) = commands.recv() {
        match command {
            Command::Play(id, volume) => {
                if let Some(buffer) = &sounds[id.file_index()] {
                    // SamplesBuffer shares its samples: the clone is cheap.
                    mixer.add(buffer.clone().amplify(volume));
                }
            }
            Command::LoopVolume(id, volume) => {
                if let Some(sink) = &loops[id as usize] {
                    sink.set_volume(volume);
                }
            }
        }
    }
}

/// On a machine without sound, alsa-lib prints a dozen "ALSA lib ... Unknown PCM" lines to
/// stderr while cpal probes the devices; the game reports the outcome in one line instead.
/// alsa-lib's local error handler is per thread, and is only replaced around the probe (the
/// stream's own errors later still reach stderr). libasound is linked through rodio → cpal →
/// alsa-sys already.
#[cfg(target_os = "linux")]
mod quiet_alsa {
    use std::ffi::{c_char, c_int, c_void};

    /// `snd_local_error_handler_t`: the last argument is a `va_list`, unused here.
    type LocalHandler = Option<
        unsafe extern "C" fn(
            *const c_char,
            c_int,
            *const c_char,
            c_int,
            *const c_char,
            *mut c_void,
        ),
    >;

    extern "C" {
        fn snd_lib_error_set_local(handler: LocalHandler) -> LocalHandler;
    }

    unsafe extern "C" fn ignore(
        _file: *const c_char,
        _line: c_int,
        _function: *const c_char,
        _err: c_int,
        _fmt: *const c_char,
        _args: *mut c_void,
    ) {
    }

    pub fn during<T>(f: impl FnOnce() -> T) -> T {
        // SAFETY: sets and restores this thread's handler; `ignore` never touches its arguments.
        let previous = unsafe { snd_lib_error_set_local(Some(ignore)) };
        let out = f();
        // SAFETY: as above.
        unsafe { snd_lib_error_set_local(previous) };
        out
    }
}

#[cfg(not(target_os = "linux"))]
mod quiet_alsa {
    pub fn during<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
}
