//! Who may use the desk: this computer freely; another computer with the
//! printed token only. A write whose `Origin` names another site is
//! refused, so a page elsewhere cannot post corrections.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use aufsicht::catalogue::say;

use super::Desk;

/// A fresh random token (128 bits, hex).
pub fn new_token() -> String {
    use rand::RngExt;
    format!("{:032x}", rand::rng().random::<u128>())
}

/// Why a request is turned away, if it is.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    TokenNeeded,
    OtherOrigin(String),
}

/// The pages anyone who reaches the desk may fetch: the desk's shell and
/// the projector pages, which hold no archive data and fetch it through
/// `/api/` (with the token), and their assets. Every other path is
/// guarded, so a new page is guarded until it is named here.
const PUBLIC: &[&str] = &["/", "/standings", "/ranking"];

fn public(path: &str) -> bool {
    PUBLIC.contains(&path) || path.starts_with("/assets/")
}

/// The rules: a client not on loopback shows the token (header
/// `x-aufsicht-token` or `?token=`) for every path but the [`PUBLIC`]
/// ones; a write's `Origin`, where sent, is this very host.
pub fn judge(
    peer: SocketAddr,
    path: &str,
    method: &Method,
    headers: &HeaderMap,
    query: Option<&str>,
    token: &str,
) -> Result<(), Refusal> {
    if !peer.ip().is_loopback() && !public(path) {
        let header = headers
            .get("x-aufsicht-token")
            .and_then(|v| v.to_str().ok());
        let in_query = query
            .unwrap_or_default()
            .split('&')
            .find_map(|kv| kv.strip_prefix("token="));
        if header != Some(token) && in_query != Some(token) {
            return Err(Refusal::TokenNeeded);
        }
    }
    let writes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if writes && let Some(origin) = headers.get("origin") {
        let origin = origin.to_str().unwrap_or_default();
        let host = headers
            .get("host")
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let ours = origin
            .strip_prefix("http://")
            .is_some_and(|o| !host.is_empty() && o == host);
        if !ours {
            return Err(Refusal::OtherOrigin(origin.to_string()));
        }
    }
    Ok(())
}

pub async fn guard(
    State(desk): State<Arc<Desk>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let verdict = judge(
        peer,
        request.uri().path(),
        request.method(),
        request.headers(),
        request.uri().query(),
        &desk.token,
    );
    match verdict {
        Ok(()) => next.run(request).await,
        Err(Refusal::TokenNeeded) => (
            StatusCode::UNAUTHORIZED,
            say(desk.lang, "serve-token-needed", &[]),
        )
            .into_response(),
        Err(Refusal::OtherOrigin(origin)) => (
            StatusCode::FORBIDDEN,
            say(desk.lang, "serve-forbidden-origin", &[("origin", &origin)]),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().expect("header"));
        }
        h
    }

    #[test]
    fn another_computer_should_need_the_token_and_this_one_not() {
        let here: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        let there: SocketAddr = "192.168.1.20:5000".parse().expect("addr");
        let none = headers(&[]);
        assert_eq!(
            judge(here, "/api/sheets", &Method::GET, &none, None, "t0k"),
            Ok(())
        );
        assert_eq!(
            judge(there, "/api/sheets", &Method::GET, &none, None, "t0k"),
            Err(Refusal::TokenNeeded)
        );
        assert_eq!(
            judge(
                there,
                "/api/sheets",
                &Method::GET,
                &none,
                Some("token=wrong"),
                "t0k"
            ),
            Err(Refusal::TokenNeeded)
        );
        assert_eq!(
            judge(
                there,
                "/api/sheets",
                &Method::GET,
                &none,
                Some("a=1&token=t0k"),
                "t0k"
            ),
            Ok(())
        );
        assert_eq!(
            judge(there, "/assets/desk.js", &Method::GET, &none, None, "t0k"),
            Ok(()),
            "no data"
        );
        let with = headers(&[("x-aufsicht-token", "t0k")]);
        assert_eq!(
            judge(there, "/api/sheets", &Method::POST, &with, None, "t0k"),
            Ok(())
        );
    }

    #[test]
    fn a_write_from_another_site_should_be_refused() {
        let here: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        let evil = headers(&[
            ("origin", "http://evil.example"),
            ("host", "127.0.0.1:5000"),
        ]);
        assert_eq!(
            judge(here, "/api/sheets", &Method::POST, &evil, None, "t"),
            Err(Refusal::OtherOrigin("http://evil.example".into()))
        );
        assert_eq!(
            judge(here, "/api/sheets", &Method::GET, &evil, None, "t"),
            Ok(()),
            "reads are not writes"
        );
        let ours = headers(&[
            ("origin", "http://127.0.0.1:5000"),
            ("host", "127.0.0.1:5000"),
        ]);
        assert_eq!(
            judge(here, "/api/sheets", &Method::POST, &ours, None, "t"),
            Ok(())
        );
        assert_eq!(
            judge(here, "/api/sheets", &Method::POST, &headers(&[]), None, "t"),
            Ok(()),
            "a script"
        );
    }

    #[test]
    fn every_route_but_the_public_pages_should_need_the_token_from_afar() {
        let here: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        let there: SocketAddr = "10.0.0.7:5000".parse().expect("addr");
        let none = headers(&[]);
        let guarded = [
            "/audit",
            "/api/sheets",
            "/api/sheets/3",
            "/api/sheets/3/view",
            "/api/sheets/3/trail",
            "/api/sheets/3/values",
            "/api/sheets/3/initials",
            "/api/sheets/3/verdict",
            "/api/standings",
            "/api/audit",
            "/no-such-page",
        ];
        for path in guarded {
            assert_eq!(
                judge(there, path, &Method::GET, &none, None, "t0k"),
                Err(Refusal::TokenNeeded),
                "{path}"
            );
            assert_eq!(
                judge(
                    there,
                    path,
                    &Method::GET,
                    &none,
                    Some("sheet=3&token=t0k"),
                    "t0k"
                ),
                Ok(()),
                "{path} with the token"
            );
            assert_eq!(
                judge(here, path, &Method::GET, &none, None, "t0k"),
                Ok(()),
                "{path} here"
            );
        }
        for path in [
            "/",
            "/standings",
            "/ranking",
            "/assets/desk.js",
            "/assets/desk.css",
        ] {
            assert_eq!(
                judge(there, path, &Method::GET, &none, None, "t0k"),
                Ok(()),
                "{path} is public"
            );
        }
    }

    #[test]
    fn tokens_should_differ() {
        assert_ne!(new_token(), new_token());
        assert_eq!(new_token().len(), 32);
    }
}
