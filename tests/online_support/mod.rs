//! The online tests' harness: the real `tether-server` binary (built beside the tests by
//! `cargo test --workspace`, or `cargo build --release -p tether-server`) on 127.0.0.1 with a
//! data folder of the test's own, killed when the handle drops, so a failing test leaves no
//! server behind.

#![allow(dead_code)] // each test file uses part of the harness

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A new empty folder for one test.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tether-online-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The server binary beside this test's build (`target/release/tether-server`).
fn server_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let binary = dir.join("tether-server");
    assert!(
        binary.is_file(),
        "{} is missing: cargo build --release -p tether-server",
        binary.display()
    );
    binary
}

pub struct TestServer {
    child: Option<Child>,
    pub base: String,
}

impl TestServer {
    /// Starts the server on `port` (a free one when `None`) with its data in `data_dir`.
    pub fn start(data_dir: &Path, port: Option<u16>) -> TestServer {
        let mut child = Command::new(server_binary())
            .env("TETHER_PORT", port.unwrap_or(0).to_string())
            .env("TETHER_DATA_DIR", data_dir)
            .env("TETHER_LEVELS_DIR", repo().join("levels"))
            .env("TETHER_DIST_DIR", data_dir.join("no-dist"))
            .env("TETHER_RATE_PER_ADDR", "100000")
            .env("TETHER_RATE_PER_KEY", "100000")
            .env_remove("DATABASE_URL")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tether-server starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().expect("the server says where").unwrap();
        let base = line
            .split("listening on ")
            .nth(1)
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .trim()
            .to_owned();
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        TestServer {
            child: Some(child),
            base,
        }
    }

    pub fn port(&self) -> u16 {
        self.base.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// Kills it now (SIGKILL) and waits for it to be gone.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}
