//! Signs: a board on a post (drawn with the level, behind the player) and its text (drawn over
//! the world in screen space, so it stays crisp at any zoom). A `{control}` in the text becomes
//! the control the player has bound to that action on the device they last used.

use crate::app::render::text::measure_text;
use macroquad::camera::Camera2D;
use macroquad::math::vec2;
use macroquad::shapes::{draw_rectangle, draw_rectangle_lines};

use crate::app::input::{Action, Bindings, DeviceKind};
use crate::app::palette;
use crate::app::render::hud::draw_text_shadowed;
use crate::sim::objects::sign::{sign_parts, SignDef, SignPart};
use crate::sim::World;

/// Height of the post, from the ground to the board's bottom edge, metres.
const POST_HEIGHT_M: f32 = 0.9;
/// Height of one line of text on the board, metres.
const LINE_HEIGHT_M: f32 = 0.6;
/// Width of a character on the board, metres (the text is fitted to it).
const CHAR_WIDTH_M: f32 = 0.25;
/// Longest line before the text wraps, characters.
const LINE_CHARS: usize = 26;
/// Room left around the text, metres.
const BOARD_PADDING_M: f32 = 0.25;
/// A `{control}` is counted this many characters wide when sizing the board.
const CONTROL_CHARS: usize = 7;

/// The action a sign's `{name}` stands for.
pub fn control_action(name: &str) -> Option<Action> {
    Some(match name {
        "move_left" => Action::MoveLeft,
        "move_right" => Action::MoveRight,
        "up" => Action::Up,
        "down" => Action::Down,
        "jump" => Action::Jump,
        "fire" => Action::Fire,
        "fire_at_target" => Action::FireAtTarget,
        "release" => Action::Release,
        "restart" => Action::Restart,
        "pause" => Action::Pause,
        _ => return None,
    })
}

/// What the player presses for `action` on `device`: the first control bound on that kind of
/// device (keyboard and mouse count as one), the touch screen's own button names, or "unbound".
pub fn control_label(bindings: &Bindings, action: Action, device: DeviceKind) -> String {
    if device == DeviceKind::Touch {
        return match action {
            Action::Jump => "JUMP",
            Action::Release => "LET GO",
            Action::Up => "REEL +",
            Action::Down => "REEL -",
            Action::MoveLeft | Action::MoveRight => "the stick",
            Action::Fire | Action::FireAtTarget => "a tap",
            Action::Pause => "pause",
            _ => "-",
        }
        .to_owned();
    }
    let wanted = |d: DeviceKind| match device {
        DeviceKind::Gamepad => d == DeviceKind::Gamepad,
        _ => matches!(d, DeviceKind::Keyboard | DeviceKind::Mouse),
    };
    bindings
        .of(action)
        .iter()
        .find(|b| wanted(b.device()))
        .map_or_else(|| "unbound".to_owned(), |b| b.label())
}

/// The sign's text split into lines, with its controls named and marked.
fn lines(text: &str, bindings: &Bindings, device: DeviceKind) -> Vec<Vec<(String, bool)>> {
    let Ok(parts) = sign_parts(text) else {
        return vec![vec![(text.to_owned(), false)]];
    };
    // Words with whether they name a control, then greedy wrapping.
    let mut words: Vec<(String, bool)> = Vec::new();
    for part in parts {
        match part {
            SignPart::Text(t) => {
                for (i, word) in t.split(' ').enumerate() {
                    if i > 0 {
                        words.push((" ".into(), false));
                    }
                    if !word.is_empty() {
                        words.push((word.to_owned(), false));
                    }
                }
            }
            SignPart::Control(name) => {
                let label = control_action(name)
                    .map_or_else(|| name.to_owned(), |a| control_label(bindings, a, device));
                words.push((format!("[{label}]"), true));
            }
        }
    }
    let mut out: Vec<Vec<(String, bool)>> = vec![Vec::new()];
    let mut width = 0;
    for (word, control) in words {
        let len = word.chars().count();
        if word == " " {
            if width > 0 {
                out.last_mut().expect("one line").push((word, false));
                width += 1;
            }
            continue;
        }
        if width + len > LINE_CHARS && width > 0 {
            if let Some(line) = out.last_mut() {
                if line.last().is_some_and(|(w, _)| w == " ") {
                    line.pop();
                }
            }
            out.push(Vec::new());
            width = 0;
        }
        out.last_mut().expect("one line").push((word, control));
        width += len;
    }
    out
}

/// The board's size in metres, from the raw text (so drawing the board needs no bindings).
fn board_size_m(sign: &SignDef) -> (f32, f32) {
    let chars = sign_parts(&sign.text).map_or(sign.text.chars().count(), |parts| {
        parts
            .iter()
            .map(|p| match p {
                SignPart::Text(t) => t.chars().count(),
                SignPart::Control(_) => CONTROL_CHARS,
            })
            .sum()
    });
    let lines = chars.div_ceil(LINE_CHARS).max(1);
    let widest = chars.min(LINE_CHARS);
    (
        widest as f32 * CHAR_WIDTH_M + 2.0 * BOARD_PADDING_M,
        lines as f32 * LINE_HEIGHT_M + 2.0 * BOARD_PADDING_M * 0.6,
    )
}

/// Posts and boards, in world units (behind the player).
pub fn draw_boards(world: &World) {
    for sign in &world.level().signs {
        let (w, h) = board_size_m(sign);
        let (x, y) = (sign.at.0, sign.at.1);
        draw_rectangle(
            x - 0.06,
            y,
            0.12,
            POST_HEIGHT_M + h * 0.5,
            palette::SIGN_EDGE.color(),
        );
        let (left, bottom) = (x - w * 0.5, y + POST_HEIGHT_M);
        draw_rectangle(left, bottom, w, h, palette::SIGN_BOARD.color());
        draw_rectangle_lines(left, bottom, w, h, 0.08, palette::SIGN_EDGE.color());
    }
}

/// The signs' text over the world, in screen space (`camera` is the world's camera).
pub fn draw_texts(world: &World, camera: &Camera2D, bindings: &Bindings, device: DeviceKind) {
    for sign in &world.level().signs {
        let (w, h) = board_size_m(sign);
        let top_left =
            camera.world_to_screen(vec2(sign.at.0 - w * 0.5, sign.at.1 + POST_HEIGHT_M + h));
        let bottom_right =
            camera.world_to_screen(vec2(sign.at.0 + w * 0.5, sign.at.1 + POST_HEIGHT_M));
        let (px_w, px_h) = (bottom_right.x - top_left.x, bottom_right.y - top_left.y);
        if px_w < 8.0 || px_h < 4.0 {
            continue;
        }
        let text_lines = lines(&sign.text, bindings, device);
        let line_px = px_h / text_lines.len().max(1) as f32;
        let mut size = (line_px * 0.62).max(6.0) as u16;
        // Shrink until the widest line fits the board.
        let widest = |size: u16| {
            text_lines
                .iter()
                .map(|line| {
                    let text: String = line.iter().map(|(w, _)| w.as_str()).collect();
                    measure_text(&text, None, size, 1.0).width
                })
                .fold(0.0, f32::max)
        };
        while size > 6 && widest(size) > px_w * 0.94 {
            size -= 1;
        }
        for (i, line) in text_lines.iter().enumerate() {
            let text: String = line.iter().map(|(w, _)| w.as_str()).collect();
            let line_w = measure_text(&text, None, size, 1.0).width;
            let mut x = top_left.x + (px_w - line_w) * 0.5;
            let y = top_left.y + line_px * (i as f32 + 0.5) + size as f32 * 0.3;
            for (word, control) in line {
                let color = if *control {
                    palette::SIGN_CONTROL
                } else {
                    palette::SIGN_TEXT
                };
                draw_text_shadowed(word, x, y, size, color.color());
                x += measure_text(word, None, size, 1.0).width;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_named_from_the_bindings_of_the_device_in_use() {
        let bindings = Bindings::default();
        let keys = lines("Press {jump} to jump", &bindings, DeviceKind::Keyboard);
        let text: String = keys[0].iter().map(|(w, _)| w.as_str()).collect();
        let jump_key = control_label(&bindings, Action::Jump, DeviceKind::Keyboard);
        assert_eq!(text, format!("Press [{jump_key}] to jump"));
        assert!(keys[0].iter().any(|(w, c)| *c && w.contains(&jump_key)));
        let pad = control_label(&bindings, Action::Jump, DeviceKind::Gamepad);
        assert!(pad.starts_with("pad "), "{pad}");
        assert_eq!(
            control_label(&bindings, Action::Jump, DeviceKind::Touch),
            "JUMP"
        );
        let mut none = Bindings::empty();
        none.rebind(Action::Release, 0, bindings.of(Action::Release)[0]);
        assert_eq!(
            control_label(&none, Action::Jump, DeviceKind::Keyboard),
            "unbound"
        );
    }

    #[test]
    fn long_signs_wrap_into_lines() {
        let bindings = Bindings::default();
        let text = "A long sign that says a lot of things about ropes and swinging over pits";
        let wrapped = lines(text, &bindings, DeviceKind::Keyboard);
        assert!(wrapped.len() >= 2);
        for line in &wrapped {
            let len: usize = line.iter().map(|(w, _)| w.chars().count()).sum();
            assert!(len <= LINE_CHARS, "{line:?}");
        }
    }
}
