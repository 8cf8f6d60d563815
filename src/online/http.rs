//! HTTP that never blocks a frame: `Http::start` sends a request and returns its id at once;
//! the caller polls the id each frame until it is done (status and body) or failed
//! (unreachable, timed out, too large). Every request ends: its timeout covers connecting,
//! the answer's head and its whole body, and a body over its byte limit is cut off and failed.
//!
//! On the desktop each request runs on a worker thread with ureq (rustls, no OpenSSL) and
//! reports through a channel; in the browser web/net_plugin.js runs it with `fetch`, an
//! AbortController for the timeout and a streamed size cap. Both are this one type.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One request. A body is sent as `text/plain`: a browser on another origin then sends the
/// request without a CORS preflight (docs/online.md).
#[derive(Clone, Debug)]
pub struct Request {
    pub method: Method,
    pub url: String,
    pub body: Option<String>,
    /// From the start to the last byte of the answer.
    pub timeout_ms: u32,
    /// A longer answer fails with `HttpFailure::TooLarge` (and is not read further).
    pub max_response_bytes: u32,
}

impl Request {
    pub fn get(url: String, timeout_ms: u32, max_response_bytes: u32) -> Request {
        Request {
            method: Method::Get,
            url,
            body: None,
            timeout_ms,
            max_response_bytes,
        }
    }

    pub fn post(url: String, body: String, timeout_ms: u32, max_response_bytes: u32) -> Request {
        Request {
            method: Method::Post,
            url,
            body: Some(body),
            timeout_ms,
            max_response_bytes,
        }
    }
}

/// A request in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RequestId(u32);

/// An answer: any status (a refusal's JSON is read like a success's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Why a request has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpFailure {
    /// No connection (no server there, no network, a bad address); the detail is for logs.
    Unreachable(String),
    /// The answer was not complete within the request's timeout.
    TimedOut { timeout_ms: u32 },
    /// The answer was longer than the request allowed.
    TooLarge { limit_bytes: u32 },
    /// Anything else the transport reports (a broken connection mid-answer, a refused URL).
    Other(String),
    /// The id is not (or no longer) a request of this `Http`: it was already reported.
    UnknownRequest,
}

impl fmt::Display for HttpFailure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            HttpFailure::Unreachable(_) => write!(f, "the server cannot be reached"),
            HttpFailure::TimedOut { timeout_ms } => write!(
                f,
                "the server did not answer within {} s",
                timeout_ms.div_ceil(1000)
            ),
            HttpFailure::TooLarge { limit_bytes } => write!(
                f,
                "the server's answer is larger than {} KB",
                limit_bytes.div_ceil(1024)
            ),
            HttpFailure::Other(detail) => write!(
                f,
                "the connection failed ({})",
                crate::sim::limits::printable(&shorten(detail, 120))
            ),
            HttpFailure::UnknownRequest => write!(f, "the request was already answered"),
        }
    }
}

/// At most `max_chars` characters of `text`, with "…" when cut.
pub fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Where a request stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Poll {
    Pending,
    Done(Response),
    Failed(HttpFailure),
}

/// The requests in flight. Polling a finished request reports it once and forgets it.
pub struct Http {
    backend: backend::Backend,
}

impl Default for Http {
    fn default() -> Http {
        Http::new()
    }
}

impl Http {
    pub fn new() -> Http {
        Http {
            backend: backend::Backend::new(),
        }
    }

    /// Sends `request` and returns at once.
    pub fn start(&mut self, request: Request) -> RequestId {
        RequestId(self.backend.start(request))
    }

    /// Where the request stands; `Done` and `Failed` are reported once.
    pub fn poll(&mut self, id: RequestId) -> Poll {
        self.backend.poll(id.0)
    }

    /// Requests not yet reported.
    pub fn in_flight(&self) -> usize {
        self.backend.in_flight()
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod backend {
    //! A thread per request: requests are few (a handful per finished run), and a blocked
    //! thread is bounded by the request's timeout.

    use std::collections::HashMap;
    use std::io::Read;
    use std::sync::mpsc::{channel, Receiver, TryRecvError};
    use std::time::Duration;

    use super::{HttpFailure, Method, Poll, Request, Response};

    type Outcome = Result<Response, HttpFailure>;

    pub struct Backend {
        next_id: u32,
        waiting: HashMap<u32, Receiver<Outcome>>,
    }

    impl Backend {
        pub fn new() -> Backend {
            Backend {
                next_id: 1,
                waiting: HashMap::new(),
            }
        }

        pub fn start(&mut self, request: Request) -> u32 {
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1).max(1);
            let (send, receive) = channel();
            self.waiting.insert(id, receive);
            let spawned = std::thread::Builder::new()
                .name("tether-http".into())
                .spawn(move || {
                    // The caller may have gone (the game closed a screen): nobody to tell then.
                    let _ = send.send(run(&request));
                });
            if let Err(err) = spawned {
                let (send, receive) = channel();
                let _ = send.send(Err(HttpFailure::Other(format!("no thread: {err}"))));
                self.waiting.insert(id, receive);
            }
            id
        }

        pub fn poll(&mut self, id: u32) -> Poll {
            let Some(receive) = self.waiting.get(&id) else {
                return Poll::Failed(HttpFailure::UnknownRequest);
            };
            let outcome = match receive.try_recv() {
                Err(TryRecvError::Empty) => return Poll::Pending,
                Err(TryRecvError::Disconnected) => {
                    Err(HttpFailure::Other("the request's thread stopped".into()))
                }
                Ok(outcome) => outcome,
            };
            self.waiting.remove(&id);
            match outcome {
                Ok(response) => Poll::Done(response),
                Err(failure) => Poll::Failed(failure),
            }
        }

        pub fn in_flight(&self) -> usize {
            self.waiting.len()
        }
    }

    fn run(request: &Request) -> Outcome {
        let timeout = Duration::from_millis(u64::from(request.timeout_ms));
        let agent = ureq::AgentBuilder::new()
            .timeout(timeout)
            .redirects(0)
            .build();
        let call = agent.request(request.method.name(), &request.url);
        let answered = match (&request.body, request.method) {
            (Some(body), _) => call
                .set("Content-Type", "text/plain;charset=UTF-8")
                .send_string(body),
            (None, Method::Post) => call.send_string(""),
            (None, Method::Get) => call.call(),
        };
        let response = match answered {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(ureq::Error::Transport(transport)) => {
                return Err(transport_failure(&transport, request.timeout_ms))
            }
        };
        let status = response.status();
        let limit = u64::from(request.max_response_bytes);
        let mut body = Vec::new();
        response
            .into_reader()
            .take(limit + 1)
            .read_to_end(&mut body)
            .map_err(|err| io_failure(&err, request.timeout_ms))?;
        if body.len() as u64 > limit {
            return Err(HttpFailure::TooLarge {
                limit_bytes: request.max_response_bytes,
            });
        }
        Ok(Response { status, body })
    }

    fn transport_failure(transport: &ureq::Transport, timeout_ms: u32) -> HttpFailure {
        use std::error::Error;
        let timed_out = transport
            .source()
            .and_then(|source| source.downcast_ref::<std::io::Error>())
            .is_some_and(is_timeout);
        match transport.kind() {
            _ if timed_out => HttpFailure::TimedOut { timeout_ms },
            ureq::ErrorKind::Dns | ureq::ErrorKind::ConnectionFailed => {
                HttpFailure::Unreachable(transport.to_string())
            }
            _ => HttpFailure::Other(transport.to_string()),
        }
    }

    fn io_failure(err: &std::io::Error, timeout_ms: u32) -> HttpFailure {
        if is_timeout(err) {
            HttpFailure::TimedOut { timeout_ms }
        } else {
            HttpFailure::Other(err.to_string())
        }
    }

    fn is_timeout(err: &std::io::Error) -> bool {
        matches!(
            err.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        )
    }
}

#[cfg(target_arch = "wasm32")]
mod backend {
    //! web/net_plugin.js keeps the requests; Rust holds their ids.

    use super::{HttpFailure, Poll, Request, Response};

    extern "C" {
        // web/net_plugin.js. `body_len` < 0: no body. Returns the request's id (> 0).
        fn tether_http_start(
            method: *const u8,
            method_len: u32,
            url: *const u8,
            url_len: u32,
            body: *const u8,
            body_len: i32,
            timeout_ms: u32,
            max_bytes: u32,
        ) -> u32;
        // 0 pending, 1 done, 2 unreachable, 3 timed out, 4 too large, 5 unknown id.
        fn tether_http_poll(id: u32) -> i32;
        fn tether_http_status(id: u32) -> i32;
        fn tether_http_body_len(id: u32) -> i32;
        // Copies the body (at most `cap` bytes) and forgets the request.
        fn tether_http_take(id: u32, ptr: *mut u8, cap: u32) -> i32;
    }

    /// The loader checks `<plugin name>_crate_version` against the plugin's version.
    #[no_mangle]
    pub extern "C" fn tether_net_crate_version() -> u32 {
        1
    }

    pub struct Backend {
        /// Each request in flight: its id, timeout and byte limit (to name them in a failure).
        requests: Vec<(u32, u32, u32)>,
    }

    impl Backend {
        pub fn new() -> Backend {
            Backend {
                requests: Vec::new(),
            }
        }

        pub fn start(&mut self, request: Request) -> u32 {
            let method = request.method.name();
            let (body_ptr, body_len) = match &request.body {
                Some(body) => (body.as_ptr(), body.len() as i32),
                None => (std::ptr::null(), -1),
            };
            // SAFETY: the plugin copies the strings before returning.
            let id = unsafe {
                tether_http_start(
                    method.as_ptr(),
                    method.len() as u32,
                    request.url.as_ptr(),
                    request.url.len() as u32,
                    body_ptr,
                    body_len,
                    request.timeout_ms,
                    request.max_response_bytes,
                )
            };
            self.requests
                .push((id, request.timeout_ms, request.max_response_bytes));
            id
        }

        pub fn poll(&mut self, id: u32) -> Poll {
            // SAFETY: plain integer calls.
            let state = unsafe { tether_http_poll(id) };
            if state == 0 {
                return Poll::Pending;
            }
            let Some(at) = self.requests.iter().position(|(known, ..)| *known == id) else {
                return Poll::Failed(HttpFailure::UnknownRequest);
            };
            let (_, timeout_ms, limit_bytes) = self.requests.swap_remove(at);
            let (status, len) = unsafe { (tether_http_status(id), tether_http_body_len(id)) };
            let mut body = vec![0u8; len.max(0) as usize];
            // SAFETY: the plugin writes at most `cap` bytes into the buffer.
            let copied = unsafe { tether_http_take(id, body.as_mut_ptr(), body.len() as u32) };
            body.truncate(copied.max(0) as usize);
            match state {
                1 => Poll::Done(Response {
                    status: status.clamp(0, u16::MAX as i32) as u16,
                    body,
                }),
                2 => Poll::Failed(HttpFailure::Unreachable("fetch failed".into())),
                3 => Poll::Failed(HttpFailure::TimedOut { timeout_ms }),
                4 => Poll::Failed(HttpFailure::TooLarge { limit_bytes }),
                _ => Poll::Failed(HttpFailure::UnknownRequest),
            }
        }

        pub fn in_flight(&self) -> usize {
            self.requests.len()
        }
    }
}
