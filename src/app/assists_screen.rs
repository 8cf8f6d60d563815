//! The assists screen (Celeste-style, no judgement): game speed 50–100 %, invincibility, a
//! stronger aim assist, and a preview of where letting go of the rope would fly. Also the
//! release-trajectory preview itself and the note shown with the time. The screen also holds
//! the one comfort setting, screen shake, which is not an assist (it changes nothing in play).

use super::input::action::Action;
use super::input::mapping::ActionFrame;
use super::settings::Comfort;
use crate::sim::geometry::groups;
use crate::sim::math::Vec2;
use crate::sim::{Assists, World, TICK_DT_S};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssistsOutcome {
    Stay,
    Changed,
    Back,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssistsScreen {
    pub selected: usize,
}

const ROWS: usize = 6;

impl AssistsScreen {
    pub fn update(
        &mut self,
        actions: &ActionFrame,
        assists: &mut Assists,
        comfort: &mut Comfort,
    ) -> AssistsOutcome {
        if actions.pressed(Action::MenuBack) {
            return AssistsOutcome::Back;
        }
        if actions.pressed(Action::MenuDown) {
            self.selected = (self.selected + 1) % ROWS;
        }
        if actions.pressed(Action::MenuUp) {
            self.selected = (self.selected + ROWS - 1) % ROWS;
        }
        let step = i32::from(actions.pressed(Action::MenuRight))
            - i32::from(actions.pressed(Action::MenuLeft));
        let confirm = actions.pressed(Action::MenuConfirm);
        let before = (*assists, *comfort);
        match self.selected {
            // Enter steps the speed down and wraps from the slowest back to full speed.
            0 if confirm && step == 0 => {
                if assists.game_speed_percent <= crate::sim::assists::MIN_GAME_SPEED_PERCENT {
                    assists.game_speed_percent = 100;
                } else {
                    assists.change_speed(-1);
                }
            }
            0 => assists.change_speed(step),
            1 if confirm || step != 0 => assists.invincible = !assists.invincible,
            2 if confirm || step != 0 => assists.strong_aim_assist = !assists.strong_aim_assist,
            3 if confirm || step != 0 => assists.trajectory_preview = !assists.trajectory_preview,
            4 if confirm || step != 0 => comfort.screen_shake = !comfort.screen_shake,
            5 if confirm => return AssistsOutcome::Back,
            _ => {}
        }
        if (*assists, *comfort) != before {
            AssistsOutcome::Changed
        } else {
            AssistsOutcome::Stay
        }
    }

    pub fn draw(&self, assists: &Assists, comfort: &Comfort) {
        let on = |b: bool| if b { "on" } else { "off" };
        let rows = [
            format!("Game speed: < {}% >", assists.game_speed_percent),
            format!("Invincibility: {}", on(assists.invincible)),
            format!("Stronger aim assist: {}", on(assists.strong_aim_assist)),
            format!(
                "Release trajectory preview: {}",
                on(assists.trajectory_preview)
            ),
            format!("Screen shake: {}", on(comfort.screen_shake)),
            "Back".to_owned(),
        ];
        let mut lines: Vec<(String, bool)> = rows
            .into_iter()
            .enumerate()
            .map(|(i, row)| {
                let marker = if i == self.selected { "> " } else { "  " };
                (format!("{marker}{row}"), i == self.selected)
            })
            .collect();
        lines.push((String::new(), false));
        lines.push((
            "Assists are there to help anyone finish. They are saved with replays and".into(),
            false,
        ));
        lines.push((
            "shown with your time. Invincibility starts with the next attempt (R).".into(),
            false,
        ));
        super::render::hud::draw_panel("Assists", &lines, super::palette::GOAL);
    }
}

/// How far ahead the release preview looks, and how many points it draws.
const PREVIEW_S: f32 = 1.2;
const PREVIEW_POINTS: usize = 24;

/// Where the player would fly if they let go now: a ballistic arc from their position and
/// velocity under gravity, stopped at the first solid it meets.
pub fn release_trajectory(world: &World) -> Vec<Vec2> {
    let gravity = Vec2::new(0.0, -world.tuning().player.gravity_m_per_s2);
    let dt = PREVIEW_S / PREVIEW_POINTS as f32;
    // Finer steps than the points, so the arc bends as the simulation's would.
    let substeps = ((dt / TICK_DT_S).ceil() as usize).max(1);
    let h = dt / substeps as f32;
    let (mut pos, mut vel) = (world.player().pos, world.player().vel);
    let mut points = Vec::with_capacity(PREVIEW_POINTS);
    for _ in 0..PREVIEW_POINTS {
        let start = pos;
        for _ in 0..substeps {
            vel += gravity * h;
            pos += vel * h;
        }
        if let Some(hit) = world.geometry().cast_ray(start, pos - start, groups::SOLID) {
            points.push(hit.point);
            break;
        }
        points.push(pos);
    }
    points
}

/// Draws the release preview in world space (the camera must be the world's).
pub fn draw_release_trajectory(world: &World) {
    use macroquad::shapes::draw_circle;
    let points = release_trajectory(world);
    let n = points.len().max(1) as f32;
    for (i, p) in points.iter().enumerate() {
        let fade = 1.0 - i as f32 / n;
        let color = super::palette::GOAL.with_alpha(0.25 + 0.6 * fade);
        draw_circle(p.x, p.y, 0.06 + 0.05 * fade, color);
    }
}

/// The assists in use, drawn under the HUD's timer (top left), so the time is never shown
/// without them.
pub fn draw_assists_note(assists: &Assists) {
    if !assists.any() {
        return;
    }
    use super::render::hud::ui_scale;
    macroquad::camera::set_default_camera();
    let k = ui_scale();
    let size = (18.0 * k).max(11.0);
    let text = format!("assists: {}", assists.describe());
    let y = macroquad::window::screen_height() - size * 0.8;
    super::render::text::draw_text(&text, 16.0 * k, y, size, super::palette::TEXT_DIM.color());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::input::{ActionMapper, Bindings, RawFrame};
    use macroquad::input::KeyCode;

    fn press(key: KeyCode) -> ActionFrame {
        ActionMapper::default().map(
            &Bindings::default(),
            &RawFrame {
                keys_down: vec![key],
                keys_pressed: vec![key],
                ..RawFrame::default()
            },
        )
    }

    #[test]
    fn the_menu_changes_speed_and_toggles_assists() {
        let mut screen = AssistsScreen::default();
        let mut a = Assists::default();
        let mut c = Comfort::default();
        assert_eq!(
            screen.update(&press(KeyCode::Left), &mut a, &mut c),
            AssistsOutcome::Changed
        );
        screen.update(&press(KeyCode::Left), &mut a, &mut c);
        assert_eq!(a.game_speed_percent, 80);
        assert_eq!(
            screen.update(&press(KeyCode::Right), &mut a, &mut c),
            AssistsOutcome::Changed
        );
        assert_eq!(a.game_speed_percent, 90);
        screen.update(&press(KeyCode::Down), &mut a, &mut c);
        screen.update(&press(KeyCode::Enter), &mut a, &mut c);
        assert!(a.invincible);
        screen.update(&press(KeyCode::Down), &mut a, &mut c);
        screen.update(&press(KeyCode::Down), &mut a, &mut c);
        screen.update(&press(KeyCode::Enter), &mut a, &mut c);
        assert!(a.trajectory_preview && !a.strong_aim_assist);
        // Screen shake: on by default, toggled off, saved with the settings (a change).
        assert!(c.screen_shake);
        screen.update(&press(KeyCode::Down), &mut a, &mut c);
        assert_eq!(
            screen.update(&press(KeyCode::Enter), &mut a, &mut c),
            AssistsOutcome::Changed
        );
        assert!(!c.screen_shake);
        assert_eq!(
            a,
            Assists {
                game_speed_percent: 90,
                invincible: true,
                trajectory_preview: true,
                ..Default::default()
            },
            "screen shake is not an assist: no assist changed"
        );
        screen.update(&press(KeyCode::Down), &mut a, &mut c);
        assert_eq!(
            screen.update(&press(KeyCode::Enter), &mut a, &mut c),
            AssistsOutcome::Back
        );
        assert_eq!(
            screen.update(&press(KeyCode::Escape), &mut a, &mut c),
            AssistsOutcome::Back
        );
    }
}
