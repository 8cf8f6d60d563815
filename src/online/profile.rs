//! What the game keeps about Tether Online, in the platform's main store (`online.ron` in the
//! config folder, `tether.online` in the browser): online on or off, the server, the player's
//! name and their key's seed. Off (the default) means the game makes no request at all.
//!
//! The seed is the player's identity: it is made once from the platform's randomness (the OS
//! on the desktop, `crypto.getRandomValues` through web/net_plugin.js in the browser), shown
//! as a recovery code on request, and replaced only by importing another code.
//!
//! It is kept as miniserde JSON; a profile kept as RON by earlier versions is read once
//! (`old_ron`) and saved as JSON the next time it changes.

use miniserde::{Deserialize, Serialize};
use tether_online_proto::{hex, recovery, Identity, RecoveryCodeError, SEED_BYTES};

use super::old_ron;
use crate::platform::store::{Area, Store, StoreError};
use crate::sim::limits;

/// The profile's name in the main store.
const PROFILE_NAME: &str = "online";
/// Largest profile file read (a few hundred bytes in practice).
const MAX_PROFILE_BYTES: u64 = 16 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OnlineProfile {
    /// Off: no request at all, ever.
    pub enabled: bool,
    /// The server's address; empty: the default (`default_server`).
    pub server: String,
    /// The display name the server took for this key; `None` until registered.
    pub name: Option<String>,
    /// The key's 32-byte seed in hex; `None` until the player first goes online.
    key_seed: Option<String>,
}

/// The profile as it is kept. Every field may be missing (the default then), as in the RON
/// earlier versions read with serde's `default`.
#[derive(Serialize, Deserialize)]
struct StoredProfile {
    enabled: Option<bool>,
    server: Option<String>,
    name: Option<String>,
    key_seed: Option<String>,
}

impl StoredProfile {
    /// The profile kept in `text`: JSON, or earlier versions' RON (read once).
    fn read(text: &str) -> Result<OnlineProfile, String> {
        let stored: StoredProfile = if text.trim_start().starts_with('{') {
            miniserde::json::from_str(text).map_err(|_| "not the profile's JSON".to_owned())?
        } else {
            miniserde::json::from_str(&old_ron::to_json(text)?)
                .map_err(|_| "not an online profile".to_owned())?
        };
        Ok(OnlineProfile {
            enabled: stored.enabled.unwrap_or_default(),
            server: stored.server.unwrap_or_default(),
            name: stored.name,
            key_seed: stored.key_seed,
        })
    }
}

/// The server used when the profile names none: in the browser the page's own origin (the
/// server serves the game; an empty base makes every URL relative to the page), on the desktop
/// the local server `./build.sh server` runs.
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::new()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        "http://127.0.0.1:8787".to_owned()
    }
}

impl OnlineProfile {
    /// The saved profile; a missing one is the default (offline). A broken one is reported and
    /// the default used (and saving over it is the player's choice, in the settings).
    pub fn load(store: &Store) -> (OnlineProfile, Option<String>) {
        let text = match store.load(PROFILE_NAME, MAX_PROFILE_BYTES) {
            Ok(Some(text)) => text,
            Ok(None) => return (OnlineProfile::default(), None),
            Err(err) => return (OnlineProfile::default(), Some(err.to_string())),
        };
        match StoredProfile::read(&text) {
            Ok(profile) if profile.key_seed.as_deref().is_none_or(is_seed) => (profile, None),
            Ok(_) => (
                OnlineProfile::default(),
                Some(format!(
                    "{}: the key is not 64 hex digits",
                    store.place(PROFILE_NAME)
                )),
            ),
            Err(err) => (
                OnlineProfile::default(),
                Some(format!("{}: {err}", store.place(PROFILE_NAME))),
            ),
        }
    }

    /// The platform's profile store.
    pub fn platform_store() -> Store {
        Area::Main.store()
    }

    /// Saves it whole (atomically on the desktop).
    pub fn save(&self, store: &Store) -> Result<(), StoreError> {
        let stored = StoredProfile {
            enabled: Some(self.enabled),
            server: Some(self.server.clone()),
            name: self.name.clone(),
            key_seed: self.key_seed.clone(),
        };
        store.save(
            PROFILE_NAME,
            &(tether_online_proto::json::to_string(&stored) + "\n"),
        )
    }

    /// The server to talk to.
    pub fn server_url(&self) -> String {
        if self.server.trim().is_empty() {
            default_server()
        } else {
            self.server.trim().to_owned()
        }
    }

    /// The player's key, if they have one.
    pub fn identity(&self) -> Option<Identity> {
        let seed = hex::decode::<SEED_BYTES>(self.key_seed.as_deref()?)?;
        Some(Identity::from_seed(seed))
    }

    /// The player's key, made now from the platform's randomness if they have none (`Err` when
    /// the platform has no secure randomness: then there is no key and no going online).
    pub fn identity_or_new(&mut self) -> Result<Identity, String> {
        if let Some(identity) = self.identity() {
            return Ok(identity);
        }
        let seed = random_seed().ok_or("this device gives no secure randomness for a key")?;
        self.key_seed = Some(hex::encode(&seed));
        self.name = None;
        Ok(Identity::from_seed(seed))
    }

    /// The key as a code to write down, if there is a key.
    pub fn recovery_code(&self) -> Option<String> {
        self.identity()
            .map(|identity| recovery::encode(&identity.seed()))
    }

    /// Replaces the key by the one the code holds; the name is forgotten until the server says
    /// it again (`GET /api/v1/players/{key}`).
    pub fn import_recovery_code(&mut self, code: &str) -> Result<Identity, RecoveryCodeError> {
        let seed = recovery::decode(code)?;
        self.key_seed = Some(hex::encode(&seed));
        self.name = None;
        Ok(Identity::from_seed(seed))
    }
}

fn is_seed(text: &str) -> bool {
    hex::is_hex_id(text, SEED_BYTES * 2)
}

/// A name the server will take, or why not (the server's rule: 1-24 characters, nothing
/// invisible or bidirectional, no spaces at either end).
pub fn check_name(name: &str) -> Result<(), String> {
    limits::check_shown_text(name, 24).map_err(|problem| problem.to_string())?;
    if name.trim() != name {
        return Err("starts or ends with a space".into());
    }
    Ok(())
}

/// 32 bytes from the platform's secure randomness.
pub fn random_seed() -> Option<[u8; SEED_BYTES]> {
    let mut seed = [0u8; SEED_BYTES];
    #[cfg(not(target_arch = "wasm32"))]
    {
        getrandom::fill(&mut seed).ok()?;
    }
    #[cfg(target_arch = "wasm32")]
    {
        extern "C" {
            // web/net_plugin.js: crypto.getRandomValues; 1 when filled.
            fn tether_random_fill(ptr: *mut u8, len: u32) -> i32;
        }
        // SAFETY: the plugin writes exactly `len` bytes at `ptr`.
        if unsafe { tether_random_fill(seed.as_mut_ptr(), SEED_BYTES as u32) } != 1 {
            return None;
        }
    }
    // All zeros is what a stubbed plugin leaves: no randomness was given.
    (seed != [0u8; SEED_BYTES]).then_some(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_keeps_its_key_and_imports_a_code() {
        let store = Store::memory();
        let (mut profile, problem) = OnlineProfile::load(&store);
        assert_eq!((profile.enabled, problem), (false, None));
        let identity = profile.identity_or_new().unwrap();
        profile.enabled = true;
        profile.save(&store).unwrap();
        let (again, _) = OnlineProfile::load(&store);
        assert_eq!(
            again.identity().unwrap().public_key_hex(),
            identity.public_key_hex()
        );
        let code = again.recovery_code().unwrap();
        let mut other = OnlineProfile::default();
        let imported = other.import_recovery_code(&code).unwrap();
        assert_eq!(imported.public_key_hex(), identity.public_key_hex());
        assert!(other.import_recovery_code("ABC").is_err());
    }

    /// The profile as the versions that kept it in RON derived it (serde).
    #[derive(serde::Serialize)]
    struct OldProfile {
        enabled: bool,
        server: String,
        name: Option<String>,
        key_seed: Option<String>,
    }

    #[test]
    fn a_profile_kept_as_ron_by_earlier_versions_keeps_its_key_and_name() {
        let seed = "0123456789abcdef".repeat(4);
        let old = OldProfile {
            enabled: true,
            server: "https://tether.example/ \"x\"".into(),
            name: Some("Ada \u{e9}".into()),
            key_seed: Some(seed.clone()),
        };
        let store = Store::memory();
        let pretty = ron::ser::PrettyConfig::default();
        store
            .save(
                PROFILE_NAME,
                &ron::ser::to_string_pretty(&old, pretty).unwrap(),
            )
            .unwrap();
        let (profile, problem) = OnlineProfile::load(&store);
        assert_eq!(problem, None);
        let expected = OnlineProfile {
            enabled: true,
            server: old.server,
            name: old.name,
            key_seed: Some(seed),
        };
        assert_eq!(profile, expected);
        profile.save(&store).unwrap();
        let kept = store
            .load(PROFILE_NAME, MAX_PROFILE_BYTES)
            .unwrap()
            .unwrap();
        assert!(kept.starts_with("{\"enabled\":true,"), "{kept}");
        assert_eq!(OnlineProfile::load(&store), (expected, None));
    }

    #[test]
    fn a_broken_profile_is_reported_and_offline() {
        let store = Store::memory();
        store
            .save(PROFILE_NAME, "(enabled: true, key_seed: Some(\"zz\"))")
            .unwrap();
        let (profile, problem) = OnlineProfile::load(&store);
        assert!(!profile.enabled);
        assert!(problem.unwrap().contains("hex"));
        store.save(PROFILE_NAME, "(enabled: tru").unwrap();
        assert!(OnlineProfile::load(&store).1.is_some());
    }
}
