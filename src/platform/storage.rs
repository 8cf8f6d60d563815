//! Keeping things: on the desktop, files written without ever leaving a half-written one (a
//! temporary file beside the target, flushed, then renamed over it: atomic on one filesystem);
//! in the browser, the page's localStorage (`browser`).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` so that, whatever happens part way (a full disk, a crash, a power
/// cut), the file holds either its old content or all the new: a temporary file beside it is
/// written and synced, renamed over it, and the folder synced so that the rename itself is on
/// the disk. On failure the temporary file is removed and the old file left as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_on(&mut RealDisk, path, bytes)
}

/// The steps of an atomic write, apart so that the tests can make each one fail.
trait Disk {
    /// Creates (or truncates) `tmp` and writes and syncs `bytes` into it.
    fn write_synced(&mut self, tmp: &Path, bytes: &[u8]) -> std::io::Result<()>;
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()>;
    /// Makes the folder's entries (the rename) durable.
    fn sync_folder(&mut self, dir: &Path) -> std::io::Result<()>;
}

struct RealDisk;

impl Disk for RealDisk {
    fn write_synced(&mut self, tmp: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut file = std::fs::File::create(tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::rename(from, to)
    }

    fn sync_folder(&mut self, dir: &Path) -> std::io::Result<()> {
        // A rename lives in the folder, not in the file: until the folder is synced a power
        // cut can undo it. Only unix lets a folder be opened and synced; elsewhere (Windows'
        // rename goes through the journal, the browser has no folders) there is nothing to do.
        #[cfg(unix)]
        {
            std::fs::File::open(dir)?.sync_all()
        }
        #[cfg(not(unix))]
        {
            let _ = dir;
            Ok(())
        }
    }
}

fn write_atomically_on(disk: &mut impl Disk, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            dir
        }
        None => Path::new("."),
    };
    let tmp = temporary_path(path);
    let written = disk
        .write_synced(&tmp, bytes)
        .and_then(|()| disk.rename(&tmp, path));
    if let Err(err) = written {
        // Half a file would only be in the way of the next write; the old file is untouched.
        let _ = std::fs::remove_file(&tmp);
        return Err(err);
    }
    disk.sync_folder(dir)
}

/// `<path>.tmp`: where a write goes before it is renamed over `path`.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// The page's localStorage, through web/progress_plugin.js: progress, ghosts and the author's
/// own levels are kept there under keys the game names.
#[cfg(target_arch = "wasm32")]
pub mod browser {
    extern "C" {
        // web/progress_plugin.js; stubbed by the loader to return 0 without the plugin.
        fn tether_store_load(key: *const u8, key_len: u32, ptr: *mut u8, cap: u32) -> i32;
        fn tether_store_save(key: *const u8, key_len: u32, ptr: *const u8, len: u32) -> i32;
        fn tether_store_remove(key: *const u8, key_len: u32) -> i32;
        fn tether_store_keys(prefix: *const u8, prefix_len: u32, ptr: *mut u8, cap: u32) -> i32;
    }

    /// The loader checks `<plugin name>_crate_version` against the plugin's version (without
    /// it, the page's console says the plugin "is present in JS bundle, but is not used").
    #[no_mangle]
    pub extern "C" fn tether_progress_crate_version() -> u32 {
        1
    }

    /// The text stored under `key`: `None` when there is none, `Err` when it is over
    /// `max_bytes` (the caller must then leave it alone, not overwrite it).
    pub fn load(key: &str, max_bytes: u64) -> Result<Option<String>, String> {
        let mut buf = vec![0u8; max_bytes as usize];
        // SAFETY: the plugin writes at most `cap` bytes into the buffer.
        let len = unsafe {
            tether_store_load(
                key.as_ptr(),
                key.len() as u32,
                buf.as_mut_ptr(),
                buf.len() as u32,
            )
        };
        match len {
            -2 => Err(format!("is more than {max_bytes} bytes")),
            len if len <= 0 => Ok(None),
            len => {
                buf.truncate(len as usize);
                // The page encodes what it stored as UTF-8, so this holds for any stored text.
                String::from_utf8(buf)
                    .map(Some)
                    .map_err(|_| "is not UTF-8 text".to_owned())
            }
        }
    }

    /// True when the browser stored it.
    pub fn save(key: &str, text: &str) -> bool {
        // SAFETY: the plugin copies the bytes before returning.
        unsafe {
            tether_store_save(
                key.as_ptr(),
                key.len() as u32,
                text.as_ptr(),
                text.len() as u32,
            ) == 1
        }
    }

    /// True when the key is gone (or was never there).
    pub fn remove(key: &str) -> bool {
        // SAFETY: the plugin reads `key_len` bytes from the pointer.
        unsafe { tether_store_remove(key.as_ptr(), key.len() as u32) == 1 }
    }

    /// Every stored key that starts with `prefix`, sorted (at most `max_bytes` of them, one per
    /// line, as the page lists them).
    pub fn keys(prefix: &str, max_bytes: usize) -> Vec<String> {
        let mut buf = vec![0u8; max_bytes];
        // SAFETY: the plugin writes at most `cap` bytes into the buffer and returns how many.
        let len = unsafe {
            tether_store_keys(
                prefix.as_ptr(),
                prefix.len() as u32,
                buf.as_mut_ptr(),
                buf.len() as u32,
            )
        };
        buf.truncate(len.max(0) as usize);
        let mut keys: Vec<String> = String::from_utf8_lossy(&buf)
            .lines()
            .filter(|key| key.starts_with(prefix))
            .map(str::to_owned)
            .collect();
        keys.sort_unstable();
        keys
    }
}

#[cfg(test)]
mod tests {
    //! Each step of a save made to fail: the previous save stays whole, no temporary file is
    //! left in the way, and the game's stores load as before.

    use super::*;
    use crate::app::level_shelf::LevelShelf;
    use crate::app::progress_store::{ProgressStore, PROGRESS_FILE};
    use crate::app::settings::{InputSettings, InputSettingsStore};
    use crate::campaign::Progress;

    #[derive(PartialEq)]
    enum Step {
        Write,
        Rename,
    }

    /// The real disk, recording each step and failing at `fail`.
    struct Faulty {
        fail: Option<Step>,
        steps: Vec<&'static str>,
    }

    impl Faulty {
        fn failing(fail: Option<Step>) -> Faulty {
            Faulty {
                fail,
                steps: Vec::new(),
            }
        }
    }

    impl Disk for Faulty {
        fn write_synced(&mut self, tmp: &Path, bytes: &[u8]) -> std::io::Result<()> {
            self.steps.push("write");
            if self.fail == Some(Step::Write) {
                // The disk fills half way through.
                RealDisk.write_synced(tmp, &bytes[..bytes.len() / 2])?;
                return Err(std::io::Error::other("no space left on device"));
            }
            RealDisk.write_synced(tmp, bytes)
        }

        fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
            self.steps.push("rename");
            if self.fail == Some(Step::Rename) {
                return Err(std::io::Error::other("rename refused"));
            }
            RealDisk.rename(from, to)
        }

        fn sync_folder(&mut self, dir: &Path) -> std::io::Result<()> {
            self.steps.push("sync folder");
            RealDisk.sync_folder(dir)
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tether-storage-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn some_progress(ticks: u64) -> Progress {
        let mut progress = Progress::default();
        progress.record_finish("01_first_swing.ron", ticks, &[], true, Some(177));
        progress
    }

    /// A folder with a good save, a level on the shelf and input settings, as a player has.
    fn a_players_folder(name: &str) -> (PathBuf, Progress) {
        let dir = temp_dir(name);
        let progress = some_progress(300);
        ProgressStore::in_folder(&dir).save(&progress).unwrap();
        LevelShelf::in_folder(&dir)
            .save("mine", "Level(name: \"mine\")")
            .unwrap();
        InputSettingsStore::file(&dir.join("input.ron"))
            .save(&InputSettings::default())
            .unwrap();
        (dir, progress)
    }

    /// What the game loads at start is what was there before the failed write.
    fn assert_the_game_starts_as_before(dir: &Path, progress: &Progress) {
        let loaded = ProgressStore::in_folder(dir).load();
        assert_eq!(loaded.problem, None);
        assert!(loaded.may_save);
        assert_eq!(&loaded.progress, progress, "the previous save is whole");
        assert_eq!(LevelShelf::in_folder(dir).names(), ["mine"]);
        let input = InputSettingsStore::file(&dir.join("input.ron")).load();
        assert_eq!(input.problem, None);
        assert!(!temporary_path(&dir.join(PROGRESS_FILE)).exists());
    }

    #[test]
    fn a_save_syncs_the_file_renames_it_then_syncs_the_folder() {
        let dir = temp_dir("steps");
        let path = dir.join(PROGRESS_FILE);
        let mut disk = Faulty::failing(None);
        write_atomically_on(&mut disk, &path, b"(version: 1)").unwrap();
        assert_eq!(disk.steps, ["write", "rename", "sync folder"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "(version: 1)");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_write_that_fails_half_way_leaves_the_previous_save() {
        let (dir, progress) = a_players_folder("failing-write");
        let path = dir.join(PROGRESS_FILE);
        let newer = some_progress(200).to_ron();
        let mut disk = Faulty::failing(Some(Step::Write));
        let err = write_atomically_on(&mut disk, &path, newer.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("no space"), "{err}");
        assert_eq!(disk.steps, ["write"], "nothing is renamed over the save");
        assert_the_game_starts_as_before(&dir, &progress);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_rename_that_fails_leaves_the_previous_save() {
        let (dir, progress) = a_players_folder("failing-rename");
        let path = dir.join(PROGRESS_FILE);
        let newer = some_progress(200).to_ron();
        let mut disk = Faulty::failing(Some(Step::Rename));
        write_atomically_on(&mut disk, &path, newer.as_bytes()).unwrap_err();
        assert_the_game_starts_as_before(&dir, &progress);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_temporary_file_left_by_a_crash_is_ignored_then_replaced() {
        let (dir, progress) = a_players_folder("leftover");
        let path = dir.join(PROGRESS_FILE);
        // The game died part way through writing each kind of file.
        let half = &some_progress(200).to_ron()[..20];
        std::fs::write(temporary_path(&path), half).unwrap();
        std::fs::write(temporary_path(&dir.join("levels/other.ron")), "Level(na").unwrap();
        std::fs::write(temporary_path(&dir.join("input.ron")), "(bind").unwrap();
        let loaded = ProgressStore::in_folder(&dir).load();
        assert_eq!(loaded.problem, None);
        assert_eq!(loaded.progress, progress);
        assert_eq!(LevelShelf::in_folder(&dir).names(), ["mine"]);
        assert_eq!(
            InputSettingsStore::file(&dir.join("input.ron"))
                .load()
                .problem,
            None
        );
        // The next save writes over the leftover and leaves none.
        let newer = some_progress(200);
        ProgressStore::in_folder(&dir).save(&newer).unwrap();
        assert!(!temporary_path(&path).exists());
        assert_eq!(ProgressStore::in_folder(&dir).load().progress, newer);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
