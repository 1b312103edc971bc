//! The prelude (`prelude.js`: SCRIPTING.md §3 in JavaScript, run in every
//! realm before the script) and its parts (`prelude/*.js`, run in a realm
//! when its script first reaches for them), each compiled to QuickJS
//! bytecode once per thread: each realm reads the bytecode and runs it
//! instead of parsing the JavaScript again (parsing was most of the cost
//! of a realm). The bytecode keeps its file name and lines, so stacks name
//! `prelude` (or `prelude-node`, …) alike.

use std::cell::OnceCell;
use std::ffi::CStr;
use std::rc::Rc;

use rquickjs::{qjs, Ctx, Value};

// The prelude as build.rs leaves it: its comment-only lines empty.
const PRELUDE: &str = include_str!(concat!(env!("OUT_DIR"), "/prelude/prelude.js"));

/// A part of the prelude the script reaches for (see `prelude.js`,
/// `host.part`): its value, run in `ctx`'s realm. An unknown name is an
/// error.
pub fn part<'js>(ctx: &Ctx<'js>, name: &str) -> rquickjs::Result<Value<'js>> {
    let which = PARTS.iter().position(|part| *part == name).ok_or_else(|| {
        rquickjs::Error::new_from_js_message(
            "string",
            "prelude part",
            format!("no prelude part {name}"),
        )
    })?;
    run(ctx, CORE + 1 + which)
}

/// The prelude, then its parts (`prelude/*.js`), with the file name
/// their stacks show: `SOURCES` as the engine gets them (build.rs's, their
/// comment-only lines empty) and, for the tests, `WRITTEN` as written.
macro_rules! sources {
    ($( $part:literal ),*) => {
        const PARTS: [&str; [$($part),*].len()] = [$($part),*];
        const SOURCES: [(&CStr, &str); 1 + [$($part),*].len()] = [
            (c"prelude", PRELUDE),
            $((
                file_name(concat!("prelude-", $part, "\0")),
                include_str!(concat!(env!("OUT_DIR"), "/prelude/parts/", $part, ".js")),
            )),*
        ];
        #[cfg(test)]
        const WRITTEN: [&str; SOURCES.len()] =
            [include_str!("prelude.js"), $(include_str!(concat!("prelude/", $part, ".js"))),*];
    };
}
sources!(
    "node",
    "clients",
    "libraries",
    "modules",
    "inspect",
    "errors",
    "intl",
    "events",
    "timers",
    "performance",
    "weak"
);

/// A part's file name as the engine takes it.
const fn file_name(text: &'static str) -> &'static CStr {
    match CStr::from_bytes_with_nul(text.as_bytes()) {
        Ok(name) => name,
        Err(_) => panic!("a file name ends in one NUL"),
    }
}
const CORE: usize = 0;

thread_local! {
    static BYTECODE: [OnceCell<Rc<[u8]>>; SOURCES.len()] =
        const { [const { OnceCell::new() }; SOURCES.len()] };
}

/// Source `which`'s bytecode, compiled in `ctx` the first time.
fn bytecode(ctx: &Ctx<'_>, which: usize) -> rquickjs::Result<Rc<[u8]>> {
    if let Some(bytecode) = BYTECODE.with(|cells| cells[which].get().cloned()) {
        return Ok(bytecode);
    }
    let compiled: Rc<[u8]> = compile(ctx, which)?.into();
    Ok(BYTECODE.with(|cells| cells[which].get_or_init(|| compiled).clone()))
}

/// Compiles the prelude now (the page's warm-up), without running it.
pub fn compiled(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    bytecode(ctx, CORE).map(drop)
}

/// Runs the prelude in `ctx`'s realm (a global script, not strict).
pub fn eval(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    run(ctx, CORE).map(drop)
}

/// Runs source `which` in `ctx`'s realm: its completion value.
pub fn run<'js>(ctx: &Ctx<'js>, which: usize) -> rquickjs::Result<Value<'js>> {
    let bytecode = bytecode(ctx, which)?;
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is the live context of `ctx`; the bytes are what
    // `compile` wrote with this same engine, and JS_ReadObject copies
    // them. JS_EvalFunction takes the function object; its result is
    // owned by the returned value.
    unsafe {
        let function = qjs::JS_ReadObject(
            raw,
            bytecode.as_ptr(),
            bytecode.len() as _,
            qjs::JS_READ_OBJ_BYTECODE as i32,
        );
        if qjs::JS_IsException(function) {
            return Err(rquickjs::Error::Exception);
        }
        let result = qjs::JS_EvalFunction(raw, function);
        if qjs::JS_IsException(result) {
            return Err(rquickjs::Error::Exception);
        }
        Ok(Value::from_raw(ctx.clone(), result))
    }
}

/// Source `which` compiled (not run) in `ctx`, as bytecode.
fn compile(ctx: &Ctx<'_>, which: usize) -> rquickjs::Result<Vec<u8>> {
    let (name, text) = SOURCES[which];
    compile_text(ctx, name, text, qjs::JS_WRITE_OBJ_BYTECODE)
}

/// `text` compiled (not run) in `ctx` as a global script named `name`,
/// written as bytecode with the writer's `flags`.
fn compile_text(ctx: &Ctx<'_>, name: &CStr, text: &str, flags: u32) -> rquickjs::Result<Vec<u8>> {
    let source = std::ffi::CString::new(text)?;
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `raw` is the live context of `ctx`; the compiled function
    // and the written buffer are freed here, once copied.
    unsafe {
        let function = qjs::JS_Eval(
            raw,
            source.as_ptr(),
            text.len() as _,
            name.as_ptr(),
            (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32,
        );
        if qjs::JS_IsException(function) {
            return Err(rquickjs::Error::Exception);
        }
        let mut len = 0;
        let buffer = qjs::JS_WriteObject(raw, &mut len, function, flags as i32);
        qjs::JS_FreeValue(raw, function);
        if buffer.is_null() {
            return Err(rquickjs::Error::Exception);
        }
        let bytes = std::slice::from_raw_parts(buffer, len as usize).to_vec();
        qjs::js_free(raw, buffer.cast());
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// build.rs only empties lines that hold a `//` comment and nothing
    /// else, and takes other lines' indentation: every line keeps its
    /// number, and every other line its text after its indentation.
    #[test]
    fn the_engine_gets_the_prelude_less_its_comment_lines() {
        for (which, written) in WRITTEN.iter().enumerate() {
            let (name, stripped) = SOURCES[which];
            let (written, stripped): (Vec<&str>, Vec<&str>) = (
                written.split('\n').collect(),
                stripped.split('\n').collect(),
            );
            assert_eq!(written.len(), stripped.len(), "{name:?}");
            let mut emptied = 0;
            for (line, (was, is)) in written.iter().zip(&stripped).enumerate() {
                if was != is && *is != was.trim_start() {
                    assert!(
                        is.is_empty() && was.trim_start().starts_with("//"),
                        "{name:?} line {}",
                        line + 1
                    );
                    emptied += 1;
                }
            }
            assert!(
                emptied > 0,
                "{name:?}: build.rs emptied no line (its lexer gave up?)"
            );
        }
    }

    /// And the engine compiles the two texts alike: the same bytecode
    /// (less the source text each function keeps for `toString`, and the
    /// positions, whose columns move), so no line build.rs emptied or
    /// unindented was inside a string or a template.
    #[test]
    fn the_stripped_prelude_compiles_to_the_same_bytecode() {
        let runtime = rquickjs::Runtime::new().expect("a runtime");
        let context = rquickjs::Context::full(&runtime).expect("a context");
        context.with(|ctx| {
            let flags = qjs::JS_WRITE_OBJ_BYTECODE
                | qjs::JS_WRITE_OBJ_STRIP_SOURCE
                | qjs::JS_WRITE_OBJ_STRIP_DEBUG;
            let bytecode = |name, text| compile_text(&ctx, name, text, flags).expect("it compiles");
            for (which, written) in WRITTEN.iter().enumerate() {
                let (name, stripped) = SOURCES[which];
                assert!(
                    bytecode(name, written) == bytecode(name, stripped),
                    "{name:?}"
                );
            }
        });
    }
}
