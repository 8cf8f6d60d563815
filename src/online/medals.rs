//! `GET /api/v1/players/{key}/medals`, read leniently by hand-written miniserde visitors: the
//! answer is only shown, so a missing or odd field reads as none. Not through
//! `miniserde::json::Value`: that value's reader, its map and their drop code were the only
//! reason the browser's download carried them (docs/online.md, "Download cost").

use miniserde::de::{Map, Seq, Visitor};
use miniserde::{make_place, Deserialize, Result};

/// The medals a player's best runs earn (this simulation version, unassisted).
#[derive(Clone, Debug, Default)]
pub struct MedalsAnswer {
    /// How many author, gold, silver and bronze medals, in that order.
    pub counts: [u64; 4],
    /// `(level hash, medal name)` for each level with a medal.
    pub medals: Vec<(String, String)>,
}

/// The medal names, in the order of `MedalsAnswer::counts`.
pub const MEDAL_NAMES: [&str; 4] = ["author", "gold", "silver", "bronze"];

make_place!(Out);

impl Deserialize for MedalsAnswer {
    fn begin(out: &mut Option<Self>) -> &mut dyn Visitor {
        Out::new(out)
    }
}

/// The answer must be an object; inside it anything odd reads as none.
impl Visitor for Out<MedalsAnswer> {
    fn map(&mut self) -> Result<Box<dyn Map + '_>> {
        let answer = self.out.insert(<MedalsAnswer as Default>::default());
        Ok(Box::new(Reader {
            answer,
            container: Place::Answer,
            current: Place::Ignored,
        }))
    }
}

/// A place in the answer: `Count` is an index into `counts`, `Text` the level (0) or medal (1)
/// of the last entry of `medals`.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Ignored,
    Answer,
    Counts,
    Count(usize),
    Medals,
    Entry,
    Text(usize),
}

/// One visitor for every container in the answer: it writes what fits its place and ignores
/// the rest (odd values, unknown keys, whole odd containers), as a map or list `container`
/// whose value being read goes to `current`.
struct Reader<'a> {
    answer: &'a mut MedalsAnswer,
    container: Place,
    current: Place,
}

impl Reader<'_> {
    fn inner(&mut self, container: Place) -> Box<Reader<'_>> {
        Box::new(Reader {
            answer: self.answer,
            container,
            current: Place::Ignored,
        })
    }
}

impl Visitor for Reader<'_> {
    fn null(&mut self) -> Result<()> {
        Ok(())
    }
    fn boolean(&mut self, _: bool) -> Result<()> {
        Ok(())
    }
    fn string(&mut self, text: &str) -> Result<()> {
        if let (Place::Text(which), Some(entry)) = (self.current, self.answer.medals.last_mut()) {
            let slot = if which == 0 {
                &mut entry.0
            } else {
                &mut entry.1
            };
            *slot = text.to_owned();
        }
        Ok(())
    }
    fn negative(&mut self, _: i64) -> Result<()> {
        Ok(())
    }
    fn nonnegative(&mut self, count: u64) -> Result<()> {
        if let Place::Count(which) = self.current {
            self.answer.counts[which] = count;
        }
        Ok(())
    }
    fn float(&mut self, _: f64) -> Result<()> {
        Ok(())
    }
    fn seq(&mut self) -> Result<Box<dyn Seq + '_>> {
        let container = match self.current {
            Place::Medals => Place::Medals,
            _ => Place::Ignored,
        };
        Ok(self.inner(container))
    }
    fn map(&mut self) -> Result<Box<dyn Map + '_>> {
        let container = match self.current {
            Place::Counts | Place::Entry => self.current,
            _ => Place::Ignored,
        };
        Ok(self.inner(container))
    }
}

impl Seq for Reader<'_> {
    /// In the medals list every element, an object or not, is an entry (odd ones stay empty).
    fn element(&mut self) -> Result<&mut dyn Visitor> {
        self.current = Place::Ignored;
        if self.container == Place::Medals {
            self.answer.medals.push((String::new(), String::new()));
            self.current = Place::Entry;
        }
        Ok(self)
    }
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

impl Map for Reader<'_> {
    fn key(&mut self, key: &str) -> Result<&mut dyn Visitor> {
        self.current = match (self.container, key) {
            (Place::Answer, "counts") => Place::Counts,
            (Place::Answer, "medals") => Place::Medals,
            (Place::Counts, name) => MEDAL_NAMES
                .iter()
                .position(|medal| *medal == name)
                .map_or(Place::Ignored, Place::Count),
            (Place::Entry, "level") => Place::Text(0),
            (Place::Entry, "medal") => Place::Text(1),
            _ => Place::Ignored,
        };
        Ok(self)
    }
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}
