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

/// Where `code` calls a function from inside its own body, the first such
/// call (1-based line and column): what a deep recursion most likely
/// ran, named when the engine could keep no stack for its error (the
/// native stack was full). A function is `function NAME(…) {`, or
/// `NAME = function (…) {`, `NAME = (…) => {` or `NAME = x => {` (each
/// maybe `async`); a call is `NAME(` not after a `.`. Strings and
/// comments are not told apart: it points the reader at a likely line,
/// it does not parse.
pub fn recursive_call(code: &str) -> Option<(u32, u32)> {
    let chars: Vec<char> = code.chars().collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let word_at = |at: usize| -> Option<(usize, usize)> {
        if at >= chars.len() || !is_ident(chars[at]) || (at > 0 && is_ident(chars[at - 1])) {
            return None;
        }
        let end = (at..chars.len())
            .find(|&i| !is_ident(chars[i]))
            .unwrap_or(chars.len());
        Some((at, end))
    };
    let word = |(start, end): (usize, usize)| chars[start..end].iter().collect::<String>();
    let skip_space = |mut at: usize| {
        while chars.get(at).is_some_and(|c| c.is_whitespace()) {
            at += 1;
        }
        at
    };
    // The bracket closing the one at `open`.
    let matching = |open: usize, close: char| -> Option<usize> {
        let mut depth = 0usize;
        for (i, &c) in chars.iter().enumerate().skip(open) {
            if c == chars[open] {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    };
    // From the parameters at `at` (a name or a parenthesised list), past
    // an optional `=>`, to the body's `{`.
    let body_after_parameters = |at: usize| -> Option<usize> {
        let after = match chars.get(at) {
            Some('(') => matching(at, ')')? + 1,
            _ => word_at(at)?.1,
        };
        let mut next = skip_space(after);
        if chars.get(next) == Some(&'=') && chars.get(next + 1) == Some(&'>') {
            next = skip_space(next + 2);
        }
        (chars.get(next) == Some(&'{')).then_some(next)
    };
    // A function's value at `at`: `async`, `function` and its name, then
    // its parameters and body.
    let function_body = |at: usize| -> Option<usize> {
        let mut at = skip_space(at);
        if word_at(at).map(word).as_deref() == Some("async") {
            at = skip_space(word_at(at)?.1);
        }
        if word_at(at).map(word).as_deref() == Some("function") {
            at = skip_space(word_at(at)?.1);
            if let Some((_, end)) = word_at(at) {
                at = skip_space(end);
            }
            return (chars.get(at) == Some(&'(')).then(|| body_after_parameters(at))?;
        }
        body_after_parameters(at)
    };
    let position = |at: usize| {
        let before = &chars[..at];
        let line = before.iter().filter(|&&c| c == '\n').count() as u32 + 1;
        let column = before.iter().rev().take_while(|&&c| c != '\n').count() as u32 + 1;
        (line, column)
    };
    let mut at = 0;
    while at < chars.len() {
        let Some(found) = word_at(at) else {
            at += 1;
            continue;
        };
        at = found.1;
        let (name, body) = if word(found) == "function" {
            let Some(named) = word_at(skip_space(found.1)) else {
                continue;
            };
            (word(named), function_body(found.0))
        } else {
            let next = skip_space(found.1);
            if chars.get(next) != Some(&'=') || matches!(chars.get(next + 1), Some('=' | '>')) {
                continue;
            }
            (word(found), function_body(next + 1))
        };
        let Some((open, close)) = body.and_then(|open| Some((open, matching(open, '}')?))) else {
            continue;
        };
        let mut i = open + 1;
        while i < close {
            match word_at(i) {
                Some(call) => {
                    let dotted = call.0 > 0 && chars[call.0 - 1] == '.';
                    if !dotted && word(call) == name && chars.get(skip_space(call.1)) == Some(&'(')
                    {
                        return Some(position(call.0));
                    }
                    i = call.1;
                }
                None => i += 1,
            }
        }
    }
    None
}

/// Where `code` uses the private name `name` (`#n`) outside every class
/// that declares it (1-based line and column): the engine resolves
/// private names once the script is parsed, and its "undefined private
/// field" error has no position. A class declares the name where it
/// stands in the class's body outside any bracket, not after a `.` (`#n
/// = 0;`, `#n() {}`). Strings and comments are not told apart.
pub fn undeclared_private(code: &str, name: &str) -> Option<(u32, u32)> {
    let chars: Vec<char> = code.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let class: Vec<char> = "class".chars().collect();
    let is_ident = |c: &char| c.is_alphanumeric() || *c == '_' || *c == '$';
    let word_at = |at: usize, word: &[char]| {
        chars[at..].starts_with(word) && !chars.get(at + word.len()).is_some_and(is_ident)
    };
    let uses: Vec<usize> = (0..chars.len()).filter(|&at| word_at(at, &name)).collect();
    let classes = (0..chars.len()).filter(|&at| {
        word_at(at, &class)
            && !(at > 0 && (is_ident(&chars[at - 1]) || matches!(chars[at - 1], '#' | '.')))
    });
    let mut declaring = Vec::new();
    for at in classes {
        let Some(open) = chars[at..].iter().position(|&c| c == '{').map(|i| at + i) else {
            continue;
        };
        let (mut depth, mut declares, mut close) = (0usize, false, chars.len());
        for (i, &c) in chars.iter().enumerate().skip(open + 1) {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => {
                    close = i;
                    break;
                }
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            if depth == 0
                && uses.contains(&i)
                && chars[..i].iter().rev().find(|b| !b.is_whitespace()) != Some(&'.')
            {
                declares = true;
            }
        }
        if declares {
            declaring.push((open, close));
        }
    }
    let at = uses.into_iter().find(|&at| {
        !declaring
            .iter()
            .any(|&(open, close)| open < at && at < close)
    })?;
    let line = chars[..at].iter().filter(|&&c| c == '\n').count() + 1;
    let start = chars[..at]
        .iter()
        .rposition(|&c| c == '\n')
        .map_or(0, |i| i + 1);
    Some((line as u32, (at - start + 1) as u32))
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
    #[test]
    fn a_recursive_call_is_found_in_its_own_body() {
        let declared =
            "function f(n) { return f(n + 1) + 1; }\nasync function handle(req) { f(0); }";
        assert_eq!(recursive_call(declared), Some((1, 24)));
        let arrow = "const g = 1;\nconst walk = async (node) => {\n  await walk(node.next);\n};";
        assert_eq!(recursive_call(arrow), Some((3, 9)));
        let expression = "let count = function count(n) {\n  return n && count(n - 1);\n}";
        assert_eq!(recursive_call(expression), Some((2, 15)));
        // A method of the same name on another object is not the function.
        assert_eq!(
            recursive_call("function get(k) { return cache.get(k); }"),
            None
        );
        // An arrow without a body, a comparison, and no recursion at all.
        assert_eq!(
            recursive_call("const f = (x) => f(x);\nif (a == f(1)) {}"),
            None
        );
        assert_eq!(
            recursive_call("async function handle(req) { await db.get(1); }"),
            None
        );
    }
    #[test]
    fn an_undeclared_private_name_is_found_outside_its_classes() {
        let outside =
            "class C { #n = 0; m() { return this.#n; } }\nfunction f(o) {\n  return #n in o;\n}";
        assert_eq!(undeclared_private(outside, "#n"), Some((3, 10)));
        let other = "class A { #n() {} }\nclass B { #m = 1; get() { return this.#n; } }";
        assert_eq!(undeclared_private(other, "#n"), Some((2, 39)));
        assert_eq!(
            undeclared_private("class A { #n = 1; #nn = this.#n; }", "#n"),
            None
        );
    }
}
