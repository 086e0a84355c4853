//! The numbers a sheet can hold. A round, table or participant number
//! read outside its range (a blurred "7" read as 0) is a value in doubt,
//! asked at the desk, never a result that the archive stores and later
//! commands refuse to read back.

use crate::catalogue::{Lang, say};
use crate::check::flags::{Code, Flag, FlagDetail, Severity};
use crate::sheet::player_no::MAX_DIGITS;
use crate::sheet::{MOST, SheetResult, Status};

/// Whether `written` can be a Teilnehmer-Nr.: one to [`MAX_DIGITS`]
/// digits, not all of them 0.
pub fn is_player_no(written: &str) -> bool {
    (1..=MAX_DIGITS).contains(&written.len())
        && written.bytes().all(|b| b.is_ascii_digit())
        && written.bytes().any(|b| b != b'0')
}

/// Takes every round, table and participant number out of its range out
/// of the sheet and asks for it instead (`CELL_UNCERTAIN` with what was
/// read); whether anything was taken out.
pub fn doubt_out_of_range(sheet: &mut SheetResult, lang: Lang) -> bool {
    let mut doubted = Vec::new();
    for (field, value) in [("round", &mut sheet.round), ("table", &mut sheet.table)] {
        if let Some(n) = value.take_if(|n| !(1..=MOST).contains(n)) {
            doubted.push((None, field, n.to_string()));
        }
    }
    for (i, player) in sheet.players.iter_mut().enumerate() {
        if let Some(text) = player.take_if(|p| !is_player_no(p)) {
            doubted.push((Some(i + 1), "player_id", text));
        }
    }
    let any = !doubted.is_empty();
    for (seat, field, read) in doubted {
        if !sheet.flags.iter().any(|f| {
            f.code == Code::CellUncertain && f.row.is_none() && f.points_at_field(seat, field)
        }) {
            sheet.flags.push(out_of_range(seat, field, &read, lang));
        }
    }
    if any && sheet.status == Status::Ok {
        sheet.status = Status::Flagged;
    }
    any
}

/// The question for a number read `read` that no sheet can hold.
fn out_of_range(seat: Option<usize>, field: &str, read: &str, lang: Lang) -> Flag {
    let what = match seat {
        Some(s) => say(lang, "field-player-id", &[("seat", &s)]),
        None => say(lang, &format!("field-{field}"), &[]),
    };
    Flag {
        code: Code::CellUncertain,
        severity: Severity::Warning,
        row: None,
        seat,
        field: Some(field.to_string()),
        message: say(
            lang,
            "uncertain-out-of-range",
            &[("what", &what), ("read", &read)],
        ),
        detail: FlagDetail {
            reading: Some(read.to_string()),
            ..FlagDetail::default()
        },
        extra: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::finished_sheet;

    fn sheet() -> SheetResult {
        let ids = ["11", "12", "13", "14"]
            .map(|p| Some(p.to_string()))
            .to_vec();
        let mut s = finished_sheet("merkur", Vec::new(), ids);
        s.round = Some(1);
        s.table = Some(5);
        s
    }

    #[test]
    fn a_table_read_as_0_should_be_asked_and_the_sheet_read_back() {
        let mut s = sheet();
        s.table = Some(0);
        s.players[2] = Some("000".into());
        assert!(doubt_out_of_range(&mut s, Lang::De));
        assert_eq!((s.round, s.table), (Some(1), None));
        assert_eq!(s.players[2], None);
        assert_eq!(s.status, Status::Flagged);
        let asked: Vec<_> = s.flags.iter().map(|f| (f.seat, f.field.clone())).collect();
        assert_eq!(
            asked,
            [
                (None, Some("table".into())),
                (Some(3), Some("player_id".into()))
            ]
        );
        assert_eq!(s.flags[0].detail.reading.as_deref(), Some("0"));
        assert!(
            s.flags[0].message.contains("Tisch"),
            "{}",
            s.flags[0].message
        );
        let json = s.to_json_pretty();
        assert!(SheetResult::from_json("stored", &json).is_ok());
    }

    #[test]
    fn numbers_in_range_should_stay_as_read() {
        let mut s = sheet();
        s.table = Some(999);
        assert!(!doubt_out_of_range(&mut s, Lang::De));
        assert_eq!(s.table, Some(999));
        assert!(s.flags.is_empty());
        assert_eq!(s.status, Status::Ok);
    }
}
