//! The one way the game keeps things between runs. A `Store` holds texts by name: files in a
//! folder on the desktop (each written whole or not at all), keys of the page's localStorage in
//! the browser, or memory until the game closes (no config folder; watching replays; tests).
//! Progress, ghosts, audio and input settings and "My levels" all go through it, and `Area`
//! alone says where each lives, so the names the players' saves already have are written once.
//!
//! Every text is read within a limit (its size is checked before anything parses it), and a
//! name must stay inside its store (`limits::check_level_path`: letters, digits, `_ - . /`,
//! relative, no `..`).

use std::cell::RefCell;
use std::fmt;
#[cfg(not(target_arch = "wasm32"))]
use std::io;
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::path::PathBuf;

use crate::sim::limits;

/// Most copies of a broken text a folder keeps aside (`<file>.corrupt-N`); past them the broken
/// text stays where it is.
pub const MAX_ASIDE_COPIES: u32 = 20;

/// What the game keeps, by where it lives. These names are the players' existing saves:
/// changing one loses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// Progress and settings (`progress`, `settings`, `input`): `<config>/<name>.ron` on the
    /// desktop, the key `tether.<name>` in the browser.
    Main,
    /// Best runs by level file: `<config>/ghosts/<level file>`, `tether.ghost.<level file>`.
    Ghosts,
    /// "My levels": `<config>/levels/<name>.ron`, `tether.level.<name>`.
    Levels,
    /// The editor's finishing run of each of "My levels" (what Publish uploads):
    /// `<config>/proofs/<name>.ron`, `tether.proof.<name>`.
    Proofs,
    /// Online levels played, by their SHA-256 (they play again offline):
    /// `<config>/online/<hash>.ron`, `tether.online.<hash>`.
    OnlineLevels,
}

impl Area {
    /// Its folder inside the config folder (`None`: the config folder itself), its files'
    /// suffix, and its localStorage keys' prefix.
    const fn layout(self) -> (Option<&'static str>, &'static str, &'static str) {
        match self {
            Area::Main => (None, ".ron", "tether."),
            Area::Ghosts => (Some("ghosts"), "", "tether.ghost."),
            Area::Levels => (Some("levels"), ".ron", "tether.level."),
            Area::Proofs => (Some("proofs"), ".ron", "tether.proof."),
            Area::OnlineLevels => (Some("online"), ".ron", "tether.online."),
        }
    }

    /// Its store on this platform: the player's config folder on the desktop (memory when the
    /// environment names none), the page's localStorage in the browser.
    pub fn store(self) -> Store {
        #[cfg(target_arch = "wasm32")]
        {
            Store::Browser {
                prefix: self.layout().2,
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            super::paths::process_config_dir()
                .map_or_else(Store::memory, |config| self.store_in(&config))
        }
    }

    /// Its store in the config folder `config`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn store_in(self, config: &Path) -> Store {
        let (folder, suffix, _) = self.layout();
        Store::Folder {
            dir: folder.map_or_else(|| config.to_path_buf(), |folder| config.join(folder)),
            suffix,
        }
    }
}

/// Texts kept by name.
#[derive(Clone, Debug)]
pub enum Store {
    /// The file `<dir>/<name><suffix>` for each name (desktop).
    #[cfg(not(target_arch = "wasm32"))]
    Folder { dir: PathBuf, suffix: &'static str },
    /// The localStorage key `<prefix><name>` for each name (browser).
    #[cfg(target_arch = "wasm32")]
    Browser { prefix: &'static str },
    /// Kept until the game closes: a few texts at most (a list, which keeps the browser's
    /// download smaller than a map would).
    Memory(RefCell<Vec<(String, String)>>),
}

/// Where one text is kept, for people: a file, a localStorage key, or memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    File(PathBuf),
    Key(String),
    Memory(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Place::File(path) => write!(f, "{}", path.display()),
            Place::Key(key) => write!(f, "localStorage {key}"),
            Place::Memory(name) => write!(f, "{name} (not kept)"),
        }
    }
}

/// Why a store could not do what was asked, with the place it concerns.
#[derive(Debug)]
pub enum StoreError {
    /// The name would leave the store, or holds what no file name or key may.
    BadName {
        name: String,
        problem: limits::PathProblem,
    },
    /// It is there but cannot be read now (permissions, a folder in its place): leave it alone.
    #[cfg(not(target_arch = "wasm32"))]
    Unreadable { place: Place, error: io::Error },
    /// Over its limit (the problem gives its size), or not text: refused before anything
    /// parsed it.
    Unusable { place: Place, problem: String },
    /// Nothing is kept there.
    Missing { place: Place },
    #[cfg(not(target_arch = "wasm32"))]
    Unwritable { place: Place, error: io::Error },
    #[cfg(not(target_arch = "wasm32"))]
    NotRemoved { place: Place, error: io::Error },
    /// The browser would not store or remove it (storage full, or turned off).
    Refused { place: Place },
    /// Every spot for a copy set aside is taken, so the text stays where it is.
    NoRoomAside { place: Place },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StoreError::BadName { name, problem } => {
                write!(f, "cannot keep \"{}\": {problem}", limits::printable(name))
            }
            #[cfg(not(target_arch = "wasm32"))]
            StoreError::Unreadable { place, error } => write!(f, "{place}: cannot read ({error})"),
            StoreError::Unusable { place, problem } => write!(f, "{place}: {problem}"),
            StoreError::Missing { place } => write!(f, "{place}: nothing is kept there"),
            #[cfg(not(target_arch = "wasm32"))]
            StoreError::Unwritable { place, error } => write!(f, "{place}: cannot write: {error}"),
            #[cfg(not(target_arch = "wasm32"))]
            StoreError::NotRemoved { place, error } => {
                write!(f, "{place}: cannot remove: {error}")
            }
            StoreError::Refused { place } => {
                write!(f, "{place}: the browser refused it (storage full?)")
            }
            StoreError::NoRoomAside { place } => write!(
                f,
                "{place}: {MAX_ASIDE_COPIES} copies are already kept aside, so this one stays"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl Store {
    pub fn memory() -> Store {
        Store::Memory(RefCell::default())
    }

    /// The store holding just the file at `path` (its folder, no suffix), and the name of the
    /// file in it: for a file the player or a test names.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn of_file(path: &Path) -> (Store, String) {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        (Store::Folder { dir, suffix: "" }, name.into_owned())
    }

    /// Where `name` is kept.
    pub fn place(&self, name: &str) -> Place {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => Place::File(file(dir, suffix, name)),
            #[cfg(target_arch = "wasm32")]
            Store::Browser { prefix } => Place::Key(key(prefix, name)),
            Store::Memory(_) => Place::Memory(name.to_owned()),
        }
    }

    /// The text kept as `name`, `None` when there is none. One over `max_bytes` (or not text)
    /// is `Unusable` and is not read further.
    pub fn load(&self, name: &str, max_bytes: u64) -> Result<Option<String>, StoreError> {
        check_name(name)?;
        let place = || self.place(name);
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => {
                match crate::files::read_bounded(&file(dir, suffix, name), max_bytes) {
                    Ok(text) => Ok(Some(text)),
                    Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
                    Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                        Err(StoreError::Unusable {
                            place: place(),
                            problem: error.to_string(),
                        })
                    }
                    Err(error) => Err(StoreError::Unreadable {
                        place: place(),
                        error,
                    }),
                }
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser { prefix } => {
                super::storage::browser::load(&key(prefix, name), max_bytes).map_err(|problem| {
                    StoreError::Unusable {
                        place: place(),
                        problem,
                    }
                })
            }
            Store::Memory(texts) => match texts.borrow().iter().find(|(n, _)| n == name) {
                Some((_, text)) if text.len() as u64 > max_bytes => Err(StoreError::Unusable {
                    place: place(),
                    problem: format!("is {} bytes, at most {max_bytes} allowed", text.len()),
                }),
                found => Ok(found.map(|(_, text)| text.clone())),
            },
        }
    }

    /// Keeps `text` as `name`, replacing what was there; on the desktop the file is written
    /// whole or not at all.
    pub fn save(&self, name: &str, text: &str) -> Result<(), StoreError> {
        check_name(name)?;
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => {
                super::storage::write_atomically(&file(dir, suffix, name), text.as_bytes()).map_err(
                    |error| StoreError::Unwritable {
                        place: self.place(name),
                        error,
                    },
                )
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser { prefix } => super::storage::browser::save(&key(prefix, name), text)
                .then_some(())
                .ok_or_else(|| StoreError::Refused {
                    place: self.place(name),
                }),
            Store::Memory(texts) => {
                let mut texts = texts.borrow_mut();
                texts.retain(|(n, _)| n != name);
                texts.push((name.to_owned(), text.to_owned()));
                Ok(())
            }
        }
    }

    /// Removes what is kept as `name`.
    pub fn remove(&self, name: &str) -> Result<(), StoreError> {
        check_name(name)?;
        let place = || self.place(name);
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => {
                std::fs::remove_file(file(dir, suffix, name)).map_err(|error| {
                    StoreError::NotRemoved {
                        place: place(),
                        error,
                    }
                })
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser { prefix } => super::storage::browser::remove(&key(prefix, name))
                .then_some(())
                .ok_or_else(|| StoreError::Refused { place: place() }),
            Store::Memory(texts) => {
                let mut texts = texts.borrow_mut();
                let kept = texts.len();
                texts.retain(|(n, _)| n != name);
                if texts.len() < kept {
                    Ok(())
                } else {
                    Err(StoreError::Missing { place: place() })
                }
            }
        }
    }

    /// The names kept, sorted: the first `max` of them. Only names the store would accept are
    /// listed (a folder's other files are not its texts).
    pub fn list(&self, max: usize) -> Vec<String> {
        let mut names: Vec<String> = match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .filter_map(|entry| {
                            let file = entry.file_name().to_string_lossy().into_owned();
                            file.strip_suffix(suffix).map(str::to_owned)
                        })
                        .collect()
                })
                .unwrap_or_default(),
            #[cfg(target_arch = "wasm32")]
            Store::Browser { prefix } => {
                let max_bytes = max * (prefix.len() + limits::MAX_LEVEL_PATH_CHARS + 1);
                super::storage::browser::keys(prefix, max_bytes)
                    .iter()
                    .filter_map(|key| key.strip_prefix(prefix))
                    .map(str::to_owned)
                    .collect()
            }
            Store::Memory(texts) => texts.borrow().iter().map(|(n, _)| n.clone()).collect(),
        };
        names.retain(|name| check_name(name).is_ok());
        names.sort_unstable();
        names.truncate(max);
        names
    }

    /// Moves the text kept as `name` out of the way (it is broken, and must be neither used nor
    /// overwritten) and says where to: on the desktop the first free `<file>.corrupt-N`, in the
    /// browser and in memory `<name>.corrupt` (read within `max_bytes` to be copied there).
    pub fn keep_aside(&self, name: &str, max_bytes: u64) -> Result<Place, StoreError> {
        check_name(name)?;
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Store::Folder { dir, suffix } => {
                let path = file(dir, suffix, name);
                let file_name = path.file_name().unwrap_or_default().to_string_lossy();
                let spot = (1..=MAX_ASIDE_COPIES)
                    .map(|n| path.with_file_name(format!("{file_name}.corrupt-{n}")))
                    .find(|candidate| !candidate.exists())
                    .ok_or_else(|| StoreError::NoRoomAside {
                        place: Place::File(path.clone()),
                    })?;
                match std::fs::rename(&path, &spot) {
                    Ok(()) => Ok(Place::File(spot)),
                    Err(error) => Err(StoreError::Unwritable {
                        place: Place::File(spot),
                        error,
                    }),
                }
            }
            _ => self.copy_aside(name, max_bytes),
        }
    }

    /// `keep_aside` where a text cannot be renamed: copied to `<name>.corrupt`, replacing an
    /// older copy, and left to be overwritten by the next save.
    fn copy_aside(&self, name: &str, max_bytes: u64) -> Result<Place, StoreError> {
        let text = self.load(name, max_bytes)?.ok_or(StoreError::Missing {
            place: self.place(name),
        })?;
        let aside = format!("{name}.corrupt");
        self.save(&aside, &text)?;
        Ok(self.place(&aside))
    }
}

/// The file a folder keeps `name` in.
#[cfg(not(target_arch = "wasm32"))]
fn file(dir: &Path, suffix: &str, name: &str) -> PathBuf {
    dir.join(format!("{name}{suffix}"))
}

/// The localStorage key the browser keeps `name` under.
#[cfg(target_arch = "wasm32")]
fn key(prefix: &str, name: &str) -> String {
    format!("{prefix}{name}")
}

fn check_name(name: &str) -> Result<(), StoreError> {
    limits::check_level_path(name).map_err(|problem| StoreError::BadName {
        name: name.to_owned(),
        problem,
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn temp_config(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tether-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn each_area_keeps_the_names_saves_already_have() {
        let config = Path::new("config");
        let file = |area: Area, name: &str| area.store_in(config).place(name);
        assert_eq!(
            file(Area::Main, "progress"),
            Place::File(config.join("progress.ron"))
        );
        assert_eq!(
            file(Area::Main, "input"),
            Place::File(config.join("input.ron"))
        );
        assert_eq!(
            file(Area::Ghosts, "01_first_swing.ron"),
            Place::File(config.join("ghosts").join("01_first_swing.ron"))
        );
        assert_eq!(
            file(Area::Levels, "mill_run"),
            Place::File(config.join("levels").join("mill_run.ron"))
        );
        let prefixes = [Area::Main, Area::Ghosts, Area::Levels].map(|area| area.layout().2);
        assert_eq!(prefixes, ["tether.", "tether.ghost.", "tether.level."]);
    }

    #[test]
    fn a_folder_saves_loads_lists_and_removes() {
        let config = temp_config("round-trip");
        let store = Area::Levels.store_in(&config);
        assert_eq!(store.list(10), Vec::<String>::new(), "no folder yet");
        assert_eq!(store.load("first", 100).unwrap(), None);
        store.save("first", "(name: \"First\")").unwrap();
        store.save("second", "2").unwrap();
        let dir = config.join("levels");
        std::fs::write(dir.join("notes.txt"), "not a level").unwrap();
        std::fs::write(dir.join("has space.ron"), "not a name").unwrap();
        assert_eq!(store.list(10), ["first", "second"]);
        assert_eq!(store.list(1), ["first"], "the first `max` names");
        assert_eq!(
            store.load("first", 100).unwrap().as_deref(),
            Some("(name: \"First\")")
        );
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            ["first.ron", "has space.ron", "notes.txt", "second.ron"],
            "plain files, no temporary file left"
        );
        store.remove("first").unwrap();
        assert_eq!(store.list(10), ["second"]);
        assert!(matches!(
            store.remove("first"),
            Err(StoreError::NotRemoved { .. })
        ));
        let _ = std::fs::remove_dir_all(&config);
    }

    #[test]
    fn an_over_limit_file_is_refused_with_its_size() {
        let config = temp_config("over-limit");
        let store = Area::Main.store_in(&config);
        store.save("progress", &"x".repeat(300)).unwrap();
        let err = store.load("progress", 299).unwrap_err();
        assert!(matches!(err, StoreError::Unusable { .. }), "{err:?}");
        let said = err.to_string();
        assert!(said.contains("progress.ron"), "{said}");
        assert!(said.contains("300 bytes, at most 299"), "{said}");
        assert_eq!(store.load("progress", 300).unwrap().unwrap().len(), 300);
        let _ = std::fs::remove_dir_all(&config);
    }

    #[test]
    fn what_cannot_be_read_is_told_apart_from_what_is_bad() {
        let config = temp_config("unreadable");
        let store = Area::Main.store_in(&config);
        std::fs::create_dir_all(config.join("input.ron")).unwrap();
        assert!(matches!(
            store.load("input", 100),
            Err(StoreError::Unreadable { .. })
        ));
        std::fs::write(config.join("settings.ron"), [0xff, 0xfe, 0]).unwrap();
        let err = store.load("settings", 100).unwrap_err();
        assert!(matches!(err, StoreError::Unusable { .. }), "{err:?}");
        assert!(err.to_string().contains("UTF-8"), "{err}");
        let _ = std::fs::remove_dir_all(&config);
    }

    #[test]
    fn a_broken_file_is_kept_aside_until_there_is_no_room() {
        let config = temp_config("aside");
        let store = Area::Main.store_in(&config);
        let path = config.join("progress.ron");
        for n in 1..=MAX_ASIDE_COPIES {
            store.save("progress", &format!("broken {n}")).unwrap();
            let aside = store.keep_aside("progress", 100).unwrap();
            let expected = config.join(format!("progress.ron.corrupt-{n}"));
            assert_eq!(aside, Place::File(expected.clone()));
            assert_eq!(
                std::fs::read_to_string(expected).unwrap(),
                format!("broken {n}")
            );
            assert!(!path.exists(), "moved, not copied");
        }
        store.save("progress", "broken again").unwrap();
        let err = store.keep_aside("progress", 100).unwrap_err();
        assert!(matches!(err, StoreError::NoRoomAside { .. }), "{err:?}");
        assert!(err.to_string().contains("progress.ron"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "broken again",
            "left where it is"
        );
        let _ = std::fs::remove_dir_all(&config);
    }

    #[test]
    fn a_name_that_leaves_its_store_is_refused_before_any_file_is_touched() {
        let config = temp_config("names");
        let store = Area::Ghosts.store_in(&config);
        for name in ["../progress.ron", "/etc/passwd", "", "a//b", "a b"] {
            assert!(
                matches!(store.save(name, "x"), Err(StoreError::BadName { .. })),
                "{name:?}"
            );
            assert!(matches!(
                store.load(name, 10),
                Err(StoreError::BadName { .. })
            ));
            assert!(matches!(
                store.remove(name),
                Err(StoreError::BadName { .. })
            ));
        }
        assert!(!config.exists(), "nothing was written");
    }

    #[test]
    fn memory_keeps_until_the_game_closes() {
        let store = Store::memory();
        store.save("progress", "kept").unwrap();
        store.save("settings", "also").unwrap();
        assert_eq!(store.list(10), ["progress", "settings"]);
        assert_eq!(store.load("progress", 4).unwrap().as_deref(), Some("kept"));
        assert!(matches!(
            store.load("progress", 3),
            Err(StoreError::Unusable { .. })
        ));
        assert_eq!(
            store.keep_aside("progress", 10).unwrap(),
            Place::Memory("progress.corrupt".into())
        );
        store.remove("settings").unwrap();
        assert!(matches!(
            store.remove("settings"),
            Err(StoreError::Missing { .. })
        ));
        assert_eq!(store.list(10), ["progress", "progress.corrupt"]);
        assert_eq!(store.clone().list(10).len(), 2, "a clone keeps the texts");
    }

    #[test]
    fn a_named_file_is_a_store_of_one() {
        let (store, name) = Store::of_file(Path::new("some/where/input.ron"));
        assert_eq!(name, "input.ron");
        assert_eq!(
            store.place(&name),
            Place::File(Path::new("some/where").join("input.ron"))
        );
    }
}
