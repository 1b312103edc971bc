//! A script scenario's fragment: `scenario=script&code=<lz-string>` or
//! `scenario=script&example=NAME`, with every other key of DESIGN.md §6
//! keeping its meaning (requests come from the ticket keys).

use crate::config::url::{parse_fragment, ConfigError};
use crate::config::Config;

/// A script shipped in `examples/scripts/`, opened by `example=NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    pub name: &'static str,
    /// Its file name (`.js` or `.ts`).
    pub file: &'static str,
    pub code: &'static str,
    /// Its schema (`NAME.sql` beside it), which `example=NAME` loads
    /// unless the fragment has its own `schema=`.
    pub schema: Option<&'static str>,
}

macro_rules! example {
    ($name:literal, $ext:literal) => {
        Example {
            name: $name,
            file: concat!($name, ".", $ext),
            code: include_str!(concat!("../../examples/scripts/", $name, ".", $ext)),
            schema: None,
        }
    };
    ($name:literal, $ext:literal, sql) => {
        Example {
            schema: Some(include_str!(concat!(
                "../../examples/scripts/",
                $name,
                ".sql"
            ))),
            ..example!($name, $ext)
        }
    };
}

/// The examples shipped in `examples/scripts/`, by `example=` name: the
/// built-in stories as scripts, then a gallery of handlers written with
/// the libraries (pg, ioredis, memjs, async-mutex, Express).
macro_rules! examples {
    ($( ($name:literal, $ext:literal $(, $sql:ident)?) ),*) => {
        pub const EXAMPLES: &[Example] = &[$( example!($name, $ext $(, $sql)?) ),*];
    };
}

crate::for_each_example!(examples);

/// Where the script of a fragment comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptSource {
    /// `code=`: the script itself (already decompressed).
    Code(String),
    /// `example=`: a shipped example's name.
    Example(String),
    /// Neither: the caller supplies it (`--script FILE.js`).
    None,
}

impl ScriptSource {
    /// The script's text, if the fragment carries or names one.
    pub fn text(&self) -> Result<Option<String>, ConfigError> {
        match self {
            ScriptSource::Code(code) => Ok(Some(code.clone())),
            ScriptSource::Example(name) => example(name).map(|code| Some(code.to_string())),
            ScriptSource::None => Ok(None),
        }
    }
}

/// A shipped example by name.
pub fn example(name: &str) -> Result<&'static str, ConfigError> {
    shipped(name).map(|example| example.code)
}

/// A shipped example by name, with its file name and schema.
pub fn shipped(name: &str) -> Result<&'static Example, ConfigError> {
    EXAMPLES
        .iter()
        .find(|example| example.name == name)
        .ok_or_else(|| ConfigError {
            key: "example".to_string(),
            message: format!(
                "unknown example `{name}`; the examples are {}",
                EXAMPLES
                    .iter()
                    .map(|example| example.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// Whether `code` names module `name` as a quoted string (`require("pg")`,
/// `from 'memjs'`): how a script's clients are told apart, without parsing.
pub fn names_module(code: &str, name: &str) -> bool {
    code.contains(&format!("\"{name}\"")) || code.contains(&format!("'{name}'"))
}

/// lz-string's `compressToEncodedURIComponent`, as the TypeScript
/// playground writes `code=`.
pub fn encode(code: &str) -> String {
    lz_str::compress_to_encoded_uri_component(code)
}

/// The inverse of [`encode`]; `None` if `text` is not such a value.
pub fn decode(text: &str) -> Option<String> {
    let wide = lz_str::decompress_from_encoded_uri_component(text)?;
    String::from_utf16(&wide).ok()
}

/// Splits a script fragment into its configuration and its script. The
/// scenario may be `script` or absent (the CLI's `--script`).
pub fn parse(input: &str) -> Result<(Config, ScriptSource), ConfigError> {
    let fragment = match input.split_once('#') {
        Some((_, fragment)) => fragment,
        None => input,
    };
    let mut source = ScriptSource::None;
    let mut rest = vec!["scenario=ticket".to_string()];
    for piece in fragment.split('&').filter(|piece| !piece.is_empty()) {
        let (key, value) = piece.split_once('=').unwrap_or((piece, ""));
        match key {
            "code" => {
                let code = decode(value).ok_or_else(|| ConfigError {
                    key: "code".to_string(),
                    message:
                        "not a script compressed with lz-string's compressToEncodedURIComponent"
                            .to_string(),
                })?;
                source = ScriptSource::Code(code);
            }
            "example" => source = ScriptSource::Example(value.to_string()),
            // The schema's SQL (`schema`, below) and the route (`route`).
            "schema" | "route" => {}
            "scenario" if value == "script" => {}
            "scenario" => {
                return Err(ConfigError {
                    key: "scenario".to_string(),
                    message: format!("a script runs as `scenario=script`, not `{value}`"),
                })
            }
            _ => rest.push(piece.to_string()),
        }
    }
    let config = parse_fragment(&rest.join("&"))?;
    Ok((config, source))
}

/// The fragment's schema: its `schema=` (the database's schema as SQL,
/// compressed as `code=` is), else the schema of the example that
/// `example=` names, if it has one.
pub fn schema(input: &str) -> Result<Option<String>, ConfigError> {
    let fragment = input
        .rsplit_once('#')
        .map_or(input, |(_, fragment)| fragment);
    let pieces = || fragment.split('&');
    let Some(value) = pieces().find_map(|piece| piece.strip_prefix("schema=")) else {
        return Ok(pieces()
            .find_map(|piece| piece.strip_prefix("example="))
            .and_then(|name| shipped(name).ok()?.schema)
            .map(str::to_string));
    };
    decode(value).map(Some).ok_or_else(|| ConfigError {
        key: "schema".to_string(),
        message: "not SQL compressed with lz-string's compressToEncodedURIComponent".to_string(),
    })
}

/// The fragment's `route=`: the route of the script's Express or Fastify
/// app that the requests go to (`POST /orders/:id/pay`, percent-encoded;
/// docs/scripting.md, "Routes"), if it names one.
pub fn route(input: &str) -> Option<String> {
    let fragment = input
        .rsplit_once('#')
        .map_or(input, |(_, fragment)| fragment);
    fragment
        .split('&')
        .find_map(|piece| piece.strip_prefix("route="))
        .map(|value| {
            percent_encoding::percent_decode_str(&value.replace('+', " "))
                .decode_utf8_lossy()
                .trim()
                .to_string()
        })
        .filter(|route| !route.is_empty())
}

/// The `route=…` piece of a fragment for `route` (its spaces and the
/// characters that would split a fragment percent-encoded).
pub fn route_piece(route: &str) -> String {
    const RESERVED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
        .add(b'&')
        .add(b'=')
        .add(b'#')
        .add(b'%')
        .add(b'+')
        .add(b' ');
    format!(
        "route={}",
        percent_encoding::utf8_percent_encode(route.trim(), RESERVED)
    )
}

/// A script's fragment: the config's own, as `scenario=script` with the
/// script's piece after it.
pub use crate::script_links::script_fragment as fragment;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_round_trips_through_lz_string() {
        let code = "async function handle(req) { await sleep(1); }";
        assert_eq!(decode(&encode(code)).as_deref(), Some(code));
    }

    #[test]
    fn parses_code_example_and_the_other_keys() {
        let fragment = format!(
            "#v=1&scenario=script&code={}&strategy=keyed-mutex&users=3",
            encode("x")
        );
        let (config, source) = parse(&fragment).unwrap();
        assert_eq!(source, ScriptSource::Code("x".to_string()));
        assert_eq!(config.users, 3);
        assert_eq!(config.strategy.name(), "keyed-mutex");
        let (_, source) = parse("scenario=script&example=ticket").unwrap();
        assert!(source.text().unwrap().unwrap().contains("handle"));
        assert_eq!(
            parse("scenario=script&example=nope")
                .unwrap()
                .1
                .text()
                .unwrap_err()
                .key,
            "example"
        );
        assert_eq!(parse("scenario=stampede").unwrap_err().key, "scenario");
    }

    #[test]
    fn an_example_carries_its_schema_unless_the_fragment_has_one() {
        let own = shipped("ticket_pg").unwrap().schema.unwrap();
        assert!(own.contains("CREATE TABLE orders"));
        assert_eq!(
            schema("#v=1&scenario=script&example=ticket_pg")
                .unwrap()
                .as_deref(),
            Some(own)
        );
        let fragment = format!("scenario=script&example=ticket_pg&schema={}", encode("x"));
        assert_eq!(schema(&fragment).unwrap().as_deref(), Some("x"));
        assert_eq!(schema("scenario=script&example=ticket").unwrap(), None);
        assert_eq!(schema("scenario=script&example=nope").unwrap(), None);
        assert_eq!(shipped("redis_lock").unwrap().file, "redis_lock.ts");
    }

    #[test]
    fn route_is_a_script_key_and_round_trips() {
        let fragment = "#v=1&scenario=script&example=ticket&route=POST%20/orders/:id/pay&users=2";
        let (config, _) = parse(fragment).unwrap();
        assert_eq!(config.users, 2);
        assert_eq!(route(fragment).as_deref(), Some("POST /orders/:id/pay"));
        assert_eq!(
            route("scenario=script&route=GET+/health").as_deref(),
            Some("GET /health")
        );
        assert_eq!(route("scenario=script&route="), None);
        assert_eq!(route("scenario=script"), None);
        assert_eq!(
            route_piece("POST /orders/:id/pay"),
            "route=POST%20/orders/:id/pay"
        );
        assert_eq!(
            route(&route_piece("GET /a?b=c&d")).as_deref(),
            Some("GET /a?b=c&d")
        );
    }
}
