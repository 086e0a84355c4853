//! HTML, escaped by construction. Every page the product writes is built
//! with `maud`, which escapes every value it is given, in text and in
//! attributes. What goes out unescaped is marked here, and only here (a
//! test holds every other source file to that): the product's own
//! compiled-in styles and scripts, and a result's JSON inside a script
//! element.

use maud::PreEscaped;
pub use maud::{DOCTYPE, Markup, html};

/// A style sheet or script compiled into the product: trusted because only
/// the source writes it (`&'static str`, never a value read at run time).
pub fn compiled_in(text: &'static str) -> PreEscaped<&'static str> {
    PreEscaped(text)
}

/// `json` as the text of a `<script type="application/json">` element,
/// which the browser does not unescape: every `<` written as `\u003c`, so
/// nothing in it can close the element.
pub fn json_script(id: &str, json: &str) -> Markup {
    let text = PreEscaped(json.replace('<', "\\u003c"));
    html! { script type="application/json" id=(id) { (text) } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_should_be_escaped_in_text_and_attributes() {
        let hostile = "<script>alert('x')</script> & \"q\"";
        let page = html! { p title=(hostile) { (hostile) } }.into_string();
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;"), "{page}");
        assert!(page.contains("&quot;q&quot;"), "{page}");
    }

    #[test]
    fn json_in_a_script_should_not_close_it() {
        let json = r#"{"source":"</script><script>alert(1)</script>"}"#;
        let page = json_script("sheet-0", json).into_string();
        assert_eq!(page.matches("</script>").count(), 1, "{page}");
        let text = page
            .trim_start_matches(r#"<script type="application/json" id="sheet-0">"#)
            .trim_end_matches("</script>");
        let parsed: serde_json::Value = serde_json::from_str(text).expect("still JSON");
        assert_eq!(parsed["source"], "</script><script>alert(1)</script>");
    }

    #[test]
    fn nothing_but_this_module_should_write_html_unescaped() {
        let this = std::path::Path::new(file!());
        for (path, text) in crate::source_files() {
            if path.ends_with(this.file_name().expect("a file")) {
                continue;
            }
            for marker in ["PreEscaped", "maud::Markup::from", "fn esc(", "fn escape("] {
                assert!(
                    !text.contains(marker),
                    "{} writes HTML by hand ({marker}): use crate::html",
                    path.display()
                );
            }
        }
    }
}
