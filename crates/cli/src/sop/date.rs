//! SOP's dates (the draft's §3.4): ISO 8601 in UTC on output
//! (`2026-11-27T05:00:00Z`); on input that, a date alone, a time with a
//! numeric offset, `now`, or `-` (no bound).

use super::{Exit, Result, SopError};

/// Days from 1970-01-01 to the proleptic Gregorian date y-m-d.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `2026-11-27T05:00:00Z`.
pub fn format(t: u64) -> String {
    let t = t as i64;
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

fn bad(s: &str) -> SopError {
    SopError::new(
        Exit::UnsupportedOption,
        format!("{s:?} is not a date: use ISO 8601 such as 2026-11-27 or 2026-11-27T05:00:00Z, now, or -"),
    )
}

fn num(s: &str, what: &str) -> Result<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(what));
    }
    s.parse().map_err(|_| bad(what))
}

/// Parses a date argument: `None` for `-` (no bound).
pub fn parse(s: &str, now: u64) -> Result<Option<u64>> {
    match s {
        "-" => return Ok(None),
        "now" => return Ok(Some(now)),
        // Every form below is ASCII; anything else is refused here, before
        // any slicing by byte offsets could cut a character in two.
        _ if !s.is_ascii() => return Err(bad(s)),
        _ => {}
    }
    let (date, time) = match s.split_once(['T', 't', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let date = date.replace('-', "");
    if date.len() != 8 {
        return Err(bad(s));
    }
    let (y, m, d) = (
        num(&date[..4], s)?,
        num(&date[4..6], s)?,
        num(&date[6..], s)?,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad(s));
    }
    let mut secs = days_from_civil(y, m, d) * 86_400;
    if let Some(t) = time {
        let (clock, offset) = if let Some(c) = t.strip_suffix(['Z', 'z']) {
            (c, 0)
        } else if let Some(i) = t.rfind(['+', '-']) {
            let (c, o) = t.split_at(i);
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let o = o[1..].replace(':', "");
            if o.len() != 4 {
                return Err(bad(s));
            }
            (c, sign * (num(&o[..2], s)? * 3600 + num(&o[2..], s)? * 60))
        } else {
            (t, 0)
        };
        let clock = clock.split('.').next().unwrap_or_default().replace(':', "");
        let (h, mi, se) = match clock.len() {
            4 => (num(&clock[..2], s)?, num(&clock[2..], s)?, 0),
            6 => (
                num(&clock[..2], s)?,
                num(&clock[2..4], s)?,
                num(&clock[4..], s)?,
            ),
            _ => return Err(bad(s)),
        };
        if h > 23 || mi > 59 || se > 60 {
            return Err(bad(s));
        }
        secs += h * 3600 + mi * 60 + se - offset;
    }
    u64::try_from(secs).map(Some).map_err(|_| bad(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_parse_every_form() {
        assert_eq!(format(0), "1970-01-01T00:00:00Z");
        assert_eq!(format(1_764_219_600), "2025-11-27T05:00:00Z");
        for t in [0u64, 951_782_400, 1_764_219_600, 4_102_444_800] {
            assert_eq!(parse(&format(t), 0).unwrap(), Some(t));
        }
        assert_eq!(parse("2025-11-27", 0).unwrap(), Some(1_764_201_600));
        assert_eq!(parse("20251127T050000Z", 0).unwrap(), Some(1_764_219_600));
        assert_eq!(
            parse("2025-11-27T06:00:00+01:00", 0).unwrap(),
            Some(1_764_219_600)
        );
        assert_eq!(parse("-", 5).unwrap(), None);
        assert_eq!(parse("now", 5).unwrap(), Some(5));
        for b in [
            "yesterday",
            "2025-13-01",
            "2025-11-27T25:00:00Z",
            "1969-12-31",
            "202é123",
            "2025-11-2é",
            "2025-11-27T05:0é:00Z",
            "2025-11-27T05:00:00+0é:00",
        ] {
            assert!(parse(b, 0).is_err(), "{b}");
        }
    }
}
