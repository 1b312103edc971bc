//! Printing `f64`s without the standard library's float formatting, which
//! is about 11 KB of the page's wasm (Grisu and Dragon4, for `{}` and for
//! `{:.N}` alike), more than its size budget has room for.
//!
//! - [`shortest`]: what `{}` prints (the shortest digits that read back as
//!   the same value, never an exponent), by `ryu` (built with its small
//!   tables). A link's `beta` and Poisson rate print this way, so they
//!   read back exactly and links stay as they were. One case differs: a
//!   value exactly halfway between its two nearest shortest decimals (such
//!   as -1254793315219411.25, 17 digits) ends in the even digit here
//!   (`…411.2`) where `{}` rounds up (`…411.3`). Both read back as the
//!   same value; no one types a 17-digit rate.
//! - [`Fixed`]: what `{:.N}` prints, in integer arithmetic, for the
//!   coordinates and percentages of drawings (ties may round the other way
//!   from `{:.N}`, a difference no drawing shows).

use std::fmt;

/// `x` as `format!("{x}")` prints it.
pub fn shortest(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x).to_string();
    }
    let mut buffer = ryu::Buffer::new();
    plain(buffer.format_finite(x))
}

fn non_finite(x: f64) -> &'static str {
    match (x.is_nan(), x < 0.0) {
        (true, _) => "NaN",
        (false, true) => "-inf",
        (false, false) => "inf",
    }
}

/// Rewrites ryu's form (`1.0`, `1.5e-7`, `1e21`) as a plain decimal
/// (`1`, `0.00000015`, `1000000000000000000000`).
fn plain(text: &str) -> String {
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let (mantissa, exponent) = match text.split_once('e') {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<isize>().unwrap_or(0)),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // The decimal point sits after `point` digits of `digits`.
    let mut point = whole.len() as isize + exponent;
    let leading = digits.len() - digits.trim_start_matches('0').len();
    point -= leading as isize;
    let digits = digits.trim_matches('0');
    if digits.is_empty() {
        return format!("{sign}0");
    }
    let length = digits.len() as isize;
    let zeros = |n: isize| "0".repeat(n.max(0) as usize);
    if point <= 0 {
        format!("{sign}0.{}{digits}", zeros(-point))
    } else if point >= length {
        format!("{sign}{digits}{}", zeros(point - length))
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        format!("{sign}{whole}.{fraction}")
    }
}

/// `x` with `places` decimals, as `format!("{x:.places$}")` prints it.
#[derive(Clone, Copy, Debug)]
pub struct Fixed(pub f64, pub u32);

impl fmt::Display for Fixed {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fixed(x, places) = *self;
        if !x.is_finite() {
            return out.write_str(non_finite(x));
        }
        let scale = 10u64.pow(places);
        let scaled = (x.abs() * scale as f64).round_ties_even() as u64;
        let sign = if x < 0.0 { "-" } else { "" };
        write!(out, "{sign}{}", scaled / scale)?;
        if places > 0 {
            let fraction = scaled % scale;
            write!(out, ".{fraction:0width$}", width = places as usize)?;
        }
        Ok(())
    }
}

// Native only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn shortest_prints_as_display_does() {
        for x in [
            0.0,
            -0.0,
            1.0,
            2.5,
            0.25,
            1.0 / 3.0,
            1e-7,
            1.5e-7,
            123456.789,
            1e6,
            1e16,
            1e21,
            1.7976931348623157e308,
            5e-324,
            -42.125,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(shortest(x), format!("{x}"), "{x:e}");
        }
    }

    #[test]
    fn fixed_prints_as_a_precision_does() {
        for (x, places) in [
            (0.0, 1),
            (12.34, 1),
            (99.96, 1),
            (0.5, 0),
            (33.3333, 3),
            (7.0, 3),
        ] {
            assert_eq!(
                Fixed(x, places).to_string(),
                format!("{x:.*}", places as usize)
            );
        }
    }

    /// Whether `ours` and `display`, the same length, differ only in their
    /// last significant digit, `ours` has the even one and `x` lies exactly
    /// halfway between them (its exact decimal expansion goes on with a 5
    /// and then only zeros).
    fn is_tie(ours: &str, display: &str, x: f64) -> bool {
        if ours.len() != display.len() || ours.parse::<f64>() != Ok(x) {
            return false;
        }
        let Some(at) = ours.bytes().zip(display.bytes()).position(|(a, b)| a != b) else {
            return false;
        };
        let exact = format!("{x:.1100}");
        let after: String = exact[at + 1..].chars().filter(|&c| c != '.').collect();
        ours[at + 1..] == display[at + 1..]
            && (ours.as_bytes()[at] - b'0') % 2 == 0
            && exact.as_bytes()[at] == ours.as_bytes()[at]
            && ours[at + 1..].bytes().all(|b| b == b'0' || b == b'.')
            && after.starts_with('5')
            && after[1..].bytes().all(|b| b == b'0')
    }

    #[test]
    fn an_exact_tie_ends_in_the_even_digit() {
        let x = f64::from_bits(14056250010656825165);
        assert_eq!(format!("{x:.2}"), "-1254793315219411.25");
        assert_eq!(shortest(x), "-1254793315219411.2");
        assert_eq!(format!("{x}"), "-1254793315219411.3");
        assert!(is_tie(&shortest(x), &format!("{x}"), x));
        assert!(!is_tie("-1254793315219411.2", "-1254793315219411.3", 0.5));
    }

    proptest! {
        #[test]
        fn shortest_matches_display_on_any_value(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            let (ours, display) = (shortest(x), format!("{x}"));
            prop_assert!(ours == display || is_tie(&ours, &display, x), "{} vs {}", ours, display);
        }

        #[test]
        fn shortest_matches_display_on_link_values(x in 0.0f64..1e6) {
            let (ours, display) = (shortest(x), format!("{x}"));
            prop_assert!(ours == display || is_tie(&ours, &display, x), "{} vs {}", ours, display);
        }

        // Away from ties (where `{:.N}` rounds the exact binary value),
        // the two agree.
        #[test]
        fn fixed_matches_a_precision(x in 0.0f64..1e9, places in 0u32..4) {
            let scaled = x * 10f64.powi(places as i32);
            prop_assume!((scaled.fract() - 0.5).abs() > 1e-6);
            prop_assert_eq!(Fixed(x, places).to_string(), format!("{x:.*}", places as usize));
        }
    }
}
