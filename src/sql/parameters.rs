//! Run-time parameters as a `SET` names and values them, read where the
//! statement is parsed (the script worker's runtime keeps them:
//! `script::sql::settings`), and where `set_config()` and
//! `current_setting()` run (their names and values are the query's
//! values): the parameters the model knows with
//! PostgreSQL 15's defaults, a value as `SHOW` prints it, and PostgreSQL's
//! errors for an unknown name (42704) and a bad value (22023).

use super::SqlError;

/// A parameter's unit, for what it accepts and how `SHOW` prints it.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Milliseconds: `2000`, `'2s'`, `'1min'`; shown in the largest unit
    /// that divides it (`2s`, `1500ms`).
    Millis,
    /// Text, kept as given.
    Text,
    /// A time zone: only UTC's names (the model writes times in UTC).
    Zone,
    /// An isolation level, in lower case.
    Isolation,
}

/// The parameters the model knows, with PostgreSQL 15's default as
/// `SHOW` prints it. A name with a dot (`app.tenant`) is a custom one.
const KNOWN: &[(&str, Kind, &str)] = &[
    ("lock_timeout", Kind::Millis, "0"),
    ("statement_timeout", Kind::Millis, "0"),
    ("idle_in_transaction_session_timeout", Kind::Millis, "0"),
    ("deadlock_timeout", Kind::Millis, "1s"),
    // BEGIN's level when it names none, and a lone statement's.
    (
        "default_transaction_isolation",
        Kind::Isolation,
        "read committed",
    ),
    ("application_name", Kind::Text, ""),
    ("search_path", Kind::Text, "\"$user\", public"),
    // What PostgreSQL on Debian starts with (initdb takes the system's).
    ("timezone", Kind::Zone, "Etc/UTC"),
    ("client_encoding", Kind::Text, "UTF8"),
    ("datestyle", Kind::Text, "ISO, MDY"),
    ("work_mem", Kind::Text, "4MB"),
    ("synchronous_commit", Kind::Text, "on"),
    ("jit", Kind::Text, "on"),
    ("row_security", Kind::Text, "on"),
];

fn known(name: &str) -> Option<(Kind, &'static str)> {
    KNOWN
        .iter()
        .find(|(known, _, _)| *known == name)
        .map(|&(_, kind, default)| (kind, default))
}

/// PostgreSQL's value for a known parameter that nothing sets (`None`
/// for a custom one, which `SHOW` does not know until it is set).
pub fn default_of(name: &str) -> Option<String> {
    known(name).map(|(_, default)| default.to_string())
}

fn kind(name: &str) -> Result<Kind, SqlError> {
    match known(name) {
        Some((kind, _)) => Ok(kind),
        None if name.contains('.') => Ok(Kind::Text),
        None => Err(SqlError::new(
            "42704",
            format!("unrecognized configuration parameter \"{name}\""),
        )),
    }
}

/// A `SET`'s value as `SHOW` gives it back (`None`, `DEFAULT`: the
/// default, itself `None` for a custom parameter), with its milliseconds
/// for a time (0 otherwise); or PostgreSQL's error.
pub fn checked(name: &str, value: Option<&str>) -> Result<(Option<String>, u64), SqlError> {
    let kind = kind(name)?;
    let Some(value) = value else {
        let default = default_of(name);
        let ms = default.as_deref().and_then(millis).unwrap_or(0);
        return Ok((default, ms.max(0) as u64));
    };
    let shown = match kind {
        Kind::Text => value.to_string(),
        Kind::Zone => match value.to_ascii_uppercase().as_str() {
            "UTC" | "ETC/UTC" | "GMT" | "ETC/GMT" | "Z" | "ZULU" | "UCT" | "UNIVERSAL" => {
                value.to_string()
            }
            _ => {
                return Err(SqlError::new(
                    "0A000",
                    format!("the time zone {value} is not supported by the simulation: it writes times in UTC"),
                ))
            }
        },
        Kind::Isolation => {
            let level = value.to_lowercase();
            const LEVELS: [&str; 4] = [
                "serializable",
                "repeatable read",
                "read committed",
                "read uncommitted",
            ];
            if !LEVELS.contains(&level.as_str()) {
                return Err(SqlError::new(
                    "22023",
                    format!("invalid value for parameter \"{name}\": \"{value}\""),
                ));
            }
            level
        }
        Kind::Millis => {
            let ms = millis(value).ok_or_else(|| {
                SqlError::new(
                    "22023",
                    format!("invalid value for parameter \"{name}\": \"{value}\""),
                )
            })?;
            if !(0..=i64::from(i32::MAX)).contains(&ms) {
                return Err(SqlError::new(
                    "22023",
                    format!(
                        "{ms} ms is outside the valid range for parameter \"{name}\" (0 .. 2147483647)"
                    ),
                ));
            }
            return Ok((Some(shown_millis(ms as u64)), ms as u64));
        }
    };
    Ok((Some(shown), 0))
}

/// Milliseconds from `2000`, `'2s'`, `'1.5s'`, `'2 min'`, `-1` (PostgreSQL's
/// units: ms, s, min, h, d), or `None` if it is not one.
fn millis(text: &str) -> Option<i64> {
    let text = text.trim();
    let split = text
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == '-')))
        .map_or(text.len(), |(i, _)| i);
    let (number, unit) = text.split_at(split);
    let scale: i64 = match unit.trim() {
        "" | "ms" => 1,
        "s" => 1_000,
        "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    // Integer arithmetic, so the SQL module links no float parser: the
    // whole part, then the fraction's digits, rounded to the millisecond.
    let (negative, number) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let whole: i64 = match whole {
        "" => 0,
        whole => whole.parse().ok()?,
    };
    let mut ms = whole.checked_mul(scale)?;
    let mut place = scale;
    let mut rest = 0;
    for digit in fraction.bytes() {
        let digit = i64::from(digit.checked_sub(b'0').filter(|d| *d <= 9)?);
        place /= 10;
        match place {
            0 => rest = rest.max(digit),
            _ => ms += digit * place,
        }
        if place == 0 {
            break;
        }
    }
    // The first digit past the millisecond rounds (half away from zero).
    if place == 0 && rest >= 5 {
        ms += 1;
    }
    Some(if negative { -ms } else { ms })
}

/// Milliseconds as `SHOW` prints them: in the largest unit that divides
/// them.
fn shown_millis(ms: u64) -> String {
    if ms == 0 {
        return "0".to_string();
    }
    let unit = [
        (86_400_000, "d"),
        (3_600_000, "h"),
        (60_000, "min"),
        (1_000, "s"),
    ]
    .into_iter()
    .find(|(size, _)| ms % size == 0);
    match unit {
        Some((size, unit)) => format!("{}{unit}", ms / size),
        None => format!("{ms}ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_show_in_their_largest_whole_unit() {
        let shown = |value| checked("lock_timeout", Some(value)).unwrap();
        assert_eq!(shown("2000"), (Some("2s".to_string()), 2_000));
        assert_eq!(shown("1500"), (Some("1500ms".to_string()), 1_500));
        assert_eq!(shown("1.5s"), (Some("1500ms".to_string()), 1_500));
        assert_eq!(shown("2min"), (Some("2min".to_string()), 120_000));
        assert_eq!(shown("0.5min"), (Some("30s".to_string()), 30_000));
        assert_eq!(shown("1.0005s"), (Some("1001ms".to_string()), 1_001));
        assert_eq!(shown(".25s"), (Some("250ms".to_string()), 250));
        assert_eq!(shown("0"), (Some("0".to_string()), 0));
        let error = |name, value| checked(name, Some(value)).unwrap_err();
        assert_eq!(&*error("lock_timeout", "soon").code, "22023");
        assert_eq!(
            error("lock_timeout", "-1").message,
            "-1 ms is outside the valid range for parameter \"lock_timeout\" (0 .. 2147483647)"
        );
        assert_eq!(&*error("lock_timout", "1s").code, "42704");
        assert_eq!(checked("app.tenant", None).unwrap(), (None, 0));
        assert_eq!(
            checked("deadlock_timeout", None).unwrap(),
            (Some("1s".to_string()), 1_000)
        );
    }
}
