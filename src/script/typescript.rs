//! TypeScript in scripts: a script's types stripped, every line and column
//! kept (SCRIPTING.md §1 and §7), by `crate::typescript` (swc's stripper,
//! Node's own, in strip-only mode): each type annotation, interface,
//! `import type`, generic parameter, `as T`, `satisfies T` and non-null `!`
//! becomes whitespace of the same length, so the engine's errors and the
//! page's cursors point at the script's own characters. What strip-only
//! mode refuses (an `enum`, a `namespace` with values, a parameter
//! property, `<T>expr`) is an error naming the place.
//!
//! When is a script TypeScript? A script that the engine parses as
//! JavaScript runs as it is, whatever it is called; one that it does not
//! parse but swc parses as TypeScript runs stripped
//! ([`after_javascript_error`], from `ScriptRun::load`). `interleave run
//! --script FILE.ts` (`.ts`, `.mts`, `.cts`) strips in any case ([`strip`]).
//!
//! In the page's script worker the stripper is a wasm module loaded on
//! first use (`super::modules`).

use crate::typescript::{StripError, Stripped};

use super::error::ScriptError;
use super::modules::{not_loaded, Module};

/// How deep a script may nest (brackets, and operators chained in one
/// statement, see [`nesting`]) for the TypeScript parser to see it: a
/// recursive parser, and the wasm build's stack cannot grow. Deeper
/// scripts run as JavaScript (the engine has its own stack budget).
pub const MAX_NESTING: usize = 100;

/// Whether a script's file name says TypeScript.
pub fn is_typescript_file(path: &str) -> bool {
    [".ts", ".mts", ".cts"]
        .iter()
        .any(|extension| path.ends_with(extension))
}

/// Code that failed to parse as JavaScript (first error at `js_error`):
/// its types stripped if it is TypeScript; `None` to keep JavaScript's
/// error (it is not TypeScript either, and JavaScript's parser got as
/// far); TypeScript's error if it got further, or if strip-only mode
/// refuses it. The engine's own parse is the JavaScript test of a run
/// (`ScriptRun::with_schema`), so swc runs only for code that needs it.
pub fn after_javascript_error(
    code: &str,
    js_error: Option<(u32, u32)>,
) -> Result<Option<String>, ScriptError> {
    if nesting(code) > MAX_NESTING {
        return Ok(None);
    }
    match stripped(code)? {
        Ok(stripped) => Ok(Some(stripped)),
        Err(refused) if refused.syntax => {
            let ts_error = script_error(refused);
            let further = match (ts_error.line.zip(ts_error.column), js_error) {
                (Some(ts), Some(js)) => ts > js,
                _ => false,
            };
            if further {
                Err(ts_error)
            } else {
                Ok(None)
            }
        }
        Err(refused) => Err(script_error(refused)),
    }
}

/// `code` as TypeScript, its types stripped (a `.ts` file).
pub fn strip(code: &str) -> Result<String, ScriptError> {
    if nesting(code) > MAX_NESTING {
        return Err(ScriptError::new(format!(
            "TypeScript nested more than {MAX_NESTING} deep: too deep to strip its types"
        )));
    }
    stripped(code)?.map_err(script_error)
}

/// The stripper's answer for `code`; an error if the page's script
/// worker has not loaded it yet.
fn stripped(code: &str) -> Result<Stripped, ScriptError> {
    #[cfg(feature = "typescript")]
    let answer = Some(crate::typescript::strip(code));
    #[cfg(not(feature = "typescript"))]
    let answer = module::strip(code);
    answer.ok_or_else(|| not_loaded(Module::TypeScript))
}

fn script_error(refused: StripError) -> ScriptError {
    let mut error = ScriptError::new(refused.message);
    if let (Some(line), Some(column)) = (refused.line, refused.column) {
        error.line = Some(line);
        error.column = Some(column);
    }
    error
}

/// The page's script worker: the stripper's own wasm module, through
/// `web/modules.js` (`interleaveModules.stripTypes` answers `null` until the
/// module is loaded).
#[cfg(not(feature = "typescript"))]
mod module {
    use crate::boundary::decode;
    use crate::typescript::Stripped;

    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = stripTypes)]
        fn strip_types(code: &str) -> Result<Option<Vec<u8>>, wasm_bindgen::JsValue>;
    }

    #[cfg(target_arch = "wasm32")]
    pub fn strip(code: &str) -> Option<Stripped> {
        decode(&strip_types(code).ok()??)
    }

    /// Natively the stripper is linked whenever scripts are.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn strip(_: &str) -> Option<Stripped> {
        let _ = decode::<Stripped>;
        None
    }
}

/// A bound on how deep a parser recurses on `code`: the deepest bracket
/// nesting (`(`, `[`, `{`, and `${` in templates) plus the most operator
/// characters and words in one statement at one bracket (each of `a = b =
/// c`, `!!!x`, `typeof typeof x`, `a ? b : c ? ...` may recurse once),
/// counting from the last `;`, `,`, `{` or `}`. Strings and comments are
/// skipped. Generous for real handlers (a few tens at most).
pub fn nesting(code: &str) -> usize {
    #[derive(PartialEq)]
    enum Frame {
        Bracket,
        Template,
    }
    let chars: Vec<char> = code.chars().collect();
    let mut stack: Vec<Frame> = Vec::new();
    // Per bracket level, the operators and words of the running statement.
    let mut chain: Vec<usize> = vec![0];
    let mut deepest = 0;
    let mut i = 0;
    let mut in_word = false;
    let mut template = false;
    while i < chars.len() {
        let c = chars[i];
        if template {
            match c {
                '\\' => i += 1,
                '`' => template = false,
                '$' if chars.get(i + 1) == Some(&'{') => {
                    template = false;
                    stack.push(Frame::Template);
                    chain.push(0);
                    deepest = deepest.max(stack.len());
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let is_word = c.is_alphanumeric() || c == '_' || c == '$';
        if is_word && !in_word {
            *chain.last_mut().unwrap_or(&mut 0) += 1;
        }
        in_word = is_word;
        match c {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 1;
            }
            '"' | '\'' => {
                i += 1;
                while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            '`' => template = true,
            '(' | '[' | '{' => {
                stack.push(Frame::Bracket);
                chain.push(0);
            }
            ')' | ']' | '}' => {
                if !stack.is_empty() {
                    chain.pop();
                }
                if stack.pop() == Some(Frame::Template) {
                    template = true;
                }
                if c == '}' {
                    if let Some(last) = chain.last_mut() {
                        *last = 0;
                    }
                }
            }
            ';' | ',' => {
                if let Some(last) = chain.last_mut() {
                    *last = 0;
                }
            }
            '=' | '?' | '!' | '~' | '-' | '+' | '<' | '>' | ':' | '*' | '/' | '%' | '&' | '|'
            | '^' | '.' | '@' => {
                if let Some(last) = chain.last_mut() {
                    *last += 1;
                }
            }
            _ => {}
        }
        let here = stack.len() + chain.iter().copied().max().unwrap_or(0);
        deepest = deepest.max(here);
        i += 1;
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typescript_is_stripped_in_place() {
        let ts = "interface R { user: number }\nasync function handle(req: R): Promise<number> {\n  return req.user!;\n}";
        let stripped = after_javascript_error(ts, Some((1, 11))).unwrap().unwrap();
        assert_eq!(stripped.lines().count(), ts.lines().count());
        assert_eq!(stripped.len(), ts.len());
        assert!(stripped.contains("async function handle(req   )"));
    }

    #[test]
    fn what_strip_only_mode_refuses_names_its_place() {
        let error =
            after_javascript_error("const a = 1;\nenum Color { Red }\n", Some((2, 1))).unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(1)));
        assert!(error.message.contains("enum"), "{}", error.message);
    }

    #[test]
    fn code_that_is_not_typescript_either_keeps_javascripts_error() {
        // JavaScript's parser failed at line 1, column 9; TypeScript's
        // fails no further.
        assert_eq!(after_javascript_error("let x = ;", Some((1, 9))), Ok(None));
    }

    #[test]
    fn nesting_counts_brackets_and_chains_not_strings() {
        assert!(nesting("f(a, b); const s = '((((((((((';") < 5);
        assert!(nesting(&"(".repeat(500)) >= 500);
        assert!(nesting(&"a = ".repeat(500)) >= 500);
        assert!(nesting(&"`${".repeat(300)) >= 300);
    }
}
