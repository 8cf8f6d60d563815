//! What the editor reads each frame: the pointer, its buttons, the wheel, keys and typed
//! characters, as data. It comes from the mouse and keyboard, or from an editor script
//! (`--editor-script`), which is how the Xvfb test drives the editor through the same code a
//! person does.

use macroquad::input::{
    get_char_pressed, is_key_down, is_key_pressed, is_mouse_button_down, is_mouse_button_pressed,
    is_mouse_button_released, mouse_position, mouse_wheel, KeyCode, MouseButton,
};

/// The editor's keys (the editor is a mouse-and-keyboard tool; these are fixed, not bindable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorKey {
    Undo,
    Redo,
    Save,
    Delete,
    Duplicate,
    ToggleGrid,
    GridSize,
    RotateLeft,
    RotateRight,
    TestFromSpawn,
    TestFromCursor,
    ToggleReach,
    SelectAll,
    /// Makes a level link of the level (the browser shows it in the address bar).
    ShareLink,
    Escape,
    Enter,
    Backspace,
    Tab,
}

/// One frame of editor input. Pointer positions are in screen pixels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditorInput {
    pub pointer_px: (f32, f32),
    /// The primary button (left): select, drag, click the palette and the panel.
    pub primary_pressed: bool,
    pub primary_down: bool,
    pub primary_released: bool,
    /// Panning: the right or middle button held.
    pub pan_down: bool,
    /// Wheel steps this frame (positive: zoom in).
    pub wheel_steps: f32,
    /// Shift held: add to the selection, finer rotation.
    pub shift: bool,
    pub keys: Vec<EditorKey>,
    /// Characters typed (the property panel's text field).
    pub chars: Vec<char>,
}

impl EditorInput {
    pub fn pressed(&self, key: EditorKey) -> bool {
        self.keys.contains(&key)
    }

    /// This frame's input from the mouse and keyboard.
    pub fn from_devices() -> EditorInput {
        let ctrl = is_key_down(KeyCode::LeftControl)
            || is_key_down(KeyCode::RightControl)
            || is_key_down(KeyCode::LeftSuper)
            || is_key_down(KeyCode::RightSuper);
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        let mut keys = Vec::new();
        let mut key = |code: KeyCode, editor_key: EditorKey| {
            if is_key_pressed(code) {
                keys.push(editor_key);
            }
        };
        if ctrl {
            key(
                KeyCode::Z,
                if shift {
                    EditorKey::Redo
                } else {
                    EditorKey::Undo
                },
            );
            key(KeyCode::Y, EditorKey::Redo);
            key(KeyCode::S, EditorKey::Save);
            key(KeyCode::D, EditorKey::Duplicate);
            key(KeyCode::A, EditorKey::SelectAll);
        } else {
            key(
                KeyCode::G,
                if shift {
                    EditorKey::GridSize
                } else {
                    EditorKey::ToggleGrid
                },
            );
            key(KeyCode::Q, EditorKey::RotateLeft);
            key(KeyCode::E, EditorKey::RotateRight);
            key(KeyCode::H, EditorKey::ToggleReach);
            key(KeyCode::L, EditorKey::ShareLink);
        }
        key(KeyCode::Delete, EditorKey::Delete);
        key(KeyCode::F5, EditorKey::TestFromSpawn);
        key(KeyCode::F6, EditorKey::TestFromCursor);
        key(KeyCode::Escape, EditorKey::Escape);
        key(KeyCode::Enter, EditorKey::Enter);
        key(KeyCode::KpEnter, EditorKey::Enter);
        key(KeyCode::Backspace, EditorKey::Backspace);
        key(KeyCode::Tab, EditorKey::Tab);
        key(KeyCode::F2, EditorKey::Tab);
        let mut chars = Vec::new();
        while let Some(c) = get_char_pressed() {
            if !c.is_control() && !ctrl {
                chars.push(c);
            }
        }
        EditorInput {
            pointer_px: mouse_position(),
            primary_pressed: is_mouse_button_pressed(MouseButton::Left),
            primary_down: is_mouse_button_down(MouseButton::Left),
            primary_released: is_mouse_button_released(MouseButton::Left),
            pan_down: is_mouse_button_down(MouseButton::Right)
                || is_mouse_button_down(MouseButton::Middle),
            wheel_steps: mouse_wheel().1.signum(),
            shift,
            keys,
            chars,
        }
    }
}

/// Where a scripted pointer goes: a point of the world (in metres, placed on screen by the
/// editor's camera at that moment) or a palette button.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptTarget {
    World(f32, f32),
    Palette(String),
    /// The property panel's row of this field.
    Field(String),
}

/// One step of an editor script, written `click 3 4`, `drag 0 0 5 2`, `palette solid`,
/// A step of an editor script that cannot be read: the step as written, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub step: String,
    /// `Some(word)`: this word of the step is not a finite number; `None`: the step is not one
    /// the editor knows, or has the wrong count of numbers.
    pub not_a_number: Option<String>,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match &self.not_a_number {
            Some(word) => write!(
                f,
                "editor script: \"{}\": {word:?} is not a number",
                self.step
            ),
            None => write!(f, "editor script: cannot read \"{}\"", self.step),
        }
    }
}

impl std::error::Error for ScriptError {}

/// `field id`, `type lift`, `key save`, `wait 10`.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptStep {
    Click(ScriptTarget),
    Drag(ScriptTarget, ScriptTarget),
    Type(String),
    Key(EditorKey),
    Wait(u32),
}

impl ScriptStep {
    /// Parses a script: steps separated by `;`.
    pub fn parse_script(text: &str) -> Result<Vec<ScriptStep>, ScriptError> {
        text.split(';')
            .map(str::trim)
            .filter(|step| !step.is_empty())
            .map(ScriptStep::parse)
            .collect()
    }

    fn parse(step: &str) -> Result<ScriptStep, ScriptError> {
        let (word, rest) = step.split_once(' ').unwrap_or((step, ""));
        let error = |not_a_number: Option<&str>| ScriptError {
            step: step.to_owned(),
            not_a_number: not_a_number.map(str::to_owned),
        };
        let numbers = || -> Result<Vec<f32>, ScriptError> {
            rest.split_whitespace()
                .map(|n| {
                    n.parse::<f32>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| error(Some(n)))
                })
                .collect()
        };
        let wrong = || error(None);
        match word {
            "click" => match numbers()?.as_slice() {
                [x, y] => Ok(ScriptStep::Click(ScriptTarget::World(*x, *y))),
                _ => Err(wrong()),
            },
            "drag" => match numbers()?.as_slice() {
                [x0, y0, x1, y1] => Ok(ScriptStep::Drag(
                    ScriptTarget::World(*x0, *y0),
                    ScriptTarget::World(*x1, *y1),
                )),
                _ => Err(wrong()),
            },
            "palette" if !rest.is_empty() => {
                Ok(ScriptStep::Click(ScriptTarget::Palette(rest.trim().into())))
            }
            "field" if !rest.is_empty() => {
                Ok(ScriptStep::Click(ScriptTarget::Field(rest.trim().into())))
            }
            "type" => Ok(ScriptStep::Type(rest.to_owned())),
            "wait" => rest
                .trim()
                .parse()
                .map(ScriptStep::Wait)
                .map_err(|_| wrong()),
            "key" => {
                let key = match rest.trim() {
                    "undo" => EditorKey::Undo,
                    "redo" => EditorKey::Redo,
                    "save" => EditorKey::Save,
                    "delete" => EditorKey::Delete,
                    "duplicate" => EditorKey::Duplicate,
                    "grid" => EditorKey::ToggleGrid,
                    "grid-size" => EditorKey::GridSize,
                    "rotate-left" => EditorKey::RotateLeft,
                    "rotate-right" => EditorKey::RotateRight,
                    "test" => EditorKey::TestFromSpawn,
                    "test-here" => EditorKey::TestFromCursor,
                    "reach" => EditorKey::ToggleReach,
                    "select-all" => EditorKey::SelectAll,
                    "link" => EditorKey::ShareLink,
                    "escape" => EditorKey::Escape,
                    "enter" => EditorKey::Enter,
                    "backspace" => EditorKey::Backspace,
                    "tab" => EditorKey::Tab,
                    _ => return Err(wrong()),
                };
                Ok(ScriptStep::Key(key))
            }
            _ => Err(wrong()),
        }
    }
}

/// Frames the pointer spends on each leg of a scripted drag (so the drag is seen as one).
pub const SCRIPT_DRAG_FRAMES: u32 = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_reads_every_kind_of_step() {
        let steps = ScriptStep::parse_script(
            "palette solid; click 3 4.5; drag 0 0 5 -2; field id; type lift; key enter; key save; wait 3",
        )
        .unwrap();
        assert_eq!(
            steps,
            vec![
                ScriptStep::Click(ScriptTarget::Palette("solid".into())),
                ScriptStep::Click(ScriptTarget::World(3.0, 4.5)),
                ScriptStep::Drag(
                    ScriptTarget::World(0.0, 0.0),
                    ScriptTarget::World(5.0, -2.0)
                ),
                ScriptStep::Click(ScriptTarget::Field("id".into())),
                ScriptStep::Type("lift".into()),
                ScriptStep::Key(EditorKey::Enter),
                ScriptStep::Key(EditorKey::Save),
                ScriptStep::Wait(3),
            ]
        );
    }

    #[test]
    fn a_bad_step_is_named() {
        for bad in [
            "click 3",
            "drag 1 2 3",
            "click a b",
            "key fly",
            "jump",
            "click nan 1",
        ] {
            let err = ScriptStep::parse_script(bad).unwrap_err();
            assert_eq!(err.step, bad);
            assert!(err.to_string().contains("editor script"), "{bad}: {err}");
        }
    }
}
