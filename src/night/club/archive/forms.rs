//! Each night's own forms: the club's templates its sheets were read on,
//! kept with the night so that its photos, the desk and the audit read
//! and cut its sheets without the template files.

use rusqlite::params;

use super::Archive;
use crate::error::ArchiveError;
use crate::page::form::{FormTemplate, builtin_ids};

impl Archive {
    /// Keeps the forms of `forms` that are not shipped with the night,
    /// each in place of a kept form of its id.
    pub fn keep_forms(&mut self, night: i64, forms: &[FormTemplate]) -> Result<(), ArchiveError> {
        let own: Vec<&FormTemplate> = forms
            .iter()
            .filter(|f| !builtin_ids().any(|id| id == f.id))
            .collect();
        if own.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        for form in own {
            let json = serde_json::to_string(form).map_err(|e| ArchiveError::StoredForm {
                id: form.id.clone(),
                source: Box::new(e),
            })?;
            tx.execute(
                "INSERT OR REPLACE INTO forms (tournament_id, id, template) VALUES (?1, ?2, ?3)",
                params![night, form.id, json],
            )?;
        }
        Ok(tx.commit()?)
    }

    /// The forms the night keeps, by id.
    pub fn forms_of(&self, night: i64) -> Result<Vec<FormTemplate>, ArchiveError> {
        self.kept_forms("WHERE tournament_id = ?1", params![night])
    }

    /// Every night's own forms, the newest night's where two share an id.
    pub fn forms(&self) -> Result<Vec<FormTemplate>, ArchiveError> {
        let mut all = self.kept_forms("", params![])?;
        let mut seen = std::collections::HashSet::new();
        all.retain(|f| seen.insert(f.id.clone()));
        Ok(all)
    }

    /// The kept forms `filter` picks, the newest night's first.
    fn kept_forms(
        &self,
        filter: &str,
        values: impl rusqlite::Params,
    ) -> Result<Vec<FormTemplate>, ArchiveError> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT f.id, f.template FROM forms f JOIN tournaments t ON t.id = f.tournament_id {filter}
             ORDER BY t.date IS NULL, t.date DESC, t.id DESC, f.id"
        ))?;
        let rows = stmt.query_map(values, |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut forms = Vec::new();
        for row in rows {
            let (id, json) = row?;
            let form =
                FormTemplate::from_json(&id, &json).map_err(|e| ArchiveError::StoredForm {
                    id,
                    source: Box::new(e),
                })?;
            forms.push(form);
        }
        Ok(forms)
    }
}

/// The forms a night's pages are recognised among: `given`, and the
/// forms `kept` whose ids are not among them.
pub fn with_kept(given: &[FormTemplate], kept: Vec<FormTemplate>) -> Vec<FormTemplate> {
    let mut all = given.to_vec();
    for form in kept {
        if !all.iter().any(|f| f.id == form.id) {
            all.push(form);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn club_form() -> FormTemplate {
        let mut form = FormTemplate::load("punkteliste-a4-32").expect("shipped");
        form.id = "vereinsliste".into();
        form.title = Some("Vereinsliste".into());
        form
    }

    #[test]
    fn a_nights_own_form_should_be_kept_and_the_shipped_ones_not() {
        let dir = tempfile::tempdir().expect("dir");
        let mut archive = Archive::open(&dir.path().join("a.sqlite")).expect("open");
        let night = archive.tournament("herbst", "merkur").expect("night");
        let other = archive.tournament("winter", "merkur").expect("night");
        let forms = [
            FormTemplate::load("doko-a4-24x5").expect("shipped"),
            club_form(),
        ];
        archive.keep_forms(night, &forms).expect("kept");
        let kept = archive.forms_of(night).expect("read");
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].id, "vereinsliste");
        assert_eq!(kept[0].title.as_deref(), Some("Vereinsliste"));
        assert_eq!(kept[0].fields.game.len(), forms[1].fields.game.len());
        assert!(archive.forms_of(other).expect("read").is_empty());
        // Kept again, it stays one form.
        archive.keep_forms(night, &forms).expect("kept");
        archive.keep_forms(other, &forms).expect("kept");
        assert_eq!(archive.forms().expect("all").len(), 1);
        let shipped = FormTemplate::builtins();
        let all = with_kept(&shipped, archive.forms_of(night).expect("read"));
        assert_eq!(all.len(), shipped.len() + 1);
        assert_eq!(
            with_kept(&all, archive.forms().expect("all")).len(),
            all.len()
        );
    }
}
