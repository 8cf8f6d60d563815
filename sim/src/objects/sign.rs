//! Signs: a board in the world with a line of text, for teaching the controls. A `{name}` in the
//! text stands for the control bound to that action (`{jump}`, `{fire}`...): the game shows the
//! key or button the player actually has bound, on the device they last used. Signs take no part
//! in the simulation.

use serde::{Deserialize, Serialize};

use super::{Issues, LevelIds, ObjectDef};
use crate::limits;
use crate::shape::P;

/// Most signs a level may hold.
pub const MAX_SIGNS: usize = 32;
/// Longest sign text, in characters (a sign is a line or two on a board).
pub const MAX_SIGN_CHARS: usize = 120;

/// The names a sign may write in braces, each the control bound to one action.
pub const SIGN_CONTROLS: [&str; 10] = [
    "move_left",
    "move_right",
    "up",
    "down",
    "jump",
    "fire",
    "fire_at_target",
    "release",
    "restart",
    "pause",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The centre of the board's bottom edge, where its post meets the ground.
    pub at: P,
    pub text: String,
}

/// A sign's text split into plain runs and control names, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignPart<'a> {
    Text(&'a str),
    Control(&'a str),
}

/// Splits `text` at its `{name}`s. `Err` names the first problem: a brace left open, or a name
/// that is not one of `SIGN_CONTROLS`.
pub fn sign_parts(text: &str) -> Result<Vec<SignPart<'_>>, String> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(SignPart::Text(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| "has a '{' with no '}' after it".to_string())?;
        let name = &after[..close];
        if !SIGN_CONTROLS.contains(&name) {
            return Err(format!(
                "names the control {{{}}}, which is not one of {}",
                limits::printable(name),
                SIGN_CONTROLS
                    .iter()
                    .map(|n| format!("{{{n}}}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        parts.push(SignPart::Control(name));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(SignPart::Text(rest));
    }
    Ok(parts)
}

impl ObjectDef for SignDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.point(object, self.at);
        if let Err(problem) = limits::check_shown_text(&self.text, MAX_SIGN_CHARS) {
            issues.add(object, format!("text {problem}"));
        } else if let Err(problem) = sign_parts(&self.text) {
            issues.add(object, format!("text {problem}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_splits_into_runs_and_controls() {
        assert_eq!(
            sign_parts("Press {jump} to jump").unwrap(),
            vec![
                SignPart::Text("Press "),
                SignPart::Control("jump"),
                SignPart::Text(" to jump")
            ]
        );
        assert_eq!(
            sign_parts("{fire}{release}").unwrap(),
            vec![SignPart::Control("fire"), SignPart::Control("release")]
        );
        assert!(sign_parts("Press {jmup}").unwrap_err().contains("{jmup}"));
        assert!(sign_parts("Press {jump").unwrap_err().contains("no '}'"));
    }
}
