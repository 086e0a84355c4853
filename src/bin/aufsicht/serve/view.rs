//! What the desk shows of one sheet: every flag with the crops of its
//! cells, the reading, the alternatives and the suggestion; the whole page
//! with those cells outlined.

use std::sync::Mutex;

use image::GrayImage;
use serde_json::{Value, json};

use aufsicht::cells::cut_at;
use aufsicht::check::flags::Flag;
use aufsicht::error::ArchiveError;
use aufsicht::night::club::archive::StoredSheet;
use aufsicht::night::club::evidence::{Decoded, Evidence};
use aufsicht::night::desk::review::{
    CROP_PX_PER_MM, data_uri_jpeg, data_uri_png, named_cells, overview, stored_alignment,
};
use aufsicht::page::align::Alignment;
use aufsicht::page::form::{FormTemplate, KnownForm, find_for};
use aufsicht::record::answer;
use aufsicht::record::stand::said;
use aufsicht::sheet::PlayerNo;
use aufsicht::sheet::ValuePath;

use super::Desk;

/// Scan files kept decoded: a reviewer goes back and forth over a few
/// sheets, and a night's PDF holds many.
const KEPT_FILES: usize = 2;

/// The last scan files decoded, by their hash.
#[derive(Default)]
pub struct Images(Mutex<Decoded>);

impl Images {
    /// The scan `stored` was read from: kept decoded here, else read and
    /// decoded with no lock held (other requests go on meanwhile).
    fn of(&self, desk: &Desk, stored: &StoredSheet) -> Result<Evidence, ArchiveError> {
        let lock = || self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = lock().cached(&stored.result, &stored.sha256) {
            return Ok(found);
        }
        let mut fresh = Decoded::default();
        let found = fresh.page_of(
            &stored.result,
            Some(&stored.sha256),
            |sha| desk.kept_scan(sha),
            &desk.archive_dir,
        )?;
        lock().absorb(fresh, KEPT_FILES);
        Ok(found)
    }
}

impl Desk {
    /// Every form a stored sheet may have been read on: each version the
    /// archive keeps (the newest first), then the desk's own.
    pub(super) fn form_versions(&self) -> Result<Vec<KnownForm>, ArchiveError> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let mut all = archive.form_versions()?;
        all.extend(self.forms.iter().cloned().map(KnownForm::of));
        Ok(all)
    }

    /// [`Desk::form_versions`], its archive's trouble as the desk's answer.
    pub(super) fn forms_with_versions(&self) -> Result<Vec<KnownForm>, super::api::Problem> {
        self.form_versions().map_err(|e| self.problem(e))
    }

    /// The bytes of the scan kept under `sha256` (the archive is held only
    /// while they are read, not while they are decoded).
    pub(super) fn kept_scan(&self, sha256: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive.scan_bytes(sha256)
    }
}

/// The desk's view of a stored sheet.
pub fn view(desk: &Desk, stored: &StoredSheet) -> Result<Value, ArchiveError> {
    let sheet = &stored.result;
    let forms = desk.form_versions()?;
    let form = find_for(
        &forms,
        sheet.form.as_deref(),
        sheet.notes.form_sha256.as_deref(),
    );
    let alignment = stored_alignment(sheet);
    let evidence = desk.images.of(desk, stored)?;
    let page = match (evidence.image(), &alignment, form) {
        (Some(img), Some(a), Some(f)) => Some((img, a, f)),
        _ => None,
    };
    let mut boxes = Vec::new();
    let flags: Vec<Value> = sheet
        .flags
        .iter()
        .map(|flag| flag_view(stored, flag, page, &mut boxes, desk.lang))
        .collect();
    // A page no form fits (a photo of something else, a dark retake) is
    // shown as it came, so that a person sees what was sent.
    let whole = match page {
        Some((img, a, f)) => data_uri_jpeg(&overview(img, a, f, &boxes)),
        None => evidence.image().and_then(as_sent),
    };
    // Each seat's number (written one way) and name, where a list gives one.
    let known = desk
        .archive
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .names()?;
    let names: Vec<Value> = (sheet.players.iter())
        .map(|p| {
            let number = p.as_deref().map(PlayerNo::new);
            let name = number.as_ref().and_then(|n| known.get(n.as_str()));
            json!({"number": number, "name": name})
        })
        .collect();
    Ok(json!({
        "id": stored.id,
        "version": stored.version,
        "source": sheet.source,
        "status": sheet.status,
        "round": sheet.round,
        "table": sheet.table,
        "players": sheet.players,
        "flags": flags,
        "page": whole,
        "void": sheet.notes.void,
        "copy_of": sheet.notes.copy_of,
        "discarded": sheet.notes.discarded,
        "game_confirmed": sheet.notes.game_confirmed,
        "supervisor_initials": sheet.notes.supervisor_initials,
        "names": names,
        "footer_initials": sheet.notes.footer_initials,
        "counts": sheet.notes.counts.iter().map(|c| {
            let mut v = json!(c);
            v["said"] = said(c, desk.lang).into();
            let place = c.path.parse::<ValuePath>().map(|p| p.label(desk.lang));
            v["label"] = place.unwrap_or_else(|_| c.path.clone()).into();
            v
        }).collect::<Vec<_>>(),
        "accepted": sheet.notes.accepted,
        "scan_changed": matches!(evidence, Evidence::Changed),
        "form": sheet.form,
        "header_off": sheet.notes.alignment.as_ref().is_some_and(|a| a.header_off),
        "forms": desk.forms.iter().map(|f| &f.id).collect::<Vec<_>>(),
    }))
}

type Page<'a> = Option<(&'a GrayImage, &'a Alignment, &'a FormTemplate)>;

fn flag_view(
    stored: &StoredSheet,
    flag: &Flag,
    page: Page,
    boxes: &mut Vec<aufsicht::page::form::MmBox>,
    lang: aufsicht::Lang,
) -> Value {
    let sheet = &stored.result;
    let named = page.map_or_else(Vec::new, |(_, _, f)| named_cells(flag, sheet, f, lang));
    let cells: Vec<Value> = named
        .iter()
        .map(|n| {
            boxes.push(n.bx);
            let crop = page
                .and_then(|(img, a, _)| data_uri_png(&cut_at(img, a, n.bx, 2.0, CROP_PX_PER_MM)));
            let path = n.path;
            json!({
                "label": n.label,
                "path": path.map(|p| p.to_string()),
                "value": n.value,
                "crop": crop,
            })
        })
        .collect();
    // A flag over several cells (a row, a seat's footer) has no one value to type.
    let paths: Vec<ValuePath> = named.iter().filter_map(|n| n.path).collect();
    let path = ValuePath::of_flag(flag).or(match paths.as_slice() {
        [one] => Some(*one),
        _ => None,
    });
    let d = &flag.detail;
    // Only the decode's suggestion is proposed: an alternative the reader
    // ranked below its reading is no proposal (Enter would write it), and
    // without a suggestion Enter keeps the value as read.
    let suggestion = d.suggestion.map(Value::from);
    let word = flag.code.word(lang);
    json!({
        "code": flag.code,
        "word": word,
        "severity": flag.severity,
        "row": flag.row,
        "seat": flag.seat,
        "field": flag.field,
        "message": flag.message,
        "path": path.map(|p| p.to_string()),
        "value": path.map(|p| answer::get(sheet, p)),
        "reading": d.reading,
        "alternatives": d.alternatives,
        "suggestion": suggestion,
        "settled": d.settled,
        "places": places(flag, path, sheet.seats())
            .iter()
            .map(|p| json!({"path": p.to_string(), "label": p.label(lang)}))
            .collect::<Vec<_>>(),
        "cells": cells,
    })
}

/// Where a value could count otherwise for a flag: its own value, else
/// the cells of its row (its seat's, or every seat's).
fn places(flag: &Flag, path: Option<ValuePath>, seats: usize) -> Vec<ValuePath> {
    use aufsicht::sheet::Column;
    // Who sat, and the round and table, are what the paper says: no count.
    if let Some(path) = path {
        let counted = !matches!(
            path,
            ValuePath::Player(_) | ValuePath::Round | ValuePath::Table
        );
        return if counted { vec![path] } else { Vec::new() };
    }
    let Some(no) = flag.row else {
        return Vec::new();
    };
    let seats: Vec<usize> = flag.seat.map_or_else(|| (1..=seats).collect(), |s| vec![s]);
    seats
        .into_iter()
        .flat_map(|seat| {
            [Column::Plus, Column::Minus].map(|column| ValuePath::Game { no, seat, column })
        })
        .collect()
}

/// The crop of the value at `path` on a stored sheet (PNG), as the desk
/// shows a flag's cells; none where its scan or form is not at hand.
pub fn crop(
    desk: &Desk,
    stored: &StoredSheet,
    path: ValuePath,
) -> Result<Option<Vec<u8>>, ArchiveError> {
    let sheet = &stored.result;
    let forms = desk.form_versions()?;
    let form = find_for(
        &forms,
        sheet.form.as_deref(),
        sheet.notes.form_sha256.as_deref(),
    );
    let evidence = desk.images.of(desk, stored)?;
    let (Some(img), Some(a), Some(form)) = (evidence.image(), stored_alignment(sheet), form) else {
        return Ok(None);
    };
    let Some(bx) = aufsicht::night::desk::questions::shape::box_of(form, path) else {
        return Ok(None);
    };
    let cut = cut_at(img, &a, bx, 2.0, CROP_PX_PER_MM);
    let mut png = Vec::new();
    let written = cut.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png);
    Ok(written.ok().map(|()| png))
}

/// A scan as it came, at a size a screen shows whole.
fn as_sent(img: &GrayImage) -> Option<String> {
    let scale = (1200.0 / img.width().max(img.height()) as f32).min(1.0);
    let (w, h) = (
        ((img.width() as f32 * scale) as u32).max(1),
        ((img.height() as f32 * scale) as u32).max(1),
    );
    let small = image::imageops::resize(img, w, h, image::imageops::FilterType::Triangle);
    data_uri_jpeg(&image::DynamicImage::ImageLuma8(small).to_rgb8())
}
