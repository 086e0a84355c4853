//! Form templates: where every field of a printed sheet lies, in millimetres
//! from the page's top-left corner, and what is printed around the fields.
//!
//! The shipped templates are in `templates/forms/`; a club describes its own
//! form in the same JSON and passes its path to `--form`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::page::template_error::TemplateError;

const BUILTIN: &[(&str, &str)] = &[
    (
        "punkteliste-a4-32",
        include_str!("../../templates/forms/punkteliste-a4-32.json"),
    ),
    (
        "doko-a4-24x5",
        include_str!("../../templates/forms/doko-a4-24x5.json"),
    ),
];

/// A side of a printed page, in mm: from a postcard to beyond A1. A template
/// outside is a typo, and would make pages of billions of pixels.
const PAGE_MM: std::ops::RangeInclusive<f64> = 50.0..=1000.0;
const MAX_SEATS: usize = 8;
const MAX_GAMES: usize = 200;
/// The fewest game rows a form has: its print is confirmed on its first,
/// middle and last row apart.
pub const MIN_GAMES: usize = 2;
const MAX_LINE_MM: f64 = 20.0;
const MAX_TEXT_MM: f64 = 100.0;

pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

/// `[x, y, w, h]` in mm.
pub type MmBox = [f64; 4];

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct PlusMinus {
    pub plus: MmBox,
    pub minus: MmBox,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Fields {
    pub round: MmBox,
    pub table: MmBox,
    pub player_id: Vec<MmBox>,
    #[serde(default)]
    pub player_name: Vec<MmBox>,
    /// Per printed game row, per seat.
    pub game: Vec<Vec<PlusMinus>>,
    pub initials: Vec<MmBox>,
    pub gesamt: Vec<PlusMinus>,
    pub abzug: Vec<MmBox>,
    pub endergebnis: Vec<MmBox>,
    pub signature: Vec<MmBox>,
}

/// A printed text: `y` is the middle of the text line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Text {
    pub text: String,
    pub x: f64,
    pub y: f64,
    /// Cap height in mm.
    pub size: f64,
    #[serde(default)]
    pub bold: bool,
    /// `left` (default), `center` or `right` of `x`.
    #[serde(default)]
    pub anchor: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FormTemplate {
    pub id: String,
    /// `schafkopf` or `doppelkopf`.
    pub game: String,
    pub page_mm: [f64; 2],
    pub seats: usize,
    pub games: usize,
    pub fields: Fields,
    #[serde(default)]
    pub title: Option<String>,
    /// The outer box of the game table.
    #[serde(default)]
    pub grid: Option<MmBox>,
    /// Ruled lines `[x1, y1, x2, y2, width]`; derived from the field boxes when absent.
    #[serde(default)]
    pub lines: Vec<[f64; 5]>,
    #[serde(default)]
    pub texts: Vec<Text>,
    /// Where `print` puts a drawn table's code (a square: x, y, side,
    /// side); right of the player block when absent.
    #[serde(default)]
    pub code: Option<MmBox>,
}

impl FormTemplate {
    /// The SHA-256 (hex) of the template as stored (its JSON): a form
    /// re-learnt after a reprint is another form under the same id, and a
    /// sheet names the one it was read on.
    pub fn content_sha256(&self) -> String {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_string(self).unwrap_or_default();
        Sha256::digest(json.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The box of a printed sheet's code: the template's, or a 15 mm
    /// square 1.5 mm right of the player block, level with its numbers
    /// (away from the paper's edge, which a scanner may cut off).
    pub fn code_box(&self) -> MmBox {
        self.code.unwrap_or_else(|| {
            let right = self
                .fields
                .player_id
                .iter()
                .map(|b| b[0] + b[2])
                .fold(0.0, f64::max);
            let top = self.fields.player_id.first().map_or(27.0, |b| b[1] - 6.0);
            [right + 1.5, top, 15.0, 15.0]
        })
    }

    /// A built-in id or the path of a club's own template.
    pub fn load(name_or_path: &str) -> Result<Self, TemplateError> {
        if let Some((id, text)) = BUILTIN.iter().find(|(id, _)| *id == name_or_path) {
            return Self::from_json(&format!("templates/forms/{id}.json"), text);
        }
        let path = Path::new(name_or_path);
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|e| TemplateError::Read {
                file: path.to_path_buf(),
                problem: crate::page::unreadable::FileProblem::from(&e),
            })?;
            return Self::from_json(&path.display().to_string(), &text);
        }
        Err(TemplateError::Unknown {
            what: crate::page::template_error::TemplateKind::Form,
            name: name_or_path.to_string(),
            known: builtin_ids().collect::<Vec<_>>().join(", "),
        })
    }

    pub fn builtins() -> Vec<Self> {
        builtin_ids().filter_map(|id| Self::load(id).ok()).collect()
    }

    /// The shipped forms and every template (`*.json`) in a club's folder,
    /// in name order: the forms a page is recognised among.
    pub fn builtins_and(dir: &Path) -> Result<Vec<Self>, TemplateError> {
        let unreadable = |e: &std::io::Error| TemplateError::Read {
            file: dir.to_path_buf(),
            problem: crate::page::unreadable::FileProblem::from(e),
        };
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| unreadable(&e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        let mut forms = Self::builtins();
        for path in paths {
            forms.push(Self::load(&path.display().to_string())?);
        }
        Ok(forms)
    }

    pub fn from_json(file: &str, text: &str) -> Result<Self, TemplateError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let mut form: FormTemplate =
            serde_path_to_error::deserialize(de).map_err(|e| match e.inner().classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    TemplateError::NotJson {
                        file: file.to_string(),
                        line: e.inner().line(),
                    }
                }
                _ => TemplateError::Invalid {
                    file: file.to_string(),
                    line: Some(e.inner().line()),
                    field: e.path().to_string(),
                    message: e.inner().to_string(),
                },
            })?;
        form.validate(file)?;
        if form.lines.is_empty() {
            form.lines = form.derived_lines();
        }
        if form.grid.is_none() {
            form.grid = Some(form.derived_grid());
        }
        Ok(form)
    }

    fn validate(&self, file: &str) -> Result<(), TemplateError> {
        let bad = |field: &str, message: String| TemplateError::Invalid {
            file: file.to_string(),
            line: None,
            field: field.to_string(),
            message,
        };
        let [w, h] = self.page_mm;
        if !(PAGE_MM.contains(&w) && PAGE_MM.contains(&h)) {
            return Err(bad(
                "page_mm",
                format!(
                    "a page of {w} × {h} mm is no printed sheet: give {} to {} mm a side",
                    PAGE_MM.start(),
                    PAGE_MM.end()
                ),
            ));
        }
        if !(1..=MAX_SEATS).contains(&self.seats) || !(MIN_GAMES..=MAX_GAMES).contains(&self.games)
        {
            return Err(bad(
                "seats",
                format!(
                    "{} seats and {} game rows: give 1 to {MAX_SEATS} seats and {MIN_GAMES} to {MAX_GAMES} rows",
                    self.seats, self.games
                ),
            ));
        }
        if let Some(i) = self.lines.iter().position(|l| {
            let on_page =
                |x: f64, y: f64| (-1.0..=w + 1.0).contains(&x) && (-1.0..=h + 1.0).contains(&y);
            !(on_page(l[0], l[1]) && on_page(l[2], l[3]) && (0.0..=MAX_LINE_MM).contains(&l[4]))
        }) {
            return Err(bad(
                &format!("lines[{i}]"),
                format!("a ruled line lies off the page or is wider than {MAX_LINE_MM} mm"),
            ));
        }
        if let Some(i) = self.texts.iter().position(|t| {
            !((0.0..=w).contains(&t.x)
                && (0.0..=h).contains(&t.y)
                && (0.5..=MAX_TEXT_MM).contains(&t.size))
        }) {
            return Err(bad(
                &format!("texts[{i}]"),
                format!("a printed text lies off the page or is not 0.5 to {MAX_TEXT_MM} mm high"),
            ));
        }
        let f = &self.fields;
        for (name, len) in [
            ("fields.player_id", f.player_id.len()),
            ("fields.gesamt", f.gesamt.len()),
            ("fields.abzug", f.abzug.len()),
            ("fields.endergebnis", f.endergebnis.len()),
            ("fields.signature", f.signature.len()),
        ] {
            if len != self.seats {
                return Err(bad(
                    name,
                    format!("has {len} boxes for {} seats", self.seats),
                ));
            }
        }
        if f.game.len() != self.games || f.initials.len() != self.games {
            return Err(bad(
                "fields.game",
                format!("needs {} rows (and as many `initials` boxes)", self.games),
            ));
        }
        if let Some(i) = f.game.iter().position(|r| r.len() != self.seats) {
            return Err(bad(
                &format!("fields.game[{i}]"),
                format!("needs {} seats", self.seats),
            ));
        }
        let inside = |b: &MmBox| {
            b[2] > 0.0
                && b[3] > 0.0
                && b[0] >= 0.0
                && b[1] >= 0.0
                && b[0] + b[2] <= w
                && b[1] + b[3] <= h
        };
        if let Some(grid) = self.grid.filter(|g| !inside(g)) {
            return Err(bad(
                "grid",
                format!("the table {grid:?} lies outside the page"),
            ));
        }
        if let Some((name, _)) = self.named_boxes().into_iter().find(|(_, b)| !inside(b)) {
            return Err(bad(
                &format!("fields.{name}"),
                "box lies outside the page".into(),
            ));
        }
        Ok(())
    }

    /// Every field box with a name for messages.
    pub fn named_boxes(&self) -> Vec<(String, MmBox)> {
        let f = &self.fields;
        let mut out = vec![
            ("round".to_string(), f.round),
            ("table".to_string(), f.table),
        ];
        for (s, b) in f.player_id.iter().enumerate() {
            out.push((format!("player_id[{s}]"), *b));
        }
        for (r, row) in f.game.iter().enumerate() {
            for (s, pm) in row.iter().enumerate() {
                out.push((format!("game[{r}][{s}].plus"), pm.plus));
                out.push((format!("game[{r}][{s}].minus"), pm.minus));
            }
            out.push((format!("initials[{r}]"), f.initials[r]));
        }
        for s in 0..self.seats {
            out.push((format!("gesamt[{s}].plus"), f.gesamt[s].plus));
            out.push((format!("gesamt[{s}].minus"), f.gesamt[s].minus));
            out.push((format!("abzug[{s}]"), f.abzug[s]));
            out.push((format!("endergebnis[{s}]"), f.endergebnis[s]));
            out.push((format!("signature[{s}]"), f.signature[s]));
        }
        out
    }

    fn derived_lines(&self) -> Vec<[f64; 5]> {
        let mut lines = Vec::new();
        for (_, [x, y, w, h]) in self.named_boxes() {
            lines.push([x, y, x + w, y, 0.2]);
            lines.push([x, y + h, x + w, y + h, 0.2]);
            lines.push([x, y, x, y + h, 0.2]);
            lines.push([x + w, y, x + w, y + h, 0.2]);
        }
        lines.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        lines.dedup();
        lines
    }

    fn derived_grid(&self) -> MmBox {
        let boxes: Vec<MmBox> = self
            .fields
            .game
            .iter()
            .flatten()
            .flat_map(|pm| [pm.plus, pm.minus])
            .collect();
        let x0 = boxes.iter().map(|b| b[0]).fold(f64::MAX, f64::min);
        let y0 = boxes.iter().map(|b| b[1]).fold(f64::MAX, f64::min);
        let x1 = boxes.iter().map(|b| b[0] + b[2]).fold(f64::MIN, f64::max);
        let y1 = self
            .fields
            .endergebnis
            .iter()
            .map(|b| b[1] + b[3])
            .fold(f64::MIN, f64::max);
        [x0, y0, x1 - x0, y1 - y0]
    }

    pub fn grid(&self) -> MmBox {
        self.grid.unwrap_or_else(|| self.derived_grid())
    }

    /// Whether the form prints its game rows' numbers: a "1" beside the
    /// first game row.
    pub fn prints_row_numbers(&self) -> bool {
        let Some(first) = self.fields.game.first().and_then(|row| row.first()) else {
            return false;
        };
        let [x, y, _, h] = first.plus;
        self.texts
            .iter()
            .any(|t| t.text.trim() == "1" && t.x < x && (t.y - (y + h / 2.0)).abs() < h / 2.0)
    }
}

/// A form with the hash it is known by: for a version an archive keeps,
/// the hash stored when it was kept (a later release may write the same
/// template otherwise); for a form at hand, its content's.
#[derive(Debug, Clone)]
pub struct KnownForm {
    pub sha256: String,
    pub form: FormTemplate,
    /// A version an archive kept (its nights' sheets were read on it).
    pub kept: bool,
}

impl KnownForm {
    /// A form at hand, by its content.
    pub fn of(form: FormTemplate) -> Self {
        KnownForm {
            sha256: form.content_sha256(),
            form,
            kept: false,
        }
    }
}

/// The form a stored sheet was read on, among `forms` (an archive's kept
/// versions newest first, then the forms at hand): the version its hash
/// names; for a sheet that names none (read before forms had versions),
/// the oldest kept version of its id, the one its night read it on;
/// otherwise the first of its id.
pub fn find_for<'a>(
    forms: &'a [KnownForm],
    id: Option<&str>,
    sha256: Option<&str>,
) -> Option<&'a FormTemplate> {
    let id = id?;
    let of_id = || forms.iter().filter(move |f| f.form.id == id);
    let found = match sha256 {
        Some(sha) => of_id().find(|f| f.sha256 == sha),
        None => of_id().rfind(|f| f.kept),
    };
    found.or_else(|| of_id().next()).map(|f| &f.form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_forms_load_with_their_lines() {
        for id in builtin_ids() {
            let form = FormTemplate::load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(form.id, id);
            assert!(form.lines.len() > 50);
            assert_eq!(form.fields.game.len(), form.games);
        }
    }

    #[test]
    fn a_file_that_is_no_json_should_be_named_so_in_german() {
        use crate::catalogue::Tell;
        let refused = FormTemplate::from_json("notiz.json", "Tisch 7 fehlt");
        let Err(e @ TemplateError::NotJson { .. }) = refused else {
            panic!("taken as JSON: {refused:?}");
        };
        assert_eq!(
            e.tell(crate::Lang::De),
            "notiz.json ist keine Vorlage: Zeile 1 ist kein JSON (eine Vorlage schreibt form learn)"
        );
    }

    #[test]
    fn a_form_of_one_game_row_should_be_refused_in_one_line() {
        use crate::catalogue::Tell;
        let text = include_str!("../../templates/forms/punkteliste-a4-32.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["games"] = 1.into();
        for rows in ["game", "initials"] {
            let kept = value["fields"][rows].as_array().expect("rows")[..1].to_vec();
            value["fields"][rows] = kept.into();
        }
        let refused = FormTemplate::from_json("verein.json", &value.to_string());
        let Err(e @ TemplateError::Invalid { .. }) = refused else {
            panic!("a form of one row taken: {refused:?}");
        };
        let said = e.tell(crate::Lang::De);
        assert!(
            said.contains("verein.json") && !said.contains('\n'),
            "{said}"
        );
    }

    #[test]
    fn a_club_form_without_lines_gets_them_from_its_boxes() {
        let text = include_str!("../../templates/forms/punkteliste-a4-32.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        let obj = value.as_object_mut().expect("object");
        obj.remove("lines");
        obj.remove("grid");
        let form = FormTemplate::from_json("club.json", &value.to_string()).expect("form");
        assert!(form.lines.len() > 100);
        let g = form.grid();
        assert!(
            (g[0] - 32.0).abs() < 1e-9 && (g[1] - 63.0).abs() < 1e-9,
            "{g:?}"
        );
    }

    #[test]
    fn a_box_off_the_page_is_refused() {
        let text = include_str!("../../templates/forms/doko-a4-24x5.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["fields"]["round"] = serde_json::json!([205.0, 14.0, 14.0, 8.0]);
        let err = FormTemplate::from_json("club.json", &value.to_string())
            .unwrap_err()
            .to_string();
        assert!(err.contains("fields.round"), "{err}");
    }

    fn refusal(change: impl FnOnce(&mut serde_json::Value)) -> String {
        let text = include_str!("../../templates/forms/punkteliste-a4-32.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        change(&mut value);
        FormTemplate::from_json("club.json", &value.to_string())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_page_of_absurd_size_is_refused_before_anything_is_drawn() {
        let err = refusal(|v| v["page_mm"] = serde_json::json!([1e9, 1e9]));
        assert!(err.contains("field `page_mm`"), "{err}");
        let err = refusal(|v| v["page_mm"] = serde_json::json!([0.0, 297.0]));
        assert!(err.contains("field `page_mm`"), "{err}");
    }

    #[test]
    fn a_giant_text_or_a_line_off_the_page_is_refused() {
        let err = refusal(|v| v["texts"][0]["size"] = serde_json::json!(1e9));
        assert!(err.contains("field `texts[0]`"), "{err}");
        let err = refusal(|v| v["lines"][0] = serde_json::json!([0.0, 0.0, 1e9, 0.0, 0.3]));
        assert!(err.contains("field `lines[0]`"), "{err}");
    }
}
