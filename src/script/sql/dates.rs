//! `date_trunc(unit, t)`, `extract(field FROM t)` and `date_part(field,
//! t)` as PostgreSQL computes them in a UTC session: a `timestamptz`
//! truncated to the unit's start (a week starts on Monday; a decade,
//! century or millennium as PostgreSQL counts them), a field of a
//! `timestamptz`, a `date` or an `interval`. `extract` answers a
//! `numeric` (the epoch and the seconds with six places, the milliseconds
//! with three), `date_part` the same number as a double. `infinity` stays
//! infinite where the field grows with time, and is NULL elsewhere.

use serde_json::Value;

use super::interval::Interval;
use super::parse::{SqlError, Type};
use super::time::{civil, days_from_civil, instant_ms, timestamp};
use super::value::error;

const MS_PER_DAY: i64 = 86_400_000;

/// `to_timestamp(seconds)`: the instant that many seconds after
/// 1970-01-01 UTC, to the millisecond the model keeps (`infinity` for an
/// infinite number, PostgreSQL's 22008 past its range).
pub fn from_epoch(seconds: &Value) -> Result<Value, SqlError> {
    if seconds.is_null() {
        return Ok(Value::Null);
    }
    let seconds = super::value::number(seconds)?;
    if seconds.is_infinite() {
        let sign = if seconds < 0.0 { "-" } else { "" };
        return Ok(Value::String(format!("{sign}infinity")));
    }
    let ms = (seconds * 1000.0).round();
    // PostgreSQL's range: 4714 BC to 294276 AD.
    if seconds.is_nan() || !(-210_866_803_200_000.0..9_224_318_016_000_000.0).contains(&ms) {
        return Err(error(
            "22008",
            format!("timestamp out of range: \"{seconds}\""),
        ));
    }
    Ok(Value::String(timestamp(ms)))
}

/// What a date function was given, by its type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Given {
    Timestamp,
    Date,
    Interval,
}

impl Given {
    fn name(self) -> &'static str {
        match self {
            Given::Timestamp => "timestamp with time zone",
            Given::Date => "date",
            Given::Interval => "interval",
        }
    }
}

/// The argument types PostgreSQL has these functions for (`None`: its
/// 42725 for an untyped one, 42883 for another type).
pub fn given(function: &str, ty: Type, untyped: bool) -> Result<Given, SqlError> {
    match ty {
        Type::Timestamp => Ok(Given::Timestamp),
        Type::Date => Ok(Given::Date),
        Type::Interval => Ok(Given::Interval),
        _ if untyped => Err(error(
            "42725",
            format!("function {function}(unknown, unknown) is not unique"),
        )),
        other => Err(error(
            "42883",
            format!(
                "function {function}(unknown, {}) does not exist",
                other.name()
            ),
        )),
    }
}

/// The units and fields by PostgreSQL's names for them (case aside).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    Microseconds,
    Milliseconds,
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
    Decade,
    Century,
    Millennium,
    Epoch,
    Dow,
    IsoDow,
    Doy,
    IsoYear,
    Timezone,
}

fn unit(name: &str) -> Option<Unit> {
    Some(match name {
        "microsecond" | "microseconds" | "us" | "usec" | "usecs" | "useconds" => Unit::Microseconds,
        "millisecond" | "milliseconds" | "ms" | "msec" | "msecs" | "mseconds" => Unit::Milliseconds,
        "second" | "seconds" | "s" | "sec" | "secs" => Unit::Second,
        "minute" | "minutes" | "m" | "min" | "mins" => Unit::Minute,
        "hour" | "hours" | "h" | "hr" | "hrs" => Unit::Hour,
        "day" | "days" | "d" => Unit::Day,
        "week" | "weeks" | "w" => Unit::Week,
        "month" | "months" | "mon" | "mons" => Unit::Month,
        "quarter" | "qtr" => Unit::Quarter,
        "year" | "years" | "y" | "yr" | "yrs" => Unit::Year,
        "decade" | "decades" | "dec" | "decs" => Unit::Decade,
        "century" | "centuries" | "c" | "cent" => Unit::Century,
        "millennium" | "millennia" | "mil" | "mils" => Unit::Millennium,
        "epoch" => Unit::Epoch,
        "dow" => Unit::Dow,
        "isodow" => Unit::IsoDow,
        "doy" => Unit::Doy,
        "isoyear" => Unit::IsoYear,
        "timezone" => Unit::Timezone,
        _ => return None,
    })
}

fn not_recognized(name: &str, given: Given) -> SqlError {
    error(
        "22023",
        format!("unit \"{name}\" not recognized for type {}", given.name()),
    )
}

fn not_supported(name: &str, given: Given) -> SqlError {
    error(
        "0A000",
        format!("unit \"{name}\" not supported for type {}", given.name()),
    )
}

/// A kept date as the kept timestamp of its midnight (UTC), or a kept
/// timestamp as it is; `infinity` stays.
fn midnight(kept: &str, given: Given) -> String {
    match given {
        Given::Date if !kept.ends_with("infinity") => format!("{kept}T00:00:00.000Z"),
        _ => kept.to_string(),
    }
}

/// `date_trunc(name, value)`: a `timestamptz` (a date is its midnight).
pub fn trunc(name: &Value, value: &Value, given: Given) -> Result<Value, SqlError> {
    let (Value::String(name), Value::String(kept)) = (name, value) else {
        return Ok(Value::Null);
    };
    let name = name.to_lowercase();
    if given == Given::Interval {
        return Err(error(
            "0A000",
            "date_trunc of an interval is not supported by the simulation".into(),
        ));
    }
    let unit = unit(&name)
        .filter(|unit| !matches!(unit, Unit::Epoch | Unit::Dow | Unit::IsoDow | Unit::Doy))
        .filter(|unit| !matches!(unit, Unit::IsoYear | Unit::Timezone))
        .ok_or_else(|| not_recognized(&name, Given::Timestamp))?;
    let kept = midnight(kept, given);
    let Some(ms) = instant_ms(&kept) else {
        return Ok(Value::String(kept));
    };
    let (days, in_day) = (ms.div_euclid(MS_PER_DAY), ms.rem_euclid(MS_PER_DAY));
    let (year, month, _) = civil(days);
    let day_of = |year: i64, month: i64| days_from_civil(year, month, 1) * MS_PER_DAY;
    let truncated = match unit {
        Unit::Microseconds | Unit::Milliseconds => ms,
        Unit::Second => ms - ms.rem_euclid(1000),
        Unit::Minute => ms - ms.rem_euclid(60_000),
        Unit::Hour => ms - ms.rem_euclid(3_600_000),
        Unit::Day => ms - in_day,
        // 1970-01-01 was a Thursday: days + 3 counts from a Monday.
        Unit::Week => (days - (days + 3).rem_euclid(7)) * MS_PER_DAY,
        Unit::Month => day_of(year, month),
        Unit::Quarter => day_of(year, (month - 1) / 3 * 3 + 1),
        Unit::Year => day_of(year, 1),
        Unit::Decade => day_of(year - year.rem_euclid(10), 1),
        // The first century and millennium start in year 1.
        Unit::Century => day_of((year - 1).div_euclid(100) * 100 + 1, 1),
        Unit::Millennium => day_of((year - 1).div_euclid(1000) * 1000 + 1, 1),
        _ => unreachable!("left out above"),
    };
    Ok(Value::String(timestamp(truncated as f64)))
}

/// `extract(name FROM value)` (`numeric`: a numeric's text) or
/// `date_part(name, value)` (a double).
pub fn part(name: &Value, value: &Value, given: Given, numeric: bool) -> Result<Value, SqlError> {
    let (Value::String(name), Value::String(kept)) = (name, value) else {
        return Ok(Value::Null);
    };
    let name = name.to_lowercase();
    let unit = unit(&name).ok_or_else(|| not_recognized(&name, given))?;
    let (units, scale) = match given {
        Given::Interval => interval_part(unit, Interval::parse(kept, None)?)
            .ok_or_else(|| not_supported(&name, given))?,
        Given::Timestamp | Given::Date => {
            let kept = midnight(kept, given);
            let Some(ms) = instant_ms(&kept) else {
                // `infinity`: infinite where the field grows with time.
                let grows = matches!(
                    unit,
                    Unit::Epoch
                        | Unit::Year
                        | Unit::IsoYear
                        | Unit::Decade
                        | Unit::Century
                        | Unit::Millennium
                );
                return Ok(match grows {
                    true if kept.starts_with('-') => Value::String("-Infinity".into()),
                    true => Value::String("Infinity".into()),
                    false => Value::Null,
                });
            };
            let (units, scale) = instant_part(unit, ms);
            if given == Given::Date {
                if matches!(
                    unit,
                    Unit::Microseconds
                        | Unit::Milliseconds
                        | Unit::Second
                        | Unit::Minute
                        | Unit::Hour
                        | Unit::Timezone
                ) {
                    return Err(not_supported(&name, given));
                }
                // A date's fields are whole numbers.
                (units / 10_i64.pow(scale), 0)
            } else {
                (units, scale)
            }
        }
    };
    Ok(match numeric {
        true => Value::String(fixed(units, scale)),
        false => crate::script::world::number(units as f64 / 10_f64.powi(scale as i32)),
    })
}

/// A field of the instant `ms`, as a whole number of `10^-scale` units.
fn instant_part(unit: Unit, ms: i64) -> (i64, u32) {
    let (days, in_day) = (ms.div_euclid(MS_PER_DAY), ms.rem_euclid(MS_PER_DAY));
    let (year, month, day) = civil(days);
    let in_minute = in_day % 60_000;
    // Monday 1 to Sunday 7.
    let iso_dow = (days + 3).rem_euclid(7) + 1;
    // The ISO year and week are the Thursday's of the same week.
    let thursday = days - (iso_dow - 1) + 3;
    let iso_year = civil(thursday).0;
    let iso_week = (thursday - days_from_civil(iso_year, 1, 1)) / 7 + 1;
    let whole = |n: i64| (n, 0);
    match unit {
        Unit::Epoch => (ms * 1000, 6),
        Unit::Second => (in_minute * 1000, 6),
        Unit::Milliseconds => (in_minute * 1000, 3),
        Unit::Microseconds => (in_minute * 1000, 0),
        Unit::Minute => whole(in_day / 60_000 % 60),
        Unit::Hour => whole(in_day / 3_600_000),
        Unit::Day => whole(day),
        Unit::Week => whole(iso_week),
        Unit::Month => whole(month),
        Unit::Quarter => whole((month - 1) / 3 + 1),
        Unit::Year => whole(year),
        Unit::Decade => whole(year.div_euclid(10)),
        Unit::Century => whole((year - 1).div_euclid(100) + 1),
        Unit::Millennium => whole((year - 1).div_euclid(1000) + 1),
        Unit::Dow => whole(iso_dow % 7),
        Unit::IsoDow => whole(iso_dow),
        Unit::Doy => whole(days - days_from_civil(year, 1, 1) + 1),
        Unit::IsoYear => whole(iso_year),
        Unit::Timezone => whole(0),
    }
}

/// A field of an interval, as PostgreSQL's: its months give the years
/// and months, its days the days, its time the rest; the epoch counts a
/// year as 365.25 days and a month as 30.
fn interval_part(unit: Unit, interval: Interval) -> Option<(i64, u32)> {
    let micros = interval.micros;
    let whole = |n: i64| Some((n, 0));
    match unit {
        Unit::Epoch => {
            let (years, months) = (interval.months / 12, interval.months % 12);
            let days_us = 86_400_000_000_i64;
            // A quarter day per year: whole years' micros, exactly.
            let year_us = years.saturating_mul(36_525 * days_us / 100);
            let rest = (months * 30)
                .saturating_add(interval.days)
                .saturating_mul(days_us);
            Some((year_us.saturating_add(rest).saturating_add(micros), 6))
        }
        Unit::Second => Some((micros % 60_000_000, 6)),
        Unit::Milliseconds => Some((micros % 60_000_000, 3)),
        Unit::Microseconds => Some((micros % 60_000_000, 0)),
        Unit::Minute => whole((interval.micros / 60_000_000) % 60),
        Unit::Hour => whole(interval.micros / 3_600_000_000),
        Unit::Day => whole(interval.days),
        Unit::Month => whole(interval.months % 12),
        Unit::Quarter => whole((interval.months % 12) / 3 + 1),
        Unit::Year => whole(interval.months / 12),
        Unit::Decade => whole(interval.months / 120),
        Unit::Century => whole(interval.months / 1200),
        Unit::Millennium => whole(interval.months / 12_000),
        _ => None,
    }
}

/// `units` of `10^-scale` as a numeric's text with `scale` places.
fn fixed(units: i64, scale: u32) -> String {
    let sign = if units < 0 { "-" } else { "" };
    let magnitude = units.unsigned_abs();
    if scale == 0 {
        return format!("{sign}{magnitude}");
    }
    let base = 10_u64.pow(scale);
    let width = scale as usize;
    format!("{sign}{}.{:0width$}", magnitude / base, magnitude % base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part_of(name: &str, kept: &str, given: Given) -> String {
        match part(&name.into(), &kept.into(), given, true).unwrap() {
            Value::String(text) => text,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn fields_of_an_instant_read_as_postgresql_reads_them() {
        let t = "2024-03-05T10:00:20.123Z";
        assert_eq!(part_of("epoch", t, Given::Timestamp), "1709632820.123000");
        assert_eq!(part_of("second", t, Given::Timestamp), "20.123000");
        assert_eq!(part_of("milliseconds", t, Given::Timestamp), "20123.000");
        assert_eq!(part_of("microseconds", t, Given::Timestamp), "20123000");
        assert_eq!(part_of("dow", t, Given::Timestamp), "2");
        assert_eq!(part_of("week", t, Given::Timestamp), "10");
        assert_eq!(
            part_of("epoch", "1969-12-31T23:59:59.500Z", Given::Timestamp),
            "-0.500000"
        );
        // 2021-01-01 is a Friday of 2020's 53rd ISO week.
        assert_eq!(part_of("week", "2021-01-01", Given::Date), "53");
        assert_eq!(part_of("isoyear", "2021-01-01", Given::Date), "2020");
        assert_eq!(part_of("epoch", "2024-03-05", Given::Date), "1709596800");
        assert_eq!(part_of("century", "2000-06-01", Given::Date), "20");
    }

    #[test]
    fn a_week_starts_on_monday_and_a_century_in_year_one() {
        let trunc_to =
            |name: &str, kept: &str| trunc(&name.into(), &kept.into(), Given::Timestamp).unwrap();
        assert_eq!(
            trunc_to("week", "2024-03-07T10:07:20.123Z"),
            Value::from("2024-03-04T00:00:00.000Z")
        );
        assert_eq!(
            trunc_to("century", "2024-03-07T10:07:20.123Z"),
            Value::from("2001-01-01T00:00:00.000Z")
        );
        assert_eq!(
            trunc_to("Minutes", "2024-03-07T10:07:20.123Z"),
            Value::from("2024-03-07T10:07:00.000Z")
        );
    }
}
