//! Redis's glob-style patterns (`KEYS`, `SCAN … MATCH`), as its
//! `stringmatchlen` reads them (util.c): `*` any run of bytes, `?` one
//! byte, `[abc]`, `[^abc]` and `[a-z]` one of a class, `\` quotes the next
//! byte. An unclosed `[` takes the rest of the pattern as its class.

/// Whether `text` matches `pattern`, byte for byte (case matters). A
/// pattern of one `*` takes every key, the empty one too, as `KEYS` and
/// `SCAN` skip matching for it.
pub fn matches(pattern: &str, text: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    let mut give_up = false;
    match_from(pattern.as_bytes(), text.as_bytes(), &mut give_up, 0)
}

/// `stringmatchlen_impl`: `give_up` is its `skipLongerMatches` (once the
/// rest after a `*` matched nowhere, no longer match of an earlier `*`
/// can help), and `nesting` its guard against abusive patterns.
fn match_from(mut pattern: &[u8], mut text: &[u8], give_up: &mut bool, nesting: u32) -> bool {
    if nesting > 1000 {
        return false;
    }
    // C reads the pattern's terminating NUL past its end.
    let at = |p: &[u8], i: usize| p.get(i).copied().unwrap_or(0);
    while !pattern.is_empty() && !text.is_empty() {
        match pattern[0] {
            b'*' => {
                while pattern.len() > 1 && pattern[1] == b'*' {
                    pattern = &pattern[1..];
                }
                if pattern.len() == 1 {
                    return true;
                }
                while !text.is_empty() {
                    if match_from(&pattern[1..], text, give_up, nesting + 1) {
                        return true;
                    }
                    if *give_up {
                        return false;
                    }
                    text = &text[1..];
                }
                *give_up = true;
                return false;
            }
            b'?' => text = &text[1..],
            b'[' => {
                pattern = &pattern[1..];
                let not = at(pattern, 0) == b'^';
                if not {
                    pattern = &pattern[1..];
                }
                let mut found = false;
                // `pattern` ends on the class's `]` (or its last byte).
                loop {
                    if at(pattern, 0) == b'\\' && pattern.len() >= 2 {
                        pattern = &pattern[1..];
                        found |= pattern[0] == text[0];
                    } else if pattern.is_empty() || pattern[0] == b']' {
                        break;
                    } else if pattern.len() >= 3 && pattern[1] == b'-' {
                        let (low, high) = match (pattern[0], pattern[2]) {
                            (a, b) if a > b => (b, a),
                            (a, b) => (a, b),
                        };
                        found |= (low..=high).contains(&text[0]);
                        pattern = &pattern[2..];
                    } else {
                        found |= pattern[0] == text[0];
                    }
                    pattern = &pattern[1..];
                }
                if found == not {
                    return false;
                }
                text = &text[1..];
                // An unclosed class ends the pattern with it.
                if pattern.is_empty() {
                    return text.is_empty();
                }
            }
            byte => {
                let byte = match byte {
                    b'\\' if pattern.len() >= 2 => {
                        pattern = &pattern[1..];
                        pattern[0]
                    }
                    byte => byte,
                };
                if byte != text[0] {
                    return false;
                }
                text = &text[1..];
            }
        }
        pattern = &pattern[1..];
        if text.is_empty() {
            while at(pattern, 0) == b'*' {
                pattern = &pattern[1..];
            }
            break;
        }
    }
    pattern.is_empty() && text.is_empty()
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns_match_as_redis_reads_them() {
        for (pattern, text, expected) in [
            ("*", "", true),
            ("**", "", false),
            ("*", "user:1", true),
            ("user:*", "user:1", true),
            ("user:*", "user:", true),
            ("user:*", "users:1", false),
            ("*:1", "user:1", true),
            ("*:1", "user:10", false),
            ("h?llo", "hello", true),
            ("h?llo", "hllo", false),
            ("h*llo", "hllo", true),
            ("h*llo", "heeeello", true),
            ("h[ae]llo", "hallo", true),
            ("h[ae]llo", "hillo", false),
            ("h[^e]llo", "hallo", true),
            ("h[^e]llo", "hello", false),
            ("h[a-b]llo", "hbllo", true),
            ("h[b-a]llo", "hallo", true),
            ("h[a-b]llo", "hcllo", false),
            ("h\\*llo", "h*llo", true),
            ("h\\*llo", "hallo", false),
            ("h[\\]]llo", "h]llo", true),
            ("a**b", "axyb", true),
            ("a*b*c", "abbbc", true),
            ("a*b*c", "abbb", false),
            ("", "", true),
            ("", "a", false),
            ("a", "", false),
            ("a*", "a", true),
            // An unclosed class takes the rest of the pattern.
            ("h[el", "he", true),
            ("h[el", "hel", false),
            ("User:*", "user:1", false),
        ] {
            assert_eq!(matches(pattern, text), expected, "{pattern:?} on {text:?}");
        }
    }
}
