//! Editor scripts (the Xvfb editor test's input): each step becomes a few frames of input.

use super::*;

/// Plays an editor script: each step becomes a few frames of input.
pub(super) struct ScriptPlayer {
    pub(super) steps: Vec<ScriptStep>,
    pub(super) step: usize,
    pub(super) frame: u32,
    pub(super) pointer_px: (f32, f32),
}

impl ScriptPlayer {
    pub(super) fn new(steps: Vec<ScriptStep>) -> ScriptPlayer {
        ScriptPlayer {
            steps,
            step: 0,
            frame: 0,
            pointer_px: (0.0, 0.0),
        }
    }

    pub(super) fn done(&self) -> bool {
        self.step >= self.steps.len()
    }

    /// The next frame's input; `locate` places a target on screen. A target that cannot be
    /// found (a palette name that does not exist) skips its step, logged.
    pub(super) fn next_frame(
        &mut self,
        locate: impl Fn(&ScriptTarget) -> Option<(f32, f32)>,
    ) -> Option<EditorInput> {
        let step = self.steps.get(self.step)?.clone();
        let frame = self.frame;
        self.frame += 1;
        let mut input = EditorInput {
            pointer_px: self.pointer_px,
            ..EditorInput::default()
        };
        let mut finished = true;
        match &step {
            ScriptStep::Click(target) => {
                let Some(at) = locate(target) else {
                    crate::app::log_line(&format!("editor script: cannot find {target:?}"));
                    self.advance();
                    return Some(input);
                };
                input.pointer_px = at;
                match frame {
                    0 => {
                        input.primary_pressed = true;
                        input.primary_down = true;
                        finished = false;
                    }
                    1 => input.primary_released = true,
                    _ => {}
                }
            }
            ScriptStep::Drag(from, to) => {
                let (Some(a), Some(b)) = (locate(from), locate(to)) else {
                    crate::app::log_line(&format!("editor script: cannot find {step:?}"));
                    self.advance();
                    return Some(input);
                };
                let t = (frame as f32 / SCRIPT_DRAG_FRAMES as f32).min(1.0);
                input.pointer_px = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                input.primary_pressed = frame == 0;
                input.primary_down = frame <= SCRIPT_DRAG_FRAMES;
                input.primary_released = frame > SCRIPT_DRAG_FRAMES;
                finished = frame > SCRIPT_DRAG_FRAMES;
            }
            ScriptStep::Type(text) => input.chars = text.chars().collect(),
            ScriptStep::Key(key) => input.keys = vec![*key],
            ScriptStep::Wait(frames) => finished = frame + 1 >= *frames,
        }
        self.pointer_px = input.pointer_px;
        if finished {
            self.advance();
        }
        Some(input)
    }

    pub(super) fn advance(&mut self) {
        self.step += 1;
        self.frame = 0;
    }
}
