//! `interval` as PostgreSQL keeps it: months, days and microseconds apart
//! (a month is not a fixed number of days), read from its text (`'1
//! hour'`, `'5 minutes'`, `'1 day 02:00:00'`, `'1.5 hours'`, `'30'` for
//! seconds, `'… ago'`), printed as PostgreSQL prints it (`01:00:00`, `1
//! day 02:00:00`, `1 mon 2 days`), added to a timestamp (months on the
//! calendar first, then days, then the time, in UTC), scaled by a number,
//! and compared with a month as 30 days, as PostgreSQL compares.

use std::cmp::Ordering;

use super::parse::SqlError;

const MICROS_PER_DAY: i64 = 86_400_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Interval {
    pub months: i64,
    pub days: i64,
    pub micros: i64,
}

fn invalid(text: &str) -> SqlError {
    SqlError::new(
        "22007",
        format!("invalid input syntax for type interval: \"{text}\""),
    )
}

fn overflow() -> SqlError {
    SqlError::new("22008", "interval out of range".to_string())
}

impl Interval {
    /// An interval's text; `unit` is the field a bare number counts
    /// (`INTERVAL '5' MINUTE`), seconds if none.
    pub fn parse(text: &str, unit: Option<&str>) -> Result<Interval, SqlError> {
        let mut total = Spill::default();
        let mut words = text.split_whitespace().peekable();
        let mut any = false;
        let mut ago = false;
        while let Some(word) = words.next() {
            let word = word.to_ascii_lowercase();
            if word == "@" {
                continue;
            }
            if word == "ago" {
                ago = true;
                continue;
            }
            if word.contains(':') {
                total.micros += clock(&word).ok_or_else(|| invalid(text))? as f64;
                any = true;
                continue;
            }
            // A number, its unit glued on (`5min`) or the next word.
            let split = word
                .find(|c: char| c.is_ascii_alphabetic())
                .unwrap_or(word.len());
            let (number, glued) = word.split_at(split);
            let value: f64 = number.parse().map_err(|_| invalid(text))?;
            let unit = match glued {
                "" => match words.peek() {
                    Some(next)
                        if next.chars().all(|c| c.is_ascii_alphabetic())
                            && !next.eq_ignore_ascii_case("ago") =>
                    {
                        words
                            .next()
                            .map(str::to_ascii_lowercase)
                            .unwrap_or_default()
                    }
                    _ => unit.unwrap_or("second").to_string(),
                },
                glued => glued.to_string(),
            };
            total.add(value, &unit).ok_or_else(|| invalid(text))?;
            any = true;
        }
        if !any {
            return Err(invalid(text));
        }
        let interval = total.settle().ok_or_else(overflow)?;
        Ok(if ago { interval.negate() } else { interval })
    }

    pub fn negate(self) -> Interval {
        Interval {
            months: -self.months,
            days: -self.days,
            micros: -self.micros,
        }
    }

    /// `self * factor`: a fraction of a month spills into days (30 to a
    /// month), a fraction of a day into the time.
    pub fn scale(self, factor: f64) -> Result<Interval, SqlError> {
        let spill = Spill {
            months: self.months as f64 * factor,
            days: self.days as f64 * factor,
            micros: self.micros as f64 * factor,
        };
        spill.settle().ok_or_else(overflow)
    }

    /// PostgreSQL's order: a month as 30 days, a day as 24 hours.
    pub fn cmp_total(&self, other: &Interval) -> Ordering {
        let total = |i: &Interval| {
            (i128::from(i.months) * 30 + i128::from(i.days)) * i128::from(MICROS_PER_DAY)
                + i128::from(i.micros)
        };
        total(self).cmp(&total(other))
    }

    pub fn checked_add(self, other: Interval) -> Option<Interval> {
        Some(Interval {
            months: self.months.checked_add(other.months)?,
            days: self.days.checked_add(other.days)?,
            micros: self.micros.checked_add(other.micros)?,
        })
    }

    /// As PostgreSQL prints it (IntervalStyle `postgres`).
    pub fn output(&self) -> String {
        let mut parts = Vec::new();
        let (years, months) = (self.months / 12, self.months % 12);
        let plural = |n: i64, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        if years != 0 {
            parts.push(plural(years, "year", "years"));
        }
        if months != 0 {
            parts.push(plural(months, "mon", "mons"));
        }
        if self.days != 0 {
            parts.push(plural(self.days, "day", "days"));
        }
        if self.micros != 0 || parts.is_empty() {
            let sign = if self.micros < 0 { "-" } else { "" };
            let micros = self.micros.unsigned_abs();
            let seconds = micros / 1_000_000;
            let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
            let fraction = micros % 1_000_000;
            let mut clock = format!("{sign}{h:02}:{m:02}:{s:02}");
            if fraction != 0 {
                let digits = format!("{fraction:06}");
                clock.push('.');
                clock.push_str(digits.trim_end_matches('0'));
            }
            parts.push(clock);
        }
        parts.join(" ")
    }
}

/// `HH:MM[:SS[.ffffff]]` (a sign before it), in microseconds.
fn clock(word: &str) -> Option<i64> {
    let (sign, word) = match word.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, word.strip_prefix('+').unwrap_or(word)),
    };
    let mut fields = word.split(':');
    let hours: i64 = fields.next()?.parse().ok()?;
    let minutes: i64 = fields.next()?.parse().ok()?;
    let seconds: f64 = match fields.next() {
        Some(s) => s.parse().ok()?,
        None => 0.0,
    };
    if fields.next().is_some() || minutes >= 60 || !(0.0..60.0).contains(&seconds) {
        return None;
    }
    let micros = (hours * 3600 + minutes * 60) as f64 * 1e6 + (seconds * 1e6).round();
    Some(sign * micros as i64)
}

/// Fields as they are added up, fractions not yet spilled down.
#[derive(Default)]
struct Spill {
    months: f64,
    days: f64,
    micros: f64,
}

impl Spill {
    fn add(&mut self, value: f64, unit: &str) -> Option<()> {
        let unit = unit.trim_end_matches(',');
        match unit {
            "microsecond" | "microseconds" | "us" | "usec" | "usecs" => self.micros += value,
            "millisecond" | "milliseconds" | "ms" | "msec" | "msecs" => self.micros += value * 1e3,
            "second" | "seconds" | "s" | "sec" | "secs" => self.micros += value * 1e6,
            "minute" | "minutes" | "m" | "min" | "mins" => self.micros += value * 6e7,
            "hour" | "hours" | "h" | "hr" | "hrs" => self.micros += value * 3.6e9,
            "day" | "days" | "d" => self.days += value,
            "week" | "weeks" | "w" => self.days += value * 7.0,
            "month" | "months" | "mon" | "mons" => self.months += value,
            "year" | "years" | "y" | "yr" | "yrs" => self.months += value * 12.0,
            "decade" | "decades" => self.months += value * 120.0,
            "century" | "centuries" => self.months += value * 1200.0,
            _ => return None,
        }
        Some(())
    }

    /// Whole months and days; their fractions spill down (30 days to a
    /// month), and the time rounds to a microsecond.
    fn settle(self) -> Option<Interval> {
        let months = self.months.trunc();
        let days = self.days + (self.months - months) * 30.0;
        let whole_days = days.trunc();
        let micros = self.micros + (days - whole_days) * MICROS_PER_DAY as f64;
        let fits = |v: f64| v.is_finite() && v.abs() < 9.2e18;
        if !(fits(months) && fits(whole_days) && fits(micros)) {
            return None;
        }
        Some(Interval {
            months: months as i64,
            days: whole_days as i64,
            micros: micros.round() as i64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        Interval::parse(text, None).expect("an interval").output()
    }

    /// PostgreSQL 15's `SELECT '…'::interval` for each.
    #[test]
    fn reads_and_prints_as_postgresql() {
        assert_eq!(shown("1 hour"), "01:00:00");
        assert_eq!(shown("5 minutes"), "00:05:00");
        assert_eq!(shown("30"), "00:00:30");
        assert_eq!(shown("1 day 2 hours"), "1 day 02:00:00");
        assert_eq!(shown("1.5 hours"), "01:30:00");
        assert_eq!(shown("1.5 days"), "1 day 12:00:00");
        assert_eq!(shown("1.5 months"), "1 mon 15 days");
        assert_eq!(shown("14 months"), "1 year 2 mons");
        assert_eq!(shown("2 weeks"), "14 days");
        assert_eq!(shown("25 hours"), "25:00:00");
        assert_eq!(shown("1 hour ago"), "-01:00:00");
        assert_eq!(shown("-1 day"), "-1 days");
        assert_eq!(shown("500 ms"), "00:00:00.5");
        assert_eq!(shown("10min"), "00:10:00");
        assert_eq!(shown("@ 3 days"), "3 days");
        assert_eq!(shown("01:02:03.25"), "01:02:03.25");
        assert_eq!(shown("0 seconds"), "00:00:00");
        assert_eq!(
            Interval::parse("5", Some("minute")).map(|i| i.output()),
            Ok("00:05:00".into())
        );
        for bad in ["", "soon", "1 fortnight", "1:99"] {
            assert_eq!(
                Interval::parse(bad, None).map_err(|e| e.code),
                Err("22007".into()),
                "{bad}"
            );
        }
    }

    #[test]
    fn scales_and_compares_as_postgresql() {
        let hour = Interval::parse("1 hour", None).expect("an interval");
        assert_eq!(hour.scale(2.5).map(|i| i.output()), Ok("02:30:00".into()));
        let month = Interval::parse("1 month", None).expect("an interval");
        assert_eq!(month.scale(0.5).map(|i| i.output()), Ok("15 days".into()));
        let days30 = Interval::parse("30 days", None).expect("an interval");
        assert_eq!(month.cmp_total(&days30), Ordering::Equal);
        assert_eq!(hour.cmp_total(&days30), Ordering::Less);
    }
}
