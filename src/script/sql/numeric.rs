//! `numeric` as PostgreSQL computes it (its `numeric.c`): an exact
//! decimal with a display scale, which `+` and `-` keep (the larger of
//! the two), `*` adds up, and `/` chooses as `select_div_scale` does; a
//! `numeric(p, s)` rounds half away from zero to `s` places. The store
//! holds a `numeric` as its text ("19.50"), which pg gives back as is.
//! The digits are an `i128` (38 of them, where PostgreSQL has thousands):
//! an operation that needs more is `None`.

use std::cmp::Ordering;
use std::fmt;

/// `digits / 10^scale`, shown with `scale` places.
#[derive(Clone, Copy, Debug)]
pub struct Decimal {
    digits: i128,
    scale: u32,
}

/// The significant digits a quotient has at least (NUMERIC_MIN_SIG_DIGITS).
const MIN_SIG_DIGITS: i32 = 16;
/// The most places a result has (NUMERIC_MAX_DISPLAY_SCALE).
const MAX_DISPLAY_SCALE: i32 = 1000;

fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

/// `n / d` rounded half away from zero, as PostgreSQL rounds.
fn div_round(n: i128, d: i128) -> Option<i128> {
    let (q, r) = (n.checked_div(d)?, n.checked_rem(d)?);
    if r.unsigned_abs() * 2 < d.unsigned_abs() {
        Some(q)
    } else if (n < 0) == (d < 0) {
        q.checked_add(1)
    } else {
        q.checked_sub(1)
    }
}

/// `n * 10^shift / d` rounded half away from zero, a digit at a time, so
/// that only the quotient must fit in 38 digits, not `n * 10^shift`
/// (`10 / 0.22500000000000000000` shifts 10 by 40 places for a quotient
/// of 22 digits).
fn div_shifted(n: i128, shift: u32, d: i128) -> Option<i128> {
    let (a, b) = (n.unsigned_abs(), d.unsigned_abs());
    let (mut quotient, mut rest) = (a / b, a % b);
    for _ in 0..shift {
        let rest10 = rest.checked_mul(10)?;
        quotient = quotient.checked_mul(10)?.checked_add(rest10 / b)?;
        rest = rest10 % b;
    }
    if rest.checked_mul(2)? >= b {
        quotient = quotient.checked_add(1)?;
    }
    let quotient = i128::try_from(quotient).ok()?;
    Some(if (n < 0) != (d < 0) {
        -quotient
    } else {
        quotient
    })
}

impl Decimal {
    pub fn from_i64(n: i64) -> Decimal {
        Decimal {
            digits: n.into(),
            scale: 0,
        }
    }

    /// PostgreSQL's input: `[+-]digits[.digits][e[+-]digits]`, blanks
    /// around it; the scale is the places written (`1.50` has two).
    pub fn parse(text: &str) -> Option<Decimal> {
        let text = text.trim();
        let (negative, text) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(at) => (&text[..at], text[at + 1..].parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        let mut digits: i128 = 0;
        for b in whole.bytes().chain(fraction.bytes()) {
            if !b.is_ascii_digit() {
                return None;
            }
            digits = digits.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        }
        let scale = i64::try_from(fraction.len()).ok()? - i64::from(exponent);
        let decimal = match u32::try_from(scale) {
            Ok(scale) => Decimal { digits, scale },
            // `1.5e3`: 1500, no places.
            Err(_) => Decimal {
                digits: digits.checked_mul(pow10(u32::try_from(-scale).ok()?)?)?,
                scale: 0,
            },
        };
        if negative {
            decimal.checked_neg()
        } else {
            Some(decimal)
        }
    }

    pub fn is_zero(&self) -> bool {
        self.digits == 0
    }

    pub fn is_negative(&self) -> bool {
        self.digits < 0
    }

    /// The same value with `scale` places, at least its own.
    fn rescaled(self, scale: u32) -> Option<Decimal> {
        Some(Decimal {
            digits: self
                .digits
                .checked_mul(pow10(scale.checked_sub(self.scale)?)?)?,
            scale,
        })
    }

    pub fn checked_neg(self) -> Option<Decimal> {
        Some(Decimal {
            digits: self.digits.checked_neg()?,
            scale: self.scale,
        })
    }

    /// `+`: the larger scale of the two.
    pub fn checked_add(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale.max(other.scale);
        let (a, b) = (self.rescaled(scale)?, other.rescaled(scale)?);
        Some(Decimal {
            digits: a.digits.checked_add(b.digits)?,
            scale,
        })
    }

    /// `-`: the larger scale of the two.
    pub fn checked_sub(self, other: Decimal) -> Option<Decimal> {
        self.checked_add(other.checked_neg()?)
    }

    /// `*`: exact, its scale the sum of theirs.
    pub fn checked_mul(self, other: Decimal) -> Option<Decimal> {
        Some(Decimal {
            digits: self.digits.checked_mul(other.digits)?,
            scale: self.scale.checked_add(other.scale)?,
        })
    }

    /// `/` (by anything but zero): rounded half away from zero at the
    /// scale PostgreSQL chooses (`div_scale`).
    pub fn checked_div(self, other: Decimal) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        let scale = self.div_scale(&other);
        // (a / 10^sa) / (b / 10^sb) at `scale` places is
        // a * 10^(sb + scale - sa) / b, where scale >= sa.
        let shift = (other.scale + scale).checked_sub(self.scale)?;
        Some(Decimal {
            digits: div_shifted(self.digits, shift, other.digits)?,
            scale,
        })
    }

    /// `%` (by anything but zero): the remainder of the quotient truncated
    /// toward zero, with the sign of `self`, at the larger scale.
    pub fn checked_rem(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale.max(other.scale);
        let (a, b) = (self.rescaled(scale)?, other.rescaled(scale)?);
        Some(Decimal {
            digits: a.digits.checked_rem(b.digits)?,
            scale,
        })
    }

    /// PostgreSQL's `select_div_scale`: 16 significant digits, less the
    /// places the quotient's leading base-10000 digit stands before the
    /// point (`qweight`, its estimated weight, four places each), and never
    /// fewer places than either side shows.
    fn div_scale(&self, other: &Decimal) -> u32 {
        let (weight1, first1) = self.leading();
        let (weight2, first2) = other.leading();
        let mut qweight = weight1 - weight2;
        if first1 <= first2 {
            qweight -= 1;
        }
        let scale = (MIN_SIG_DIGITS - qweight * 4)
            .max(self.scale as i32)
            .max(other.scale as i32)
            .clamp(0, MAX_DISPLAY_SCALE);
        scale as u32
    }

    /// PostgreSQL's weight (the place of the leading base-10000 digit,
    /// counted in fours of decimal places from the point) and that digit;
    /// (0, 0) for zero.
    fn leading(&self) -> (i32, u128) {
        let digits = self.digits.unsigned_abs();
        if digits == 0 {
            return (0, 0);
        }
        let place = digits.ilog10() as i32 - self.scale as i32;
        let weight = place.div_euclid(4);
        let shift = self.scale as i32 + 4 * weight;
        let first = if shift >= 0 {
            digits / 10u128.pow(shift as u32)
        } else {
            digits * 10u128.pow(shift.unsigned_abs())
        };
        (weight, first)
    }

    /// Rounded half away from zero to `scale` places (a negative scale to
    /// tens, hundreds, ...), shown with that many (none when negative).
    pub fn round(self, scale: i32) -> Option<Decimal> {
        let target = u32::try_from(scale).unwrap_or(0);
        if scale >= 0 && target >= self.scale {
            return self.rescaled(target);
        }
        let dropped = u32::try_from(i64::from(self.scale) - i64::from(scale)).ok()?;
        let digits = match pow10(dropped) {
            Some(divisor) => div_round(self.digits, divisor)?,
            // More places dropped than the digits have.
            None => 0,
        };
        // A negative scale keeps the zeros it rounded to.
        let kept = u32::try_from(i64::from(target) - i64::from(scale)).ok()?;
        Some(Decimal {
            digits: digits.checked_mul(pow10(kept)?)?,
            scale: target,
        })
    }

    /// The digits before the point (the leading digit's place plus one:
    /// 0.05 has -1), as `numeric(p, s)` bounds them; `None` for zero.
    pub fn integer_digits(&self) -> Option<i32> {
        let digits = self.digits.unsigned_abs();
        if digits == 0 {
            return None;
        }
        Some(digits.ilog10() as i32 + 1 - self.scale as i32)
    }

    /// Rounded to an integer (as a cast to one rounds), if a bigint holds it.
    pub fn to_i64(self) -> Option<i64> {
        i64::try_from(self.round(0)?.digits).ok()
    }

    fn to_f64(self) -> f64 {
        self.digits as f64 / 10f64.powi(self.scale as i32)
    }

    /// Orders by value, whatever the scales (`1.0` is `1.00`).
    pub fn compare(&self, other: &Decimal) -> Ordering {
        let scale = self.scale.max(other.scale);
        match (self.rescaled(scale), other.rescaled(scale)) {
            (Some(a), Some(b)) => a.digits.cmp(&b.digits),
            _ => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

/// As PostgreSQL prints it: every place of its scale.
impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.digits < 0 { "-" } else { "" };
        let digits = self.digits.unsigned_abs().to_string();
        let places = self.scale as usize;
        if places == 0 {
            return write!(f, "{sign}{digits}");
        }
        let digits = format!("{digits:0>width$}", width = places + 1);
        let (whole, fraction) = digits.split_at(digits.len() - places);
        write!(f, "{sign}{whole}.{fraction}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Decimal {
        Decimal::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn input_keeps_the_places_it_is_written_with() {
        let shown: Vec<String> = [
            "19.50", "100", "-0.5", "+.5", "5.", "1.50e1", "1e-3", "1.5E3", " 7.0 ", "-0.0",
        ]
        .iter()
        .map(|text| n(text).to_string())
        .collect();
        assert_eq!(
            shown,
            ["19.50", "100", "-0.5", "0.5", "5", "15.0", "0.001", "1500", "7.0", "0.0"]
        );
        for bad in ["", "-", ".", "1e", "abc", "1 0", "--1", "NaN", "1e5e3"] {
            assert!(Decimal::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_quotient_has_postgresql_scale() {
        let div = |a: &str, b: &str| n(a).checked_div(n(b)).unwrap().to_string();
        // qweight 0: 16 places.
        assert_eq!(div("7.0", "2"), "3.5000000000000000");
        assert_eq!(div("10", "3"), "3.3333333333333333");
        assert_eq!(div("100", "3.0"), "33.3333333333333333");
        assert_eq!(div("100.00", "3"), "33.3333333333333333");
        assert_eq!(div("10000", "3"), "3333.3333333333333333");
        assert_eq!(div("-7", "2"), "-3.5000000000000000");
        // A first digit no larger than the divisor's: qweight -1, 20 places.
        assert_eq!(div("1", "3"), "0.33333333333333333333");
        assert_eq!(div("2", "3"), "0.66666666666666666667");
        assert_eq!(div("0", "3"), "0.00000000000000000000");
        // Three base-10000 digits before the point: qweight 1, 12 places.
        assert_eq!(div("123456789", "3"), "41152263.000000000000");
        // Never fewer places than either side.
        assert_eq!(
            div("1.0000000000000000000000", "4"),
            "0.2500000000000000000000"
        );
        assert!(n("1").checked_div(n("0.00")).is_none());
        // A divisor with many places: only the quotient needs to fit in
        // 38 digits (PostgreSQL 15 printed each of these).
        assert_eq!(
            div("10", "0.22500000000000000000"),
            "44.44444444444444444444"
        );
        assert_eq!(div("-7", "0.0300"), "-233.3333333333333333");
        assert_eq!(div("-2", "3"), "-0.66666666666666666667");
        assert_eq!(
            div("0.00000000000000000001", "3"),
            "0.0000000000000000000033333333333333333333"
        );
        // A quotient past 38 digits is still beyond the model.
        assert!(n("1e30").checked_div(n("0.00000000000000000001")).is_none());
    }

    #[test]
    fn sums_and_products_keep_postgresql_scale() {
        let shown = |d: Option<Decimal>| d.unwrap().to_string();
        assert_eq!(shown(n("19.50").checked_add(n("0.5"))), "20.00");
        assert_eq!(shown(n("100.00").checked_sub(n("30"))), "70.00");
        assert_eq!(shown(n("0.1").checked_add(n("0.2"))), "0.3");
        assert_eq!(shown(n("19.50").checked_mul(n("3"))), "58.50");
        assert_eq!(shown(n("0.10").checked_mul(n("0.20"))), "0.0200");
        assert_eq!(n("1.0").compare(&n("1.00")), Ordering::Equal);
        assert_eq!(n("19.50").compare(&n("5")), Ordering::Greater);
        assert_eq!(n("-2").compare(&n("-10.5")), Ordering::Greater);
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        let round = |text: &str, scale: i32| n(text).round(scale).unwrap().to_string();
        assert_eq!(round("33.3333333333333333", 2), "33.33");
        assert_eq!(round("100", 2), "100.00");
        assert_eq!(round("2.345", 2), "2.35");
        assert_eq!(round("-2.345", 2), "-2.35");
        assert_eq!(round("0.004", 2), "0.00");
        assert_eq!(round("1250", -2), "1300");
        assert_eq!(round("-1249.9", -2), "-1200");
        assert_eq!(n("2.5").to_i64(), Some(3));
        assert_eq!(n("-2.5").to_i64(), Some(-3));
        assert_eq!(n("99999.995").integer_digits(), Some(5));
        assert_eq!(n("0.05").integer_digits(), Some(-1));
        assert_eq!(n("0.00").integer_digits(), None);
    }
}
