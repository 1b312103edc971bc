//! A schedule: the choices made at the steps where more than one event was
//! enabled, each an index into the enabled list in (due, seq) order.
//!
//! Spelling (the `schedule=` URL key and the CLI): one base-36 digit per
//! choice (`0`-`9`, then `a`-`z` for 10 to 35); an index of 36 or more is
//! written in decimal between underscores, such as `_40_`. `20_36_1` is the
//! choices 2, 0, 36, 1. The empty schedule is the normal run.

use std::fmt;
use std::str::FromStr;

/// Most choices a `schedule=` value may hold.
pub const MAX_CHOICES: usize = 100_000;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Schedule(pub Vec<u32>);

impl Schedule {
    pub fn new(choices: Vec<u32>) -> Self {
        Schedule(choices)
    }

    pub fn choices(&self) -> &[u32] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The same run with trailing default choices (0) dropped: past the end
    /// of a schedule every choice is the default one.
    pub fn trimmed(&self) -> Schedule {
        let mut choices = self.0.clone();
        while choices.last() == Some(&0) {
            choices.pop();
        }
        Schedule(choices)
    }

    /// Choices other than the default (earliest) event.
    pub fn preemptions(&self) -> usize {
        self.0.iter().filter(|&&choice| choice != 0).count()
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &choice in &self.0 {
            match char::from_digit(choice, 36) {
                Some(digit) => write!(f, "{digit}")?,
                None => write!(f, "_{choice}_")?,
            }
        }
        Ok(())
    }
}

/// What `schedule=` accepts, for error messages.
pub const SCHEDULE_FORMS: &str =
    "one base-36 digit (0-9, a-z) per choice, or a larger index in decimal between underscores such as _40_";

impl FromStr for Schedule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut choices = Vec::new();
        let mut chars = text.char_indices();
        while let Some((at, c)) = chars.next() {
            if choices.len() >= MAX_CHOICES {
                return Err(format!("at most {MAX_CHOICES} choices"));
            }
            if c == '_' {
                let digits: String = chars
                    .by_ref()
                    .map(|(_, c)| c)
                    .take_while(|&c| c != '_')
                    .collect();
                let closed = text[at + 1..].contains('_');
                match digits.parse::<u32>() {
                    Ok(index) if closed && !digits.starts_with('+') => choices.push(index),
                    _ => {
                        return Err(format!(
                            "bad choice at character {} (expected {SCHEDULE_FORMS})",
                            at + 1
                        ))
                    }
                }
            } else {
                match c.to_digit(36) {
                    Some(index) if !c.is_ascii_uppercase() => choices.push(index),
                    _ => {
                        return Err(format!(
                            "bad choice '{c}' at character {} (expected {SCHEDULE_FORMS})",
                            at + 1
                        ))
                    }
                }
            }
        }
        Ok(Schedule(choices))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_small_choices_as_digits_and_large_ones_in_underscores() {
        let schedule = Schedule(vec![2, 0, 36, 1, 35, 10]);
        assert_eq!(schedule.to_string(), "20_36_1za");
        assert_eq!("20_36_1za".parse::<Schedule>(), Ok(schedule));
        assert_eq!("".parse::<Schedule>(), Ok(Schedule::default()));
    }

    #[test]
    fn rejects_bad_spellings() {
        for bad in ["A", "1-2", "_", "_12", "__", "_x_", "_+1_", "é"] {
            assert!(bad.parse::<Schedule>().is_err(), "{bad}");
        }
    }

    #[test]
    fn trimming_drops_trailing_defaults_only() {
        assert_eq!(Schedule(vec![0, 1, 0, 0]).trimmed(), Schedule(vec![0, 1]));
        assert_eq!(Schedule(vec![1, 0, 2]).preemptions(), 2);
    }
}
