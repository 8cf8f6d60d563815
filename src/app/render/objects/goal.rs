//! The goal: a glowing gate with light rising through it.

use macroquad::math::{vec2, Vec2 as MqVec2};
use macroquad::models::draw_mesh;
use macroquad::shapes::{draw_circle, draw_rectangle};

use crate::app::palette;
use crate::sim::level::RectDef;

/// The goal: a glowing gate with light rising through it.
pub fn draw(goal: &RectDef, time_s: f32) {
    let (w, h) = (goal.max.0 - goal.min.0, goal.max.1 - goal.min.1);
    let pulse = 0.5 + 0.5 * (time_s * 3.0).sin();
    // Light rising from the floor of the gate, fading upwards (and a little past its top).
    let g = palette::GOAL;
    let bottom = [g.0, g.1, g.2, (90.0 + 50.0 * pulse) as u8];
    let top = [g.0, g.1, g.2, 0];
    let corner = |x: f32, y: f32, c: [u8; 4]| macroquad::models::Vertex {
        position: macroquad::math::Vec3::new(x, y, 0.0),
        uv: MqVec2::ZERO,
        color: c,
        normal: macroquad::math::Vec4::ZERO,
    };
    draw_mesh(&macroquad::models::Mesh {
        vertices: vec![
            corner(goal.min.0, goal.min.1, bottom),
            corner(goal.max.0, goal.min.1, bottom),
            corner(goal.max.0, goal.max.1 + h * 0.3, top),
            corner(goal.min.0, goal.max.1 + h * 0.3, top),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
        texture: None,
    });
    // Rising motes, spaced by index and looping with time: the same at a given tick.
    for i in 0..10 {
        let fx = ((i * 37) % 10) as f32 / 10.0 + 0.05;
        let rise = (time_s * 0.6 + i as f32 * 0.137).fract();
        let p = vec2(goal.min.0 + fx * w, goal.min.1 + rise * h);
        draw_circle(p.x, p.y, 0.07, palette::GOAL.with_alpha(1.0 - rise));
    }
    let edge = palette::GOAL.color();
    let t = 0.12;
    draw_rectangle(goal.min.0 - t, goal.min.1, t, h, edge);
    draw_rectangle(goal.max.0, goal.min.1, t, h, edge);
    draw_rectangle(goal.min.0 - t, goal.max.1, w + 2.0 * t, t, edge);
}
