//! Who may use the desk: this computer freely; another computer (and,
//! behind a proxy or with a forwarding header, every client) with the
//! printed token only, or a phone with its night's capture token, which
//! opens the capture page and sends scans to that night and nothing else.
//! A request for another host's name, or a write whose `Origin` names
//! another site, is refused, so a page elsewhere can neither read nor
//! post; and no page may be framed by another.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

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

/// Who is let in: the token, and the names the desk is reached by.
#[derive(Debug, Clone)]
pub struct Door {
    pub token: String,
    /// Host names besides loopback names and addresses (`--host`): a
    /// name the desk is reached by on the club's network or through a
    /// proxy. Any other name is refused, so that a page of another site
    /// whose name was pointed at this computer (DNS rebinding) cannot
    /// read or write the desk from the organiser's own browser.
    pub names: Vec<String>,
    /// Behind a proxy on this computer every client looks like loopback:
    /// then none gets in without the token, and `https://` origins of
    /// the desk's names are its own.
    pub behind_proxy: bool,
    /// Each night's capture token, by the night's id: a phone's key.
    pub phones: Arc<Mutex<HashMap<i64, String>>>,
}

impl Door {
    pub fn new(token: &str) -> Door {
        Door {
            token: token.to_string(),
            names: Vec::new(),
            behind_proxy: false,
            phones: Arc::default(),
        }
    }

    /// Night `night`'s capture token, if it has one.
    pub fn phone_token(&self, night: i64) -> Option<String> {
        let phones = self.phones.lock().unwrap_or_else(|p| p.into_inner());
        phones.get(&night).cloned()
    }

    /// Makes `token` night `night`'s capture token: the old one opens
    /// nothing more.
    pub fn set_phone_token(&self, night: i64, token: &str) {
        let mut phones = self.phones.lock().unwrap_or_else(|p| p.into_inner());
        phones.insert(night, token.to_string());
    }

    /// The night whose capture token `given` is.
    fn phone_of(&self, given: &str) -> Option<i64> {
        use subtle::ConstantTimeEq;
        let phones = self.phones.lock().unwrap_or_else(|p| p.into_inner());
        phones
            .iter()
            .find(|(_, t)| bool::from(given.as_bytes().ct_eq(t.as_bytes())))
            .map(|(night, _)| *night)
    }

    /// Whether `host` (a `Host` header or an origin's host, port
    /// included) names this desk: an address written as such, a
    /// loopback name, or a name given.
    fn knows(&self, host: &str) -> bool {
        let name = match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        };
        let name = name.trim_start_matches('[').trim_end_matches(']');
        let name = name.to_ascii_lowercase();
        name.parse::<std::net::IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(&name))
    }

    /// The token shown, compared in constant time.
    fn shown(&self, given: Option<&str>) -> bool {
        use subtle::ConstantTimeEq;
        given.is_some_and(|g| bool::from(g.as_bytes().ct_eq(self.token.as_bytes())))
    }
}

/// Why a request is turned away, if it is.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    TokenNeeded,
    /// A phone's capture token on a path it does not open.
    PhoneOnly,
    OtherOrigin(String),
    OtherHost(String),
}

/// Who a request let in is: the desk (this computer, or a client with
/// the desk's token), a phone with night `.0`'s capture token, or anyone
/// on a public page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Desk,
    Phone(i64),
    Anyone,
}

/// What a phone's capture token opens: its page, and sending scans (and
/// reading their statuses).
const PHONE: &[&str] = &["/capture", "/api/scans", "/api/scans/take-back"];

/// The headers a proxy adds: a request with one came through a proxy,
/// whatever its peer, and is no request of this computer's.
const FORWARDING: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

/// The pages anyone who reaches the desk may fetch: the desk's shell and
/// the projector pages, which hold no archive data and fetch it through
/// `/api/` (with the token), and their assets. Every other path is
/// guarded, so a new page is guarded until it is named here.
const PUBLIC: &[&str] = &["/", "/standings", "/ranking", "/capture"];

fn public(path: &str) -> bool {
    PUBLIC.contains(&path) || path.starts_with("/assets/")
}

/// The rules: the `Host` a browser sends names this desk; a client not
/// on loopback (every client, behind a proxy or with a forwarding header)
/// shows a token (header `x-aufsicht-token` or `?token=`) for every path
/// but the [`PUBLIC`] ones: the desk's for all, a night's capture token
/// for the [`PHONE`] paths; a write's `Origin`, where sent, is this very host.
pub fn judge(
    peer: SocketAddr,
    path: &str,
    method: &Method,
    headers: &HeaderMap,
    query: Option<&str>,
    door: &Door,
) -> Result<Access, Refusal> {
    let host = headers.get("host").map(|h| h.to_str().unwrap_or_default());
    if let Some(host) = host.filter(|h| !door.knows(h)) {
        return Err(Refusal::OtherHost(host.to_string()));
    }
    let access = who(peer, path, headers, query, door)?;
    let writes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if writes && let Some(origin) = headers.get("origin") {
        let origin = origin.to_str().unwrap_or_default();
        let schemes: &[&str] = match door.behind_proxy {
            true => &["http://", "https://"],
            false => &["http://"],
        };
        let host = host.unwrap_or_default();
        let ours = schemes
            .iter()
            .find_map(|s| origin.strip_prefix(s))
            .is_some_and(|o| !host.is_empty() && o.eq_ignore_ascii_case(host));
        if !ours {
            return Err(Refusal::OtherOrigin(origin.to_string()));
        }
    }
    Ok(access)
}

/// Who the request comes from, by its peer and the token it shows.
fn who(
    peer: SocketAddr,
    path: &str,
    headers: &HeaderMap,
    query: Option<&str>,
    door: &Door,
) -> Result<Access, Refusal> {
    let forwarded = FORWARDING.iter().any(|h| headers.contains_key(*h));
    if peer.ip().is_loopback() && !door.behind_proxy && !forwarded {
        return Ok(Access::Desk);
    }
    let header = headers
        .get("x-aufsicht-token")
        .and_then(|v| v.to_str().ok());
    let in_query = query
        .unwrap_or_default()
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="));
    if door.shown(header) || door.shown(in_query) || door.shown(key_cookie(headers)) {
        return Ok(Access::Desk);
    }
    let phone = header.or(in_query).and_then(|t| door.phone_of(t));
    match phone {
        Some(night) if PHONE.contains(&path) => Ok(Access::Phone(night)),
        _ if public(path) => Ok(Access::Anyone),
        Some(_) => Err(Refusal::PhoneOnly),
        None => Err(Refusal::TokenNeeded),
    }
}

/// The cookie the desk's key is kept in once a browser showed it
/// (`POST /api/login`): HttpOnly and SameSite=Strict, so no page of
/// another site sends it and no script reads it.
pub const KEY_COOKIE: &str = "aufsicht_key";

/// The desk's key from the request's cookie, where it has one.
fn key_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix(KEY_COOKIE)?.strip_prefix('='))
}

/// Every answer refuses to be framed by another page: a foreign page that
/// framed the desk on this computer could lead the organiser's clicks.
fn unframed(mut response: Response) -> Response {
    use axum::http::HeaderValue;
    let headers = response.headers_mut();
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    response
}

pub async fn guard(
    State(desk): State<Arc<Desk>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let verdict = judge(
        peer,
        request.uri().path(),
        request.method(),
        request.headers(),
        request.uri().query(),
        &desk.door,
    );
    let response = match verdict {
        Ok(access) => {
            request.extensions_mut().insert(access);
            super::refusals::in_own_words(desk.lang, request, next).await
        }
        Err(Refusal::TokenNeeded) => (
            StatusCode::UNAUTHORIZED,
            say(desk.lang, "serve-token-needed", &[]),
        )
            .into_response(),
        Err(Refusal::PhoneOnly) => (
            StatusCode::FORBIDDEN,
            say(desk.lang, "serve-phone-only", &[]),
        )
            .into_response(),
        Err(Refusal::OtherOrigin(origin)) => (
            StatusCode::FORBIDDEN,
            say(desk.lang, "serve-forbidden-origin", &[("origin", &origin)]),
        )
            .into_response(),
        Err(Refusal::OtherHost(host)) => (
            StatusCode::MISDIRECTED_REQUEST,
            say(desk.lang, "serve-foreign-host", &[("host", &host)]),
        )
            .into_response(),
    };
    unframed(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the request is let in, whoever it is taken for.
    fn let_in(
        peer: SocketAddr,
        path: &str,
        method: &Method,
        headers: &HeaderMap,
        query: Option<&str>,
        door: &Door,
    ) -> Result<(), Refusal> {
        judge(peer, path, method, headers, query, door).map(drop)
    }

    #[test]
    fn a_forwarded_request_should_not_count_as_this_computer() {
        let here: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        for header in FORWARDING {
            let h = headers(&[(header, "203.0.113.9")]);
            let door = Door::new("t0k");
            assert_eq!(
                judge(
                    here,
                    "/api/sheets/3/verdict",
                    &Method::POST,
                    &h,
                    None,
                    &door
                ),
                Err(Refusal::TokenNeeded),
                "{header}"
            );
            assert_eq!(
                judge(
                    here,
                    "/api/sheets",
                    &Method::GET,
                    &h,
                    Some("token=t0k"),
                    &door
                ),
                Ok(Access::Desk),
                "{header} with the token"
            );
        }
    }

    #[test]
    fn a_phones_token_should_open_its_page_and_scans_and_nothing_else() {
        let there: SocketAddr = "192.168.1.20:5000".parse().expect("addr");
        let door = Door::new("t0k");
        assert_eq!(door.phone_token(7), None, "none until made");
        let key = new_token();
        door.set_phone_token(7, &key);
        assert_eq!(door.phone_token(7), Some(key.clone()), "one a night");
        let with = headers(&[("x-aufsicht-token", key.as_str())]);
        let asked = |path: &str, method: &Method, door: &Door| {
            judge(there, path, method, &with, None, door)
        };
        assert_eq!(asked("/capture", &Method::GET, &door), Ok(Access::Phone(7)));
        assert_eq!(
            asked("/api/scans", &Method::POST, &door),
            Ok(Access::Phone(7))
        );
        assert_eq!(
            asked("/api/scans", &Method::GET, &door),
            Ok(Access::Phone(7))
        );
        for path in [
            "/api/sheets",
            "/api/sheets/3/verdict",
            "/api/audit",
            "/audit",
            "/api/capture",
        ] {
            assert_eq!(
                asked(path, &Method::POST, &door),
                Err(Refusal::PhoneOnly),
                "{path}"
            );
        }
        assert_eq!(
            asked("/", &Method::GET, &door),
            Ok(Access::Anyone),
            "a public page"
        );
        let in_query = format!("token={key}&tournament=Herbst");
        assert_eq!(
            judge(
                there,
                "/capture",
                &Method::GET,
                &headers(&[]),
                Some(&in_query),
                &door
            ),
            Ok(Access::Phone(7))
        );
        // Renewed from the desk: the old token opens nothing more.
        let new = new_token();
        door.set_phone_token(7, &new);
        assert_ne!(new, key);
        assert_eq!(
            asked("/api/scans", &Method::POST, &door),
            Err(Refusal::TokenNeeded)
        );
        assert_eq!(asked("/capture", &Method::GET, &door), Ok(Access::Anyone));
    }

    #[test]
    fn every_answer_should_refuse_to_be_framed() {
        let r = unframed(StatusCode::UNAUTHORIZED.into_response());
        assert_eq!(r.headers()["x-frame-options"], "DENY");
        assert_eq!(
            r.headers()["content-security-policy"],
            "frame-ancestors 'none'"
        );
    }

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
            let_in(
                here,
                "/api/sheets",
                &Method::GET,
                &none,
                None,
                &Door::new("t0k")
            ),
            Ok(())
        );
        assert_eq!(
            let_in(
                there,
                "/api/sheets",
                &Method::GET,
                &none,
                None,
                &Door::new("t0k")
            ),
            Err(Refusal::TokenNeeded)
        );
        assert_eq!(
            let_in(
                there,
                "/api/sheets",
                &Method::GET,
                &none,
                Some("token=wrong"),
                &Door::new("t0k")
            ),
            Err(Refusal::TokenNeeded)
        );
        assert_eq!(
            let_in(
                there,
                "/api/sheets",
                &Method::GET,
                &none,
                Some("a=1&token=t0k"),
                &Door::new("t0k")
            ),
            Ok(())
        );
        assert_eq!(
            let_in(
                there,
                "/assets/desk.js",
                &Method::GET,
                &none,
                None,
                &Door::new("t0k")
            ),
            Ok(()),
            "no data"
        );
        let with = headers(&[("x-aufsicht-token", "t0k")]);
        assert_eq!(
            let_in(
                there,
                "/api/sheets",
                &Method::POST,
                &with,
                None,
                &Door::new("t0k")
            ),
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
            let_in(
                here,
                "/api/sheets",
                &Method::POST,
                &evil,
                None,
                &Door::new("t")
            ),
            Err(Refusal::OtherOrigin("http://evil.example".into()))
        );
        assert_eq!(
            let_in(
                here,
                "/api/sheets",
                &Method::GET,
                &evil,
                None,
                &Door::new("t")
            ),
            Ok(()),
            "reads are not writes"
        );
        let ours = headers(&[
            ("origin", "http://127.0.0.1:5000"),
            ("host", "127.0.0.1:5000"),
        ]);
        assert_eq!(
            let_in(
                here,
                "/api/sheets",
                &Method::POST,
                &ours,
                None,
                &Door::new("t")
            ),
            Ok(())
        );
        assert_eq!(
            let_in(
                here,
                "/api/sheets",
                &Method::POST,
                &headers(&[]),
                None,
                &Door::new("t")
            ),
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
                let_in(there, path, &Method::GET, &none, None, &Door::new("t0k")),
                Err(Refusal::TokenNeeded),
                "{path}"
            );
            assert_eq!(
                let_in(
                    there,
                    path,
                    &Method::GET,
                    &none,
                    Some("sheet=3&token=t0k"),
                    &Door::new("t0k")
                ),
                Ok(()),
                "{path} with the token"
            );
            assert_eq!(
                let_in(here, path, &Method::GET, &none, None, &Door::new("t0k")),
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
                let_in(there, path, &Method::GET, &none, None, &Door::new("t0k")),
                Ok(()),
                "{path} is public"
            );
        }
    }

    #[test]
    fn a_request_for_another_sites_name_should_be_refused() {
        let here: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        let door = Door {
            names: vec!["aufsicht.verein.de".into()],
            ..Door::new("t")
        };
        let asked = |host: &str| {
            let h = headers(&[("host", host)]);
            let_in(here, "/api/sheets", &Method::GET, &h, None, &door)
        };
        // A rebinding page's own name points at this computer now.
        assert_eq!(
            asked("evil.example:5000"),
            Err(Refusal::OtherHost("evil.example:5000".into()))
        );
        for ours in [
            "127.0.0.1:5000",
            "localhost:5000",
            "[::1]:5000",
            "192.168.1.5:8377",
            "AUFSICHT.verein.de",
        ] {
            assert_eq!(asked(ours), Ok(()), "{ours}");
        }
        let evil_origin = headers(&[
            ("host", "localhost:5000"),
            ("origin", "http://evil.example"),
        ]);
        assert_eq!(
            let_in(
                here,
                "/api/sheets",
                &Method::POST,
                &evil_origin,
                None,
                &door
            ),
            Err(Refusal::OtherOrigin("http://evil.example".into()))
        );
    }

    #[test]
    fn behind_a_proxy_no_client_should_pass_without_the_token() {
        let proxy: SocketAddr = "127.0.0.1:40000".parse().expect("addr");
        let door = Door {
            names: vec!["desk.example".into()],
            behind_proxy: true,
            ..Door::new("t0k")
        };
        let host = [("host", "desk.example")];
        assert_eq!(
            let_in(
                proxy,
                "/api/sheets",
                &Method::GET,
                &headers(&host),
                None,
                &door
            ),
            Err(Refusal::TokenNeeded)
        );
        let with = headers(&[
            ("host", "desk.example"),
            ("origin", "https://desk.example"),
            ("x-aufsicht-token", "t0k"),
        ]);
        assert_eq!(
            let_in(proxy, "/api/sheets", &Method::POST, &with, None, &door),
            Ok(()),
            "its https origin is its own"
        );
        let short = headers(&[("host", "desk.example"), ("x-aufsicht-token", "t0")]);
        assert_eq!(
            let_in(proxy, "/api/sheets", &Method::GET, &short, None, &door),
            Err(Refusal::TokenNeeded),
            "a token's beginning is no token"
        );
        let plain = Door::new("t0k");
        let https = headers(&[
            ("host", "127.0.0.1:5000"),
            ("origin", "https://127.0.0.1:5000"),
        ]);
        assert_eq!(
            let_in(proxy, "/api/sheets", &Method::POST, &https, None, &plain),
            Err(Refusal::OtherOrigin("https://127.0.0.1:5000".into())),
            "no https without a proxy"
        );
    }

    #[test]
    fn tokens_should_differ() {
        assert_ne!(new_token(), new_token());
        assert_eq!(new_token().len(), 32);
    }
}
