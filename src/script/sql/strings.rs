//! PostgreSQL's text functions a handler uses: `btrim`/`trim`, `ltrim`,
//! `rtrim`, `replace`, `split_part`, `substring`/`substr`, `concat`,
//! `left`, `right` and `strpos`/`position`. Positions and lengths count
//! characters, not bytes, as PostgreSQL's do; a NULL argument gives NULL
//! (but to `concat`, which leaves it out).

use serde_json::Value;

use super::parse::{SqlError, TextFunction};
use super::value::{error, text};

/// `function(values…)` for a text function.
pub fn call(function: TextFunction, values: Vec<Value>) -> Result<Value, SqlError> {
    if function != TextFunction::Concat && values.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let texts: Vec<String> = values.iter().map(text).collect();
    let s = texts[0].as_str();
    let arg = |i: usize| texts.get(i).map(String::as_str);
    let int = |i: usize| -> Result<i64, SqlError> {
        let value = &values[i];
        value
            .as_i64()
            .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
            .ok_or_else(|| {
                error(
                    "22P02",
                    format!("invalid input syntax for type integer: \"{}\"", text(value)),
                )
            })
    };
    let chars: Vec<char> = s.chars().collect();
    let slice = |from: i64, to: i64| -> String {
        let clamp = |i: i64| i.clamp(0, chars.len() as i64) as usize;
        chars[clamp(from)..clamp(to).max(clamp(from))]
            .iter()
            .collect()
    };
    Ok(Value::String(match function {
        TextFunction::Concat => values
            .iter()
            .filter(|value| !value.is_null())
            .map(|value| match value {
                Value::Bool(b) => if *b { "t" } else { "f" }.to_string(),
                other => text(other),
            })
            .collect(),
        TextFunction::Trim | TextFunction::LTrim | TextFunction::RTrim => {
            let set: Vec<char> = arg(1).unwrap_or(" ").chars().collect();
            let trimmed = match function {
                TextFunction::LTrim => s.trim_start_matches(set.as_slice()),
                TextFunction::RTrim => s.trim_end_matches(set.as_slice()),
                _ => s.trim_matches(set.as_slice()),
            };
            trimmed.to_string()
        }
        TextFunction::Replace => match arg(1).unwrap_or("") {
            "" => s.to_string(),
            from => s.replace(from, arg(2).unwrap_or("")),
        },
        TextFunction::SplitPart => {
            let n = int(2)?;
            if n == 0 {
                return Err(error("22023", "field position must not be zero".into()));
            }
            let fields: Vec<&str> = match arg(1).unwrap_or("") {
                "" => vec![s],
                delimiter => s.split(delimiter).collect(),
            };
            let index = match n {
                n if n > 0 => usize::try_from(n - 1).ok(),
                n => n
                    .checked_neg()
                    .and_then(|back| usize::try_from(back).ok())
                    .and_then(|back| fields.len().checked_sub(back)),
            };
            index
                .and_then(|i| fields.get(i))
                .map_or(String::new(), |field| field.to_string())
        }
        // 1-based; a start before the first character still counts its
        // length from there.
        TextFunction::Substring => {
            let start = int(1)?.saturating_sub(1);
            match texts.len() {
                2 => slice(start, i64::MAX),
                _ => {
                    let length = int(2)?;
                    if length < 0 {
                        return Err(error(
                            "22011",
                            "negative substring length not allowed".into(),
                        ));
                    }
                    slice(start, start.saturating_add(length))
                }
            }
        }
        TextFunction::Left | TextFunction::Right => {
            let n = int(1)?;
            let len = chars.len() as i64;
            let keep = if n >= 0 { n.min(len) } else { (len + n).max(0) };
            match function {
                TextFunction::Left => slice(0, keep),
                _ => slice(len - keep, len),
            }
        }
        TextFunction::LPad | TextFunction::RPad => {
            // PostgreSQL's limit is a gigabyte; this one keeps a page that
            // runs the store from running out of memory first.
            const MOST: i64 = 10_000_000;
            let n = int(1)?;
            if n > MOST {
                return Err(error("54000", "requested length too large".into()));
            }
            let n = n.max(0) as usize;
            let fill: Vec<char> = arg(2).unwrap_or(" ").chars().collect();
            if chars.len() >= n || fill.is_empty() {
                slice(0, n as i64)
            } else {
                let padding: String = fill.iter().cycle().take(n - chars.len()).collect();
                match function {
                    TextFunction::LPad => padding + s,
                    _ => s.to_string() + &padding,
                }
            }
        }
        TextFunction::Position => {
            let wanted = arg(1).unwrap_or("");
            let at = s
                .find(wanted)
                .map_or(0, |byte| s[..byte].chars().count() + 1);
            return Ok(Value::from(at as u64));
        }
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_padding_too_long_for_the_page_is_refused() {
        let error = call(TextFunction::LPad, vec![json!("x"), json!(10_000_001)]).unwrap_err();
        assert_eq!(error.code, "54000");
        let padded = call(TextFunction::RPad, vec![json!("x"), json!(3), json!("ab")]).unwrap();
        assert_eq!(padded, json!("xab"));
    }

    fn run(function: TextFunction, values: Value) -> Value {
        call(function, values.as_array().unwrap().clone()).unwrap()
    }

    /// Each answer as PostgreSQL 15 gave it (psql, 2026-12-03).
    #[test]
    fn text_functions_answer_as_postgresql() {
        assert_eq!(
            run(TextFunction::SplitPart, json!(["a,b,c", ",", -1])),
            json!("c")
        );
        assert_eq!(
            run(TextFunction::SplitPart, json!(["a,b,c", ",", 5])),
            json!("")
        );
        assert_eq!(
            run(TextFunction::SplitPart, json!(["a,b,c", ",", "2"])),
            json!("b")
        );
        assert_eq!(
            run(TextFunction::Substring, json!(["hello", 0, 3])),
            json!("he")
        );
        assert_eq!(
            run(TextFunction::Substring, json!(["hello", 2])),
            json!("ello")
        );
        assert_eq!(
            run(TextFunction::Substring, json!(["héllo", 2, 2])),
            json!("él")
        );
        let far = i64::MIN;
        assert_eq!(
            run(TextFunction::Substring, json!(["abc", far, 5])),
            json!("")
        );
        assert_eq!(
            run(TextFunction::Substring, json!(["abc", far])),
            json!("abc")
        );
        assert_eq!(run(TextFunction::Left, json!(["abc", far])), json!(""));
        assert_eq!(
            run(TextFunction::SplitPart, json!(["a,b", ",", far])),
            json!("")
        );
        assert_eq!(run(TextFunction::Left, json!(["hello", -2])), json!("hel"));
        assert_eq!(run(TextFunction::Right, json!(["hello", 2])), json!("lo"));
        assert_eq!(run(TextFunction::Right, json!(["hello", -4])), json!("o"));
        assert_eq!(run(TextFunction::Position, json!(["hello", "l"])), json!(3));
        assert_eq!(run(TextFunction::Position, json!(["hello", "z"])), json!(0));
        assert_eq!(
            run(TextFunction::Concat, json!(["a", null, 1, true])),
            json!("a1t")
        );
        assert_eq!(run(TextFunction::Trim, json!(["xxhixx", "x"])), json!("hi"));
        assert_eq!(run(TextFunction::LTrim, json!(["  a "])), json!("a "));
        assert_eq!(run(TextFunction::RTrim, json!([" a  "])), json!(" a"));
        assert_eq!(
            run(TextFunction::Replace, json!(["aaa", "a", "b"])),
            json!("bbb")
        );
        assert_eq!(
            run(TextFunction::Replace, json!(["abc", "", "z"])),
            json!("abc")
        );
        assert_eq!(
            run(TextFunction::Replace, json!(["abc", null, "z"])),
            Value::Null
        );
        let zero = call(
            TextFunction::SplitPart,
            vec![json!("a"), json!(","), json!(0)],
        );
        assert_eq!(zero.unwrap_err().message, "field position must not be zero");
        let negative = call(
            TextFunction::Substring,
            vec![json!("abc"), json!(1), json!(-1)],
        );
        assert_eq!(negative.unwrap_err().code, "22011");
    }
}
