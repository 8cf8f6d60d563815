//! Hot reload of the level file being played (`tether play FILE`, `tether edit FILE`): the file's
//! modification time and size are polled a few times a second (no watcher crate: polling is
//! portable, cheap for one file, and there is nothing to watch in the browser), and its new text
//! is handed to the game, which rebuilds the world or shows why it cannot.
//!
//! The browser has no files to watch: there `FileWatch` is a type with no values, so the game's
//! reload paths are dead code the compiler drops.

#[cfg(not(target_arch = "wasm32"))]
pub use self::desktop::FileWatch;

#[cfg(target_arch = "wasm32")]
pub use self::absent::FileWatch;

#[cfg(target_arch = "wasm32")]
mod absent {
    use std::path::Path;

    use crate::files::FileError;

    pub enum FileWatch {}

    impl FileWatch {
        pub fn watch(_: &Path, _: Option<String>) -> Option<FileWatch> {
            None
        }
        pub fn path(&self) -> &Path {
            match *self {}
        }
        pub fn poll(&mut self, _: f32) -> Option<Result<String, FileError>> {
            match *self {}
        }
        pub fn note_written(&mut self, _: &str) {
            match *self {}
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod desktop {

    use std::path::{Path, PathBuf};
    use std::time::SystemTime;

    use crate::files::FileError;
    use crate::sim::limits;

    /// Seconds between looks at the file: a save shows in the game within half a second.
    const POLL_INTERVAL_S: f32 = 0.2;

    /// What the file looked like when last read: a change in either means it was written.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Stamp {
        modified: Option<SystemTime>,
        len_bytes: u64,
    }

    /// One level file watched for changes.
    pub struct FileWatch {
        path: PathBuf,
        /// What the file was when the game last took its text (`None`: missing or unreadable).
        seen: Option<Stamp>,
        /// The text last handed over, so a touch that rewrites the same text reloads nothing.
        last_text: Option<String>,
        since_poll_s: f32,
    }

    impl FileWatch {
        /// Watches `path`, whose current `text` the game has already loaded. (`None` in a build
        /// without files: the browser's.)
        pub fn watch(path: &Path, text: Option<String>) -> Option<FileWatch> {
            Some(FileWatch::new(path, text))
        }

        /// Watches `path`, whose current `text` the game has already loaded.
        pub fn new(path: &Path, text: Option<String>) -> FileWatch {
            FileWatch {
                path: path.to_path_buf(),
                seen: stamp(path),
                last_text: text,
                since_poll_s: 0.0,
            }
        }

        pub fn path(&self) -> &Path {
            &self.path
        }

        /// Looks at the file when due; returns its new text when it has changed (or why it cannot
        /// be read). An editor that saves by truncating and rewriting can be caught in between: the
        /// half-written text fails to parse and the next poll, a moment later, reads the whole.
        pub fn poll(&mut self, frame_s: f32) -> Option<Result<String, FileError>> {
            self.since_poll_s += frame_s;
            if self.since_poll_s < POLL_INTERVAL_S {
                return None;
            }
            self.since_poll_s = 0.0;
            self.check_now()
        }

        /// Looks at the file now.
        pub fn check_now(&mut self) -> Option<Result<String, FileError>> {
            let now = stamp(&self.path);
            if now == self.seen {
                return None;
            }
            self.seen = now;
            match crate::files::read_text_bounded(&self.path, limits::MAX_LEVEL_FILE_BYTES) {
                Ok(text) if self.last_text.as_deref() == Some(text.as_str()) => None,
                Ok(text) => {
                    self.last_text = Some(text.clone());
                    Some(Ok(text))
                }
                Err(err) => {
                    self.last_text = None;
                    Some(Err(err))
                }
            }
        }

        /// Records text the game itself wrote to the file (the editor's save), so it is not
        /// reloaded as if someone else had changed it.
        pub fn note_written(&mut self, text: &str) {
            self.seen = stamp(&self.path);
            self.last_text = Some(text.to_owned());
        }
    }

    fn stamp(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            modified: meta.modified().ok(),
            len_bytes: meta.len(),
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// What `check_now` hands over, an error as its kind (`FileError` holds an
        /// `io::Error`, which cannot be compared).
        fn check_now(watch: &mut FileWatch) -> Option<Result<String, std::io::ErrorKind>> {
            watch.check_now().map(|r| r.map_err(|e| e.kind.kind()))
        }

        fn temp_file(name: &str, text: &str) -> PathBuf {
            let dir =
                std::env::temp_dir().join(format!("tether-watch-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("level.ron");
            std::fs::write(&path, text).unwrap();
            path
        }

        #[test]
        fn a_changed_file_is_read_once_and_the_same_text_is_not_reloaded() {
            let path = temp_file("change", "one");
            let mut watch = FileWatch::new(&path, Some("one".into()));
            assert_eq!(check_now(&mut watch), None, "nothing changed yet");
            std::fs::write(&path, "two, longer").unwrap();
            assert_eq!(check_now(&mut watch), Some(Ok("two, longer".into())));
            assert_eq!(check_now(&mut watch), None, "already handed over");
            // Rewritten with the same text (a save without changes): nothing to reload.
            std::fs::write(&path, "two, longer").unwrap();
            assert_eq!(check_now(&mut watch), None);
            std::fs::write(&path, "three").unwrap();
            assert_eq!(check_now(&mut watch), Some(Ok("three".into())));
        }

        #[test]
        fn a_deleted_file_is_an_error_and_its_return_a_reload() {
            let path = temp_file("delete", "one");
            let mut watch = FileWatch::new(&path, Some("one".into()));
            std::fs::remove_file(&path).unwrap();
            let err = watch.check_now().unwrap().unwrap_err();
            assert_eq!(err.path, path);
            assert_eq!(err.kind.kind(), std::io::ErrorKind::NotFound);
            assert!(err.to_string().contains("cannot read"), "{err}");
            std::fs::write(&path, "one").unwrap();
            assert_eq!(check_now(&mut watch), Some(Ok("one".into())));
        }

        #[test]
        fn text_the_game_wrote_itself_is_not_reloaded() {
            let path = temp_file("own", "one");
            let mut watch = FileWatch::new(&path, Some("one".into()));
            std::fs::write(&path, "saved by the editor").unwrap();
            watch.note_written("saved by the editor");
            assert_eq!(check_now(&mut watch), None);
        }

        #[test]
        fn polling_waits_for_its_interval() {
            let path = temp_file("interval", "one");
            let mut watch = FileWatch::new(&path, Some("one".into()));
            std::fs::write(&path, "two, longer").unwrap();
            assert!(watch.poll(POLL_INTERVAL_S * 0.5).is_none(), "not due yet");
            assert_eq!(
                watch.poll(POLL_INTERVAL_S * 0.6).unwrap().unwrap(),
                "two, longer"
            );
        }
    }
}
