//! Tether Online's client against a server that answers badly (a fake one, on loopback): a
//! garbage body, a 10 MB body and a body that never ends each end the call with a message fit
//! to show, and nothing panics or waits forever.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use tether::online::http::{Http, HttpFailure, Poll, Request};
use tether::online::{OnlineClient, OnlineError};

/// Answers every connection by the first segment of its path: `/garbage/...`, `/huge/...`,
/// `/endless/...`, `/refusal/...`. Returns its base URL.
fn start_fake_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer(stream));
        }
    });
    base
}

fn answer(mut stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    let _ = reader.read_line(&mut first);
    let path = first.split(' ').nth(1).unwrap_or("/").to_owned();
    // The request's head: skipped (bodies are not read, the fake answers regardless).
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let _ = match path.split('/').nth(1).unwrap_or("") {
        "garbage" => write_answer(&mut stream, 200, b"\x00\xff{{not json]]"),
        "refusal" => write_answer(&mut stream, 409, b"<html>conflict</html>"),
        "huge" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\n";
            stream.write_all(head.as_bytes()).and_then(|()| {
                let chunk = vec![b'['; 64 * 1024];
                (0..160).try_for_each(|_| stream.write_all(&chunk))
            })
        }
        _ => {
            // Never ends: a chunked body trickling one byte at a time until the client leaves.
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
            stream.write_all(head.as_bytes()).and_then(|()| loop {
                stream.write_all(b"1\r\n[\r\n")?;
                stream.flush()?;
                std::thread::sleep(Duration::from_millis(50));
            })
        }
    };
}

fn write_answer(stream: &mut TcpStream, status: u16, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

fn health_of(base: &str) -> OnlineError {
    let mut client = OnlineClient::new(base);
    let call = client.health();
    client.wait(call).expect_err("a bad answer is an error")
}

#[test]
fn a_garbage_answer_is_a_message() {
    let base = start_fake_server();
    let err = health_of(&format!("{base}/garbage"));
    assert!(
        matches!(err, OnlineError::Malformed { status: 200, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("makes no sense"), "{err}");
    let err = health_of(&format!("{base}/refusal"));
    assert!(
        matches!(err, OnlineError::Malformed { status: 409, .. }),
        "{err:?}"
    );
}

#[test]
fn a_huge_answer_is_cut_off() {
    let base = start_fake_server();
    let err = health_of(&format!("{base}/huge"));
    assert!(
        matches!(err, OnlineError::Http(HttpFailure::TooLarge { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("larger than"), "{err}");
}

#[test]
fn an_endless_answer_times_out() {
    let base = start_fake_server();
    let mut http = Http::new();
    let id = http.start(Request::get(format!("{base}/endless"), 1500, 1024 * 1024));
    let outcome = loop {
        match http.poll(id) {
            Poll::Pending => std::thread::sleep(Duration::from_millis(20)),
            other => break other,
        }
    };
    assert_eq!(
        outcome,
        Poll::Failed(HttpFailure::TimedOut { timeout_ms: 1500 })
    );
    assert_eq!(http.in_flight(), 0);
    assert_eq!(http.poll(id), Poll::Failed(HttpFailure::UnknownRequest));
}

#[test]
fn no_server_is_unreachable() {
    // A port that was free a moment ago: nobody listens there.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let err = health_of(&format!("http://127.0.0.1:{port}"));
    assert!(
        matches!(err, OnlineError::Http(HttpFailure::Unreachable(_))),
        "{err:?}"
    );
    assert!(err.is_transient());
}
