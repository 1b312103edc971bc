//! The scripts shipped in `examples/scripts/`, named once: the script
//! engine's builds carry their code (`crate::script::source::EXAMPLES`),
//! the page only their names and files ([`EXAMPLE_FILES`]), both made from
//! [`for_each_example!`].

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
            ("rate_limiter", "js"),
            ("ticket_pg", "js", sql),
            ("ticket_pg_on_conflict", "js", sql),
            ("ticket_pg_for_update", "js", sql),
            ("redis_lock", "ts", sql),
            ("async_mutex_servers", "js", sql),
            ("express_tickets", "js", sql),
            ("stampede_redis", "js", sql),
            ("stampede_memjs", "js", sql)
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
