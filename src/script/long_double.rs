//! Redis's `INCRBYFLOAT` and `HINCRBYFLOAT` arithmetic, digit for digit.
//!
//! Redis reads the stored text and the increment with `strtold`, adds them
//! as C `long double`s (on x86-64, the x87's 80-bit format: a 64-bit
//! mantissa) and stores `printf("%.17Lf")` with the trailing zeros taken
//! off. So `INCRBYFLOAT k 1000.1` on a missing key answers
//! `"1000.09999999999999998"`, where JavaScript's `0 + 1000.1` is
//! `1000.1`. This module does the same three steps exactly, on big
//! integers: a value is `mantissa × 2^exponent`, rounded to 64 bits, to
//! nearest, ties to even, as the x87 rounds.
//!
//! Not read: hexadecimal floats (`0x1p3`), which `strtold` takes; Redis
//! would count from them, the model refuses them as not a float.

use num_bigint::BigUint;

/// An 80-bit extended-precision value: `(-1)^negative × mantissa ×
/// 2^exponent`, or an infinity.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Extended {
    Finite {
        negative: bool,
        mantissa: u64,
        exponent: i32,
    },
    Infinite,
}

/// The smallest exponent of a 64-bit mantissa: below it, values are
/// subnormal (`2^-16445` is the least one).
const MIN_EXPONENT: i32 = -16445;
/// The largest exponent of a finite value (`2^16384` overflows).
const MAX_EXPONENT: i32 = 16384 - 64;
/// Redis refuses a value of this many characters or more
/// (`MAX_LONG_DOUBLE_CHARS`).
const MAX_CHARS: usize = 5 * 1024;

pub const NOT_A_FLOAT: &str = "ERR value is not a valid float";
pub const NOT_FINITE: &str = "ERR increment would produce NaN or Infinity";

/// `INCRBYFLOAT`: the text Redis stores and answers for `current` (the
/// stored text, `None` for a missing key) plus `by`, or Redis's error
/// (`hash`: `HINCRBYFLOAT`'s words for a stored value that is no float).
pub fn add(current: Option<&str>, by: &str, hash: bool) -> Result<String, &'static str> {
    let old = match current {
        None => zero(),
        Some(text) => parse(text).ok_or(if hash {
            "ERR hash value is not a float"
        } else {
            NOT_A_FLOAT
        })?,
    };
    let by = parse(by).ok_or(NOT_A_FLOAT)?;
    match sum(old, by) {
        Extended::Infinite => Err(NOT_FINITE),
        finite => Ok(human(finite)),
    }
}

/// `HINCRBYFLOAT`'s increment, which Redis reads (and refuses) before
/// anything else.
pub fn hash_increment(by: &str) -> Result<(), &'static str> {
    match parse(by) {
        None => Err(NOT_A_FLOAT),
        Some(Extended::Infinite) => Err("ERR value is NaN or Infinity"),
        Some(_) => Ok(()),
    }
}

fn zero() -> Extended {
    Extended::Finite {
        negative: false,
        mantissa: 0,
        exponent: 0,
    }
}

/// Redis's `string2ld`: the whole text is one `strtold` number, with no
/// leading space, neither NaN nor out of range (an infinity is read).
fn parse(text: &str) -> Option<Extended> {
    if text.is_empty() || text.len() >= MAX_CHARS {
        return None;
    }
    let (negative, rest) = match text.as_bytes()[0] {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if rest.eq_ignore_ascii_case("inf") || rest.eq_ignore_ascii_case("infinity") {
        return Some(Extended::Infinite);
    }
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return None;
    }
    let mut power = -(fraction.len() as i64);
    if let Some(exponent) = exponent {
        let unsigned = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        if unsigned.is_empty() || !digits(unsigned) {
            return None;
        }
        // Beyond any value's reach either way; saturates rather than wraps.
        let size: i64 = unsigned.parse().unwrap_or(i64::MAX / 4).min(1 << 40);
        power += if exponent.starts_with('-') {
            -size
        } else {
            size
        };
    }
    let all: String = [whole, fraction].concat();
    let significant = all.trim_start_matches('0');
    if significant.is_empty() {
        return Some(Extended::Finite {
            negative,
            mantissa: 0,
            exponent: 0,
        });
    }
    // The value's decimal magnitude: it overflows (`HUGE_VAL`) above
    // 10^4933, and underflows to zero below 10^-4952; both are refused.
    let magnitude = significant.len() as i64 + power;
    if !(-4952..=4933).contains(&magnitude) {
        return None;
    }
    let digits: BigUint = significant.parse().ok()?;
    let ten = BigUint::from(10u32);
    let (numerator, denominator) = match power >= 0 {
        true => (digits * ten.pow(power as u32), BigUint::from(1u32)),
        false => (digits, ten.pow((-power) as u32)),
    };
    match round(negative, &numerator, &denominator, 0) {
        Extended::Finite { mantissa: 0, .. } | Extended::Infinite => None,
        value => Some(value),
    }
}

/// `numerator / denominator × 2^shift`, rounded to a 64-bit mantissa.
fn round(negative: bool, numerator: &BigUint, denominator: &BigUint, shift: i64) -> Extended {
    if numerator.bits() == 0 {
        return Extended::Finite {
            negative: false,
            mantissa: 0,
            exponent: 0,
        };
    }
    // The exponent that puts the quotient in [2^63, 2^64), or the least.
    let mut exponent = numerator.bits() as i64 - denominator.bits() as i64 - 64 + shift;
    loop {
        let exponent_used = exponent.max(i64::from(MIN_EXPONENT));
        let scale = exponent_used - shift;
        let (top, bottom) = match scale >= 0 {
            true => (numerator.clone(), denominator << scale as u64),
            false => (numerator << (-scale) as u64, denominator.clone()),
        };
        let quotient = &top / &bottom;
        // The estimate is the exponent or one below it: one more round
        // at most.
        if quotient.bits() > 64 {
            exponent = exponent_used + 1;
            continue;
        }
        if quotient.bits() < 64 && exponent_used > i64::from(MIN_EXPONENT) {
            exponent = exponent_used - 1;
            continue;
        }
        let remainder = &top - &quotient * &bottom;
        let mut mantissa = u64::try_from(&quotient).unwrap_or(u64::MAX);
        let twice: BigUint = remainder << 1u32;
        let up = twice > bottom || (twice == bottom && mantissa & 1 == 1);
        let mut exponent = exponent_used;
        if up {
            match mantissa.checked_add(1) {
                Some(next) => mantissa = next,
                None => {
                    mantissa = 1 << 63;
                    exponent += 1;
                }
            }
        }
        if exponent > i64::from(MAX_EXPONENT) {
            return Extended::Infinite;
        }
        return Extended::Finite {
            negative,
            mantissa,
            exponent: exponent as i32,
        };
    }
}

/// `a + b`, rounded as the x87 rounds (an exact zero is positive).
fn sum(a: Extended, b: Extended) -> Extended {
    let (
        Extended::Finite {
            negative: a_negative,
            mantissa: a_mantissa,
            exponent: a_exponent,
        },
        Extended::Finite {
            negative: b_negative,
            mantissa: b_mantissa,
            exponent: b_exponent,
        },
    ) = (a, b)
    else {
        return Extended::Infinite;
    };
    let low = a_exponent.min(b_exponent);
    let a_exact = BigUint::from(a_mantissa) << (a_exponent - low) as u64;
    let b_exact = BigUint::from(b_mantissa) << (b_exponent - low) as u64;
    let one = BigUint::from(1u32);
    let (negative, total) = match (a_negative == b_negative, a_exact >= b_exact) {
        (true, _) => (a_negative, a_exact + b_exact),
        (false, true) => (a_negative, a_exact - b_exact),
        (false, false) => (b_negative, b_exact - a_exact),
    };
    round(negative, &total, &one, i64::from(low))
}

/// Redis's `ld2string(…, LD_STR_HUMAN)`: `%.17Lf` (rounded to nearest,
/// ties to even, as glibc's printf does), trailing zeros and a bare
/// point taken off, and `-0` written `0`.
fn human(value: Extended) -> String {
    let Extended::Finite {
        negative,
        mantissa,
        exponent,
    } = value
    else {
        return "inf".to_string();
    };
    let scaled = BigUint::from(mantissa) * BigUint::from(10u32).pow(17);
    let fixed = match exponent >= 0 {
        true => scaled << exponent as u64,
        false => {
            let shift = (-exponent) as u64;
            let quotient = &scaled >> shift;
            let remainder = &scaled - (&quotient << shift);
            let half = BigUint::from(1u32) << (shift - 1);
            let odd = quotient.bit(0);
            match remainder > half || (remainder == half && odd) {
                true => quotient + 1u32,
                false => quotient,
            }
        }
    };
    let digits = format!("{fixed:0>18}");
    let (whole, fraction) = digits.split_at(digits.len() - 17);
    let fraction = fraction.trim_end_matches('0');
    let text = match fraction.is_empty() {
        true => whole.to_string(),
        false => format!("{whole}.{fraction}"),
    };
    match (negative, text.as_str()) {
        (_, "0") | (false, _) => text,
        (true, _) => format!("-{text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Redis 7.0.15's answers, each `DEL f` then `INCRBYFLOAT f <by>`.
    #[test]
    fn a_missing_key_counts_from_zero_as_redis_does() {
        for (by, redis) in [
            ("1000.1", "1000.09999999999999998"),
            ("0.1", "0.1"),
            ("123456.789", "123456.78900000000000148"),
            ("1e10", "10000000000"),
            ("3.0e3", "3000"),
            ("1.5", "1.5"),
            ("-0.0", "0"),
            ("-2.5", "-2.5"),
        ] {
            assert_eq!(add(None, by, false).as_deref(), Ok(redis), "{by}");
        }
    }

    /// One key, incremented in turn, as Redis answered.
    #[test]
    fn each_increment_reads_the_text_the_last_one_stored() {
        let mut value = None::<String>;
        for (by, redis) in [
            ("0.1", "0.1"),
            ("0.2", "0.3"),
            ("1000", "1000.29999999999999999"),
            ("10.99", "1011.28999999999999998"),
        ] {
            let next = add(value.as_deref(), by, false).unwrap();
            assert_eq!(next, redis, "+ {by}");
            value = Some(next);
        }
        assert_eq!(add(Some("10.99"), "5.01", false).as_deref(), Ok("16"));
        assert_eq!(add(Some("5.0"), "0", false).as_deref(), Ok("5"));
        assert_eq!(
            add(Some("5"), "1.23456789012345678", false).as_deref(),
            Ok("6.23456789012345678")
        );
        assert_eq!(
            add(Some("6.23456789012345678"), "1e-20", false).as_deref(),
            Ok("6.23456789012345678")
        );
    }

    #[test]
    fn what_redis_refuses_it_refuses_with_redis_words() {
        assert_eq!(add(Some("abc"), "1", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some(" 5"), "1", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "abc", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "1e99999", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "1e-99999", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "nan", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "1e", false), Err(NOT_A_FLOAT));
        assert_eq!(add(Some("5"), "inf", false), Err(NOT_FINITE));
        assert_eq!(
            add(Some("x"), "1", true),
            Err("ERR hash value is not a float")
        );
        assert_eq!(hash_increment("inf"), Err("ERR value is NaN or Infinity"));
        assert_eq!(hash_increment("1,5"), Err(NOT_A_FLOAT));
        assert_eq!(hash_increment("-1.5e3"), Ok(()));
    }

    /// A thousand random sums (tests/redis/incrbyfloat.py), each as Redis
    /// 7.0 answered it: `SET k A`, then `INCRBYFLOAT k B`.
    #[test]
    fn random_sums_answer_as_redis_did() {
        let corpus = include_str!("../../tests/redis/incrbyfloat.tsv");
        let mut cases = 0;
        for line in corpus.lines() {
            let [a, b, redis] = line.split('\t').collect::<Vec<_>>()[..] else {
                panic!("not A, B and the answer: {line}");
            };
            let ours = add(Some(a), b, false).unwrap_or_else(str::to_string);
            assert_eq!(ours, redis, "{a} + {b}");
            cases += 1;
        }
        assert_eq!(cases, 990);
    }

    /// `1e400` fits a long double: Redis printed its binary value's 401
    /// digits exactly (the 5 is lost to rounding).
    #[test]
    fn a_value_beyond_a_double_keeps_the_long_doubles_digits() {
        const REDIS: &str = concat!(
            "1000000000000000000028188068394758651458645343362905203862591069",
            "3539685534008629862039363994848324160522094053927317616200295822",
            "7772592557340238289765933406610177974474345461739178624481166749",
            "7172377894382439159333804747067502624668440135923751360383034373",
            "5485505244955964979021825038280091068414947402456898653040951017",
            "5126580926158275889201834725116433165913626641381763097348063437",
            "32497430221946880",
        );
        assert_eq!(add(Some("5"), "1e400", false).as_deref(), Ok(REDIS));
        assert_eq!(add(Some("1e4932"), "1e4932", false), Err(NOT_FINITE));
    }
}
