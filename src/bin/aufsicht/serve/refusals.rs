//! Every refusal a person can meet in the desk's words: a request body
//! that is not the JSON asked for, and whatever the web framework itself
//! refuses (no such address, a method an address does not take, a body
//! it cannot read), which it says in English.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use aufsicht::Lang;
use aufsicht::catalogue::say;

/// Marks a response whose words are the desk's own.
#[derive(Debug, Clone, Copy)]
pub struct OwnWords;

/// A request body read as JSON, or why not in one line of the desk's
/// words: serde's own words name fields in English.
pub fn json_body<T: serde::de::DeserializeOwned>(lang: Lang, body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| bad_json(lang, &e))
}

fn bad_json(lang: Lang, e: &serde_json::Error) -> String {
    let text = e.to_string();
    let named = |prefix: &str| {
        let rest = text.split_once(prefix)?.1;
        Some(rest.split('`').next()?.to_string())
    };
    let (line, column) = (e.line(), e.column());
    let problem = if let Some(field) = named("unknown field `") {
        say(lang, "json-unknown-field", &[("field", &field)])
    } else if let Some(field) = named("missing field `") {
        say(lang, "json-missing-field", &[("field", &field)])
    } else if e.is_data() {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("line", &line), ("column", &column)];
        say(lang, "json-wrong-kind", &args)
    } else {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("line", &line), ("column", &column)];
        say(lang, "json-not-json", &args)
    };
    say(lang, "edit-bad-body", &[("problem", &problem)])
}

/// The framework's own refusals (a 4xx or 5xx the desk did not word)
/// said in the desk's words, by their status.
pub async fn in_own_words(lang: Lang, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let refused = status.is_client_error() || status.is_server_error();
    if !refused || response.extensions().get::<OwnWords>().is_some() {
        return response;
    }
    let id = match status {
        StatusCode::NOT_FOUND => "http-not-found",
        StatusCode::METHOD_NOT_ALLOWED => "http-method",
        StatusCode::PAYLOAD_TOO_LARGE => "http-too-large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "http-media-type",
        s if s.is_client_error() => "http-bad-request",
        _ => "http-failed",
    };
    let mime = [(header::CONTENT_TYPE, "text/plain; charset=utf-8")];
    let mut words = (status, mime, say(lang, id, &[])).into_response();
    words.extensions_mut().insert(OwnWords);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        by: String,
        value: i64,
    }

    #[test]
    fn a_bad_body_should_be_said_in_german_naming_the_field() {
        let said = |body: &str| json_body::<Body>(Lang::De, body.as_bytes()).unwrap_err();
        let unknown = said(r#"{"by": "AB", "value": 3, "wert": 4}"#);
        assert!(unknown.contains("„wert“"), "{unknown}");
        let missing = said(r#"{"by": "AB"}"#);
        assert!(missing.contains("„value“"), "{missing}");
        let kind = said(r#"{"by": "AB", "value": "drei"}"#);
        assert!(kind.contains("Zeile 1"), "{kind}");
        let broken = said("{by");
        assert!(broken.contains("kein JSON"), "{broken}");
        for english in [unknown, missing, kind, broken] {
            for word in ["field", "expected", "invalid", "missing", "key must"] {
                assert!(!english.contains(word), "{english}");
            }
        }
    }
}
