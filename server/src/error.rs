//! The one error every endpoint answers with: an HTTP status and a JSON body
//! `{"error": "<code>", "message": "<why, for a person>"}`. Codes are stable; messages may change.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// The code of every database failure.
const DATABASE_CODE: &str = "database";

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }

    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, code, message)
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// The database failed (not a refusal): the request's transaction is rolled back.
    pub fn is_database(&self) -> bool {
        self.code == DATABASE_CODE
    }

    pub fn rate_limited() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many requests; wait a moment",
        )
    }
}

/// Database failures are logged with their detail and answered without it.
impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        eprintln!("database error: {err}");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            DATABASE_CODE,
            "the database failed; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.code, "message": self.message });
        (self.status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
