//! One name for "this build has the script engine": `cfg(scripts)`, true
//! natively with the `script` feature (the default) and in wasm only with
//! `script-wasm` (the page's script edition; the page's own wasm leaves
//! the engine out). And the CLI's link: position-dependent on Linux.

fn main() {
    strip_prelude_comments();
    println!("cargo::rustc-check-cfg=cfg(scripts)");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    if (feature("SCRIPT") && !wasm) || (feature("SCRIPT_WASM") && wasm) {
        println!("cargo::rustc-cfg=scripts");
    }
    // The CLI as a position-dependent executable on Linux: a user times
    // the whole `interleave run` process, and a PIE's 22,000 relocations
    // took 1.2 ms of its start (2.6 ms against 1.4 ms for a one-request
    // run; a 100,000-request stampede takes 15 ms). The optimised build
    // is also static (scripts/rustc-release.sh).
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bin=interleave=-no-pie");
    }
}

/// The prelude's JavaScript (`src/script/prelude.js` and
/// `src/script/prelude/*.js`) as the engine gets it: each line that is only
/// a `//` comment left empty, and each line that starts in code without
/// its indentation, so the text the script worker's wasm carries is a
/// quarter smaller gzipped while every line keeps its number (the
/// bytecode's stacks name prelude lines; their columns move). Written to `OUT_DIR/prelude/`;
/// `src/script/prelude.rs` includes those. A line inside a string or a
/// template literal is never touched: a small lexer follows strings,
/// templates, comments and regular expressions, and a file it cannot
/// follow to the end goes through unchanged.
fn strip_prelude_comments() {
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("prelude");
    std::fs::create_dir_all(&out).expect("OUT_DIR/prelude");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/script/prelude.js");
    println!("cargo::rerun-if-changed=src/script/prelude");
    let mut files = vec![std::path::PathBuf::from("src/script/prelude.js")];
    let mut parts: Vec<_> = std::fs::read_dir("src/script/prelude")
        .expect("src/script/prelude")
        .map(|entry| entry.expect("a prelude part").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js"))
        .collect();
    parts.sort();
    files.extend(parts);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a prelude file");
        let stripped = comment_lines(&text).map_or(text.clone(), |(comments, code)| {
            text.split('\n')
                .enumerate()
                .map(
                    |(at, line)| match (comments.contains(&at), code.contains(&at)) {
                        (true, _) => "",
                        (false, true) => line.trim_start(),
                        (false, false) => line,
                    },
                )
                .collect::<Vec<_>>()
                .join("\n")
        });
        let name = file.file_name().expect("a file name");
        let target = if file.ends_with("prelude.js") {
            out.join(name)
        } else {
            out.join("parts").join(name)
        };
        std::fs::create_dir_all(target.parent().expect("a directory"))
            .expect("OUT_DIR/prelude/parts");
        std::fs::write(target, stripped).expect("a stripped prelude file");
    }
}

/// The (0-based) lines of `text` that hold only a `//` comment, outside
/// every string, template and block comment, and the lines that start in
/// code (their indentation goes too); `None` if the lexer loses its way
/// (it ends inside a string, a template or a comment).
type Lines = std::collections::BTreeSet<usize>;
fn comment_lines(text: &str) -> Option<(Lines, Lines)> {
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        Code,
        Quoted(u8),
        Block,
        Regex { class: bool },
    }
    let bytes = text.as_bytes();
    let mut lines = std::collections::BTreeSet::new();
    let mut code = std::collections::BTreeSet::from([0]);
    let mut at = At::Code;
    // Open templates: how many `${` deep each one's current hole is.
    let mut templates: Vec<usize> = Vec::new();
    let mut in_template = false;
    let mut line = 0;
    let mut line_start = true;
    // The last byte of code that was not a space: a `/` after an operand
    // divides, after anything else it opens a regular expression.
    let mut last = b'\n';
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            if let At::Quoted(b'\'' | b'"') = at {
                return None;
            }
            if at == At::Code && !in_template {
                code.insert(line);
            }
            i += 1;
            continue;
        }
        let first_on_line = line_start && !c.is_ascii_whitespace();
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        if in_template {
            match c {
                b'\\' => i += 1,
                b'`' => {
                    in_template = false;
                    last = b'`';
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    in_template = false;
                    templates.push(1);
                    i += 1;
                    last = b'{';
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match at {
            At::Quoted(quote) => match c {
                b'\\' => i += 1,
                _ if c == quote => {
                    at = At::Code;
                    last = quote;
                }
                _ => {}
            },
            At::Block => {
                if c == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    at = At::Code;
                    i += 1;
                }
            }
            At::Regex { class } => match c {
                b'\\' => i += 1,
                b'[' => at = At::Regex { class: true },
                b']' => at = At::Regex { class: false },
                b'/' if !class => {
                    at = At::Code;
                    last = b'a';
                }
                _ => {}
            },
            At::Code => match c {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    if first_on_line {
                        lines.insert(line);
                    }
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    at = At::Block;
                    i += 1;
                }
                b'/' => {
                    let operand = (last.is_ascii_alphanumeric() && !after_keyword(&bytes[..i]))
                        || matches!(last, b')' | b']' | b'}' | b'_' | b'$' | b'\'' | b'"' | b'`');
                    if operand {
                        last = b'/';
                    } else {
                        at = At::Regex { class: false };
                    }
                }
                b'\'' | b'"' => at = At::Quoted(c),
                b'`' => in_template = true,
                b'{' if !templates.is_empty() => {
                    *templates.last_mut().expect("a template") += 1;
                    last = c;
                }
                b'}' if !templates.is_empty() => {
                    let depth = templates.last_mut().expect("a template");
                    *depth -= 1;
                    if *depth == 0 {
                        templates.pop();
                        in_template = true;
                    }
                    last = c;
                }
                _ if c.is_ascii_whitespace() => {}
                _ => last = c,
            },
        }
        i += 1;
    }
    (at == At::Code && !in_template && templates.is_empty()).then_some((lines, code))
}

/// Whether the code before a `/` ends with a keyword after which an
/// expression starts (`return /x/`), not an operand (`n / 2`).
fn after_keyword(before: &[u8]) -> bool {
    let end = before
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |at| at + 1);
    let start = before[..end]
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$'))
        .map_or(0, |at| at + 1);
    matches!(
        &before[start..end],
        b"return"
            | b"typeof"
            | b"case"
            | b"do"
            | b"else"
            | b"in"
            | b"of"
            | b"new"
            | b"delete"
            | b"void"
            | b"throw"
            | b"yield"
            | b"await"
            | b"instanceof"
    )
}
