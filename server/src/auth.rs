//! Signed writes. Every write is a JSON envelope
//! `{"key": hex public key, "nonce": from GET /api/v1/nonce, "sig": hex signature, "body": "..."}`
//! whose `body` is the request's own JSON, kept as a string so its exact bytes are what was
//! signed. The signature is ed25519 over `tether-v1\n<nonce>\n<body>`. The nonce is deleted as
//! it is used, so a captured request cannot be replayed.

use serde::de::DeserializeOwned;
use serde::Serialize;
use tether_online_proto::hex::is_hex_id;
use tether_online_proto::{EnvelopeError, SignedEnvelope};

use sqlx::AnyConnection;

use crate::db::{now_ms, random_hex};
use crate::error::{ApiError, ApiResult};

/// How long an issued nonce may wait for its request.
pub const NONCE_LIFETIME_MS: i64 = 5 * 60 * 1000;
/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A request whose signature checked out: the signer's key (lowercase hex) and the body text.
pub struct Signed {
    pub key: String,
    pub body: String,
}

/// Checks the envelope's form and signature (no database yet): the key and body on success,
/// and the nonce still to be used up.
pub fn check_signature(raw: &[u8]) -> ApiResult<(Signed, String)> {
    let envelope: SignedEnvelope = serde_json::from_slice(raw)
        .map_err(|err| ApiError::bad_request("bad_envelope", format!("envelope: {err}")))?;
    let key = envelope.verify().map_err(|err| match err {
        EnvelopeError::NotHex { .. } => ApiError::bad_request("bad_envelope", err.to_string()),
        EnvelopeError::NotAKey => ApiError::bad_request("bad_key", err.to_string()),
        EnvelopeError::BadSignature => ApiError::unauthorized("bad_signature", err.to_string()),
    })?;
    let signed = Signed {
        key,
        body: envelope.body,
    };
    Ok((signed, envelope.nonce))
}

/// Issues a fresh nonce (and drops expired ones).
pub async fn issue_nonce(conn: &mut AnyConnection) -> ApiResult<String> {
    let now = now_ms();
    sqlx::query("DELETE FROM nonces WHERE expires_ms < $1")
        .bind(now)
        .execute(&mut *conn)
        .await?;
    let nonce = random_hex(16);
    sqlx::query("INSERT INTO nonces (nonce, expires_ms) VALUES ($1, $2)")
        .bind(&nonce)
        .bind(now + NONCE_LIFETIME_MS)
        .execute(&mut *conn)
        .await?;
    Ok(nonce)
}

/// Uses up a nonce: one DELETE, so two requests racing with the same nonce cannot both pass.
pub async fn consume_nonce(conn: &mut AnyConnection, nonce: &str) -> ApiResult<()> {
    let deleted = if !is_hex_id(nonce, 32) {
        0
    } else {
        sqlx::query("DELETE FROM nonces WHERE nonce = $1 AND expires_ms >= $2")
            .bind(nonce)
            .bind(now_ms())
            .execute(conn)
            .await?
            .rows_affected()
    };
    if deleted == 1 {
        Ok(())
    } else {
        Err(ApiError::unauthorized(
            "bad_nonce",
            "the nonce is unknown, expired or already used; get a new one",
        ))
    }
}

/// Checks a display name: 1..=24 characters, no control or bidirectional characters, no
/// leading or trailing spaces. The message never repeats the name's raw characters.
pub fn check_name(name: &str) -> ApiResult<()> {
    tether_sim::limits::check_shown_text(name, MAX_NAME_CHARS)
        .map_err(|problem| problem.to_string())
        .and_then(|()| {
            if name.trim() != name {
                Err("starts or ends with a space".to_string())
            } else if name
                .chars()
                .any(|c| matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}'))
            {
                Err("holds an invisible formatting character".to_string())
            } else {
                Ok(())
            }
        })
        .map_err(|problem| ApiError::bad_request("bad_name", format!("name {problem}")))
}

/// The form two names are compared in for uniqueness ("Ada" and "ADA" are the same name).
pub fn fold_name(name: &str) -> String {
    name.to_lowercase()
}

/// Parses a signed body as `T` (a `tether_online_proto::wire` body), naming the problem. A NUL
/// anywhere in its texts is refused first: PostgreSQL cannot store one in TEXT (the fuzz test
/// found it), and no field needs it. A field `T` does not have is refused too, so a client
/// that misspells one hears of it rather than having it ignored.
pub fn parse_body<T: DeserializeOwned + Serialize>(body: &str) -> ApiResult<T> {
    let bad_body =
        |err: serde_json::Error| ApiError::bad_request("bad_body", format!("body: {err}"));
    let value: serde_json::Value = serde_json::from_str(body).map_err(bad_body)?;
    if holds_nul(&value) {
        return Err(ApiError::bad_request(
            "bad_body",
            "body: a text holds a NUL character",
        ));
    }
    let parsed: T = serde_json::from_value(value.clone()).map_err(bad_body)?;
    refuse_unknown_fields(&value, &parsed)?;
    Ok(parsed)
}

/// The shared wire types are lenient (the game reads answers that may grow), so the server's
/// strictness about requests is here: every field sent must be one `parsed` writes back.
fn refuse_unknown_fields(sent: &serde_json::Value, parsed: &impl Serialize) -> ApiResult<()> {
    let (serde_json::Value::Object(sent), Ok(serde_json::Value::Object(known))) =
        (sent, serde_json::to_value(parsed))
    else {
        return Ok(());
    };
    match sent.keys().find(|name| !known.contains_key(*name)) {
        Some(name) => Err(ApiError::bad_request(
            "bad_body",
            format!("body: unknown field {name:?}"),
        )),
        None => Ok(()),
    }
}

fn holds_nul(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(text) => text.contains('\0'),
        serde_json::Value::Array(items) => items.iter().any(holds_nul),
        serde_json::Value::Object(fields) => fields
            .iter()
            .any(|(name, v)| name.contains('\0') || holds_nul(v)),
        _ => false,
    }
}
