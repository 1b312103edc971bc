//! TypeScript: a script's types stripped, every line and column kept
//! (SCRIPTING.md §1 and §7), with `swc_ts_fast_strip`, the stripper Node
//! itself uses (its `amaro`), in strip-only mode: each type annotation,
//! interface, `import type`, generic parameter, `as T`, `satisfies T` and
//! non-null `!` becomes whitespace of the same length, so the engine's
//! errors and the page's cursors point at the script's own characters.
//! What strip-only mode refuses (an `enum`, a `namespace` with values, a
//! parameter property, `<T>expr`) is an error naming the place.
//!
//! When is a script TypeScript? [`javascript`]: a script that parses as
//! JavaScript runs as it is, whatever it is called; one that does not but
//! parses as TypeScript runs stripped. `interleave run --script FILE.ts`
//! (`.ts`, `.mts`, `.cts`) strips in any case ([`strip`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use swc_common::errors::{DiagnosticBuilder, Emitter, Handler};
use swc_common::sync::Lrc;
use swc_common::{BytePos, FileName, SourceMap, Spanned, GLOBALS};
use swc_ecma_ast::EsVersion;
use swc_ecma_parser::{parse_file_as_program, EsSyntax, Syntax};
use swc_ts_fast_strip::{operate, ErrorCode, Mode, Options};

use super::error::ScriptError;

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

/// The JavaScript to run for `code`: `code` itself if it parses as
/// JavaScript (or nests deeper than [`MAX_NESTING`], or is not TypeScript
/// either: the engine then reports its own syntax error), else its types
/// stripped. A script that parses as TypeScript only through what
/// strip-only mode refuses (an `enum`) is an error that says so; one that
/// fails as both, further into the text as TypeScript than as JavaScript,
/// is TypeScript's syntax error.
pub fn javascript(code: &str) -> Result<Cow<'_, str>, ScriptError> {
    if nesting(code) > MAX_NESTING {
        return Ok(Cow::Borrowed(code));
    }
    let Err(js_error) = parse_javascript(code) else {
        return Ok(Cow::Borrowed(code));
    };
    Ok(match after_javascript_error(code, js_error)? {
        Some(stripped) => Cow::Owned(stripped),
        None => Cow::Borrowed(code),
    })
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
    match strip_with_code(code) {
        Ok(stripped) => Ok(Some(stripped)),
        Err((ErrorCode::InvalidSyntax, ts_error)) => {
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
        Err((_, ts_error)) => Err(ts_error),
    }
}

/// `code` as TypeScript, its types stripped (a `.ts` file).
pub fn strip(code: &str) -> Result<String, ScriptError> {
    if nesting(code) > MAX_NESTING {
        return Err(ScriptError::new(format!(
            "TypeScript nested more than {MAX_NESTING} deep: too deep to strip its types"
        )));
    }
    strip_with_code(code).map_err(|(_, error)| error)
}

/// Parses `code` as JavaScript (a script or a module); on failure, the
/// 1-based line and column of its first error.
fn parse_javascript(code: &str) -> Result<(), Option<(u32, u32)>> {
    GLOBALS.set(&Default::default(), || {
        let cm: Lrc<SourceMap> = Default::default();
        let file = cm.new_source_file(Lrc::new(FileName::Anon), code.to_string());
        let mut recovered = Vec::new();
        let syntax = Syntax::Es(EsSyntax::default());
        match parse_file_as_program(&file, syntax, EsVersion::latest(), None, &mut recovered) {
            Ok(_) if recovered.is_empty() => Ok(()),
            Ok(_) => Err(recovered.first().map(|e| place(&cm, e.span().lo))),
            Err(error) => {
                let first = recovered
                    .iter()
                    .map(|e| e.span().lo)
                    .chain([error.span().lo])
                    .min()
                    .unwrap_or_default();
                Err(Some(place(&cm, first)))
            }
        }
    })
}

/// The 1-based line and column (in characters) of a position.
fn place(cm: &SourceMap, at: BytePos) -> (u32, u32) {
    let loc = cm.lookup_char_pos(at);
    (loc.line as u32, loc.col.0 as u32 + 1)
}

/// A diagnostic's message and position.
type Diagnostic = (String, Option<BytePos>);

/// The stripper's diagnostics, in order.
#[derive(Default, Clone)]
struct Collected(Rc<RefCell<Vec<Diagnostic>>>);

impl Emitter for Collected {
    fn emit(&mut self, db: &mut DiagnosticBuilder<'_>) {
        let at = db.span.primary_span().map(|span| span.lo);
        self.0.borrow_mut().push((db.message(), at));
    }
}

fn strip_with_code(code: &str) -> Result<String, (ErrorCode, ScriptError)> {
    GLOBALS.set(&Default::default(), || {
        let cm: Lrc<SourceMap> = Default::default();
        let collected = Collected::default();
        let handler = Handler::with_emitter(true, false, Box::new(collected.clone()));
        let options = Options {
            mode: Mode::StripOnly,
            ..Options::default()
        };
        match operate(&cm, &handler, code.to_string(), options) {
            Ok(output) => Ok(elide_type_imports(output.code)),
            Err(error) => {
                let diagnostics = collected.0.borrow();
                let first = diagnostics.first();
                let message = match first {
                    Some((message, _)) => message.clone(),
                    None => error.message.clone(),
                };
                let message = match error.code {
                    ErrorCode::InvalidSyntax => format!("SyntaxError: {message} (as TypeScript)"),
                    _ => format!("TypeScriptError: {message}"),
                };
                let mut found = ScriptError::new(message);
                if let Some((line, column)) = first.and_then(|(_, at)| *at).map(|at| place(&cm, at))
                {
                    found.line = Some(line);
                    found.column = Some(column);
                }
                Err((error.code, found))
            }
        }
    })
}

/// The stripped code with the named imports it never uses as values
/// blanked out (same length), as `tsc` elides them: TypeScript code often
/// imports types without `import type` (`import express, { Request,
/// Response } from "express"`), and a module has no such export to give.
/// A name counts as used if it appears as a word anywhere outside the
/// import declarations (in a string too: keeping an import is the safe
/// mistake).
fn elide_type_imports(code: String) -> String {
    use swc_ecma_ast::{ImportSpecifier, ModuleDecl, ModuleItem};
    let cm: Lrc<SourceMap> = Default::default();
    let file = cm.new_source_file(Lrc::new(FileName::Anon), code.clone());
    let syntax = Syntax::Es(EsSyntax::default());
    let Ok(program) =
        parse_file_as_program(&file, syntax, EsVersion::latest(), None, &mut Vec::new())
    else {
        return code;
    };
    let Some(module) = program.as_module() else {
        return code;
    };
    let offset = |at: BytePos| (at.0 - file.start_pos.0) as usize;
    let imports: Vec<_> = module
        .body
        .iter()
        .filter_map(|item| match item {
            ModuleItem::ModuleDecl(ModuleDecl::Import(import)) if !import.type_only => Some(import),
            _ => None,
        })
        .collect();
    let spans: Vec<(usize, usize)> = imports
        .iter()
        .map(|import| (offset(import.span.lo), offset(import.span.hi)))
        .collect();
    let outside = |at: usize| !spans.iter().any(|&(lo, hi)| lo <= at && at < hi);
    let used = |name: &str| {
        let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        code.match_indices(name).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + name.len()..].chars().next();
            outside(at) && !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
    };
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for import in &imports {
        for specifier in &import.specifiers {
            if let ImportSpecifier::Named(named) = specifier {
                if !used(&named.local.sym) {
                    let (lo, mut hi) = (offset(named.span.lo), offset(named.span.hi));
                    let rest = &code[hi..];
                    let spaces = rest.len() - rest.trim_start().len();
                    if rest.trim_start().starts_with(',') {
                        hi += spaces + 1;
                    }
                    blank.push((lo, hi));
                }
            }
        }
    }
    if blank.is_empty() {
        return code;
    }
    let mut bytes = code.into_bytes();
    for (lo, hi) in blank {
        for byte in &mut bytes[lo..hi] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
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
    fn javascript_runs_as_it_is_and_typescript_is_stripped_in_place() {
        let js = "async function handle(req) { return req.user; }";
        assert!(matches!(javascript(js), Ok(Cow::Borrowed(_))));
        let ts = "interface R { user: number }\nasync function handle(req: R): Promise<number> {\n  return req.user!;\n}";
        let stripped = javascript(ts).unwrap();
        assert_eq!(stripped.lines().count(), ts.lines().count());
        assert_eq!(stripped.len(), ts.len());
        assert!(stripped.contains("async function handle(req   )"));
    }

    #[test]
    fn what_strip_only_mode_refuses_names_its_place() {
        let error = javascript("const a = 1;\nenum Color { Red }\n").unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(1)));
        assert!(error.message.contains("enum"), "{}", error.message);
    }

    #[test]
    fn nesting_counts_brackets_and_chains_not_strings() {
        assert!(nesting("f(a, b); const s = '((((((((((';") < 5);
        assert!(nesting(&"(".repeat(500)) >= 500);
        assert!(nesting(&"a = ".repeat(500)) >= 500);
        assert!(nesting(&"`${".repeat(300)) >= 300);
    }
}
