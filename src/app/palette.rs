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
pub const SOLID_HOOKABLE: Rgb = Rgb(132, 104, 78);
pub const SOLID_HOOKABLE_EDGE: Rgb = Rgb(176, 142, 104);
pub const SOLID_PLAIN: Rgb = Rgb(78, 88, 110);
pub const SOLID_PLAIN_EDGE: Rgb = Rgb(116, 128, 156);
pub const HAZARD: Rgb = Rgb(214, 52, 70);
pub const GOAL: Rgb = Rgb(70, 220, 130);
pub const CHECKPOINT: Rgb = Rgb(150, 110, 230);
pub const CHECKPOINT_REACHED: Rgb = Rgb(200, 170, 255);
pub const GRAPPLE_POINT: Rgb = Rgb(250, 222, 90);
/// The rope: a warm orange no other object uses.
pub const ROPE: Rgb = Rgb(255, 150, 30);
pub const HOOK: Rgb = Rgb(230, 230, 240);
/// The player: a cyan no other object uses.
pub const PLAYER: Rgb = Rgb(60, 210, 255);
pub const PLAYER_EYE: Rgb = Rgb(15, 20, 30);
pub const RETICLE_OK: Rgb = Rgb(120, 255, 160);
pub const RETICLE_NO: Rgb = Rgb(255, 90, 90);
pub const RETICLE_OUT_OF_RANGE: Rgb = Rgb(150, 150, 160);
pub const TEXT: Rgb = Rgb(235, 238, 245);
pub const TEXT_DIM: Rgb = Rgb(150, 156, 175);
pub const ERROR_TEXT: Rgb = Rgb(255, 140, 140);
