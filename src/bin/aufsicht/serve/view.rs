//! What the desk shows of one sheet: every flag with the crops of its
//! cells, the reading, the alternatives and the suggestion; the whole page
//! with those cells outlined.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use image::GrayImage;
use serde_json::{Value, json};

use aufsicht::cells::cut_at;
use aufsicht::check::flags::Flag;
use aufsicht::night::archive::StoredSheet;
use aufsicht::night::desk::{self, ValuePath};
use aufsicht::night::review::{
    CROP_PX_PER_MM, data_uri_jpeg, data_uri_png, kept_or_found_scan, named_cells, overview,
    stored_alignment,
};
use aufsicht::page::align::Alignment;
use aufsicht::page::form::FormTemplate;

use super::Desk;

/// Scans kept decoded: a reviewer goes back and forth over a few sheets.
const KEPT_IMAGES: usize = 4;

/// The last scans decoded, by source and page.
#[derive(Default)]
pub struct Images(Mutex<VecDeque<(String, u32, Arc<GrayImage>)>>);

impl Images {
    /// The scan of `source` (page `page`), decoded by `load` unless kept
    /// decoded here. Only sources the archive names are opened.
    fn get(
        &self,
        source: &str,
        page: u32,
        load: impl FnOnce() -> Option<GrayImage>,
    ) -> Option<Arc<GrayImage>> {
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, img)) = kept.iter().find(|(s, p, _)| s == source && *p == page) {
            return Some(img.clone());
        }
        let image = load()?;
        let image = Arc::new(image);
        kept.push_front((source.to_string(), page, image.clone()));
        kept.truncate(KEPT_IMAGES);
        Some(image)
    }
}

impl Desk {
    /// The bytes of the scan kept under `sha256` (the archive is held only
    /// while they are read, not while they are decoded).
    pub(super) fn kept_scan(&self, sha256: &str) -> Option<Vec<u8>> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive.scan_bytes(sha256).ok().flatten()
    }

    /// The bytes of the scan a stored sheet's source and page were read from.
    pub(super) fn kept_scan_of(&self, source: &str, page: u32) -> Option<Vec<u8>> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive.scan_bytes_of(source, page).ok().flatten()
    }
}

/// The desk's view of a stored sheet.
pub fn view(desk: &Desk, stored: &StoredSheet) -> Value {
    let sheet = &stored.result;
    let form = sheet
        .form
        .as_deref()
        .and_then(|id| desk.forms.iter().find(|f| f.id == id));
    let alignment = stored_alignment(sheet);
    let image = sheet.source.as_deref().and_then(|src| {
        let page = sheet.page.unwrap_or(1);
        desk.images.get(src, page, || {
            let kept = desk.kept_scan(&stored.sha256);
            kept_or_found_scan(kept, src, page, &desk.archive_dir)
        })
    });
    let page = match (&image, &alignment, form) {
        (Some(img), Some(a), Some(f)) => Some((img.as_ref(), a, f)),
        _ => None,
    };
    let mut boxes = Vec::new();
    let flags: Vec<Value> = sheet
        .flags
        .iter()
        .map(|flag| flag_view(stored, flag, page, &mut boxes))
        .collect();
    let whole = page.map(|(img, a, f)| data_uri_jpeg(&overview(img, a, f, &boxes)));
    json!({
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
        "supervisor_initials": sheet.notes.supervisor_initials,
    })
}

type Page<'a> = Option<(&'a GrayImage, &'a Alignment, &'a FormTemplate)>;

fn flag_view(
    stored: &StoredSheet,
    flag: &Flag,
    page: Page,
    boxes: &mut Vec<aufsicht::page::form::MmBox>,
) -> Value {
    let sheet = &stored.result;
    let named = page.map_or_else(Vec::new, |(_, _, f)| named_cells(flag, sheet, f));
    let cells: Vec<Value> = named
        .iter()
        .map(|n| {
            boxes.push(n.bx);
            let crop =
                page.map(|(img, a, _)| data_uri_png(&cut_at(img, a, n.bx, 2.0, CROP_PX_PER_MM)));
            let path = n.path.as_deref().and_then(|p| ValuePath::of_json(p, sheet));
            json!({
                "label": n.label,
                "path": path.map(|p| p.to_string()),
                "value": n.value,
                "crop": crop,
            })
        })
        .collect();
    // A flag over several cells (a row, a seat's footer) has no one value to type.
    let paths: Vec<ValuePath> = named
        .iter()
        .filter_map(|n| n.path.as_deref().and_then(|p| ValuePath::of_json(p, sheet)))
        .collect();
    let path = ValuePath::of_flag(flag).or(match paths.as_slice() {
        [one] => Some(*one),
        _ => None,
    });
    let d = &flag.detail;
    let suggestion = d.suggestion.map(Value::from).or_else(|| {
        d.alternatives.first().map(|(v, _)| {
            v.parse::<i64>()
                .map_or_else(|_| Value::from(v.clone()), Value::from)
        })
    });
    json!({
        "code": flag.code,
        "severity": flag.severity,
        "row": flag.row,
        "message": flag.message,
        "path": path.map(|p| p.to_string()),
        "value": path.map(|p| desk::get(sheet, p)),
        "reading": d.reading,
        "alternatives": d.alternatives,
        "suggestion": suggestion,
        "cells": cells,
    })
}
