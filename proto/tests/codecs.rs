//! The wire types' two JSON codecs agree: the game's (miniserde's reader, and
//! `tether_online_proto::json`'s writer) and serde_json's (the server's). What the game sends must be the very bytes serde_json would write, and what it
//! reads must be the value serde_json would read, or a refusal where serde_json refuses, over
//! fixtures that include hostile answers. The three answers they read differently are in
//! `the_codecs_differ_only_here`; any other disagreement fails.
#![cfg(feature = "serde")]

use tether_online_proto::wire::*;
use tether_online_proto::{Identity, SignedEnvelope, SEED_BYTES};

/// Strings that test the escaping: quotes, backslashes, every control character, non-ASCII,
/// astral characters, and text that looks like JSON.
fn awkward_strings() -> Vec<String> {
    let controls: String = (0u8..0x20).map(char::from).collect();
    vec![
        String::new(),
        "Ada".into(),
        "quote \" backslash \\ slash / ".into(),
        controls,
        "\u{7f}\u{80}\u{a0}é漢字\u{2028}\u{2029}\u{feff}".into(),
        "🦀 astral \u{1F600}".into(),
        r#"{"rank":1,"nested":["x"]}"#.into(),
        "x".repeat(5000),
    ]
}

fn same_bytes<T: miniserde::Serialize + serde::Serialize>(value: &T) {
    let mini = tether_online_proto::json::to_string(value);
    let serde = serde_json::to_string(value).unwrap();
    assert_eq!(
        mini, serde,
        "the game's writer and serde_json write different bytes"
    );
}

#[test]
fn what_the_game_sends_is_byte_for_byte_what_serde_json_writes() {
    for text in awkward_strings() {
        same_bytes(&RegisterBody { name: text.clone() });
        same_bytes(&SessionBody {
            level: text.clone(),
        });
        for ticks in [0, 1, u64::from(u32::MAX) + 1, u64::MAX] {
            same_bytes(&SubmitBody {
                session: text.clone(),
                level: text.clone(),
                sim_version: u32::MAX,
                ticks,
                replay: text.clone(),
            });
            same_bytes(&PublishBody {
                text: text.clone(),
                replay: text.clone(),
                ticks,
            });
        }
        same_bytes(&SignedEnvelope {
            key: text.clone(),
            nonce: text.clone(),
            sig: text.clone(),
            body: text.clone(),
        });
    }
    for (rating, difficulty) in [(1, 5), (0, 255)] {
        same_bytes(&RatingBody { rating, difficulty });
    }
}

#[test]
fn the_signed_envelope_is_what_the_server_reads() {
    let identity = Identity::from_seed([9; SEED_BYTES]);
    for body in awkward_strings() {
        let text = identity.envelope("00ff", &body);
        let read: SignedEnvelope = serde_json::from_str(&text).unwrap();
        assert_eq!(read.body, body);
        assert_eq!(read.key, identity.public_key_hex());
    }
}

/// Both codecs read `text` as `T`: the same value, or both refuse.
fn same_reading<T>(text: &str) -> Option<T>
where
    T: miniserde::Deserialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let mini = miniserde::json::from_str::<T>(text).ok();
    let serde = serde_json::from_str::<T>(text).ok();
    assert_eq!(
        mini,
        serde,
        "the codecs read differently: {}",
        shorten(text)
    );
    mini
}

fn shorten(text: &str) -> String {
    text.chars().take(200).collect()
}

/// What the server writes (serde_json) the game reads (miniserde) as the same value.
fn reads_back<T>(value: &T)
where
    T: serde::Serialize
        + miniserde::Deserialize
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
{
    let text = serde_json::to_string(value).unwrap();
    assert_eq!(same_reading::<T>(&text).as_ref(), Some(value));
    let pretty = serde_json::to_string_pretty(value).unwrap();
    assert_eq!(same_reading::<T>(&pretty).as_ref(), Some(value));
}

fn entry(rank: i64, name: &str) -> BoardEntry {
    BoardEntry {
        rank,
        player: "ab".repeat(32),
        name: name.into(),
        ticks: i64::MAX,
        run: i64::MIN,
    }
}

fn level_info(name: &str, detail: bool) -> LevelInfo {
    LevelInfo {
        hash: "cd".repeat(32),
        name: name.into(),
        author: detail.then(|| name.to_owned()),
        campaign: detail,
        plays: 0,
        finishes: -1,
        clear_rate: detail.then_some(0.1 + 0.2),
        author_ticks: 1234,
        rating: Some(4.999999999999999),
        difficulty: detail.then_some(f64::MIN_POSITIVE),
        created_ms: 1_764_000_000_000,
        finishers: detail.then_some(3),
        record: detail.then(|| LevelRecord {
            run: 7,
            ticks: 99,
            name: name.into(),
        }),
    }
}

#[test]
fn what_the_server_writes_the_game_reads_as_the_same_value() {
    for text in awkward_strings() {
        reads_back(&ErrorAnswer {
            error: text.clone(),
            message: text.clone(),
        });
        reads_back(&PlayerAnswer {
            key: text.clone(),
            name: text.clone(),
        });
        reads_back(&NonceAnswer {
            nonce: text.clone(),
            expires_in_ms: u64::MAX,
        });
        reads_back(&SessionAnswer {
            session: text.clone(),
            started_ms: -1,
        });
        reads_back(&SubmitAnswer {
            id: i64::MIN,
            status: text.clone(),
            flagged: true,
        });
        for reason in [None, Some(text.clone())] {
            reads_back(&RunStatusAnswer {
                id: 1,
                status: text.clone(),
                reason,
                ticks: 5,
                flagged: false,
                level: text.clone(),
                player: text.clone(),
                assisted: true,
            });
        }
        reads_back(&BoardAnswer {
            entries: vec![entry(1, &text), entry(2, "b")],
        });
        reads_back(&BoardAnswer { entries: vec![] });
        for top_percent in [100.0, 0.1, 1e-300, 33.333333333333336] {
            reads_back(&AroundAnswer {
                rank: 1,
                of: 3,
                top_percent,
                ticks: 5,
                run: 2,
                around: vec![entry(1, &text)],
            });
        }
        reads_back(&LevelList {
            levels: vec![level_info(&text, false), level_info(&text, true)],
        });
        reads_back(&level_info(&text, true));
        reads_back(&PublishAnswer {
            hash: text.clone(),
            name: text.clone(),
            author_ticks: 0,
        });
    }
    reads_back(&Health {
        ok: true,
        sim_version: u32::MAX,
    });
}

/// Answers no server should send: both codecs must agree on each (the same value or both
/// refusing).
#[test]
fn hostile_answers_are_read_alike() {
    let health = [
        r#"{"ok":true,"sim_version":3,"new":{"a":[1,-2.5e3,{"b":null,"c":"\u00e9"}]}}"#,
        r#"  {"sim_version":3,"ok":true}  "#,
        r#"{"ok":"true","sim_version":3}"#,
        r#"{"ok":true,"sim_version":-1}"#,
        r#"{"ok":true,"sim_version":4294967296}"#,
        r#"{"ok":true,"sim_version":3.0}"#,
        r#"{"ok":true,"sim_version":3e0}"#,
        r#"{"ok":true,"sim_version":1e400}"#,
        r#"{"ok":true,"sim_version":99999999999999999999999}"#,
        r#"{"ok":true,"sim_version":null}"#,
        r#"{"ok":true}"#,
        r#"{"ok":true,"sim_version":3"#,
        r#"{"ok":true,"sim_version":3} x"#,
        r#"{"ok":true,"sim_version":3}{}"#,
        r#"{"ok":true,"sim_version":03}"#,
        r#"{"ok":true,"sim_version":+3}"#,
        r#"{"ok":tru,"sim_version":3}"#,
        r#"{'ok':true,'sim_version':3}"#,
        r#"{"ok":true,"sim_version":3,}"#,
        r#"{"ok" true,"sim_version":3}"#,
        r#"{"ok":true,"sim_version":3,"x":1,"x":2}"#,
        &format!(
            r#"{{"ok":true,"sim_version":3,"x":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
        "",
        "null",
        "\u{feff}{\"ok\":true,\"sim_version\":3}",
    ];
    for text in health {
        same_reading::<Health>(text);
    }
    let errors = [
        r#"{"error":"\u00e9\ud83e\udd80","message":"m"}"#,
        r#"{"error":"\ud800","message":"m"}"#,
        r#"{"error":"\udc00\ud800","message":"m"}"#,
        r#"{"error":"\x","message":"m"}"#,
        r#"{"error":"\u12","message":"m"}"#,
        r#"{"error":"\u12G4","message":"m"}"#,
        "{\"error\":\"a\u{1}b\",\"message\":\"m\"}",
        "{\"error\":\"tab\tin\",\"message\":\"m\"}",
        r#"{"error":"a","message":"m","extra":"#,
        r#"{"error":["a"],"message":"m"}"#,
        r#"{"error":1,"message":"m"}"#,
    ];
    for text in errors {
        same_reading::<ErrorAnswer>(text);
    }
    let around = [
        r#"{"rank":1,"of":1,"top_percent":100,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":-0.0,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":NaN,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":1e400,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":-1e-400,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":1.7976931348623157e308,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":0.30000000000000004,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":12345678901234567890123,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1.5,"of":1,"top_percent":1,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":9223372036854775807,"of":1,"top_percent":1,"ticks":-9223372036854775808,"run":2,"around":[]}"#,
        r#"{"rank":9223372036854775808,"of":1,"top_percent":1,"ticks":5,"run":2,"around":[]}"#,
        r#"{"rank":1,"of":1,"top_percent":1,"ticks":5,"run":2,"around":[{"rank":"1"}]}"#,
        r#"{"rank":1,"of":1,"top_percent":1,"ticks":5,"run":2,"around":{}}"#,
        r#"{"rank":1,"of":1,"top_percent":1,"ticks":5,"run":2,"around":null}"#,
    ];
    for text in around {
        same_reading::<AroundAnswer>(text);
    }
    let levels = [
        r#"{"levels":[{"hash":"h","name":"n","author":null,"campaign":false,"plays":0,"finishes":0,"clear_rate":null,"author_ticks":1,"rating":null,"difficulty":null,"created_ms":0}]}"#,
        r#"{"levels":[{"hash":"h","name":"n","author":null,"campaign":false,"plays":0,"finishes":0,"clear_rate":null,"author_ticks":1,"rating":null,"difficulty":null,"created_ms":0,"record":{"run":1}}]}"#,
    ];
    for text in levels {
        same_reading::<LevelList>(text);
    }
}

/// The only answers the codecs read differently. None matters to the game: no server sends
/// them, and a hostile server gains nothing it could not get by sending the value itself.
#[test]
fn the_codecs_differ_only_here() {
    // A struct written as an array: serde_json takes the fields in order; miniserde refuses.
    assert!(serde_json::from_str::<Health>("[true,3]").is_ok());
    assert!(miniserde::json::from_str::<Health>("[true,3]").is_err());
    // A field twice: serde_json refuses; miniserde keeps one of them.
    let twice = r#"{"ok":true,"ok":false,"sim_version":3}"#;
    assert!(serde_json::from_str::<Health>(twice).is_err());
    assert_eq!(
        miniserde::json::from_str::<Health>(twice)
            .unwrap()
            .sim_version,
        3
    );
    // Minus zero where an integer is due: serde_json reads a float and refuses; miniserde 0.
    let minus_zero = r#"{"id":-0,"status":"pending","flagged":false}"#;
    assert!(serde_json::from_str::<SubmitAnswer>(minus_zero).is_err());
    assert_eq!(
        miniserde::json::from_str::<SubmitAnswer>(minus_zero)
            .unwrap()
            .id,
        0
    );
}
