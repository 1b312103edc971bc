//! swc's type stripper, linked (feature `typescript`): natively, and in
//! the `interleave-typescript` wasm module the page loads on demand.

use std::cell::RefCell;
use std::rc::Rc;

use swc_common::errors::{DiagnosticBuilder, Emitter, Handler};
use swc_common::sync::Lrc;
use swc_common::{BytePos, FileName, SourceMap, GLOBALS};
use swc_ecma_ast::EsVersion;
use swc_ecma_parser::{parse_file_as_program, EsSyntax, Syntax};
use swc_ts_fast_strip::{operate, ErrorCode, Mode, Options};

use super::{StripError, Stripped};

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

/// `code` with its types stripped, or why not.
pub fn strip(code: &str) -> Stripped {
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
                let syntax = matches!(error.code, ErrorCode::InvalidSyntax);
                let message = match syntax {
                    true => format!("SyntaxError: {message} (as TypeScript)"),
                    false => format!("TypeScriptError: {message}"),
                };
                let (line, column) = first
                    .and_then(|(_, at)| *at)
                    .map(|at| place(&cm, at))
                    .unzip();
                Err(StripError {
                    syntax,
                    message,
                    line,
                    column,
                })
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
