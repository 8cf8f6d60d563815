//! One object of any kind, owned: what the operations take out of a level, change and put back.
//! Every per-kind match of the editor that is not geometry lives here, exhaustive, so a new
//! kind fails to compile until the editor handles it.

use serde::de::DeserializeOwned;

use super::kinds::{Kind, ObjectRef};
use super::text;
use crate::sim::level::{
    CheckpointDef, ClothDef, FragileDef, HazardDef, LevelDef, PlatformDef, RectDef, RingDef,
    RonError, SignDef, SolidDef, SwitchDef, VineDef, WinchDef, WindDef,
};

/// One object's definition, of any kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    Goal(RectDef),
    Solid(SolidDef),
    Hazard(HazardDef),
    Checkpoint(CheckpointDef),
    Ring(RingDef),
    Platform(PlatformDef),
    Switch(SwitchDef),
    Winch(WinchDef),
    Vine(VineDef),
    Wind(WindDef),
    Fragile(FragileDef),
    Cloth(ClothDef),
    Sign(SignDef),
}

/// Runs `$body` with `$def` bound to the definition inside any `Object` variant.
macro_rules! each_def {
    ($object:expr, $def:ident => $body:expr) => {
        match $object {
            Object::Goal($def) => $body,
            Object::Solid($def) => $body,
            Object::Hazard($def) => $body,
            Object::Checkpoint($def) => $body,
            Object::Ring($def) => $body,
            Object::Platform($def) => $body,
            Object::Switch($def) => $body,
            Object::Winch($def) => $body,
            Object::Vine($def) => $body,
            Object::Wind($def) => $body,
            Object::Fragile($def) => $body,
            Object::Cloth($def) => $body,
            Object::Sign($def) => $body,
        }
    };
}

/// Runs `$body` with `$list` bound to the level's list of `$kind` (goal excluded: `$goal`).
macro_rules! each_list {
    ($level:expr, $kind:expr, $list:ident => $body:expr, $goal:expr) => {
        match $kind {
            Kind::Goal => $goal,
            Kind::Solid => {
                let $list = &mut $level.solids;
                $body
            }
            Kind::Hazard => {
                let $list = &mut $level.hazards;
                $body
            }
            Kind::Checkpoint => {
                let $list = &mut $level.checkpoints;
                $body
            }
            Kind::Ring => {
                let $list = &mut $level.grapple_points;
                $body
            }
            Kind::Platform => {
                let $list = &mut $level.platforms;
                $body
            }
            Kind::Switch => {
                let $list = &mut $level.switches;
                $body
            }
            Kind::Winch => {
                let $list = &mut $level.winches;
                $body
            }
            Kind::Vine => {
                let $list = &mut $level.vines;
                $body
            }
            Kind::Wind => {
                let $list = &mut $level.wind;
                $body
            }
            Kind::Fragile => {
                let $list = &mut $level.fragile;
                $body
            }
            Kind::Cloth => {
                let $list = &mut $level.cloths;
                $body
            }
            Kind::Sign => {
                let $list = &mut $level.signs;
                $body
            }
        }
    };
}

fn parse_as<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RonError> {
    RonError::parse::<T>(text, file)
}

impl Object {
    pub fn kind(&self) -> Kind {
        match self {
            Object::Goal(_) => Kind::Goal,
            Object::Solid(_) => Kind::Solid,
            Object::Hazard(_) => Kind::Hazard,
            Object::Checkpoint(_) => Kind::Checkpoint,
            Object::Ring(_) => Kind::Ring,
            Object::Platform(_) => Kind::Platform,
            Object::Switch(_) => Kind::Switch,
            Object::Winch(_) => Kind::Winch,
            Object::Vine(_) => Kind::Vine,
            Object::Wind(_) => Kind::Wind,
            Object::Fragile(_) => Kind::Fragile,
            Object::Cloth(_) => Kind::Cloth,
            Object::Sign(_) => Kind::Sign,
        }
    }

    /// A copy of the object `obj` of `level`; `None` for a stale ref.
    pub fn get(level: &LevelDef, obj: ObjectRef) -> Option<Object> {
        let i = obj.index;
        Some(match obj.kind {
            Kind::Goal => {
                if i != 0 {
                    return None;
                }
                Object::Goal(level.goal)
            }
            Kind::Solid => Object::Solid(level.solids.get(i)?.clone()),
            Kind::Hazard => Object::Hazard(level.hazards.get(i)?.clone()),
            Kind::Checkpoint => Object::Checkpoint(level.checkpoints.get(i)?.clone()),
            Kind::Ring => Object::Ring(*level.grapple_points.get(i)?),
            Kind::Platform => Object::Platform(level.platforms.get(i)?.clone()),
            Kind::Switch => Object::Switch(level.switches.get(i)?.clone()),
            Kind::Winch => Object::Winch(level.winches.get(i)?.clone()),
            Kind::Vine => Object::Vine(level.vines.get(i)?.clone()),
            Kind::Wind => Object::Wind(level.wind.get(i)?.clone()),
            Kind::Fragile => Object::Fragile(level.fragile.get(i)?.clone()),
            Kind::Cloth => Object::Cloth(level.cloths.get(i)?.clone()),
            Kind::Sign => Object::Sign(level.signs.get(i)?.clone()),
        })
    }

    /// Puts `self` in place of the object `obj`. False (and nothing changed) when the ref is
    /// stale or of another kind.
    pub fn put(self, level: &mut LevelDef, obj: ObjectRef) -> bool {
        fn slot<T>(list: &mut [T], i: usize, value: T) -> bool {
            match list.get_mut(i) {
                Some(s) => {
                    *s = value;
                    true
                }
                None => false,
            }
        }
        let i = obj.index;
        if obj.kind != self.kind() {
            return false;
        }
        match self {
            Object::Goal(d) => {
                if i != 0 {
                    return false;
                }
                level.goal = d;
                true
            }
            Object::Solid(d) => slot(&mut level.solids, i, d),
            Object::Hazard(d) => slot(&mut level.hazards, i, d),
            Object::Checkpoint(d) => slot(&mut level.checkpoints, i, d),
            Object::Ring(d) => slot(&mut level.grapple_points, i, d),
            Object::Platform(d) => slot(&mut level.platforms, i, d),
            Object::Switch(d) => slot(&mut level.switches, i, d),
            Object::Winch(d) => slot(&mut level.winches, i, d),
            Object::Vine(d) => slot(&mut level.vines, i, d),
            Object::Wind(d) => slot(&mut level.wind, i, d),
            Object::Fragile(d) => slot(&mut level.fragile, i, d),
            Object::Cloth(d) => slot(&mut level.cloths, i, d),
            Object::Sign(d) => slot(&mut level.signs, i, d),
        }
    }

    /// Appends `self` to its kind's list; `None` for the goal (there is only one).
    pub fn push(self, level: &mut LevelDef) -> Option<ObjectRef> {
        let kind = self.kind();
        match self {
            Object::Goal(_) => return None,
            Object::Solid(d) => level.solids.push(d),
            Object::Hazard(d) => level.hazards.push(d),
            Object::Checkpoint(d) => level.checkpoints.push(d),
            Object::Ring(d) => level.grapple_points.push(d),
            Object::Platform(d) => level.platforms.push(d),
            Object::Switch(d) => level.switches.push(d),
            Object::Winch(d) => level.winches.push(d),
            Object::Vine(d) => level.vines.push(d),
            Object::Wind(d) => level.wind.push(d),
            Object::Fragile(d) => level.fragile.push(d),
            Object::Cloth(d) => level.cloths.push(d),
            Object::Sign(d) => level.signs.push(d),
        }
        Some(ObjectRef::new(kind, kind.count(level) - 1))
    }

    /// Removes the object `obj` from its list. False for the goal or a stale ref.
    pub fn remove(level: &mut LevelDef, obj: ObjectRef) -> bool {
        each_list!(level, obj.kind, list => {
            if obj.index < list.len() {
                list.remove(obj.index);
                true
            } else {
                false
            }
        }, false)
    }

    /// The object's id, if it has one (a switch always has).
    pub fn id(&self) -> Option<&str> {
        match self {
            Object::Goal(_) | Object::Hazard(_) | Object::Ring(_) => None,
            Object::Switch(d) => Some(&d.id),
            Object::Solid(d) => d.id.as_deref(),
            Object::Checkpoint(d) => d.id.as_deref(),
            Object::Platform(d) => d.id.as_deref(),
            Object::Winch(d) => d.id.as_deref(),
            Object::Vine(d) => d.id.as_deref(),
            Object::Wind(d) => d.id.as_deref(),
            Object::Fragile(d) => d.id.as_deref(),
            Object::Cloth(d) => d.id.as_deref(),
            Object::Sign(d) => d.id.as_deref(),
        }
    }

    /// Gives the object a new id; false for the kinds that carry none.
    pub fn set_id(&mut self, id: String) -> bool {
        match self {
            Object::Goal(_) | Object::Hazard(_) | Object::Ring(_) => return false,
            Object::Switch(d) => d.id = id,
            Object::Solid(d) => d.id = Some(id),
            Object::Checkpoint(d) => d.id = Some(id),
            Object::Platform(d) => d.id = Some(id),
            Object::Winch(d) => d.id = Some(id),
            Object::Vine(d) => d.id = Some(id),
            Object::Wind(d) => d.id = Some(id),
            Object::Fragile(d) => d.id = Some(id),
            Object::Cloth(d) => d.id = Some(id),
            Object::Sign(d) => d.id = Some(id),
        }
        true
    }

    /// The object as compact one-line RON, every field written (see `text::compact`).
    pub fn to_compact_ron(&self) -> String {
        each_def!(self, d => text::compact(d))
    }

    /// The object as a hand-written file would have it: one line, fields at their default
    /// left out.
    pub fn to_ron(&self) -> String {
        each_def!(self, d => text::minimal(d))
    }

    /// Parses `text` as an object of `kind`, with the parser and options of level files.
    pub fn parse(kind: Kind, text: &str, file: &str) -> Result<Object, RonError> {
        Ok(match kind {
            Kind::Goal => Object::Goal(parse_as(text, file)?),
            Kind::Solid => Object::Solid(parse_as(text, file)?),
            Kind::Hazard => Object::Hazard(parse_as(text, file)?),
            Kind::Checkpoint => Object::Checkpoint(parse_as(text, file)?),
            Kind::Ring => Object::Ring(parse_as(text, file)?),
            Kind::Platform => Object::Platform(parse_as(text, file)?),
            Kind::Switch => Object::Switch(parse_as(text, file)?),
            Kind::Winch => Object::Winch(parse_as(text, file)?),
            Kind::Vine => Object::Vine(parse_as(text, file)?),
            Kind::Wind => Object::Wind(parse_as(text, file)?),
            Kind::Fragile => Object::Fragile(parse_as(text, file)?),
            Kind::Cloth => Object::Cloth(parse_as(text, file)?),
            Kind::Sign => Object::Sign(parse_as(text, file)?),
        })
    }

    /// The field names the kind's RON struct accepts, from serde; empty for the tuple kinds
    /// (a hazard is its shape, a ring its point).
    pub fn serde_fields(kind: Kind) -> &'static [&'static str] {
        match kind {
            Kind::Goal => text::struct_fields::<RectDef>(),
            Kind::Solid => text::struct_fields::<SolidDef>(),
            Kind::Hazard => text::struct_fields::<HazardDef>(),
            Kind::Checkpoint => text::struct_fields::<CheckpointDef>(),
            Kind::Ring => text::struct_fields::<RingDef>(),
            Kind::Platform => text::struct_fields::<PlatformDef>(),
            Kind::Switch => text::struct_fields::<SwitchDef>(),
            Kind::Winch => text::struct_fields::<WinchDef>(),
            Kind::Vine => text::struct_fields::<VineDef>(),
            Kind::Wind => text::struct_fields::<WindDef>(),
            Kind::Fragile => text::struct_fields::<FragileDef>(),
            Kind::Cloth => text::struct_fields::<ClothDef>(),
            Kind::Sign => text::struct_fields::<SignDef>(),
        }
    }
}
