//! Every colour the game draws with, in one place. The render smoke tests look for the rope's and
//! the player's colours in screenshots, so they read them from here too.

/// An sRGB colour as bytes, convertible to macroquad's `Color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn color(self) -> macroquad::color::Color {
        macroquad::color::Color::from_rgba(self.0, self.1, self.2, 255)
    }
    pub fn with_alpha(self, alpha: f32) -> macroquad::color::Color {
        let mut c = self.color();
        c.a = alpha;
        c
    }
}

pub const BACKGROUND: Rgb = Rgb(20, 24, 38);
pub const BACKGROUND_GRID: Rgb = Rgb(30, 35, 54);
/// Wood (hookable): warm planks with darker grain lines and seams.
pub const WOOD: Rgb = Rgb(164, 118, 72);
pub const WOOD_GRAIN: Rgb = Rgb(128, 88, 52);
pub const WOOD_SEAM: Rgb = Rgb(78, 52, 32);
/// Steel (the hook bounces off): cool grey-blue plates with a bevel and rivets.
pub const STEEL: Rgb = Rgb(92, 104, 126);
pub const STEEL_LIGHT: Rgb = Rgb(150, 164, 188);
pub const STEEL_DARK: Rgb = Rgb(50, 58, 74);
pub const STEEL_RIVET: Rgb = Rgb(196, 206, 222);
/// Hazards: red and near-black warning stripes, pale spikes, a red glow.
pub const HAZARD: Rgb = Rgb(214, 52, 70);
pub const HAZARD_DARK: Rgb = Rgb(52, 20, 30);
pub const SPIKE: Rgb = Rgb(150, 140, 150);
pub const SPIKE_TIP: Rgb = Rgb(245, 235, 235);
pub const GOAL: Rgb = Rgb(70, 220, 130);
pub const CHECKPOINT: Rgb = Rgb(150, 110, 230);
pub const CHECKPOINT_REACHED: Rgb = Rgb(200, 170, 255);
/// Switch plates: lime, apart from the goal's green and the rings' yellow; brighter when held.
pub const SWITCH: Rgb = Rgb(150, 185, 60);
pub const SWITCH_PRESSED: Rgb = Rgb(215, 255, 110);
/// Vines: stem and leaves.
pub const VINE: Rgb = Rgb(70, 120, 50);
pub const VINE_LEAF: Rgb = Rgb(120, 180, 70);
/// Paths of moving platforms, drawn faintly behind them.
/// A cracked ring: a dull, rusty gold.
pub const CRACKED_RING: Rgb = Rgb(190, 150, 90);
/// Cloth: banners (deep red with gold stripes), flags (blue and white), nets (pale rope).
pub const BANNER: Rgb = Rgb(170, 40, 52);
pub const BANNER_STRIPE: Rgb = Rgb(226, 180, 70);
pub const FLAG: Rgb = Rgb(50, 110, 200);
pub const FLAG_STRIPE: Rgb = Rgb(230, 232, 240);
pub const NET: Rgb = Rgb(214, 200, 160);
/// Streaks of wind.
pub const WIND_STREAK: Rgb = Rgb(210, 230, 255);
pub const TRACK: Rgb = Rgb(120, 130, 160);
pub const GRAPPLE_POINT: Rgb = Rgb(250, 222, 90);
pub const GRAPPLE_POINT_DARK: Rgb = Rgb(140, 110, 40);
/// The rope: a warm orange no other object uses (its fibres' main tone).
pub const ROPE: Rgb = Rgb(255, 150, 30);
/// The rope's twist lines and shaded edges.
pub const ROPE_DARK: Rgb = Rgb(170, 88, 14);
pub const ROPE_LIGHT: Rgb = Rgb(255, 200, 120);
pub const HOOK: Rgb = Rgb(230, 230, 240);
pub const HOOK_DARK: Rgb = Rgb(110, 116, 132);
/// The player: a cyan no other object uses.
/// Medals, worst to best, and levels not open yet.
pub const MEDAL_BRONZE: Rgb = Rgb(205, 127, 60);
pub const MEDAL_SILVER: Rgb = Rgb(196, 204, 216);
pub const MEDAL_GOLD: Rgb = Rgb(255, 206, 60);
pub const MEDAL_AUTHOR: Rgb = Rgb(70, 226, 170);
pub const LOCKED: Rgb = Rgb(84, 90, 112);
/// Signs: a weathered board with pale lettering.
pub const SIGN_BOARD: Rgb = Rgb(112, 80, 50);
pub const SIGN_EDGE: Rgb = Rgb(70, 48, 30);
pub const SIGN_TEXT: Rgb = Rgb(246, 236, 214);
/// A control's name on a sign, in the colour of the reticle that marks where to aim.
pub const SIGN_CONTROL: Rgb = Rgb(255, 214, 120);
pub const PLAYER: Rgb = Rgb(60, 210, 255);
pub const PLAYER_DARK: Rgb = Rgb(24, 120, 170);
pub const PLAYER_EYE: Rgb = Rgb(15, 20, 30);
pub const DUST: Rgb = Rgb(200, 190, 175);
pub const SPARK: Rgb = Rgb(255, 230, 140);
pub const RETICLE_OK: Rgb = Rgb(120, 255, 160);
pub const RETICLE_NO: Rgb = Rgb(255, 90, 90);
pub const RETICLE_OUT_OF_RANGE: Rgb = Rgb(150, 150, 160);
pub const TEXT: Rgb = Rgb(235, 238, 245);
pub const TEXT_DIM: Rgb = Rgb(150, 156, 175);
pub const ERROR_TEXT: Rgb = Rgb(255, 140, 140);
pub const PANEL: Rgb = Rgb(28, 32, 50);
pub const PANEL_EDGE: Rgb = Rgb(90, 100, 140);

/// The names the browser test reads to find the level on screen (`LEVEL_COLOURS` in
/// scripts/web_test.py): the materials' main tones under their old names. The test below keeps
/// them equal to the material colours.
pub const SOLID_HOOKABLE: Rgb = Rgb(164, 118, 72);
pub const SOLID_HOOKABLE_EDGE: Rgb = Rgb(78, 52, 32);
pub const SOLID_PLAIN: Rgb = Rgb(92, 104, 126);
pub const SOLID_PLAIN_EDGE: Rgb = Rgb(50, 58, 74);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_tests_level_colours_are_the_materials() {
        assert_eq!(SOLID_HOOKABLE, WOOD);
        assert_eq!(SOLID_HOOKABLE_EDGE, WOOD_SEAM);
        assert_eq!(SOLID_PLAIN, STEEL);
        assert_eq!(SOLID_PLAIN_EDGE, STEEL_DARK);
    }
}
