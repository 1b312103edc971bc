//! What the page knows of scripts without the engine: a script's link
//! ([`script_fragment`]), and the scripts shipped in `examples/scripts/`,
//! named once: the engine's builds carry their code
//! (`crate::script::source::EXAMPLES`), the page only their names and files
//! ([`EXAMPLE_FILES`]), both made from [`for_each_example!`].

/// What a script's error for a name that is not defined (`ReferenceError:
/// fetch is not defined`) says next, before the globals it lists
/// (SCRIPTING.md §1): the page's headline of a failed run stops here.
pub const GLOBALS_HINT: &str = "; the globals are ";

/// A script's message as a sentence of a headline or a story: up to the
/// globals an undefined name lists ([`GLOBALS_HINT`]), and of a message
/// of several lines (an assertion's diff, an object `console.log` spread
/// out) the first, then `…`, with its closing `(line L, column C)`. The
/// event-loop pane and the trace keep the whole text.
pub fn in_one_line(message: &str) -> String {
    let position = message
        .rfind(" (line ")
        .map(|at| &message[at..])
        .filter(|position| position.ends_with(')') && !position.contains('\n'));
    let body = &message[..message.len() - position.map_or(0, str::len)];
    let body = body
        .split_once(GLOBALS_HINT)
        .map_or(body, |(first, _)| first);
    let mut lines = body.trim_end().lines();
    let first = lines.next().unwrap_or_default().trim_end();
    let more = if lines.next().is_some() { " …" } else { "" };
    format!("{first}{more}{}", position.unwrap_or_default())
}

/// Calls `$then! { (NAME, EXT) or (NAME, EXT, sql), … }` with every shipped
/// example, in the order the page lists them: the built-in stories as
/// scripts, then a gallery of handlers written with the libraries. `sql`:
/// it has a schema, `NAME.sql`.
#[macro_export]
macro_rules! for_each_example {
    ($then:ident) => {
        $then! {
            ("ticket", "js"),
            ("stampede", "js"),
            ("emitter_lock", "js"),
            ("ticket_lock", "js"),
            ("mutex_map", "js"),
            ("inventory_oversell", "js"),
            ("inventory_atomic", "js"),
            ("idempotency", "js"),
            ("rate_limiter_check_first", "js"),
            ("rate_limiter", "js"),
            ("rate_limiter_sliding", "js"),
            ("ticket_pg", "js", sql),
            ("ticket_pg_on_conflict", "js", sql),
            ("ticket_pg_for_update", "js", sql),
            ("redis_lock", "ts", sql),
            ("async_mutex_servers", "js", sql),
            ("express_tickets", "js", sql),
            ("stampede_redis", "js", sql),
            ("stampede_memjs", "js", sql),
            ("visits_memcached", "js"),
            ("job_queue_pg", "js", sql),
            ("room_booking_pg", "js", sql),
            ("signup_pg", "js", sql),
            ("pool_begin_pg", "js", sql),
            ("redis_watch", "js")
        }
    };
}

macro_rules! files {
    ($( ($name:literal, $ext:literal $(, $sql:ident)?) ),*) => {
        /// Each example's `example=` name and its file.
        pub const EXAMPLE_FILES: &[(&str, &str)] = &[$( ($name, concat!($name, ".", $ext)) ),*];
    };
}

for_each_example!(files);

/// A script's fragment: the config's own, as `scenario=script` with the
/// script's piece after it.
pub fn script_fragment(config: &crate::Config, source_piece: &str) -> String {
    let mut pieces: Vec<String> = crate::config::url::to_fragment(config)
        .split('&')
        .map(|piece| match piece.split_once('=') {
            Some(("scenario", _)) => "scenario=script".to_string(),
            _ => piece.to_string(),
        })
        .collect();
    if !source_piece.is_empty() {
        let at = pieces.len().min(2);
        pieces.insert(at, source_piece.to_string());
    }
    pieces.join("&")
}

#[cfg(test)]
mod tests {
    use super::in_one_line;

    #[test]
    fn a_message_in_one_line_keeps_its_first_line_and_position() {
        let diff = "AssertionError: Expected values to be strictly deep-equal:\n+ actual - \
                    expected\n\n  {\n+   a: 1\n-   a: 2\n  } (line 7, column 33)";
        assert_eq!(
            in_one_line(diff),
            "AssertionError: Expected values to be strictly deep-equal: … (line 7, column 33)"
        );
        let undefined = "ReferenceError: fetch is not defined (line 3, column 9); the globals \
                         are cache, db";
        assert_eq!(
            in_one_line(undefined),
            "ReferenceError: fetch is not defined (line 3, column 9)"
        );
        assert_eq!(
            in_one_line("#0 logs: order {\n  id: 0\n}"),
            "#0 logs: order { …"
        );
        assert_eq!(
            in_one_line("Error: boom (line 2, column 5)"),
            "Error: boom (line 2, column 5)"
        );
        assert_eq!(in_one_line("plain"), "plain");
    }
}
