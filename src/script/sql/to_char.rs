//! `to_char(t, template)` of a `timestamptz` or a `date` (which
//! PostgreSQL casts to a `timestamptz`), as PostgreSQL's `formatting.c`
//! writes one in a UTC session and the C locale: the template is read
//! keyword by keyword (`YYYY`, `MM`, `Month`, `HH24`, `TZ`, … with the
//! prefixes `FM`, `FX`, `TM` and the suffixes `TH`, `th`, `SP`), any
//! other character copied, text in double quotes copied as it is.
//!
//! Of a number or an interval, `to_char` is refused (0A000).

use serde_json::Value;

use super::parse::{SqlError, Type};
use super::time::{civil, days_from_civil, instant_ms};
use super::value::error;

const MS_PER_DAY: i64 = 86_400_000;

/// A template keyword, by what it writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    /// `AD`, `BC`; `dots`: `A.D.`.
    Era {
        dots: bool,
    },
    /// `AM`, `PM`; `dots`: `A.M.`.
    Meridiem {
        dots: bool,
    },
    Century,
    /// A day's name: `short`: `Dy`.
    DayName {
        short: bool,
    },
    DayOfYear,
    Day,
    DayOfWeek,
    /// `FF1` … `FF6`: that many digits of the second's fraction.
    Fraction(u32),
    /// `FX`: fixed format, which only reading a text heeds.
    FixedFormat,
    Hour24,
    Hour12,
    IsoDayOfYear,
    IsoDayOfWeek,
    IsoWeek,
    /// `IYYY` … `I`: the last `digits` of the ISO year.
    IsoYear(usize),
    Julian,
    Minute,
    Month,
    /// A month's name: `short`: `Mon`.
    MonthName {
        short: bool,
    },
    Millisecond,
    Offset,
    Quarter,
    RomanMonth,
    SecondsOfDay,
    Second,
    ZoneHours,
    ZoneMinutes,
    Zone,
    Microsecond,
    WeekOfYear,
    WeekOfMonth,
    /// `Y,YYY`.
    YearWithComma,
    /// `YYYY` … `Y`: the last `digits` of the year.
    Year(usize),
}

/// How a keyword that writes words writes them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    Upper,
    /// `Month`, `Day`: the first letter upper.
    Title,
    Lower,
}

/// PostgreSQL's keywords (`DCH_keywords`), in its order: the first one
/// the template goes on with is taken, so a longer one comes first. Its
/// table has each upper-case one in lower case too (`yyyy`, `a.m.`,
/// `month`), which writes words in lower case; [`keyword`] reads them
/// from this half.
const KEYWORDS: &[(&str, Key, Case)] = &[
    ("A.D.", Key::Era { dots: true }, Case::Upper),
    ("A.M.", Key::Meridiem { dots: true }, Case::Upper),
    ("AD", Key::Era { dots: false }, Case::Upper),
    ("AM", Key::Meridiem { dots: false }, Case::Upper),
    ("B.C.", Key::Era { dots: true }, Case::Upper),
    ("BC", Key::Era { dots: false }, Case::Upper),
    ("CC", Key::Century, Case::Upper),
    ("DAY", Key::DayName { short: false }, Case::Upper),
    ("DDD", Key::DayOfYear, Case::Upper),
    ("DD", Key::Day, Case::Upper),
    ("DY", Key::DayName { short: true }, Case::Upper),
    ("Day", Key::DayName { short: false }, Case::Title),
    ("Dy", Key::DayName { short: true }, Case::Title),
    ("D", Key::DayOfWeek, Case::Upper),
    ("FF1", Key::Fraction(1), Case::Upper),
    ("FF2", Key::Fraction(2), Case::Upper),
    ("FF3", Key::Fraction(3), Case::Upper),
    ("FF4", Key::Fraction(4), Case::Upper),
    ("FF5", Key::Fraction(5), Case::Upper),
    ("FF6", Key::Fraction(6), Case::Upper),
    ("FX", Key::FixedFormat, Case::Upper),
    ("HH24", Key::Hour24, Case::Upper),
    ("HH12", Key::Hour12, Case::Upper),
    ("HH", Key::Hour12, Case::Upper),
    ("IDDD", Key::IsoDayOfYear, Case::Upper),
    ("ID", Key::IsoDayOfWeek, Case::Upper),
    ("IW", Key::IsoWeek, Case::Upper),
    ("IYYY", Key::IsoYear(4), Case::Upper),
    ("IYY", Key::IsoYear(3), Case::Upper),
    ("IY", Key::IsoYear(2), Case::Upper),
    ("I", Key::IsoYear(1), Case::Upper),
    ("J", Key::Julian, Case::Upper),
    ("MI", Key::Minute, Case::Upper),
    ("MM", Key::Month, Case::Upper),
    ("MONTH", Key::MonthName { short: false }, Case::Upper),
    ("MON", Key::MonthName { short: true }, Case::Upper),
    ("MS", Key::Millisecond, Case::Upper),
    ("Month", Key::MonthName { short: false }, Case::Title),
    ("Mon", Key::MonthName { short: true }, Case::Title),
    ("OF", Key::Offset, Case::Upper),
    ("P.M.", Key::Meridiem { dots: true }, Case::Upper),
    ("PM", Key::Meridiem { dots: false }, Case::Upper),
    ("Q", Key::Quarter, Case::Upper),
    ("RM", Key::RomanMonth, Case::Upper),
    ("SSSSS", Key::SecondsOfDay, Case::Upper),
    ("SSSS", Key::SecondsOfDay, Case::Upper),
    ("SS", Key::Second, Case::Upper),
    ("TZH", Key::ZoneHours, Case::Upper),
    ("TZM", Key::ZoneMinutes, Case::Upper),
    ("TZ", Key::Zone, Case::Upper),
    ("US", Key::Microsecond, Case::Upper),
    ("WW", Key::WeekOfYear, Case::Upper),
    ("W", Key::WeekOfMonth, Case::Upper),
    ("Y,YYY", Key::YearWithComma, Case::Upper),
    ("YYYY", Key::Year(4), Case::Upper),
    ("YYY", Key::Year(3), Case::Upper),
    ("YY", Key::Year(2), Case::Upper),
    ("Y", Key::Year(1), Case::Upper),
];

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const ROMAN: [&str; 12] = [
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
];

/// The argument types `to_char` is computed for, else PostgreSQL's error
/// for the call (or the model's 0A000 for a type PostgreSQL has it for).
pub fn given(ty: Type, untyped: bool) -> Result<(), SqlError> {
    match ty {
        Type::Timestamp | Type::Date => Ok(()),
        _ if untyped => Err(error(
            "42725",
            "function to_char(unknown, unknown) is not unique".into(),
        )),
        Type::Int | Type::BigInt | Type::Numeric(_) | Type::Float | Type::Interval => Err(error(
            "0A000",
            format!(
                "to_char() of {} is not supported by the simulation (of a timestamp or a date it is)",
                ty.name()
            ),
        )),
        other => Err(error(
            "42883",
            format!("function to_char({}, unknown) does not exist", other.name()),
        )),
    }
}

/// `to_char(kept, template)`: NULL for a NULL or an infinite value.
pub fn to_char(value: &Value, template: &Value) -> Value {
    let (Value::String(kept), Value::String(template)) = (value, template) else {
        return Value::Null;
    };
    let kept = match kept.len() {
        10 => format!("{kept}T00:00:00.000Z"),
        _ => kept.clone(),
    };
    match instant_ms(&kept) {
        Some(ms) => Value::String(format(&Fields::of(ms), template)),
        None => Value::Null,
    }
}

/// The fields of an instant that the keywords write.
struct Fields {
    year: i64,
    month: i64,
    day: i64,
    day_of_year: i64,
    /// Sunday 0 to Saturday 6.
    weekday: i64,
    iso_year: i64,
    iso_week: i64,
    iso_day_of_year: i64,
    julian: i64,
    hour: i64,
    minute: i64,
    second: i64,
    millis: i64,
}

impl Fields {
    fn of(ms: i64) -> Fields {
        let (days, in_day) = (ms.div_euclid(MS_PER_DAY), ms.rem_euclid(MS_PER_DAY));
        let (year, month, day) = civil(days);
        let iso_dow = (days + 3).rem_euclid(7) + 1;
        // The ISO year is its Thursday's, and starts on the Monday of the
        // week of its 4 January.
        let thursday = days - (iso_dow - 1) + 3;
        let iso_year = civil(thursday).0;
        let jan4 = days_from_civil(iso_year, 1, 4);
        let iso_start = jan4 - (jan4 + 3).rem_euclid(7);
        Fields {
            year,
            month,
            day,
            day_of_year: days - days_from_civil(year, 1, 1) + 1,
            weekday: iso_dow % 7,
            iso_year,
            iso_week: (thursday - days_from_civil(iso_year, 1, 1)) / 7 + 1,
            iso_day_of_year: days - iso_start + 1,
            // 1970-01-01 is Julian day 2440588.
            julian: days + 2_440_588,
            hour: in_day / 3_600_000,
            minute: in_day / 60_000 % 60,
            second: in_day / 1000 % 60,
            millis: in_day % 1000,
        }
    }
}

/// The template written for `fields`.
fn format(fields: &Fields, template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while !rest.is_empty() {
        // One prefix: `FM` (fill mode: no padding) or `TM` (the
        // locale's names, unpadded; the C locale's are English).
        let (mut fill, mut translate) = (false, false);
        for prefix in ["FM", "fm", "TM", "tm"] {
            if let Some(after) = rest.strip_prefix(prefix) {
                fill = prefix.eq_ignore_ascii_case("fm");
                translate = !fill;
                rest = after;
                break;
            }
        }
        if let Some((length, key, case)) = keyword(rest) {
            rest = &rest[length..];
            let ordinal = match rest.get(..2) {
                Some(suffix @ ("TH" | "th")) => {
                    rest = &rest[2..];
                    Some(suffix == "TH")
                }
                Some("SP") => {
                    rest = &rest[2..];
                    None
                }
                _ => None,
            };
            let (text, numeric) = write(fields, key, case, fill, translate);
            out.push_str(&text);
            if let (Some(upper), true) = (ordinal, numeric) {
                out.push_str(&ordinal_suffix(&text, upper));
            }
            continue;
        }
        let mut chars = rest.chars();
        match chars.next() {
            Some('"') => {
                // Quoted text as it is; a backslash quotes the next character.
                let mut quoted = chars.as_str().chars();
                loop {
                    match quoted.next() {
                        None | Some('"') => break,
                        Some('\\') => match quoted.clone().next() {
                            Some(next) => {
                                out.push(next);
                                quoted.next();
                            }
                            None => out.push('\\'),
                        },
                        Some(c) => out.push(c),
                    }
                }
                rest = quoted.as_str();
            }
            Some('\\') if chars.as_str().starts_with('"') => {
                out.push('"');
                rest = &chars.as_str()[1..];
            }
            Some(c) => {
                out.push(c);
                rest = chars.as_str();
            }
            None => break,
        }
    }
    out
}

/// The keyword `rest` starts with: its length, what it writes and how.
fn keyword(rest: &str) -> Option<(usize, Key, Case)> {
    let lower = rest.starts_with(|c: char| c.is_ascii_lowercase());
    KEYWORDS.iter().find_map(|&(name, key, case)| {
        let found = match (lower, case) {
            (false, _) => rest.starts_with(name),
            (true, Case::Upper) => rest
                .get(..name.len())
                .is_some_and(|head| head == name.to_ascii_lowercase()),
            (true, _) => false,
        };
        let case = if lower { Case::Lower } else { case };
        found.then_some((name.len(), key, case))
    })
}

/// What `key` writes, and whether it is a number (which `TH` follows).
fn write(fields: &Fields, key: Key, case: Case, fill: bool, translate: bool) -> (String, bool) {
    // `%0*d`: zero-padded to `width`, unless in fill mode.
    let padded = |n: i64, width: usize| match fill {
        true => n.to_string(),
        false => format!("{n:0width$}"),
    };
    // A year as PostgreSQL counts it (1 BC is year 0 kept).
    let bc_year = |year: i64| if year <= 0 { 1 - year } else { year };
    // `YYYY` all of the year, at least 4 digits; `YYY` to `Y` its last.
    let last_digits = |year: i64, digits: usize| {
        let full = padded(bc_year(year), digits);
        match digits {
            4 => full,
            _ => full[full.len().saturating_sub(digits)..].to_string(),
        }
    };
    let words = |word: &str, width: usize| {
        let word = match case {
            Case::Upper => word.to_uppercase(),
            Case::Title => word.to_string(),
            Case::Lower => word.to_lowercase(),
        };
        match fill || translate {
            true => word,
            false => format!("{word:<width$}"),
        }
    };
    let pm = fields.hour >= 12;
    let number = |text: String| (text, true);
    let text = |text: String| (text, false);
    match key {
        Key::Era { dots } => {
            let era = match (fields.year <= 0, dots) {
                (true, true) => "B.C.",
                (true, false) => "BC",
                (false, true) => "A.D.",
                (false, false) => "AD",
            };
            text(match case {
                Case::Lower => era.to_lowercase(),
                _ => era.to_string(),
            })
        }
        Key::Meridiem { dots } => {
            let meridiem = match (pm, dots) {
                (true, true) => "P.M.",
                (true, false) => "PM",
                (false, true) => "A.M.",
                (false, false) => "AM",
            };
            text(match case {
                Case::Lower => meridiem.to_lowercase(),
                _ => meridiem.to_string(),
            })
        }
        Key::Century => {
            let year = fields.year;
            let century = match year > 0 {
                true => (year + 99) / 100,
                false => -((1 - year + 99) / 100),
            };
            number(match fill {
                true => century.to_string(),
                false if century >= 0 => format!("{century:02}"),
                false => format!("{century:03}"),
            })
        }
        Key::DayName { short } => {
            let day = DAYS[fields.weekday as usize];
            match short {
                true => text(words(&day[..3], 0)),
                false => text(words(day, 9)),
            }
        }
        Key::DayOfYear => number(padded(fields.day_of_year, 3)),
        Key::Day => number(padded(fields.day, 2)),
        Key::DayOfWeek => number((fields.weekday + 1).to_string()),
        Key::Fraction(digits) => {
            let micros = fields.millis * 1000;
            let shown = micros / 10_i64.pow(6 - digits);
            text(format!("{shown:0width$}", width = digits as usize))
        }
        Key::FixedFormat => text(String::new()),
        Key::Hour24 => number(padded(fields.hour, 2)),
        Key::Hour12 => number(padded((fields.hour + 11) % 12 + 1, 2)),
        Key::IsoDayOfYear => number(padded(fields.iso_day_of_year, 3)),
        Key::IsoDayOfWeek => number(match fields.weekday {
            0 => "7".to_string(),
            day => day.to_string(),
        }),
        Key::IsoWeek => number(padded(fields.iso_week, 2)),
        Key::IsoYear(digits) => number(last_digits(fields.iso_year, digits)),
        Key::Julian => number(fields.julian.to_string()),
        Key::Minute => number(padded(fields.minute, 2)),
        Key::Month => number(padded(fields.month, 2)),
        Key::MonthName { short } => {
            let month = MONTHS[fields.month as usize - 1];
            match short {
                true => text(words(&month[..3], 0)),
                false => text(words(month, 9)),
            }
        }
        Key::Millisecond => number(format!("{:03}", fields.millis)),
        // The zone's offset from UTC, in hours: `%c%0*d`.
        Key::Offset => text(format!("+{}", padded(0, 2))),
        Key::Quarter => number(((fields.month - 1) / 3 + 1).to_string()),
        Key::RomanMonth => {
            let roman = ROMAN[fields.month as usize - 1];
            let roman = match case {
                Case::Lower => roman.to_lowercase(),
                _ => roman.to_string(),
            };
            text(match fill {
                true => roman,
                false => format!("{roman:<4}"),
            })
        }
        Key::SecondsOfDay => {
            number((fields.hour * 3600 + fields.minute * 60 + fields.second).to_string())
        }
        Key::Second => number(padded(fields.second, 2)),
        Key::ZoneHours => text("+00".to_string()),
        Key::ZoneMinutes => number("00".to_string()),
        Key::Zone => text(match case {
            Case::Lower => "utc".to_string(),
            _ => "UTC".to_string(),
        }),
        Key::Microsecond => number(format!("{:06}", fields.millis * 1000)),
        Key::WeekOfYear => number(padded((fields.day_of_year - 1) / 7 + 1, 2)),
        Key::WeekOfMonth => number(((fields.day - 1) / 7 + 1).to_string()),
        Key::YearWithComma => {
            let year = bc_year(fields.year);
            number(format!("{},{:03}", year / 1000, year % 1000))
        }
        Key::Year(digits) => number(last_digits(fields.year, digits)),
    }
}

/// English's ordinal suffix for the number `text` ends with.
fn ordinal_suffix(text: &str, upper: bool) -> String {
    let digits: Vec<u8> = text.bytes().rev().take(2).collect();
    let suffix = match (digits.first(), digits.get(1)) {
        (_, Some(b'1')) => "th",
        (Some(b'1'), _) => "st",
        (Some(b'2'), _) => "nd",
        (Some(b'3'), _) => "rd",
        _ => "th",
    };
    match upper {
        true => suffix.to_uppercase(),
        false => suffix.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_is_computed_of_a_timestamp_or_a_date_and_refused_otherwise() {
        assert!(given(Type::Timestamp, false).is_ok());
        assert!(given(Type::Date, false).is_ok());
        let code = |ty, untyped| given(ty, untyped).unwrap_err().code;
        assert_eq!(code(Type::Text, true), "42725");
        assert_eq!(code(Type::Text, false), "42883");
        assert_eq!(code(Type::Numeric(None), false), "0A000");
        assert_eq!(code(Type::Interval, false), "0A000");
    }

    #[test]
    fn a_date_is_its_midnight_and_infinity_is_null() {
        let template = Value::from("YYYY-MM-DD HH24:MI TZ");
        let date = to_char(&Value::from("2026-12-05"), &template);
        assert_eq!(date, Value::from("2026-12-05 00:00 UTC"));
        assert_eq!(to_char(&Value::from("infinity"), &template), Value::Null);
        assert_eq!(to_char(&Value::Null, &template), Value::Null);
    }
}
