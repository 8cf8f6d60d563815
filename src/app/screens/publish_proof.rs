//! The proof run of each of "My levels": the editor's test play that reached the goal from the
//! spawn, kept with the SHA-256 of the exact level text it played (the platform store's
//! `Area::Proofs`, under the level's shelf name, written whole or not at all). Publish uploads
//! the level with it; the service re-simulates it and refuses a level without one
//! (`no_author_clear`) or with assists on (`assisted_author_run`). A change to the level's
//! text leaves the proof in place but no longer matching: Publish says so, and a new finish
//! replaces it.

use miniserde::Deserialize;

use super::online_levels_cache::level_sha256_hex;
use crate::online::old_ron;
use crate::platform::store::{Area, Store, StoreError};
use crate::sim::{limits, Replay};

/// A proof file holds one replay and a few fields.
const MAX_PROOF_FILE_BYTES: u64 = limits::MAX_REPLAY_FILE_BYTES + 4096;

/// A finishing run of one level text, as kept: RON, `(level_sha256: "..", ticks: N, replay:
/// "..")`, as the `ron` crate wrote it in earlier versions. Read through `old_ron` and written
/// by `to_ron`, not by `ron`'s serde code: that code instantiated for this one type was 1.8 KB
/// of the browser's gzipped download (docs/online.md, "Download cost").
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ProofRun {
    /// Hex SHA-256 of the level text the run played.
    pub level_sha256: String,
    /// The tick the run reached the goal on: the level's author time.
    pub ticks: u64,
    /// The run's replay (RON), played with `replay`'s own assists.
    pub replay: String,
}

impl ProofRun {
    /// The proof as kept: the RON `ron::ser::to_string_pretty` writes for it (strings with
    /// `escape_debug`'s escapes, which `ron` and `old_ron` both read).
    fn to_ron(&self) -> String {
        format!(
            "(\n    level_sha256: {:?},\n    ticks: {},\n    replay: {:?},\n)",
            self.level_sha256, self.ticks, self.replay
        )
    }

    /// The proof kept in `text`, or why it is not one.
    fn from_ron(text: &str) -> Result<ProofRun, String> {
        miniserde::json::from_str(&old_ron::to_json(text)?)
            .map_err(|_| "not a proof run: (level_sha256, ticks, replay)".to_owned())
    }

    /// Whether the run was played with an assist on (the service refuses it as the author's).
    pub fn assisted(&self) -> bool {
        Replay::from_ron(&self.replay, "proof").map_or(true, |run| run.assists.any())
    }
}

/// Whether a level can be published, and if not what is missing.
#[derive(Clone, Debug, PartialEq)]
pub enum Readiness {
    /// Its kept run finishes this very text without assists.
    Ready(ProofRun),
    /// No finishing run is kept.
    NotFinished,
    /// The kept run finished an earlier version of the text.
    Changed,
    /// The kept run for this text had assists on.
    Assisted,
    /// The kept run cannot be read (the problem, naming where it is kept).
    Unreadable(String),
}

impl Readiness {
    /// What Publish says when the level is not ready (none: it is).
    pub fn missing(&self) -> Option<String> {
        match self {
            Readiness::Ready(_) => None,
            Readiness::NotFinished => {
                Some("finish it in test play first (from the spawn, Tab in the editor)".into())
            }
            Readiness::Changed => Some(
                "changed since your finishing run: finish it in test play again, then save".into(),
            ),
            Readiness::Assisted => Some(
                "your finishing run had assists on: finish it in test play without assists".into(),
            ),
            Readiness::Unreadable(problem) => Some(format!(
                "the finishing run cannot be read ({problem}): finish it in test play again"
            )),
        }
    }
}

/// What decides Publish: the level's current `text` against the kept proof.
pub fn readiness(text: &str, kept: Result<Option<ProofRun>, String>) -> Readiness {
    match kept {
        Err(problem) => Readiness::Unreadable(problem),
        Ok(None) => Readiness::NotFinished,
        Ok(Some(proof)) if proof.level_sha256 != level_sha256_hex(text) => Readiness::Changed,
        Ok(Some(proof)) if proof.assisted() => Readiness::Assisted,
        Ok(Some(proof)) => Readiness::Ready(proof),
    }
}

/// Where the proof runs are kept.
#[derive(Clone, Debug)]
pub struct ProofShelf {
    store: Store,
}

impl ProofShelf {
    pub fn platform_default() -> ProofShelf {
        ProofShelf {
            store: Area::Proofs.store(),
        }
    }

    pub fn memory() -> ProofShelf {
        ProofShelf {
            store: Store::memory(),
        }
    }

    /// The proof kept for the shelf level `name`, if any; a broken one is an error naming
    /// where it is kept.
    pub fn load(&self, name: &str) -> Result<Option<ProofRun>, String> {
        let place = self.store.place(name).to_string();
        let Some(text) = self
            .store
            .load(name, MAX_PROOF_FILE_BYTES)
            .map_err(|e| e.to_string())?
        else {
            return Ok(None);
        };
        ProofRun::from_ron(&text)
            .map(Some)
            .map_err(|problem| format!("{place}: {problem}"))
    }

    /// Keeps `run`, which reached the goal on `ticks` playing `played_text`, as the proof of
    /// the shelf level `name`, unless the proof kept for that same text is better: played
    /// without assists where this one had them, or faster. Returns whether it was kept.
    pub fn offer(
        &self,
        name: &str,
        played_text: &str,
        ticks: u64,
        run: &Replay,
    ) -> Result<bool, StoreError> {
        let proof = ProofRun {
            level_sha256: level_sha256_hex(played_text),
            ticks,
            replay: run.without_unread_aims().to_ron(),
        };
        if let Ok(Some(kept)) = self.load(name) {
            let same_text = kept.level_sha256 == proof.level_sha256;
            let kept_is_better = match (kept.assisted(), run.assists.any()) {
                (false, true) => true,
                (true, false) => false,
                _ => kept.ticks <= ticks,
            };
            if same_text && kept_is_better {
                return Ok(false);
            }
        }
        self.store.save(name, &proof.to_ron())?;
        Ok(true)
    }

    /// Forgets the proof of a deleted level (none kept is not a problem).
    pub fn remove(&self, name: &str) -> Result<(), StoreError> {
        match self.store.remove(name) {
            Err(StoreError::Missing { .. }) => Ok(()),
            done => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::InputFrame;

    fn run(ticks: usize, assisted: bool) -> Replay {
        let mut replay = Replay::new("my_level.ron");
        for _ in 0..ticks {
            replay.push(InputFrame::default());
        }
        replay.assists.invincible = assisted;
        replay
    }

    #[test]
    fn publish_needs_an_unassisted_finish_of_the_current_text() {
        let proofs = ProofShelf::memory();
        let text = "Level(name: \"A\")";
        assert_eq!(
            readiness(text, proofs.load("a")),
            Readiness::NotFinished,
            "nothing kept"
        );
        assert!(proofs.offer("a", text, 300, &run(300, true)).unwrap());
        assert_eq!(readiness(text, proofs.load("a")), Readiness::Assisted);
        assert!(proofs.offer("a", text, 400, &run(400, false)).unwrap());
        let Readiness::Ready(proof) = readiness(text, proofs.load("a")) else {
            panic!("an unassisted finish of this text is ready");
        };
        assert_eq!(proof.ticks, 400);
        assert_eq!(
            Replay::from_ron(&proof.replay, "p").unwrap().tick_count(),
            400
        );
        // A slower or assisted run of the same text does not replace it; a faster one does.
        assert!(!proofs.offer("a", text, 500, &run(500, false)).unwrap());
        assert!(!proofs.offer("a", text, 200, &run(200, true)).unwrap());
        assert!(proofs.offer("a", text, 350, &run(350, false)).unwrap());
        assert!(matches!(readiness(text, proofs.load("a")), Readiness::Ready(p) if p.ticks == 350));

        let edited = "Level(name: \"A\", kill_y_m: -20.0)";
        let changed = readiness(edited, proofs.load("a"));
        assert_eq!(changed, Readiness::Changed);
        assert!(changed.missing().unwrap().contains("changed since"));
        // Any finish of the new text replaces the proof of the old one.
        assert!(proofs.offer("a", edited, 900, &run(900, false)).unwrap());
        assert!(matches!(
            readiness(edited, proofs.load("a")),
            Readiness::Ready(_)
        ));

        proofs.remove("a").unwrap();
        proofs.remove("a").unwrap();
        assert_eq!(readiness(edited, proofs.load("a")), Readiness::NotFinished);
    }

    /// `ProofRun` as earlier versions kept it, through `ron`'s serde code.
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct RonProof {
        level_sha256: String,
        ticks: u64,
        replay: String,
    }

    #[test]
    fn proofs_are_kept_as_the_ron_earlier_versions_wrote_and_read() {
        let replay = run(3, false).without_unread_aims().to_ron();
        let nasty = "quote \" back \\ tab \t esc \u{1b} nul \0 é ☃ 'x' \u{301}".to_owned();
        for replay in [replay, nasty] {
            let proof = ProofRun {
                level_sha256: level_sha256_hex("Level()"),
                ticks: 177,
                replay,
            };
            let earlier = RonProof {
                level_sha256: proof.level_sha256.clone(),
                ticks: proof.ticks,
                replay: proof.replay.clone(),
            };
            let earlier_text =
                ron::ser::to_string_pretty(&earlier, ron::ser::PrettyConfig::new()).unwrap();
            assert_eq!(ProofRun::from_ron(&earlier_text), Ok(proof.clone()));
            assert_eq!(ron::from_str::<RonProof>(&proof.to_ron()), Ok(earlier));
            assert_eq!(ProofRun::from_ron(&proof.to_ron()), Ok(proof.clone()));
            if proof.replay.is_ascii() {
                assert_eq!(
                    proof.to_ron(),
                    earlier_text,
                    "the same text as earlier versions"
                );
            }
        }
    }

    #[test]
    fn a_broken_proof_is_named_not_trusted() {
        let proofs = ProofShelf::memory();
        proofs.store.save("a", "(level_sha256: ").unwrap();
        let said = readiness("x", proofs.load("a"));
        assert!(
            matches!(&said, Readiness::Unreadable(p) if p.contains("a (not kept)")),
            "{said:?}"
        );
        assert!(said
            .missing()
            .unwrap()
            .contains("finish it in test play again"));
    }
}
