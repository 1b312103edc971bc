//! Timestamps and dates as PostgreSQL reads them: a value is kept as one
//! canonical text (`2024-03-05T10:00:00.000Z` for a timestamp, the instant
//! in UTC, `2024-03-05` for a date), so the same instant written two ways
//! is one value, and two of them order as their texts do.

use super::interval::Interval;
use super::parse::SqlError;

/// A timestamp of the run's clock (milliseconds since 1970), as the model
/// keeps one.
pub fn timestamp(ms: f64) -> String {
    let total_ms = ms as i64;
    let (days, rem) = (
        total_ms.div_euclid(86_400_000),
        total_ms.rem_euclid(86_400_000),
    );
    let (year, month, day) = civil(days);
    let (secs, millis) = (rem / 1000, rem % 1000);
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{millis:03}Z")
}

/// Whether a text is a timestamp as the model keeps one
/// (`2024-03-05T10:00:00.000Z`).
pub fn is_kept(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    bytes.len() == 24
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':'
        && bytes[16] == b':'
        && bytes[19] == b'.'
        && bytes[23] == b'Z'
        && digits(0..4)
        && digits(20..23)
}

/// A kept timestamp as PostgreSQL writes a `timestamptz` in text (the
/// session's zone UTC): `2024-03-05 10:00:00+00`, `…10:00:00.12+00`.
pub fn output(kept: &str) -> String {
    let Some((date, time)) = kept.strip_suffix('Z').and_then(|t| t.split_once('T')) else {
        return kept.to_string();
    };
    let time = time.trim_end_matches('0').trim_end_matches('.');
    format!("{date} {time}+00")
}

/// A timestamp's text as PostgreSQL reads it (`2024-03-05`, `2024-03-05
/// 10:00:00+02`, `2024-03-05T10:00:00.123Z`, …; `infinity` and
/// `-infinity` as they are), canonical; else PostgreSQL's 22007 or 22008.
pub fn parse_timestamp(text: &str, type_name: &str) -> Result<String, SqlError> {
    let trimmed = text.trim();
    match trimmed.to_ascii_lowercase().as_str() {
        "infinity" | "-infinity" => return Ok(trimmed.to_ascii_lowercase()),
        "epoch" => return Ok(timestamp(0.0)),
        _ => {}
    }
    let fields = fields(trimmed).ok_or_else(|| invalid(text, type_name))?;
    let ms = fields.epoch_ms().ok_or_else(|| out_of_range(text))?;
    Ok(timestamp(ms as f64))
}

/// A date's text (a timestamp's date as written: its time and zone are
/// dropped, as PostgreSQL's `date` input does), canonical.
pub fn parse_date(text: &str) -> Result<String, SqlError> {
    let trimmed = text.trim();
    if matches!(
        trimmed.to_ascii_lowercase().as_str(),
        "infinity" | "-infinity"
    ) {
        return Ok(trimmed.to_ascii_lowercase());
    }
    let fields = fields(trimmed).ok_or_else(|| invalid(text, "date"))?;
    if fields.epoch_ms().is_none() {
        return Err(out_of_range(text));
    }
    Ok(format!(
        "{:04}-{:02}-{:02}",
        fields.year, fields.month, fields.day
    ))
}

/// A kept timestamp's instant, in milliseconds since 1970 (`None` for
/// `infinity` and `-infinity`).
pub(super) fn instant_ms(kept: &str) -> Option<i64> {
    fields(kept)?.epoch_ms()
}

/// A kept timestamp moved by `by` (`sign` -1: back): months on the
/// calendar first (the 31st a month on is the month's last day), then
/// days, then the time, in UTC, as PostgreSQL moves a `timestamptz` in a
/// UTC session. `infinity` stays. Milliseconds, as the model keeps them.
pub fn shift(kept: &str, by: Interval, sign: i64) -> Result<String, SqlError> {
    let Some(ms) = instant_ms(kept) else {
        return Ok(kept.to_string());
    };
    let out = || SqlError::new("22008", "timestamp out of range".to_string());
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (year, month, day) = civil(days);
    let months = (year * 12 + month - 1)
        .checked_add(sign * by.months)
        .ok_or_else(out)?;
    let (year, month) = (months.div_euclid(12), months.rem_euclid(12) + 1);
    let last = match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    };
    let days = days_from_civil(year, month, day.min(last)) + sign * by.days;
    let micros = (days as i128 * 86_400_000 + in_day as i128) * 1000 + (sign * by.micros) as i128;
    let ms = micros.div_euclid(1000);
    if !(-210_866_803_200_000..=9_224_318_016_000_000).contains(&ms) {
        return Err(out());
    }
    Ok(timestamp(ms as f64))
}

/// `a - b` of two kept timestamps, as PostgreSQL's: whole days, and the
/// time under a day.
pub fn between(a: &str, b: &str) -> Option<Interval> {
    let micros = (instant_ms(a)? - instant_ms(b)?) * 1000;
    let day = 86_400_000_000;
    Some(Interval {
        months: 0,
        days: micros / day,
        micros: micros % day,
    })
}

fn invalid(text: &str, type_name: &str) -> SqlError {
    SqlError::new(
        "22007",
        format!("invalid input syntax for type {type_name}: \"{text}\""),
    )
}

fn out_of_range(text: &str) -> SqlError {
    SqlError::new(
        "22008",
        format!("date/time field value out of range: \"{text}\""),
    )
}

/// The fields of `YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][ ][Z|UTC|±HH[[:]MM]]`.
struct Fields {
    year: i64,
    month: i64,
    day: i64,
    /// Milliseconds into the day, as written.
    time_ms: i64,
    /// The zone's offset east of UTC, in minutes.
    offset_min: i64,
}

impl Fields {
    /// The instant, if every field is in its range.
    fn epoch_ms(&self) -> Option<i64> {
        let days_in_month = match self.month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if self.year % 4 == 0 && (self.year % 100 != 0 || self.year % 400 == 0) => 29,
            2 => 28,
            _ => return None,
        };
        if !(1..=days_in_month).contains(&self.day) || self.time_ms > 86_400_000 {
            return None;
        }
        let days = days_from_civil(self.year, self.month, self.day);
        Some(days * 86_400_000 + self.time_ms - self.offset_min * 60_000)
    }
}

fn fields(text: &str) -> Option<Fields> {
    // `YYYYMMDD`; other bare digits are out of range (epoch milliseconds).
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        if text.len() != 8 {
            return Some(Fields {
                year: 0,
                month: 0,
                day: 0,
                time_ms: 0,
                offset_min: 0,
            });
        }
        let field = |range: std::ops::Range<usize>| text[range].parse().ok();
        return Some(Fields {
            year: field(0..4)?,
            month: field(4..6)?,
            day: field(6..8)?,
            time_ms: 0,
            offset_min: 0,
        });
    }
    let mut rest = text;
    let number = |rest: &mut &str, most: usize| -> Option<i64> {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > most {
            return None;
        }
        let value = rest[..digits].parse().ok()?;
        *rest = &rest[digits..];
        Some(value)
    };
    let year = number(&mut rest, 4)?;
    rest = rest.strip_prefix('-')?;
    let month = number(&mut rest, 2)?;
    rest = rest.strip_prefix('-')?;
    let day = number(&mut rest, 2)?;
    let mut time_ms = 0;
    if let Some(time) = rest.strip_prefix(['T', 't', ' ']) {
        rest = time;
        let hour = number(&mut rest, 2)?;
        rest = rest.strip_prefix(':')?;
        let minute = number(&mut rest, 2)?;
        let mut second = 0;
        let mut millis = 0;
        if let Some(after) = rest.strip_prefix(':') {
            rest = after;
            second = number(&mut rest, 2)?;
            if let Some(after) = rest.strip_prefix('.') {
                let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    return None;
                }
                let fraction = format!("{:0<3}", &after[..digits.min(3)]);
                millis = fraction.parse().ok()?;
                rest = &after[digits..];
            }
        }
        // A field past its range is PostgreSQL's 22008, not a syntax error.
        time_ms = match hour > 24 || minute > 59 || second > 60 {
            true => i64::MAX,
            false => ((hour * 60 + minute) * 60 + second) * 1000 + millis,
        };
    }
    let zone = rest.trim_start();
    let offset_min = match zone {
        "" | "Z" | "z" | "UTC" | "utc" | "GMT" => 0,
        _ => {
            let sign = match zone.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            // `±H`, `±HH`, `±HHMM` or `±HH:MM`.
            let digits: String = zone[1..].chars().filter(|c| *c != ':').collect();
            if !digits.bytes().all(|b| b.is_ascii_digit()) || zone[1..].matches(':').count() > 1 {
                return None;
            }
            let (hours, minutes) = match digits.len() {
                1 | 2 => (digits.parse::<i64>().ok()?, 0),
                4 => (digits[..2].parse().ok()?, digits[2..].parse::<i64>().ok()?),
                _ => return None,
            };
            if minutes >= 60 {
                return None;
            }
            sign * (hours * 60 + minutes)
        }
    };
    Some(Fields {
        year,
        month,
        day,
        time_ms,
        offset_min,
    })
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub(super) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day since 1970-01-01.
pub(super) fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_timestamp_is_known_by_its_shape() {
        assert!(is_kept(&timestamp(80.0)));
        assert_eq!(output(&timestamp(80.0)), "1970-01-01 00:00:00.08+00");
        for text in [
            "2024-03-05",
            "2024-03-05 10:00:00+00",
            "2024-03-05T10:00:00Z",
            "x",
        ] {
            assert!(!is_kept(text), "{text}");
        }
    }

    #[test]
    fn one_instant_written_several_ways_is_one_value() {
        let canonical = "2024-03-05T10:00:00.000Z";
        for text in [
            "2024-03-05 10:00:00+00",
            "2024-03-05T10:00:00Z",
            "2024-03-05T10:00:00.000Z",
            "2024-03-05 12:00:00+02",
            "2024-03-05 12:00+02:00",
            "2024-03-05T05:30:00-0430",
        ] {
            assert_eq!(
                parse_timestamp(text, "timestamp").unwrap(),
                canonical,
                "{text}"
            );
        }
        assert_eq!(
            parse_timestamp("2024-03-05", "timestamp").unwrap(),
            "2024-03-05T00:00:00.000Z"
        );
        assert_eq!(
            parse_timestamp("2024-03-05 10:00:00.12", "timestamp").unwrap(),
            "2024-03-05T10:00:00.120Z"
        );
        assert_eq!(timestamp(-1.0), "1969-12-31T23:59:59.999Z");
        assert_eq!(timestamp(0.0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn a_timestamp_is_written_as_postgresql_writes_one() {
        assert_eq!(output("2024-03-05T10:00:00.000Z"), "2024-03-05 10:00:00+00");
        assert_eq!(
            output("2024-03-05T10:00:00.120Z"),
            "2024-03-05 10:00:00.12+00"
        );
        assert_eq!(output("infinity"), "infinity");
    }

    #[test]
    fn a_date_keeps_the_day_as_written() {
        assert_eq!(
            parse_date("2024-01-02T23:30:00-05:00").unwrap(),
            "2024-01-02"
        );
        assert_eq!(
            parse_date("2024-01-02T15:30:00.000Z").unwrap(),
            "2024-01-02"
        );
        assert_eq!(parse_date("2024-02-29").unwrap(), "2024-02-29");
    }

    #[test]
    fn bad_input_is_postgresqls_error() {
        let code = |text: &str| {
            parse_timestamp(text, "timestamp with time zone")
                .unwrap_err()
                .code
        };
        assert_eq!(code("not a date"), "22007");
        assert_eq!(code("1796094525898"), "22008");
        assert_eq!(code("2024-03-05 25:00"), "22008");
        assert_eq!(
            parse_timestamp("20240305", "timestamp").unwrap(),
            "2024-03-05T00:00:00.000Z"
        );
        assert_eq!(code("2023-02-29"), "22008");
        assert_eq!(code("2024-13-01"), "22008");
        assert_eq!(parse_date("2023-02-30").unwrap_err().code, "22008");
    }
}
