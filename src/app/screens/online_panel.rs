//! The online screens' panel as data: a screen says its lines (plain, stressed, built, blank,
//! a menu) and these few functions, never inlined, build and draw them, so the allocation and
//! growth code of a line is in the browser's download once, not at every line of seven
//! screens (docs/online.md, "Download cost").

use crate::app::menus;
use crate::app::palette::Rgb;
use crate::app::render::hud::draw_panel;

/// A panel's lines, each with whether it is stressed (the player's own, a problem, the choice).
#[derive(Default)]
pub struct Panel {
    lines: Vec<(String, bool)>,
}

impl Panel {
    /// A plain line.
    #[inline(never)]
    pub fn say(&mut self, text: &str) {
        self.lines.push((text.to_owned(), false));
    }

    /// A stressed line.
    #[inline(never)]
    pub fn stress(&mut self, text: &str) {
        self.lines.push((text.to_owned(), true));
    }

    /// A line already built (a `format!`), stressed or not.
    #[inline(never)]
    pub fn line(&mut self, text: String, stressed: bool) {
        self.lines.push((text, stressed));
    }

    /// An empty line between parts.
    #[inline(never)]
    pub fn blank(&mut self) {
        self.lines.push((String::new(), false));
    }

    /// A menu: the items, the selected one marked and stressed (as every menu of the game).
    #[inline(never)]
    pub fn menu(&mut self, items: &[String], selected: usize) {
        self.lines.extend(menus::menu_lines(items, selected));
    }

    /// Lines built elsewhere (the gamepad's character picker).
    #[inline(never)]
    pub fn extend(&mut self, lines: Vec<(String, bool)>) {
        self.lines.extend(lines);
    }

    /// The lines, for a screen's tests and log lines.
    pub fn into_lines(self) -> Vec<(String, bool)> {
        self.lines
    }

    /// Draws the panel over what is behind it.
    #[inline(never)]
    pub fn draw(&self, title: &str, title_color: Rgb) {
        draw_panel(title, &self.lines, title_color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_order_and_stress_and_a_menu_marks_its_choice() {
        let mut panel = Panel::default();
        panel.say("plain");
        panel.stress("a problem");
        panel.blank();
        panel.line("built".to_owned(), true);
        panel.menu(&["Send".to_owned(), "Back".to_owned()], 1);
        panel.extend(vec![("picked".to_owned(), false)]);
        let lines = panel.into_lines();
        let expected = [
            ("plain", false),
            ("a problem", true),
            ("", false),
            ("built", true),
            ("  Send", false),
            ("> Back", true),
            ("picked", false),
        ];
        let got: Vec<(&str, bool)> = lines.iter().map(|(l, s)| (l.as_str(), *s)).collect();
        assert_eq!(got, expected);
    }
}
