//! What the player can ask for, whatever the device: the game, the menus and the volume keys
//! read these, never raw keys.

use serde::{Deserialize, Serialize};

/// Where an action is read. Two actions may share a binding only when they are never read at
/// the same time (a key that reels in while playing may move a menu's selection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// During play.
    Play,
    /// In menus (pause, controls, assists).
    Menu,
    /// Always (volume, mute, fullscreen).
    Everywhere,
}

impl Context {
    pub fn overlaps(self, other: Context) -> bool {
        self == other || self == Context::Everywhere || other == Context::Everywhere
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    MoveLeft,
    MoveRight,
    /// Reel in while on the rope; aims up for keyboard aiming.
    Up,
    /// Reel out while on the rope; aims down for keyboard aiming.
    Down,
    Jump,
    /// Fire the hook: with the mouse button toward the mouse, with a key along the movement
    /// keys (8 directions), with a gamepad toward the right stick.
    Fire,
    /// Fire at the best ring or hookable surface in front of the player (keyboard play).
    FireAtTarget,
    Release,
    Restart,
    Pause,
    NextLevel,
    PrevLevel,
    MenuUp,
    MenuDown,
    MenuLeft,
    MenuRight,
    MenuConfirm,
    MenuBack,
    Mute,
    MasterVolumeDown,
    MasterVolumeUp,
    MusicVolumeDown,
    MusicVolumeUp,
    EffectsVolumeDown,
    EffectsVolumeUp,
    Fullscreen,
}

/// How many actions there are (the size of per-action tables).
pub const ACTION_COUNT: usize = Action::ALL.len();

impl Action {
    /// Every action, in the order the controls screen lists them.
    pub const ALL: [Action; 26] = [
        Action::MoveLeft,
        Action::MoveRight,
        Action::Up,
        Action::Down,
        Action::Jump,
        Action::Fire,
        Action::FireAtTarget,
        Action::Release,
        Action::Restart,
        Action::Pause,
        Action::NextLevel,
        Action::PrevLevel,
        Action::MenuUp,
        Action::MenuDown,
        Action::MenuLeft,
        Action::MenuRight,
        Action::MenuConfirm,
        Action::MenuBack,
        Action::Mute,
        Action::MasterVolumeDown,
        Action::MasterVolumeUp,
        Action::MusicVolumeDown,
        Action::MusicVolumeUp,
        Action::EffectsVolumeDown,
        Action::EffectsVolumeUp,
        Action::Fullscreen,
    ];

    /// Position in `ALL` (index into per-action tables).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn context(self) -> Context {
        use Action::*;
        match self {
            MoveLeft | MoveRight | Up | Down | Jump | Fire | FireAtTarget | Release | Restart
            | Pause | NextLevel | PrevLevel => Context::Play,
            MenuUp | MenuDown | MenuLeft | MenuRight | MenuConfirm | MenuBack => Context::Menu,
            Mute | MasterVolumeDown | MasterVolumeUp | MusicVolumeDown | MusicVolumeUp
            | EffectsVolumeDown | EffectsVolumeUp | Fullscreen => Context::Everywhere,
        }
    }

    /// The name on the controls screen.
    pub fn label(self) -> &'static str {
        use Action::*;
        match self {
            MoveLeft => "Move left",
            MoveRight => "Move right",
            Up => "Reel in / aim up",
            Down => "Reel out / aim down",
            Jump => "Jump",
            Fire => "Fire hook",
            FireAtTarget => "Fire at target ahead",
            Release => "Let go",
            Restart => "Restart level",
            Pause => "Pause",
            NextLevel => "Next level",
            PrevLevel => "Previous level",
            MenuUp => "Menu up",
            MenuDown => "Menu down",
            MenuLeft => "Menu left",
            MenuRight => "Menu right",
            MenuConfirm => "Menu select",
            MenuBack => "Menu back",
            Mute => "Mute",
            MasterVolumeDown => "Volume down",
            MasterVolumeUp => "Volume up",
            MusicVolumeDown => "Music down",
            MusicVolumeUp => "Music up",
            EffectsVolumeDown => "Effects down",
            EffectsVolumeUp => "Effects up",
            Fullscreen => "Fullscreen",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_each_action_at_its_index() {
        for (i, action) in Action::ALL.iter().enumerate() {
            assert_eq!(action.index(), i, "{action:?}");
        }
    }
}
