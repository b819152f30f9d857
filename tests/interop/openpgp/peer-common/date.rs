//! ISO-8601 UTC times for SOP: formatting signature creation times in the
//! VERIFICATIONS lines and parsing `--not-before` / `--not-after`.

use crate::sop::{SopError, SopResult};

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date (year, month, day) of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// `2026-11-27T05:00:00Z` for a Unix time.
pub fn format_utc(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A SOP DATE: `now`, `-` (unbounded: `None`), or ISO-8601
/// `YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM|-HH:MM]` (also without separators).
pub fn parse_date(s: &str) -> SopResult<Option<i64>> {
    let bad = || SopError::other(format!("unparseable date {s:?}"));
    if s == "-" {
        return Ok(None);
    }
    if s == "now" {
        return Ok(Some(now()));
    }
    let (main, offset) = split_offset(s).ok_or_else(bad)?;
    let (date, time) = match main.split_once(['T', 't', ' ']) {
        Some((d, t)) => (d, t),
        None => (main, ""),
    };
    let date: String = date.chars().filter(|c| *c != '-').collect();
    let time: String = time.chars().filter(|c| *c != ':').collect();
    let time = time.split(['.', ',']).next().unwrap_or("");
    if date.len() != 8 || !matches!(time.len(), 0 | 4 | 6) {
        return Err(bad());
    }
    let num = |t: &str| t.parse::<i64>().map_err(|_| bad());
    let (y, m, d) = (num(&date[..4])?, num(&date[4..6])?, num(&date[6..])?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad());
    }
    let mut secs = days_from_civil(y, m, d) * 86_400;
    if time.len() >= 4 {
        secs += num(&time[..2])? * 3600 + num(&time[2..4])? * 60;
    }
    if time.len() == 6 {
        secs += num(&time[4..])?;
    }
    Ok(Some(secs - offset))
}

/// Splits a trailing `Z` or `±HH[:MM]` zone off; the offset is in seconds.
fn split_offset(s: &str) -> Option<(&str, i64)> {
    if let Some(main) = s.strip_suffix(['Z', 'z']) {
        return Some((main, 0));
    }
    // A zone sign can only follow the time part.
    let Some(t) = s.find(['T', 't', ' ']) else {
        return Some((s, 0));
    };
    let Some(pos) = s[t..].rfind(['+', '-']).map(|p| p + t) else {
        return Some((s, 0));
    };
    let zone: String = s[pos + 1..].chars().filter(|c| *c != ':').collect();
    let (h, m) = match zone.len() {
        2 => (zone.parse::<i64>().ok()?, 0),
        4 => (
            zone[..2].parse::<i64>().ok()?,
            zone[2..].parse::<i64>().ok()?,
        ),
        _ => return None,
    };
    let sign = if &s[pos..pos + 1] == "-" { -1 } else { 1 };
    Some((&s[..pos], sign * (h * 3600 + m * 60)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        let t = parse_date("2026-11-27T05:00:00Z").unwrap().unwrap();
        assert_eq!(format_utc(t), "2026-11-27T05:00:00Z");
        assert_eq!(parse_date("20261127T050000Z").unwrap(), Some(t));
        assert_eq!(parse_date("2026-11-27T06:00:00+01:00").unwrap(), Some(t));
        assert_eq!(parse_date("2026-11-27T00:00:00-05:00").unwrap(), Some(t));
        assert_eq!(parse_date("-").unwrap(), None);
        assert_eq!(parse_date("2026-11-27").unwrap(), Some(t - 5 * 3600));
        assert!(parse_date("yesterday").is_err());
    }
}
