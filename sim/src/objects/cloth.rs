//! Cloth: banners, flags and nets hung in the level, pinned at chosen grid points. The
//! simulation is `sim/cloth.rs`; this is the definition, its checks and its per-tick step (wind
//! from the zones, pushed by the player and the player's rope). Cloth is scenery the player
//! moves through: it never holds the player back.

use serde::{Deserialize, Serialize};

use super::{Issues, LevelIds, ObjectDef};
use crate::cloth::Cloth;
use crate::shape::P;

/// Most cloths a level may hold.
pub const MAX_CLOTHS: usize = 16;
/// Particles per side, and in all (a 48 × 48 cloth costs as much as several banners).
pub const MIN_CLOTH_SIDE: u32 = 2;
pub const MAX_CLOTH_SIDE: u32 = 64;
pub const MAX_CLOTH_PARTICLES: u32 = 48 * 48;
/// Particle spacing allowed.
pub const MIN_CLOTH_SPACING_M: f32 = 0.05;
pub const MAX_CLOTH_SPACING_M: f32 = 1.0;
/// A tear limit must leave a thread room to stretch before it tears.
pub const MIN_TEAR_STRETCH: f32 = 1.05;
pub const MAX_TEAR_STRETCH: f32 = 10.0;
/// Distance from the player's centre within which cloth is pushed aside.
pub(crate) const PLAYER_PUSH_RADIUS_M: f32 = 0.5;

/// How a cloth is drawn (the simulation is the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClothLook {
    #[default]
    Banner,
    Flag,
    /// Threads only: a net you see through.
    Net,
}

/// Which particles are pinned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PinsDef {
    /// The whole top row (a banner hung from a beam).
    TopRow,
    /// The two top corners (a sagging net).
    TopCorners,
    /// The whole left column (a flag on a pole).
    LeftColumn,
    /// These (column, row) points, row 0 at the top.
    At(Vec<(u32, u32)>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClothDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where the top-left particle hangs.
    pub top_left: P,
    /// Particles across and down.
    pub columns: u32,
    pub rows: u32,
    pub spacing_m: f32,
    pub pins: PinsDef,
    /// A thread stretched past this × its rest length tears (none: the cloth never tears).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tears_at_stretch: Option<f32>,
    #[serde(default)]
    pub look: ClothLook,
}

impl ClothDef {
    /// The pinned (column, row) points.
    pub fn pin_points(&self) -> Vec<(u32, u32)> {
        let (columns, rows) = (self.columns, self.rows);
        match &self.pins {
            PinsDef::TopRow => (0..columns).map(|c| (c, 0)).collect(),
            PinsDef::TopCorners => vec![(0, 0), (columns.saturating_sub(1), 0)],
            PinsDef::LeftColumn => (0..rows).map(|r| (0, r)).collect(),
            PinsDef::At(points) => points.clone(),
        }
    }

    /// The cloth hanging flat, still.
    pub fn start(&self) -> Cloth {
        let pins: Vec<(usize, usize)> = self
            .pin_points()
            .iter()
            .map(|&(c, r)| (c as usize, r as usize))
            .collect();
        Cloth::new(
            self.top_left.v(),
            self.columns as usize,
            self.rows as usize,
            self.spacing_m,
            &pins,
            self.tears_at_stretch,
        )
    }
}

impl ObjectDef for ClothDef {
    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn check(&self, object: &str, _level: &dyn LevelIds, issues: &mut Issues) {
        issues.point(&format!("{object}.top_left"), self.top_left);
        let side = |issues: &mut Issues, what: &str, n: u32| {
            if !(MIN_CLOTH_SIDE..=MAX_CLOTH_SIDE).contains(&n) {
                issues.add(
                    object,
                    format!("{what} must be {MIN_CLOTH_SIDE} to {MAX_CLOTH_SIDE}, got {n}"),
                );
                false
            } else {
                true
            }
        };
        let sides_ok = side(issues, "columns", self.columns) & side(issues, "rows", self.rows);
        if sides_ok && self.columns * self.rows > MAX_CLOTH_PARTICLES {
            issues.add(
                object,
                format!(
                    "has {} × {} = {} particles, more than the limit of {MAX_CLOTH_PARTICLES}",
                    self.columns,
                    self.rows,
                    self.columns * self.rows
                ),
            );
        }
        issues.in_range(
            object,
            "spacing_m",
            self.spacing_m,
            MIN_CLOTH_SPACING_M,
            MAX_CLOTH_SPACING_M,
        );
        if let Some(stretch) = self.tears_at_stretch {
            issues.in_range(
                object,
                "tears_at_stretch",
                stretch,
                MIN_TEAR_STRETCH,
                MAX_TEAR_STRETCH,
            );
        }
        let pins = self.pin_points();
        if pins.is_empty() {
            issues.add(object, "has no pins: a cloth must hang from something");
        }
        for (k, &(c, r)) in pins.iter().enumerate() {
            if c >= self.columns || r >= self.rows {
                issues.add(
                    &format!("{object}.pins[{k}]"),
                    format!(
                        "({c}, {r}) is outside the cloth ({} columns × {} rows, counted from 0)",
                        self.columns, self.rows
                    ),
                );
            }
        }
    }
}
