//! What the debugger runs: a built-in story, or a person's script. Both
//! step on the same event loop; the debugger (recording, session, compare
//! table, explorer) drives either as a [`Run`] following its schedule.

use std::rc::Rc;

use crate::config::url::to_fragment;
use crate::config::Config;
use crate::explore::Subject;
use crate::run::{Run, Scheduled};
use crate::scenario::listing::Listing;
use crate::Sim;

#[cfg(scripts)]
pub mod engine;

/// A person's script, as a fragment carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptProgram {
    pub code: String,
    /// The database's schema as SQL (`schema=`), if any (docs/sql.md).
    pub schema: Option<String>,
    /// The fragment's `code=…` or `example=NAME` piece, with its
    /// `schema=…` after it when there is a schema.
    pub source_piece: String,
    /// The route of the script's app the requests go to (`route=`, kept
    /// in the fragment after the source piece), if the link names one.
    pub route: Option<String>,
}

#[cfg(scripts)]
impl ScriptProgram {
    /// The fragment's script pieces: the source piece, then `route=`.
    pub(crate) fn pieces(&self) -> String {
        match &self.route {
            Some(route) => format!(
                "{}&{}",
                self.source_piece,
                crate::script::source::route_piece(route)
            ),
            None => self.source_piece.clone(),
        }
    }
}

/// What runs: the config's built-in story, or a script (only in builds
/// with the script engine: the page and the stories' worker have none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Program {
    #[default]
    Story,
    #[cfg(scripts)]
    Script(Rc<ScriptProgram>),
}

impl Program {
    /// A fresh run of `config` (following its schedule); `keep_trace`: keep
    /// every event, else only metrics and the trace hash. A script that
    /// does not load is an error with its message.
    pub fn start(&self, config: &Config, keep_trace: bool) -> Result<Scheduled<dyn Run>, String> {
        let run: Box<dyn Run> = match self {
            Program::Story => Box::new(match keep_trace {
                true => Sim::new(config),
                false => Sim::metrics_only(config),
            }),
            #[cfg(scripts)]
            Program::Script(script) => (engine::get().start)(script, config, keep_trace)?,
        };
        Ok(Scheduled::new(run, &config.schedule))
    }

    /// What the explorer searches for `config`.
    pub fn subject(&self, config: &Config) -> Result<Rc<dyn Subject>, String> {
        match self {
            Program::Story => Ok(crate::explore::search::story_subject(config)),
            #[cfg(scripts)]
            Program::Script(script) => (engine::get().subject)(script, config),
        }
    }

    /// The canonical fragment of `config` running this program.
    pub fn fragment(&self, config: &Config) -> String {
        match self {
            Program::Story => to_fragment(config),
            #[cfg(scripts)]
            Program::Script(script) => crate::script::source::fragment(config, &script.pieces()),
        }
    }

    /// What the code pane shows: the story's listing, or the script.
    pub fn listing(&self, config: &Config) -> Listing {
        match self {
            Program::Story => Listing::of(config),
            #[cfg(scripts)]
            Program::Script(script) => Listing::of_script(&script.code),
        }
    }

    /// Whether the page may run this program: a script the page's guard
    /// refused (`crate::script::guard`) may not, and its refusal is the
    /// error; else the guard hears that it runs, on `config`. A story
    /// always may.
    pub fn admit(&self, config: &Config) -> Result<(), String> {
        #[cfg(not(scripts))]
        let _ = config;
        match self {
            Program::Story => Ok(()),
            #[cfg(scripts)]
            Program::Script(script) => crate::script::guard::admit(
                &script.code,
                script.schema.as_deref(),
                script.route.as_deref(),
                config,
            )
            .map_err(|error| error.to_string()),
        }
    }

    /// The reason a budget stopped this program, once, since it was
    /// admitted: the guard refuses it from then on.
    pub fn stopped(&self) -> Option<String> {
        match self {
            Program::Story => None,
            #[cfg(scripts)]
            Program::Script(script) => {
                let why = crate::script::guard::take_stop()?;
                crate::script::guard::refuse_program(
                    &script.code,
                    script.schema.as_deref(),
                    script.route.as_deref(),
                    &why,
                );
                Some(why)
            }
        }
    }

    pub fn is_script(&self) -> bool {
        #[cfg(scripts)]
        return matches!(self, Program::Script(_));
        #[cfg(not(scripts))]
        false
    }
}

/// The module of the page's script worker a load error only waits for
/// (its name and what it is, `crate::script::modules`): once it loads, the
/// same program starts.
pub fn waits_for_module(message: &str) -> Option<(&'static str, &'static str)> {
    #[cfg(scripts)]
    return crate::script::modules::waits_for(message).map(|module| (module.name(), module.what()));
    #[cfg(not(scripts))]
    {
        let _ = message;
        None
    }
}

/// The modules of the page's script worker that the run of `hash` will
/// ask for, as far as its script's text tells
/// (`crate::script::modules::wanted`), by name: the worker loads them
/// beside the engine's own modules (web/model.js).
pub fn modules_wanted(hash: &str) -> Vec<&'static str> {
    #[cfg(scripts)]
    if let (_, Program::Script(script), _) = parse_lenient(hash) {
        return crate::script::modules::wanted(&script.code, script.schema.as_deref())
            .into_iter()
            .map(crate::script::modules::Module::name)
            .collect();
    }
    let _ = hash;
    Vec::new()
}

/// Whether a fragment asks for a script (`scenario=script`).
pub fn is_script_fragment(hash: &str) -> bool {
    let fragment = hash.split_once('#').map_or(hash, |(_, fragment)| fragment);
    fragment.split('&').any(|piece| piece == "scenario=script")
}

/// The line and column of a script error as [`Program::start`] words it
/// ("`code`: line 3, column 9: …").
#[cfg(scripts)]
pub fn error_position(message: &str) -> Option<(u32, u32)> {
    let rest = message.strip_prefix("`code`: line ")?;
    let (line, rest) = rest.split_once(", column ")?;
    let (column, _) = rest.split_once(':')?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// Parses a fragment leniently, as [`crate::config::url::parse_fragment_lenient`]
/// does, scripts included: bad keys fall back to defaults and are listed;
/// a script's `code=` that does not decode, or an unknown `example=`,
/// falls back to the `ticket` example. An example brings its schema
/// (`NAME.sql`), unless the fragment has its own `schema=`; `route=` is
/// kept for the run (a route the script lacks is its load error).
#[cfg(scripts)]
pub fn parse_lenient(hash: &str) -> (Config, Program, Vec<crate::config::url::ConfigError>) {
    use crate::config::url::{parse_fragment_lenient, ConfigError};
    use crate::script::source;
    if !is_script_fragment(hash) {
        let (config, errors) = parse_fragment_lenient(hash);
        return (config, Program::Story, errors);
    }
    let fragment = hash.split_once('#').map_or(hash, |(_, fragment)| fragment);
    let mut rest = Vec::new();
    let mut script = None;
    let mut schema = None;
    let mut route = None;
    let mut errors = Vec::new();
    for piece in fragment.split('&').filter(|piece| !piece.is_empty()) {
        let (key, value) = piece.split_once('=').unwrap_or((piece, ""));
        match key {
            "scenario" => rest.push("scenario=ticket".to_string()),
            "code" => match source::decode(value) {
                Some(code) => {
                    script = Some(ScriptProgram {
                        source_piece: format!("code={}", source::encode(&code)),
                        code,
                        schema: None,
                        route: None,
                    })
                }
                None => errors.push(ConfigError {
                    key: "code".to_string(),
                    message: "not a script compressed with lz-string's \
                              compressToEncodedURIComponent"
                        .to_string(),
                }),
            },
            "example" => match source::shipped(value) {
                Ok(example) => {
                    script = Some(ScriptProgram {
                        code: example.code.to_string(),
                        schema: example.schema.map(str::to_string),
                        source_piece: format!("example={value}"),
                        route: None,
                    })
                }
                Err(error) => errors.push(error),
            },
            "schema" => match source::decode(value) {
                Some(sql) => schema = Some(sql),
                None => errors.push(ConfigError {
                    key: "schema".to_string(),
                    message: "not SQL compressed with lz-string's \
                              compressToEncodedURIComponent"
                        .to_string(),
                }),
            },
            "route" => route = source::route(piece),
            _ => rest.push(piece.to_string()),
        }
    }
    let (config, more) = parse_fragment_lenient(&rest.join("&"));
    errors.extend(more);
    let mut script = script.unwrap_or_else(|| ScriptProgram {
        code: source::example("ticket").unwrap_or_default().to_string(),
        schema: None,
        source_piece: "example=ticket".to_string(),
        route: None,
    });
    script.route = route;
    if let Some(sql) = schema {
        script.source_piece = format!("{}&schema={}", script.source_piece, source::encode(&sql));
        script.schema = Some(sql);
    }
    (config, Program::Script(Rc::new(script)), errors)
}

/// A script edited in the page: its program, carried by `code=` (and its
/// schema and route, kept, by `schema=` and `route=`).
#[cfg(scripts)]
pub fn edited_script(code: &str, schema: Option<&str>, route: Option<&str>) -> Program {
    use crate::script::source::encode;
    let mut source_piece = format!("code={}", encode(code));
    if let Some(sql) = schema {
        source_piece = format!("{source_piece}&schema={}", encode(sql));
    }
    Program::Script(Rc::new(ScriptProgram {
        code: code.to_string(),
        schema: schema.map(str::to_string),
        source_piece,
        route: route.map(str::to_string),
    }))
}

/// A script whose schema was edited in the page: the same code (its
/// `code=` or `example=` piece kept) with the new SQL as `schema=`. An
/// example's own schema needs no `schema=`; blank SQL means no schema, so
/// an example whose schema was cleared becomes `code=` (else its link
/// would bring the schema back).
#[cfg(scripts)]
pub fn edited_schema(script: &ScriptProgram, sql: &str) -> Program {
    use crate::script::source;
    let base = script
        .source_piece
        .split_once("&schema=")
        .map_or(script.source_piece.as_str(), |(base, _)| base);
    let own = base
        .strip_prefix("example=")
        .and_then(|name| source::shipped(name).ok())
        .map(|example| example.schema);
    let blank = sql.trim().is_empty();
    let source_piece = match own {
        Some(Some(_)) if blank => {
            return edited_script(&script.code, None, script.route.as_deref())
        }
        Some(Some(own)) if own == sql => base.to_string(),
        _ if blank => base.to_string(),
        _ => format!("{base}&schema={}", source::encode(sql)),
    };
    Program::Script(Rc::new(ScriptProgram {
        code: script.code.clone(),
        schema: (!blank).then(|| sql.to_string()),
        source_piece,
        route: script.route.clone(),
    }))
}

#[cfg(all(test, scripts))]
mod tests {
    use super::*;

    #[test]
    fn reads_the_position_of_a_script_error() {
        assert_eq!(
            error_position("`code`: line 3, column 9: SyntaxError: x"),
            Some((3, 9))
        );
        assert_eq!(error_position("`code`: no position"), None);
        assert!(is_script_fragment("#v=1&scenario=script&example=ticket"));
        assert!(!is_script_fragment("#v=1&scenario=ticket"));
    }

    #[test]
    fn parses_script_fragments_leniently() {
        let (config, program, errors) =
            parse_lenient("#v=1&scenario=script&example=ticket&strategy=keyed-mutex&users=3");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(config.users, 3);
        assert_eq!(
            program.fragment(&config),
            "v=1&scenario=script&example=ticket&strategy=keyed-mutex&users=3"
        );
        let (_, program, errors) = parse_lenient("#v=1&scenario=script&example=nope&users=x");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(program.is_script());
    }

    fn script(program: &Program) -> &ScriptProgram {
        match program {
            Program::Script(script) => script,
            Program::Story => panic!("not a script"),
        }
    }

    #[test]
    fn an_example_brings_its_schema_and_an_edit_carries_it() {
        use crate::script::source::{encode, shipped};
        let own = shipped("ticket_pg").unwrap().schema.unwrap();
        let (config, program, errors) = parse_lenient("#v=1&scenario=script&example=ticket_pg");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(script(&program).schema.as_deref(), Some(own));
        assert_eq!(script(&program).source_piece, "example=ticket_pg");
        // The link's own schema wins.
        let (_, program, _) = parse_lenient(&format!(
            "#v=1&scenario=script&example=ticket_pg&schema={}",
            encode("CREATE TABLE t (id int);")
        ));
        assert_eq!(
            script(&program).schema.as_deref(),
            Some("CREATE TABLE t (id int);")
        );
        // Editing the schema keeps the example's piece and adds `schema=`;
        // back to its own schema, the piece is the example's alone.
        let (_, program, _) = parse_lenient("#v=1&scenario=script&example=ticket_pg");
        let sql = format!("{own}\n-- edited");
        let edited = edited_schema(script(&program), &sql);
        assert_eq!(
            script(&edited).source_piece,
            format!("example=ticket_pg&schema={}", encode(&sql))
        );
        assert!(edited.fragment(&config).contains("&schema="));
        let back = edited_schema(script(&edited), own);
        assert_eq!(script(&back).source_piece, "example=ticket_pg");
        // Cleared: no schema, and the code goes by `code=`.
        let cleared = edited_schema(script(&back), "  ");
        assert_eq!(script(&cleared).schema, None);
        assert!(script(&cleared).source_piece.starts_with("code="));
        // An edit of the code keeps the schema.
        let code = edited_script("async function handle() {}", Some(&sql), None);
        assert!(script(&code).source_piece.contains("&schema="));
    }

    #[test]
    fn a_link_with_a_route_keeps_it_through_edits() {
        let hash = "#v=1&scenario=script&example=express_tickets&route=GET%20/health&strategy=none&users=2";
        let (config, program, errors) = parse_lenient(hash);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(script(&program).route.as_deref(), Some("GET /health"));
        assert_eq!(
            program.fragment(&config),
            "v=1&scenario=script&example=express_tickets&route=GET%20/health&strategy=none&users=2"
        );
        let (again, program_again, _) = parse_lenient(&program.fragment(&config));
        assert_eq!((again, &program_again), (config.clone(), &program));
        let sql = "CREATE TABLE t (id int);";
        let edited = edited_schema(script(&program), sql);
        assert_eq!(script(&edited).route.as_deref(), Some("GET /health"));
        assert!(edited
            .fragment(&config)
            .ends_with("&route=GET%20/health&strategy=none&users=2"));
        let code = edited_script("x", None, script(&edited).route.as_deref());
        assert!(code.fragment(&config).contains("&route=GET%20/health"));
    }
}
