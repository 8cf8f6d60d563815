//! Bindings: which keys, mouse buttons, gamepad buttons and stick directions trigger which
//! action. Plain data with a text form (`"Key:A"`, `"Pad:South"`, `"Axis:LeftX-"`) for the
//! settings file; conflicts are found here, not discovered in play.

use std::fmt;

use macroquad::input::{KeyCode, MouseButton};
use serde::{Deserialize, Serialize};

use super::action::{Action, ACTION_COUNT};
use super::pad::{PadAxis, PadButton};

/// One physical control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Binding {
    Key(KeyCode),
    Mouse(MouseButton),
    Pad(PadButton),
    /// A stick pushed past half-way: `positive` is right on X axes and up on Y axes.
    Axis {
        axis: PadAxis,
        positive: bool,
    },
}

/// Which kind of device a binding (or a press) comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    Keyboard,
    Mouse,
    Gamepad,
    Touch,
}

impl Binding {
    pub fn device(self) -> DeviceKind {
        match self {
            Binding::Key(_) => DeviceKind::Keyboard,
            Binding::Mouse(_) => DeviceKind::Mouse,
            Binding::Pad(_) | Binding::Axis { .. } => DeviceKind::Gamepad,
        }
    }

    /// The settings file's text for this binding.
    pub fn name(self) -> String {
        match self {
            Binding::Key(key) => format!("Key:{}", key_name(key)),
            Binding::Mouse(button) => format!("Mouse:{}", mouse_name(button)),
            Binding::Pad(button) => format!("Pad:{button:?}"),
            Binding::Axis { axis, positive } => {
                format!("Axis:{axis:?}{}", if positive { '+' } else { '-' })
            }
        }
    }

    /// Short text for the controls screen.
    pub fn label(self) -> String {
        match self {
            Binding::Key(key) => key_name(key).to_owned(),
            Binding::Mouse(button) => format!("{} mouse", mouse_name(button)),
            Binding::Pad(button) => format!("pad {button:?}"),
            Binding::Axis { axis, positive } => {
                let dir = match (axis.is_vertical(), positive) {
                    (true, true) => "up",
                    (true, false) => "down",
                    (false, true) => "right",
                    (false, false) => "left",
                };
                format!("pad {axis:?} {dir}")
            }
        }
    }

    /// Parses `name()`'s text; the error says what was expected.
    pub fn parse(text: &str) -> Result<Binding, BindingError> {
        let error = |problem| BindingError {
            text: text.to_owned(),
            problem,
        };
        let (kind, rest) = text
            .split_once(':')
            .ok_or_else(|| error(BindingProblem::NoDevice))?;
        let unknown = |what| error(BindingProblem::Unknown { what });
        match kind {
            "Key" => key_from_name(rest)
                .map(Binding::Key)
                .ok_or_else(|| unknown("key")),
            "Mouse" => MOUSE_NAMES
                .iter()
                .find(|(name, _)| *name == rest)
                .map(|(_, b)| Binding::Mouse(*b))
                .ok_or_else(|| unknown("mouse button")),
            "Pad" => PadButton::ALL
                .iter()
                .find(|b| format!("{b:?}") == rest)
                .map(|b| Binding::Pad(*b))
                .ok_or_else(|| unknown("gamepad button")),
            "Axis" => {
                let (axis, sign) = rest.split_at(rest.len().saturating_sub(1));
                let positive = match sign {
                    "+" => true,
                    "-" => false,
                    _ => return Err(error(BindingProblem::AxisWithoutSign)),
                };
                PadAxis::ALL
                    .iter()
                    .find(|a| format!("{a:?}") == axis)
                    .map(|a| Binding::Axis { axis: *a, positive })
                    .ok_or_else(|| unknown("gamepad axis"))
            }
            _ => Err(error(BindingProblem::NoDevice)),
        }
    }
}

/// A binding's text (in the input settings) that names no input: the text, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingError {
    pub text: String,
    pub problem: BindingProblem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingProblem {
    /// It does not start with `Key:`, `Mouse:`, `Pad:` or `Axis:`.
    NoDevice,
    /// No `what` (a key, a mouse button...) has the name after the colon.
    Unknown {
        what: &'static str,
    },
    AxisWithoutSign,
}

impl fmt::Display for BindingError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = &self.text;
        match self.problem {
            BindingProblem::NoDevice => {
                write!(f, "binding {text:?}: expected Key:, Mouse:, Pad: or Axis:")
            }
            BindingProblem::Unknown { what } => {
                let name = text.split_once(':').map_or("", |(_, name)| name);
                write!(f, "binding {text:?}: unknown {what} {name:?}")
            }
            BindingProblem::AxisWithoutSign => {
                write!(f, "binding {text:?}: an axis ends in + or -")
            }
        }
    }
}

impl std::error::Error for BindingError {}

impl TryFrom<String> for Binding {
    type Error = BindingError;
    fn try_from(text: String) -> Result<Binding, BindingError> {
        Binding::parse(&text)
    }
}

impl From<Binding> for String {
    fn from(binding: Binding) -> String {
        binding.name()
    }
}

const MOUSE_NAMES: [(&str, MouseButton); 3] = [
    ("Left", MouseButton::Left),
    ("Right", MouseButton::Right),
    ("Middle", MouseButton::Middle),
];

fn mouse_name(button: MouseButton) -> &'static str {
    MOUSE_NAMES
        .iter()
        .find(|(_, b)| *b == button)
        .map_or("Other", |(name, _)| name)
}

/// The keys that can be bound (named as in macroquad's `KeyCode`).
pub const BINDABLE_KEYS: [KeyCode; 89] = {
    use KeyCode::*;
    [
        A,
        B,
        C,
        D,
        E,
        F,
        G,
        H,
        I,
        J,
        K,
        L,
        M,
        N,
        O,
        P,
        Q,
        R,
        S,
        T,
        U,
        V,
        W,
        X,
        Y,
        Z,
        Key0,
        Key1,
        Key2,
        Key3,
        Key4,
        Key5,
        Key6,
        Key7,
        Key8,
        Key9,
        Space,
        Enter,
        Escape,
        Tab,
        Backspace,
        Insert,
        Delete,
        Home,
        End,
        PageUp,
        PageDown,
        Left,
        Right,
        Up,
        Down,
        LeftShift,
        RightShift,
        LeftControl,
        RightControl,
        LeftAlt,
        RightAlt,
        Minus,
        Equal,
        LeftBracket,
        RightBracket,
        Comma,
        Period,
        Slash,
        Semicolon,
        Apostrophe,
        Backslash,
        GraveAccent,
        F1,
        F2,
        F3,
        F4,
        F5,
        F6,
        F7,
        F8,
        F9,
        F10,
        F11,
        F12,
        Kp0,
        Kp1,
        Kp2,
        Kp3,
        Kp4,
        Kp5,
        KpAdd,
        KpSubtract,
        KpEnter,
    ]
};

/// A key's name: macroquad's variant name (`Space`, `LeftShift`, `Key1`).
pub fn key_name(key: KeyCode) -> String {
    format!("{key:?}")
}

pub fn key_from_name(name: &str) -> Option<KeyCode> {
    BINDABLE_KEYS.iter().copied().find(|k| key_name(*k) == name)
}

/// Every action's bindings. The settings file stores the whole table; actions missing from it
/// (a file from before they existed) get their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    from = "Vec<(Action, Vec<Binding>)>",
    into = "Vec<(Action, Vec<Binding>)>"
)]
pub struct Bindings {
    table: [Vec<Binding>; ACTION_COUNT],
}

/// Two or more actions that one control would trigger at the same time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub binding: Binding,
    pub actions: Vec<Action>,
}

/// The default controls, one row per action: keyboard and mouse first, then the gamepad.
const DEFAULT_BINDINGS: &[(Action, &[Binding])] = {
    use Action::*;
    use KeyCode as K;
    use PadAxis::*;
    use PadButton as B;
    &[
        (
            MoveLeft,
            &[
                key(K::A),
                key(K::Left),
                pad(B::DPadLeft),
                axis(LeftX, false),
            ],
        ),
        (
            MoveRight,
            &[
                key(K::D),
                key(K::Right),
                pad(B::DPadRight),
                axis(LeftX, true),
            ],
        ),
        (
            Up,
            &[key(K::W), key(K::Up), pad(B::DPadUp), pad(B::RightShoulder)],
        ),
        (
            Down,
            &[
                key(K::S),
                key(K::Down),
                pad(B::DPadDown),
                pad(B::LeftShoulder),
            ],
        ),
        (Jump, &[key(K::Space), key(K::Z), pad(B::South)]),
        (
            Fire,
            &[mouse(MouseButton::Left), key(K::K), pad(B::RightTrigger)],
        ),
        (FireAtTarget, &[key(K::J), key(K::LeftShift), pad(B::West)]),
        (
            Release,
            &[
                mouse(MouseButton::Right),
                key(K::L),
                key(K::X),
                pad(B::LeftTrigger),
                pad(B::East),
            ],
        ),
        (Restart, &[key(K::R), pad(B::North)]),
        (Pause, &[key(K::Escape), pad(B::Start)]),
        (NextLevel, &[key(K::N)]),
        (PrevLevel, &[key(K::P)]),
        (
            MenuUp,
            &[key(K::Up), key(K::W), pad(B::DPadUp), axis(LeftY, true)],
        ),
        (
            MenuDown,
            &[
                key(K::Down),
                key(K::S),
                pad(B::DPadDown),
                axis(LeftY, false),
            ],
        ),
        (
            MenuLeft,
            &[
                key(K::Left),
                key(K::A),
                pad(B::DPadLeft),
                axis(LeftX, false),
            ],
        ),
        (
            MenuRight,
            &[
                key(K::Right),
                key(K::D),
                pad(B::DPadRight),
                axis(LeftX, true),
            ],
        ),
        (MenuConfirm, &[key(K::Enter), key(K::Space), pad(B::South)]),
        (MenuBack, &[key(K::Escape), pad(B::East), pad(B::Start)]),
        (Mute, &[key(K::M)]),
        (MasterVolumeDown, &[key(K::Minus), key(K::KpSubtract)]),
        (MasterVolumeUp, &[key(K::Equal), key(K::KpAdd)]),
        (MusicVolumeDown, &[key(K::LeftBracket)]),
        (MusicVolumeUp, &[key(K::RightBracket)]),
        (EffectsVolumeDown, &[key(K::Comma)]),
        (EffectsVolumeUp, &[key(K::Period)]),
        (Fullscreen, &[key(K::F11)]),
    ]
};

const fn key(code: KeyCode) -> Binding {
    Binding::Key(code)
}

const fn mouse(button: MouseButton) -> Binding {
    Binding::Mouse(button)
}

const fn pad(button: PadButton) -> Binding {
    Binding::Pad(button)
}

const fn axis(axis: PadAxis, positive: bool) -> Binding {
    Binding::Axis { axis, positive }
}

impl Default for Bindings {
    fn default() -> Bindings {
        let mut bindings = Bindings::empty();
        for (action, list) in DEFAULT_BINDINGS {
            bindings.table[action.index()] = list.to_vec();
        }
        bindings
    }
}

impl Bindings {
    /// No action bound to anything.
    pub fn empty() -> Bindings {
        Bindings {
            table: std::array::from_fn(|_| Vec::new()),
        }
    }

    pub fn of(&self, action: Action) -> &[Binding] {
        &self.table[action.index()]
    }

    /// The actions `binding` triggers (in `Action::ALL` order).
    pub fn actions_of(&self, binding: Binding) -> impl Iterator<Item = Action> + '_ {
        Action::ALL
            .into_iter()
            .filter(move |a| self.of(*a).contains(&binding))
    }

    /// Controls that trigger two actions read at the same time (see `Context`), in a stable
    /// order: by the first action's position, then by the binding's place in its list.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let mut found: Vec<Conflict> = Vec::new();
        for action in Action::ALL {
            for &binding in self.of(action) {
                if found.iter().any(|c| c.binding == binding) {
                    continue;
                }
                let actions: Vec<Action> = self.actions_of(binding).collect();
                let clashing: Vec<Action> = actions
                    .iter()
                    .copied()
                    .filter(|a| {
                        actions
                            .iter()
                            .any(|b| a != b && a.context().overlaps(b.context()))
                    })
                    .collect();
                if clashing.len() >= 2 {
                    found.push(Conflict {
                        binding,
                        actions: clashing,
                    });
                }
            }
        }
        found
    }

    /// Binds `binding` to `action` in place of the binding at `slot` (or adds it when `slot`
    /// is past the end). Returns the actions it now conflicts with, for the screen to show.
    pub fn rebind(&mut self, action: Action, slot: usize, binding: Binding) -> Vec<Action> {
        let list = &mut self.table[action.index()];
        list.retain(|b| *b != binding);
        if slot < list.len() {
            list[slot] = binding;
        } else {
            list.push(binding);
        }
        self.conflicts()
            .into_iter()
            .filter(|c| c.binding == binding)
            .flat_map(|c| c.actions)
            .filter(|a| *a != action)
            .collect()
    }

    /// Removes the binding at `slot` of `action` (nothing if there is none).
    pub fn unbind(&mut self, action: Action, slot: usize) {
        let list = &mut self.table[action.index()];
        if slot < list.len() {
            list.remove(slot);
        }
    }

    /// Restores one action's default bindings.
    pub fn reset(&mut self, action: Action) {
        self.table[action.index()] = Bindings::default().table[action.index()].clone();
    }
}

impl From<Vec<(Action, Vec<Binding>)>> for Bindings {
    /// Actions the list leaves out keep their defaults (a file from an older version).
    fn from(list: Vec<(Action, Vec<Binding>)>) -> Bindings {
        let mut bindings = Bindings::default();
        for (action, list) in list {
            bindings.table[action.index()] = list;
        }
        bindings
    }
}

impl From<Bindings> for Vec<(Action, Vec<Binding>)> {
    fn from(bindings: Bindings) -> Vec<(Action, Vec<Binding>)> {
        Action::ALL
            .into_iter()
            .map(|a| (a, bindings.table[a.index()].clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_have_no_conflicts() {
        assert_eq!(Bindings::default().conflicts(), vec![]);
    }

    #[test]
    fn every_binding_name_parses_back() {
        let defaults = Bindings::default();
        let mut n = 0;
        for action in Action::ALL {
            for &b in defaults.of(action) {
                assert_eq!(Binding::parse(&b.name()), Ok(b), "{}", b.name());
                n += 1;
            }
        }
        assert!(n > 40);
        for key in BINDABLE_KEYS {
            assert_eq!(key_from_name(&key_name(key)), Some(key));
        }
    }

    #[test]
    fn bad_binding_text_is_an_error_that_names_it() {
        for text in [
            "A",
            "Key:Banana",
            "Pad:Q",
            "Axis:LeftX",
            "Axis:Up+",
            "Mouse:Fourth",
        ] {
            let err = Binding::parse(text).unwrap_err();
            assert_eq!(err.text, text);
            assert!(err.to_string().contains(text), "{err}");
        }
        let problem = |text| Binding::parse(text).unwrap_err().problem;
        assert_eq!(problem("A"), BindingProblem::NoDevice);
        assert_eq!(
            problem("Key:Banana"),
            BindingProblem::Unknown { what: "key" }
        );
        assert_eq!(problem("Axis:LeftX"), BindingProblem::AxisWithoutSign);
        assert_eq!(
            problem("Axis:Up+"),
            BindingProblem::Unknown {
                what: "gamepad axis"
            }
        );
    }

    #[test]
    fn a_key_on_two_play_actions_is_a_conflict_but_play_and_menu_may_share() {
        let mut b = Bindings::default();
        // W is reel-in and menu-up by default: different contexts, no conflict.
        assert!(b.of(Action::MenuUp).contains(&Binding::Key(KeyCode::W)));
        let clash = b.rebind(Action::Jump, 0, Binding::Key(KeyCode::K));
        assert_eq!(clash, vec![Action::Fire]);
        assert_eq!(
            b.conflicts(),
            vec![Conflict {
                binding: Binding::Key(KeyCode::K),
                actions: vec![Action::Jump, Action::Fire],
            }]
        );
        // A volume key is read everywhere: it clashes with a menu action too.
        let clash = b.rebind(Action::MenuConfirm, 9, Binding::Key(KeyCode::M));
        assert_eq!(clash, vec![Action::Mute]);
        b.reset(Action::Jump);
        b.reset(Action::MenuConfirm);
        assert_eq!(b.conflicts(), vec![]);
    }

    #[test]
    fn rebinding_replaces_a_slot_and_never_duplicates() {
        let mut b = Bindings::default();
        b.rebind(Action::Jump, 1, Binding::Key(KeyCode::C));
        assert_eq!(
            b.of(Action::Jump),
            &[
                Binding::Key(KeyCode::Space),
                Binding::Key(KeyCode::C),
                Binding::Pad(PadButton::South)
            ]
        );
        // Binding it again to a new slot moves it there.
        b.rebind(Action::Jump, 99, Binding::Key(KeyCode::C));
        assert_eq!(
            b.of(Action::Jump),
            &[
                Binding::Key(KeyCode::Space),
                Binding::Pad(PadButton::South),
                Binding::Key(KeyCode::C)
            ]
        );
        b.unbind(Action::Jump, 0);
        b.unbind(Action::Jump, 7);
        assert_eq!(b.of(Action::Jump)[0], Binding::Pad(PadButton::South));
        assert_eq!(b.of(Action::Jump).len(), 2);
    }

    #[test]
    fn bindings_round_trip_through_ron_and_missing_actions_get_defaults() {
        let mut b = Bindings::default();
        b.rebind(Action::Fire, 1, Binding::Key(KeyCode::F));
        let text = ron::to_string(&b).unwrap();
        assert!(text.contains("\"Key:F\""), "{text}");
        let back: Bindings = ron::from_str(&text).unwrap();
        assert_eq!(back, b);
        let partial: Bindings = ron::from_str(r#"[(Jump, ["Key:C"])]"#).unwrap();
        assert_eq!(partial.of(Action::Jump), &[Binding::Key(KeyCode::C)]);
        assert_eq!(
            partial.of(Action::Fire),
            Bindings::default().of(Action::Fire)
        );
    }
}
