//! Level definitions as authors write them in RON, and their validation.
//!
//! Parsing and validation are pure: the caller reads the file and passes its text and name.
//! Syntax and type errors carry `FILE:LINE:COL`; semantic errors name the object they are about.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::math::Vec2;

/// Most objects of one kind a level may hold; keeps load and step time bounded.
pub const MAX_SOLIDS: usize = 2000;
pub const MAX_HAZARDS: usize = 1000;
pub const MAX_GRAPPLE_POINTS: usize = 500;
pub const MAX_CHECKPOINTS: usize = 100;
pub const MAX_POLYGON_POINTS: usize = 32;
/// Coordinates beyond this are almost surely a typo and would cost float precision.
pub const MAX_COORD_M: f32 = 10_000.0;

/// A RON syntax or type error, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct RonError {
    pub file: String,
    /// 1-based; 0 when the error has no position (a whole-file problem).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl RonError {
    /// Deserializes `text` as `T`, mapping ron's spanned error to `file:line:col`.
    pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RonError> {
        ron::Options::default()
            .from_str::<T>(text)
            .map_err(|err| RonError {
                file: file.to_string(),
                line: err.span.start.line,
                column: err.span.start.col,
                message: err.code.to_string(),
            })
    }
}

impl fmt::Display for RonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

/// One semantic problem, about one object of the level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelIssue {
    /// Which object, e.g. `solids[3]` or `spawn`.
    pub object: String,
    pub message: String,
}

/// Why a level could not be used.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelError {
    Syntax(RonError),
    Semantic {
        file: String,
        issues: Vec<LevelIssue>,
    },
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::Syntax(err) => write!(f, "{err}"),
            LevelError::Semantic { file, issues } => {
                for (i, issue) in issues.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{file}: {}: {}", issue.object, issue.message)?;
                }
                Ok(())
            }
        }
    }
}

/// A point or extent in metres, written `(x, y)` in RON. World y points up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct P(pub f32, pub f32);

impl P {
    pub fn v(self) -> Vec2 {
        Vec2::new(self.0, self.1)
    }
}

/// A shape in world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShapeDef {
    /// A rectangle, optionally rotated counter-clockwise about its centre.
    Box {
        center: P,
        half_extents: P,
        #[serde(default)]
        rotation_deg: f32,
    },
    Circle {
        center: P,
        radius: f32,
    },
    /// A convex polygon, points in order (either winding).
    Polygon {
        points: Vec<P>,
    },
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolidDef {
    pub shape: ShapeDef,
    /// Whether the hook sticks to this solid. A non-hookable solid bounces the hook back.
    #[serde(default = "yes")]
    pub hookable: bool,
}

/// An axis-aligned rectangle given by its corners.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RectDef {
    pub min: P,
    pub max: P,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Level")]
pub struct LevelDef {
    pub name: String,
    /// Where the centre of the player starts.
    pub spawn: P,
    pub goal: RectDef,
    /// Overrides the tuning's rope length for this level.
    #[serde(default)]
    pub max_rope_length_m: Option<f32>,
    /// Height of the view in metres; sets the camera zoom to suit the level's scale.
    #[serde(default = "default_view_height_m")]
    pub view_height_m: f32,
    /// Falling below this y kills the player (a floor under every pit).
    #[serde(default = "default_kill_y_m")]
    pub kill_y_m: f32,
    #[serde(default)]
    pub solids: Vec<SolidDef>,
    #[serde(default)]
    pub hazards: Vec<ShapeDef>,
    /// Touching a checkpoint's rectangle makes it the respawn point (its centre).
    #[serde(default)]
    pub checkpoints: Vec<RectDef>,
    #[serde(default)]
    pub grapple_points: Vec<P>,
}

fn default_view_height_m() -> f32 {
    18.0
}
fn default_kill_y_m() -> f32 {
    -50.0
}

impl LevelDef {
    /// Parses a level and checks everything that does not need geometry queries.
    /// (`World::from_level` adds the checks that do, such as the spawn inside a solid.)
    pub fn from_ron(text: &str, file: &str) -> Result<LevelDef, LevelError> {
        let level: LevelDef = RonError::parse(text, file).map_err(LevelError::Syntax)?;
        let issues = level.issues();
        if issues.is_empty() {
            Ok(level)
        } else {
            Err(LevelError::Semantic {
                file: file.to_string(),
                issues,
            })
        }
    }

    /// Every semantic problem of the level that can be seen without building its geometry.
    pub fn issues(&self) -> Vec<LevelIssue> {
        let mut out = Vec::new();
        let mut issue = |object: String, message: String| out.push(LevelIssue { object, message });

        if self.name.trim().is_empty() {
            issue("name".into(), "is empty".into());
        }
        check_point(&mut issue, "spawn", self.spawn);
        check_rect(&mut issue, "goal", &self.goal);
        if let Some(len) = self.max_rope_length_m {
            if !len.is_finite() || len <= 0.0 {
                issue(
                    "max_rope_length_m".into(),
                    format!("must be a positive number, got {len}"),
                );
            }
        }
        if !self.view_height_m.is_finite() || !(2.0..=500.0).contains(&self.view_height_m) {
            issue(
                "view_height_m".into(),
                format!("must be between 2 and 500, got {}", self.view_height_m),
            );
        }
        if !self.kill_y_m.is_finite() {
            issue("kill_y_m".into(), "is not a finite number".into());
        }
        let limits = [
            ("solids", self.solids.len(), MAX_SOLIDS),
            ("hazards", self.hazards.len(), MAX_HAZARDS),
            (
                "grapple_points",
                self.grapple_points.len(),
                MAX_GRAPPLE_POINTS,
            ),
            ("checkpoints", self.checkpoints.len(), MAX_CHECKPOINTS),
        ];
        for (name, count, max) in limits {
            if count > max {
                issue(
                    name.into(),
                    format!("has {count} objects, more than the limit of {max}"),
                );
            }
        }
        for (i, solid) in self.solids.iter().enumerate() {
            check_shape(&mut issue, &format!("solids[{i}]"), &solid.shape);
        }
        for (i, hazard) in self.hazards.iter().enumerate() {
            check_shape(&mut issue, &format!("hazards[{i}]"), hazard);
        }
        for (i, rect) in self.checkpoints.iter().enumerate() {
            check_rect(&mut issue, &format!("checkpoints[{i}]"), rect);
        }
        for (i, point) in self.grapple_points.iter().enumerate() {
            check_point(&mut issue, &format!("grapple_points[{i}]"), *point);
        }
        out
    }
}

fn check_number(
    issue: &mut impl FnMut(String, String),
    object: &str,
    what: &str,
    value: f32,
) -> bool {
    if !value.is_finite() {
        issue(
            object.into(),
            format!("{what} is not a finite number ({value})"),
        );
        false
    } else if value.abs() > MAX_COORD_M {
        issue(
            object.into(),
            format!("{what} = {value} is beyond ±{MAX_COORD_M} m"),
        );
        false
    } else {
        true
    }
}

fn check_point(issue: &mut impl FnMut(String, String), object: &str, p: P) -> bool {
    check_number(issue, object, "x", p.0) & check_number(issue, object, "y", p.1)
}

fn check_positive(issue: &mut impl FnMut(String, String), object: &str, what: &str, value: f32) {
    if check_number(issue, object, what, value) && value <= 0.0 {
        issue(
            object.into(),
            format!("{what} must be positive, got {value}"),
        );
    }
}

fn check_rect(issue: &mut impl FnMut(String, String), object: &str, rect: &RectDef) {
    let corners_ok = check_point(issue, object, rect.min) & check_point(issue, object, rect.max);
    if corners_ok && (rect.max.0 <= rect.min.0 || rect.max.1 <= rect.min.1) {
        issue(
            object.into(),
            "has a non-positive size: max must be greater than min in x and y".into(),
        );
    }
}

fn check_shape(issue: &mut impl FnMut(String, String), object: &str, shape: &ShapeDef) {
    match shape {
        ShapeDef::Box {
            center,
            half_extents,
            rotation_deg,
        } => {
            check_point(issue, object, *center);
            check_positive(issue, object, "half_extents.x", half_extents.0);
            check_positive(issue, object, "half_extents.y", half_extents.1);
            check_number(issue, object, "rotation_deg", *rotation_deg);
        }
        ShapeDef::Circle { center, radius } => {
            check_point(issue, object, *center);
            check_positive(issue, object, "radius", *radius);
        }
        ShapeDef::Polygon { points } => {
            if points.len() < 3 {
                issue(
                    object.into(),
                    format!("a polygon needs at least 3 points, got {}", points.len()),
                );
                return;
            }
            if points.len() > MAX_POLYGON_POINTS {
                issue(
                    object.into(),
                    format!(
                        "has {} points, more than the limit of {MAX_POLYGON_POINTS}",
                        points.len()
                    ),
                );
                return;
            }
            let mut all_finite = true;
            for (j, p) in points.iter().enumerate() {
                all_finite &= check_point(issue, &format!("{object}.points[{j}]"), *p);
            }
            if all_finite {
                if let Err(message) = check_convex_simple(points) {
                    issue(object.into(), message);
                }
            }
        }
    }
}

/// A polygon is accepted when every turn goes the same way, no turn is degenerate, and it winds
/// exactly once (which rules out self-intersecting stars whose turns all agree).
fn check_convex_simple(points: &[P]) -> Result<(), String> {
    let n = points.len();
    let mut sign = 0.0f32;
    let mut total_turn_rad = 0.0f64;
    for i in 0..n {
        let a = points[i].v();
        let b = points[(i + 1) % n].v();
        let c = points[(i + 2) % n].v();
        let ab = b - a;
        let bc = c - b;
        if ab.length_squared() < 1e-10 {
            return Err(format!("points {i} and {} are the same point", (i + 1) % n));
        }
        let cross = ab.perp_dot(bc);
        let scale = ab.length() * bc.length();
        if cross.abs() <= 1e-6 * scale {
            return Err(format!(
                "is not strictly convex: points {i}, {}, {} are collinear",
                (i + 1) % n,
                (i + 2) % n
            ));
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return Err(format!(
                "is not convex: it turns the other way at point {}",
                (i + 1) % n
            ));
        }
        total_turn_rad += libm::atan2(cross as f64, ab.dot(bc) as f64).abs();
    }
    let turns = total_turn_rad / std::f64::consts::TAU;
    if (turns - 1.0).abs() > 1e-3 {
        return Err(format!(
            "is self-intersecting: its outline winds {turns:.0} times"
        ));
    }
    Ok(())
}

/// The ordered list of level files, relative to the levels folder. The browser cannot list a
/// folder, so the order lives in `levels/index.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelIndex {
    pub levels: Vec<String>,
}

impl LevelIndex {
    pub fn from_ron(text: &str, file: &str) -> Result<LevelIndex, RonError> {
        let index: LevelIndex = RonError::parse(text, file)?;
        if index.levels.is_empty() {
            return Err(RonError {
                file: file.into(),
                line: 0,
                column: 0,
                message: "lists no levels".into(),
            });
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(points: &[(f32, f32)]) -> Result<(), String> {
        check_convex_simple(&points.iter().map(|&(x, y)| P(x, y)).collect::<Vec<_>>())
    }

    #[test]
    fn convex_polygons_pass_either_winding() {
        assert!(poly(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]).is_ok());
        assert!(poly(&[(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0)]).is_ok());
    }

    #[test]
    fn concave_collinear_and_self_intersecting_polygons_fail() {
        let concave = poly(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (2.0, 2.0), (0.0, 2.0)]);
        assert!(concave.unwrap_err().contains("not convex"));
        let collinear = poly(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 1.0)]);
        assert!(collinear.unwrap_err().contains("collinear"));
        // A pentagram: every turn agrees, but it winds twice.
        let star: Vec<(f32, f32)> = (0..5)
            .map(|k| {
                let a = (k * 2) as f32 * std::f32::consts::TAU / 5.0;
                (a.cos(), a.sin())
            })
            .collect();
        assert!(poly(&star).unwrap_err().contains("self-intersecting"));
    }
}
