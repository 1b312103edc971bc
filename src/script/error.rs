//! A bad script is bad input: the message names `code` and, when known,
//! the line and column.

use std::fmt;

/// The script could not be loaded or its top level failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    /// The input at fault: `code` (the script), `schema` (its SQL), or
    /// `route` (the route it names, which the script's app lacks).
    pub input: &'static str,
}

impl ScriptError {
    pub fn new(message: impl Into<String>) -> Self {
        let mut message = message.into();
        let (line, column) = find_position(&message).unzip();
        // The position leads the display; a run's error text carries it at
        // its end, where it would be said twice.
        if let (Some(line), Some(column)) = (line, column) {
            let suffix = format!(" (line {line}, column {column})");
            if message.ends_with(&suffix) {
                message.truncate(message.len() - suffix.len());
            }
        }
        ScriptError {
            line,
            column,
            message,
            input: "code",
        }
    }

    /// A schema that does not load (`--schema`, `schema=`).
    pub fn schema(message: impl Into<String>) -> Self {
        ScriptError {
            line: None,
            column: None,
            message: message.into(),
            input: "schema",
        }
    }
}

impl ScriptError {
    /// A `route=` (`--route`) that names no route of the script's app.
    pub fn route(message: impl Into<String>) -> Self {
        ScriptError {
            input: "route",
            ..ScriptError::schema(message)
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(
                f,
                "`{}`: line {line}, column {column}: {}",
                self.input, self.message
            ),
            _ => write!(f, "`{}`: {}", self.input, self.message),
        }
    }
}

impl std::error::Error for ScriptError {}

/// The first position in an engine message: `code:LINE:COL` (a stack
/// frame of the script) or `line LINE, col COL` (a syntax error).
pub fn find_position(message: &str) -> Option<(u32, u32)> {
    if let Some(found) = message
        .find("code:")
        .and_then(|at| pair(&message[at + 5..], ':'))
    {
        return Some(found);
    }
    let at = message.find("line ")?;
    let rest = &message[at + 5..];
    let (line, rest) = leading_number(rest)?;
    let rest = rest.trim_start_matches([',', ' ']);
    let rest = rest
        .strip_prefix("col ")
        .or_else(|| rest.strip_prefix("column "))?;
    let (column, _) = leading_number(rest)?;
    Some((line, column))
}

fn pair(text: &str, separator: char) -> Option<(u32, u32)> {
    let (line, rest) = leading_number(text)?;
    let rest = rest.strip_prefix(separator)?;
    let (column, _) = leading_number(rest)?;
    Some((line, column))
}

fn leading_number(text: &str) -> Option<(u32, &str)> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number = text[..end].parse().ok()?;
    Some((number, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_positions_in_both_spellings() {
        assert_eq!(find_position("at handle (code:3:11)"), Some((3, 11)));
        assert_eq!(
            find_position("SyntaxError: unexpected token ':' at line 2, col 9"),
            Some((2, 9))
        );
        assert_eq!(find_position("no position here"), None);
    }
}
