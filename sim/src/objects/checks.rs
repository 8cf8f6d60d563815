//! Validation helpers shared by every object kind: each problem is added to an `Issues` list
//! under the object's name (`solids[3]`, `platforms[0].path[2]`), in the one message style that
//! `tether check` and the game's error screen show.

use super::super::level::{LevelIssue, RectDef, ShapeDef, P};

/// Coordinates beyond this are almost surely a typo and would cost float precision.
pub const MAX_COORD_M: f32 = 10_000.0;
/// Most points of one convex polygon.
pub const MAX_POLYGON_POINTS: usize = 32;

/// The problems found so far, each about one object.
#[derive(Default)]
pub struct Issues(pub Vec<LevelIssue>);

impl Issues {
    pub fn add(&mut self, object: &str, message: impl Into<String>) {
        self.0.push(LevelIssue {
            object: object.to_string(),
            message: message.into(),
        });
    }

    /// A finite number within the coordinate limit.
    pub fn number(&mut self, object: &str, what: &str, value: f32) -> bool {
        if !value.is_finite() {
            self.add(object, format!("{what} is not a finite number ({value})"));
            false
        } else if value.abs() > MAX_COORD_M {
            self.add(
                object,
                format!("{what} = {value} is beyond ±{MAX_COORD_M} m"),
            );
            false
        } else {
            true
        }
    }

    pub fn point(&mut self, object: &str, p: P) -> bool {
        self.number(object, "x", p.0) & self.number(object, "y", p.1)
    }

    pub fn positive(&mut self, object: &str, what: &str, value: f32) -> bool {
        if !self.number(object, what, value) {
            return false;
        }
        if value <= 0.0 {
            self.add(object, format!("{what} must be positive, got {value}"));
            return false;
        }
        true
    }

    /// A finite number in `[min, max]` (units in `what`).
    pub fn in_range(&mut self, object: &str, what: &str, value: f32, min: f32, max: f32) -> bool {
        if !value.is_finite() || value < min || value > max {
            self.add(
                object,
                format!("{what} must be between {min} and {max}, got {value}"),
            );
            return false;
        }
        true
    }

    pub fn rect(&mut self, object: &str, rect: &RectDef) -> bool {
        let corners_ok = self.point(object, rect.min) & self.point(object, rect.max);
        if corners_ok && (rect.max.0 <= rect.min.0 || rect.max.1 <= rect.min.1) {
            self.add(
                object,
                "has a non-positive size: max must be greater than min in x and y",
            );
            return false;
        }
        corners_ok
    }

    pub fn shape(&mut self, object: &str, shape: &ShapeDef) -> bool {
        match shape {
            ShapeDef::Box {
                center,
                half_extents,
                rotation_deg,
            } => {
                self.point(object, *center)
                    & self.positive(object, "half_extents.x", half_extents.0)
                    & self.positive(object, "half_extents.y", half_extents.1)
                    & self.number(object, "rotation_deg", *rotation_deg)
            }
            ShapeDef::Circle { center, radius } => {
                self.point(object, *center) & self.positive(object, "radius", *radius)
            }
            ShapeDef::Polygon { points } => {
                if points.len() < 3 {
                    let n = points.len();
                    self.add(
                        object,
                        format!("a polygon needs at least 3 points, got {n}"),
                    );
                    return false;
                }
                if points.len() > MAX_POLYGON_POINTS {
                    let n = points.len();
                    self.add(
                        object,
                        format!("has {n} points, more than the limit of {MAX_POLYGON_POINTS}"),
                    );
                    return false;
                }
                let mut all_finite = true;
                for (j, p) in points.iter().enumerate() {
                    all_finite &= self.point(&format!("{object}.points[{j}]"), *p);
                }
                if !all_finite {
                    return false;
                }
                match check_convex_simple(points) {
                    Ok(()) => true,
                    Err(problem) => {
                        self.add(object, problem.to_string());
                        false
                    }
                }
            }
        }
    }
}

/// Why a polygon is not convex and simple, by the points where it fails (indices into its list).
#[derive(Clone, Debug, PartialEq)]
pub enum PolygonProblem {
    SamePoint { first: usize, second: usize },
    Collinear { points: [usize; 3] },
    TurnsBack { at: usize },
    SelfIntersecting { winds: f64 },
}

impl std::fmt::Display for PolygonProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolygonProblem::SamePoint { first, second } => {
                write!(f, "points {first} and {second} are the same point")
            }
            PolygonProblem::Collinear { points: [a, b, c] } => {
                write!(
                    f,
                    "is not strictly convex: points {a}, {b}, {c} are collinear"
                )
            }
            PolygonProblem::TurnsBack { at } => {
                write!(f, "is not convex: it turns the other way at point {at}")
            }
            PolygonProblem::SelfIntersecting { winds } => {
                write!(
                    f,
                    "is self-intersecting: its outline winds {winds:.0} times"
                )
            }
        }
    }
}

impl std::error::Error for PolygonProblem {}

/// A polygon is accepted when every turn goes the same way, no turn is degenerate, and it winds
/// exactly once (which rules out self-intersecting stars whose turns all agree).
pub fn check_convex_simple(points: &[P]) -> Result<(), PolygonProblem> {
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
            return Err(PolygonProblem::SamePoint {
                first: i,
                second: (i + 1) % n,
            });
        }
        let cross = ab.perp_dot(bc);
        let scale = ab.length() * bc.length();
        if cross.abs() <= 1e-6 * scale {
            return Err(PolygonProblem::Collinear {
                points: [i, (i + 1) % n, (i + 2) % n],
            });
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return Err(PolygonProblem::TurnsBack { at: (i + 1) % n });
        }
        total_turn_rad += libm::atan2(cross as f64, ab.dot(bc) as f64).abs();
    }
    let turns = total_turn_rad / std::f64::consts::TAU;
    if (turns - 1.0).abs() > 1e-3 {
        return Err(PolygonProblem::SelfIntersecting { winds: turns });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(points: &[(f32, f32)]) -> Result<(), PolygonProblem> {
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
        assert_eq!(concave, Err(PolygonProblem::TurnsBack { at: 2 }));
        let collinear = poly(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 1.0)]);
        assert_eq!(
            collinear.unwrap_err().to_string(),
            "is not strictly convex: points 0, 1, 2 are collinear"
        );
        // A pentagram: every turn agrees, but it winds twice.
        let star: Vec<(f32, f32)> = (0..5)
            .map(|k| {
                let a = (k * 2) as f32 * std::f32::consts::TAU / 5.0;
                (a.cos(), a.sin())
            })
            .collect();
        let star = poly(&star).unwrap_err();
        assert!(
            matches!(star, PolygonProblem::SelfIntersecting { winds } if (winds - 2.0).abs() < 1e-3),
            "{star:?}"
        );
        assert_eq!(
            star.to_string(),
            "is self-intersecting: its outline winds 2 times"
        );
    }
}
