//! Keeping things: on the desktop, files written without ever leaving a half-written one (a
//! temporary file beside the target, flushed, then renamed over it: atomic on one filesystem);
//! in the browser, the page's localStorage (`browser`).

use std::io::Write;
use std::path::Path;

pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)
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
