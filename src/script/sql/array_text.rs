//! PostgreSQL's text of a one-dimensional array (`{vip,"b c",NULL}`):
//! read into its elements (quotes, backslash escapes, an unquoted NULL)
//! and written from them, with PostgreSQL's errors for malformed text.

use serde_json::Value;

use super::parse::SqlError;

/// The elements of PostgreSQL's text of a one-dimensional array, each a
/// string, or null for an unquoted NULL.
pub fn parse(text: &str) -> Result<Vec<Value>, SqlError> {
    let inner = text.trim();
    let Some(inner) = inner.strip_prefix('{') else {
        return Err(malformed_because(
            text,
            "Array value must start with \"{\" or dimension information.",
        ));
    };
    let Some(inner) = inner.strip_suffix('}') else {
        return Err(malformed_because(text, "Unexpected end of input."));
    };
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut items = Vec::new();
    let mut chars = inner.chars();
    loop {
        let mut item = String::new();
        // Quoted or escaped: taken as it is, never NULL.
        let (mut quoted, mut escaped, mut closed, mut ended) = (false, false, false, false);
        loop {
            match chars.next() {
                None if !quoted => {
                    ended = true;
                    break;
                }
                Some(',') if !quoted => break,
                None => return Err(malformed_because(text, "Unexpected end of input.")),
                Some(c) if c.is_whitespace() && !quoted && (closed || item.is_empty()) => {}
                Some(_) if closed => {
                    return Err(malformed_because(text, "Unexpected array element."))
                }
                Some('\\') => {
                    item.push(chars.next().ok_or_else(|| malformed(text))?);
                    escaped = true;
                }
                Some('"') if quoted => (quoted, closed) = (false, true),
                Some('"') if item.is_empty() && !escaped => (quoted, escaped) = (true, true),
                Some('"') => return Err(malformed_because(text, "Unexpected array element.")),
                Some('{' | '}') if !quoted => {
                    return Err(SqlError::new(
                        "0A000",
                        format!(
                            "the simulation keeps arrays of one dimension: \"{}\"",
                            text.trim()
                        ),
                    ))
                }
                Some(c) => item.push(c),
            }
        }
        let bare = item.trim_end();
        items.push(if escaped {
            Value::String(item)
        } else if bare.eq_ignore_ascii_case("NULL") {
            Value::Null
        } else if bare.is_empty() {
            let at = if ended { "}" } else { "," };
            return Err(malformed_because(
                text,
                &format!("Unexpected \"{at}\" character."),
            ));
        } else {
            Value::String(bare.to_string())
        });
        if ended {
            return Ok(items);
        }
    }
}

fn malformed(text: &str) -> SqlError {
    SqlError::new("22P02", format!("malformed array literal: \"{text}\""))
}

/// [`malformed`], with PostgreSQL's detail of what was wrong.
fn malformed_because(text: &str, detail: &str) -> SqlError {
    let mut refused = malformed(text);
    refused.detail = Some(detail.into());
    refused
}

/// PostgreSQL's text of an array: `{vip,"b c",NULL,t}`.
pub fn literal(items: &[Value]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|item| match item {
            Value::Null => "NULL".into(),
            Value::Bool(b) => if *b { "t" } else { "f" }.into(),
            Value::String(s) => quote(s),
            other => quote(&other.to_string()),
        })
        .collect();
    format!("{{{}}}", items.join(","))
}

/// An element's text, in double quotes where it must be (empty, NULL,
/// or holding a space, a brace, a comma, a quote or a backslash).
fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.eq_ignore_ascii_case("NULL")
        && !text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '{' | '}' | ',' | '"' | '\\'));
    if plain {
        return text.to_string();
    }
    let mut quoted = String::from("\"");
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_reads_and_writes_as_postgresql() {
        let items = parse(r#"{a, "b c" ,"\"q\"",NULL,"NULL","",x\,y}"#).unwrap();
        assert_eq!(
            items,
            json!(["a", "b c", "\"q\"", null, "NULL", "", "x,y"])
                .as_array()
                .unwrap()
                .clone()
        );
        assert_eq!(literal(&items), r#"{a,"b c","\"q\"",NULL,"NULL","","x,y"}"#);
        assert_eq!(parse("{}").unwrap(), Vec::<Value>::new());
        assert_eq!(parse(" { } ").unwrap(), Vec::<Value>::new());
        assert_eq!(literal(&[json!(true), json!(1), json!(null)]), "{t,1,NULL}");
    }

    // proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any elements, written as PostgreSQL's text, read back the same
        /// (quotes, backslashes, braces, commas, spaces, "NULL", "").
        #[test]
        fn text_reads_back_what_it_wrote(
            items in proptest::collection::vec(
                proptest::option::of("[a-zA-Z0-9 ,{}\"\\\\]{0,6}|NULL|null"),
                0..6,
            )
        ) {
            let items: Vec<Value> = items
                .into_iter()
                .map(|item| item.map_or(Value::Null, Value::String))
                .collect();
            proptest::prop_assert_eq!(parse(&literal(&items)).unwrap(), items);
        }
    }

    #[test]
    fn malformed_text_is_refused_as_postgresql_refuses_it() {
        for text in ["w", "{a", "{a,,b}", "{a,}", "{\"a\"b}"] {
            let refused = parse(text).unwrap_err();
            assert_eq!(refused.code, "22P02", "{text}");
            assert_eq!(
                refused.message,
                format!("malformed array literal: \"{text}\"")
            );
        }
        assert_eq!(
            parse("w").unwrap_err().detail.as_deref(),
            Some("Array value must start with \"{\" or dimension information.")
        );
        assert_eq!(parse("{{1},{2}}").unwrap_err().code, "0A000");
    }
}
