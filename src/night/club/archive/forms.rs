//! Each night's own forms: the club's templates its sheets were read on,
//! kept with the night so that its photos, the desk and the audit read
//! and cut its sheets without the template files.

use super::Archive;
use super::engine::{Sql, Value, args};
use crate::error::ArchiveError;
use crate::page::form::{FormTemplate, KnownForm, builtin_ids};

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
        let mut tx = self.write()?;
        for form in own {
            let json = serde_json::to_string(form).map_err(|e| ArchiveError::StoredForm {
                id: form.id.clone(),
                source: Box::new(e),
            })?;
            keep_form(&mut tx, night, &form.id, &json)?;
            keep_version(&mut tx, form)?;
        }
        tx.commit()
    }

    /// Every form kept by its content, however many share an id (sheets
    /// name theirs by [`FormTemplate::content_sha256`]).
    pub fn form_versions(&self) -> Result<Vec<KnownForm>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT sha256, id, template FROM form_versions ORDER BY seq DESC",
            args![],
        )?;
        let mut forms = Vec::new();
        for row in rows {
            let (sha256, id, json): (String, String, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            let form = stored_form(id, &json)?;
            forms.push(KnownForm {
                sha256,
                form,
                kept: true,
            });
        }
        Ok(forms)
    }

    /// The forms the night keeps, by id.
    pub fn forms_of(&self, night: i64) -> Result<Vec<FormTemplate>, ArchiveError> {
        self.kept_forms("WHERE tournament_id = ?1", args![night])
    }

    /// Every night's own forms, the newest night's where two share an id.
    pub fn forms(&self) -> Result<Vec<FormTemplate>, ArchiveError> {
        let mut all = self.kept_forms("", args![])?;
        let mut seen = std::collections::HashSet::new();
        all.retain(|f| seen.insert(f.id.clone()));
        Ok(all)
    }

    /// The kept forms `filter` picks, the newest night's first.
    fn kept_forms(
        &self,
        filter: &str,
        values: &[Value],
    ) -> Result<Vec<FormTemplate>, ArchiveError> {
        let rows = self.conn.db().query(
            &format!(
                "SELECT f.id, f.template FROM forms f JOIN tournaments t ON t.id = f.tournament_id {filter}
             ORDER BY t.date IS NULL, t.date DESC, t.id DESC, f.id"
            ),
            values,
        )?;
        rows.iter()
            .map(|r| stored_form(r.get(0)?, &r.get::<String>(1)?))
            .collect()
    }
}

/// A kept template read back, or what keeps it from being read.
fn stored_form(id: String, json: &str) -> Result<FormTemplate, ArchiveError> {
    FormTemplate::from_json(&id, json).map_err(|e| ArchiveError::StoredForm {
        id,
        source: Box::new(e),
    })
}

/// Keeps the template `json` as night `night`'s form `id`, in place of
/// one it had.
pub(super) fn keep_form(
    tx: &mut impl Sql,
    night: i64,
    id: &str,
    json: &str,
) -> Result<(), ArchiveError> {
    tx.execute(
        "INSERT INTO forms (tournament_id, id, template) VALUES (?1, ?2, ?3)
         ON CONFLICT (tournament_id, id) DO UPDATE SET template = excluded.template",
        args![night, id, json],
    )?;
    Ok(())
}

/// Keeps `form` by its content hash, once.
pub(super) fn keep_version(tx: &mut impl Sql, form: &FormTemplate) -> Result<(), ArchiveError> {
    let json = serde_json::to_string(form).unwrap_or_default();
    keep_version_json(tx, &form.content_sha256(), &form.id, &json)
}

/// Keeps a form's template under its content hash, once, after every
/// form kept before it.
pub(super) fn keep_version_json(
    tx: &mut impl Sql,
    sha256: &str,
    id: &str,
    json: &str,
) -> Result<(), ArchiveError> {
    tx.execute(
        "INSERT INTO form_versions (sha256, id, template, seq)
         VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM form_versions))
         ON CONFLICT DO NOTHING",
        args![sha256, id, json],
    )?;
    Ok(())
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

    /// A club re-learns its form after a reprint: the same id, new boxes.
    /// Each night's sheets name the version they were read on and find it.
    #[test]
    fn a_relearnt_form_should_be_a_new_one_and_old_sheets_keep_theirs() {
        let dir = tempfile::tempdir().expect("dir");
        let mut archive = Archive::open(&dir.path().join("a.sqlite")).expect("open");
        let spring = archive.tournament("frühjahr", "merkur").expect("night");
        let autumn = archive.tournament("herbst", "merkur").expect("night");
        let old = club_form();
        let mut reprinted = club_form();
        reprinted.fields.round[1] += 3.0;
        assert_ne!(old.content_sha256(), reprinted.content_sha256());
        archive
            .keep_forms(spring, std::slice::from_ref(&old))
            .expect("kept");
        archive
            .keep_forms(autumn, std::slice::from_ref(&reprinted))
            .expect("kept");
        // Recognising pages: one form of the id, the newest night's.
        let newest = archive.forms().expect("forms");
        assert_eq!(newest.len(), 1);
        assert_eq!(newest[0].fields.round, reprinted.fields.round);
        // Cutting a stored sheet: the version it names.
        let versions = archive.form_versions().expect("versions");
        assert_eq!(versions.len(), 2);
        let sha = old.content_sha256();
        let found = crate::page::form::find_for(&versions, Some("vereinsliste"), Some(&sha))
            .expect("found");
        assert_eq!(found.fields.round, old.fields.round);
        // A sheet that names no version (read before versions) takes the
        // oldest kept, the one its night had.
        let found =
            crate::page::form::find_for(&versions, Some("vereinsliste"), None).expect("found");
        assert_eq!(found.fields.round, old.fields.round);
        // By the hash stored, not the one this release would write.
        let mut renamed = versions.clone();
        renamed[1].sha256 = "stored-by-an-older-release".into();
        let found = crate::page::form::find_for(
            &renamed,
            Some("vereinsliste"),
            Some("stored-by-an-older-release"),
        )
        .expect("found");
        assert_eq!(found.fields.round, old.fields.round);
    }

    /// An archive whose nights kept forms before it knew versions: opened,
    /// each is kept by its content.
    #[test]
    fn the_forms_kept_before_versions_should_be_kept_by_content_on_opening() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a.sqlite");
        let mut archive = Archive::open(&path).expect("open");
        let night = archive.tournament("herbst", "merkur").expect("night");
        archive.keep_forms(night, &[club_form()]).expect("kept");
        archive
            .conn
            .db()
            .batch("DELETE FROM form_versions; PRAGMA user_version = 6;")
            .expect("as the release before wrote it");
        drop(archive);
        let archive = Archive::open(&path).expect("migrated");
        let versions = archive.form_versions().expect("versions");
        assert_eq!(versions.len(), 1);
        assert_eq!(versions[0].sha256, club_form().content_sha256());
    }
}
