//! Parsing and serializing the scenario URL fragment (DESIGN.md §6).
//!
//! A fragment is `&`-separated `key=value` pairs, such as
//! `v=1&scenario=stampede&strategy=keyed-mutex&db_latency=const:20ms`.
//! [`parse_fragment`] is strict (the first problem is the error),
//! [`parse_fragment_lenient`] keeps every good key and reports every bad one,
//! and [`to_fragment`] writes the canonical form, listing only the keys that
//! differ from the scenario's defaults.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use percent_encoding::percent_decode_str;

use crate::config::number::shortest;
use crate::config::{
    Arrival, CacheStart, Config, Latency, Micros, Pause, ReleaseMode, Routing, ScenarioKind,
    StrategyKind, TxMode, MS, SECOND,
};

/// The only format version (`v`) this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Most `requests` in a stampede, and most times in an `at:` arrival list.
pub const MAX_REQUESTS: u32 = 1_000_000;
/// Most `users` in a ticket run.
pub const MAX_USERS: u32 = 100_000;
/// Most `clicks` per ticket user.
pub const MAX_CLICKS: u32 = 1_000;
/// Most requests in a ticket run, `users * clicks`.
pub const MAX_TICKET_REQUESTS: u32 = 1_000_000;
/// Most `servers`.
pub const MAX_SERVERS: u32 = 1_000;
/// Most cache `keys` in a stampede.
pub const MAX_KEYS: u32 = 1_000_000;
/// Largest finite `db_pool`.
pub const MAX_DB_POOL: u32 = 1_000_000;
/// Longest single duration: every duration key, each latency bound and each
/// `at:` time.
pub const MAX_DURATION: Micros = 86_400 * SECOND;
/// Highest `poisson:` arrival rate, per second; a rate must also be positive
/// and finite.
pub const MAX_POISSON_RATE: f64 = 1e6;
/// Most `tx_retries`.
pub const MAX_TX_RETRIES: u32 = 100;
/// Largest XFetch `beta`.
pub const MAX_BETA: f64 = 1e6;

/// How the accepted durations are described in error messages.
const DURATION_FORMS: &str = "a duration such as 500us, 20ms or 1s";
/// Longest user text quoted back in an error message, in characters.
const QUOTE_LIMIT: usize = 60;

/// A problem with one key of a fragment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Parses a fragment (bare, with a leading `#`, or inside a whole URL);
/// the first problem found is the error. An empty fragment gives
/// [`Config::default`].
pub fn parse_fragment(input: &str) -> Result<Config, ConfigError> {
    let (config, errors) = parse_fragment_lenient(input);
    match errors.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(config),
    }
}

/// Parses a fragment like [`parse_fragment`], but never fails: every good
/// key is applied, every bad one keeps its default and is reported. Without
/// a usable `scenario` the run is a stampede.
pub fn parse_fragment_lenient(input: &str) -> (Config, Vec<ConfigError>) {
    let mut pairs = pairs(fragment(input));
    if pairs.is_empty() {
        return (Config::default(), Vec::new());
    }
    if !pairs.iter().any(|(key, _)| key == Key::Scenario.token()) {
        let missing = Err("required: ticket or stampede".to_string());
        pairs.push((Key::Scenario.token().to_string(), missing));
    }
    // The version first, then the scenario, which sets the other defaults.
    let rank = |key: &str| match key {
        "v" => 0,
        "scenario" => 1,
        _ => 2,
    };
    let order = crate::order::by_rank(pairs.iter().map(|(key, _)| rank(key)));
    let mut pairs: Vec<_> = pairs.into_iter().map(Some).collect();
    let pairs = order.into_iter().filter_map(|i| pairs[i as usize].take());
    let mut config = Config::default();
    let mut errors = Vec::new();
    for (key, value) in pairs {
        if let Err(message) = value.and_then(|value| apply_named(&mut config, &key, &value)) {
            errors.push(ConfigError { key, message });
        }
    }
    errors.extend(limit_ticket_requests(&mut config));
    errors.extend(check_arrival_list(&mut config));
    errors.extend(check_transaction(&mut config));
    (config, errors)
}

/// The canonical fragment, without `#`: `v`, `scenario` and `strategy`,
/// then every key that differs from the scenario's defaults, in §6 order.
pub fn to_fragment(config: &Config) -> String {
    let defaults = Config::new(config.scenario);
    let mut pieces = Vec::new();
    for &key in Key::ALL {
        let value = value_of(config, key);
        let always = matches!(key, Key::V | Key::Scenario | Key::Strategy);
        if always || value != value_of(&defaults, key) {
            pieces.push(format!("{}={value}", key.token()));
        }
    }
    pieces.join("&")
}

/// One editable key of a scenario, as the scenario panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub key: &'static str,
    /// Every accepted value of a closed set (empty for free text).
    pub choices: Vec<&'static str>,
    /// The current value, spelled as in the fragment (empty for "same as
    /// the default rule", such as `db_write_latency`).
    pub value: String,
}

/// The keys that apply to `config`'s scenario, in §6 order (without `v`),
/// with their current values.
pub fn params(config: &Config) -> Vec<Param> {
    Key::ALL
        .iter()
        .copied()
        .filter(|&key| !matches!(key, Key::V | Key::Schedule) && key.applies_to(config.scenario))
        .map(|key| Param {
            key: key.token(),
            choices: key.choices_list(),
            value: value_of(config, key),
        })
        .collect()
}

/// `config` with one key changed, checked as strictly as a fragment. An
/// empty value restores the key's default; a new `scenario` keeps only the
/// strategy and the seed.
pub fn with_param(config: &Config, key: &str, value: &str) -> Result<Config, ConfigError> {
    let mut pieces: Vec<String> = if key == Key::Scenario.token() {
        vec![
            format!("scenario={}", encode(value)),
            format!("strategy={}", config.strategy.token()),
            format!("seed={}", config.seed),
        ]
    } else {
        to_fragment(config)
            .split('&')
            .filter(|piece| piece.split_once('=').map(|(name, _)| name) != Some(key))
            .map(str::to_string)
            .collect()
    };
    if !value.is_empty() && key != Key::Scenario.token() {
        pieces.push(format!("{}={}", encode(key), encode(value)));
    }
    parse_fragment(&pieces.join("&"))
}

/// Escapes the characters that would split a fragment.
fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, FRAGMENT_RESERVED).to_string()
}

const FRAGMENT_RESERVED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b'&')
    .add(b'=')
    .add(b'#')
    .add(b'%')
    .add(b' ');

/// Writes a duration in the largest of `s`, `ms` and `us` that divides it
/// exactly; zero is `0`.
pub fn format_duration(us: Micros) -> String {
    match us {
        0 => "0".to_string(),
        _ if us % SECOND == 0 => format!("{}s", us / SECOND),
        _ if us % MS == 0 => format!("{}ms", us / MS),
        _ => format!("{us}us"),
    }
}

/// Reads a duration in whole microseconds, at most [`MAX_DURATION`]: what
/// `humantime` accepts (`20ms`, `2min`, `1s 500ms`; a bare `m` is refused as
/// ambiguous), decimals in `us`, `ms`
/// or `s` (`1.5ms`, `0.25s`), and a bare `0`.
pub fn parse_duration(text: &str) -> Result<Micros, String> {
    let micros = if is_digits(text) {
        if text.bytes().any(|b| b != b'0') {
            return Err(duration_problem("durations need a unit: us, ms or s"));
        }
        0
    } else if let Some(micros) = parse_decimal(text) {
        micros?
    } else {
        parse_humantime(text)?
    };
    if micros > MAX_DURATION {
        return Err(too_long());
    }
    Ok(micros)
}

/// The keys of §6, in the order [`to_fragment`] writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    V,
    Scenario,
    Strategy,
    Seed,
    Servers,
    Routing,
    Arrival,
    CacheLatency,
    DbLatency,
    DbWriteLatency,
    DbPool,
    LockTtl,
    Poll,
    WaitTimeout,
    Release,
    Crash,
    Pause,
    Users,
    Clicks,
    ClickGap,
    AwaitInsert,
    Fencing,
    DbUnique,
    Tx,
    TxRetries,
    Requests,
    Keys,
    Cache,
    ExpireAt,
    Ttl,
    Grace,
    DoubleCheck,
    Beta,
    /// Explore/manual mode's choices (see `config::schedule`).
    Schedule,
}

/// Sets one key. `scenario` resets every other key to that scenario's
/// defaults, so it must come first.
fn apply(config: &mut Config, key: Key, value: &str) -> Result<(), String> {
    match key {
        Key::V => check_version(value)?,
        Key::Scenario => *config = Config::new(parse_token(value)?),
        Key::Strategy => config.strategy = parse_token(value)?,
        Key::Seed => config.seed = parse_number(value, 0, u64::MAX)?,
        Key::Servers => config.servers = parse_number(value, 1, MAX_SERVERS)?,
        Key::Routing => config.routing = parse_token(value)?,
        Key::Arrival => config.arrival = parse_arrival(value)?,
        Key::CacheLatency => config.cache_latency = parse_latency(value)?,
        Key::DbLatency => config.db_latency = parse_latency(value)?,
        Key::DbWriteLatency => config.db_write_latency = Some(parse_latency(value)?),
        Key::DbPool => {
            config.db_pool = parse_or(value, "unlimited", |v| parse_number(v, 1, MAX_DB_POOL))?
        }
        Key::LockTtl => config.lock_ttl = duration_value(value)?,
        Key::Poll => config.poll = parse_poll(value)?,
        Key::WaitTimeout => config.wait_timeout = duration_value(value)?,
        Key::Release => config.release = parse_token(value)?,
        Key::Crash => config.crash = parse_or(value, "none", |v| parse_number(v, 0, MAX_REQUESTS))?,
        Key::Pause => config.pause = parse_or(value, "none", parse_pause)?,
        Key::Users => config.users = parse_number(value, 0, MAX_USERS)?,
        Key::Clicks => config.clicks = parse_number(value, 1, MAX_CLICKS)?,
        Key::ClickGap => config.click_gap = duration_value(value)?,
        Key::AwaitInsert => config.await_insert = parse_bool(value)?,
        Key::Fencing => config.fencing = parse_bool(value)?,
        Key::DbUnique => config.db_unique = parse_bool(value)?,
        Key::Tx => config.tx = parse_token(value)?,
        Key::TxRetries => config.tx_retries = parse_number(value, 0, MAX_TX_RETRIES)?,
        Key::Requests => config.requests = parse_number(value, 0, MAX_REQUESTS)?,
        Key::Keys => config.keys = parse_number(value, 1, MAX_KEYS)?,
        Key::Cache => config.cache = parse_token(value)?,
        Key::ExpireAt => config.expire_at = parse_or(value, "ttl", duration_value)?,
        Key::Ttl => config.ttl = duration_value(value)?,
        Key::Grace => config.grace = duration_value(value)?,
        Key::DoubleCheck => config.double_check = parse_bool(value)?,
        Key::Beta => config.beta = parse_beta(value)?,
        Key::Schedule => config.schedule = value.parse()?,
    }
    Ok(())
}

/// The canonical spelling of one key's value. (A `None` write latency has
/// no spelling, but as the default it is never written.)
fn value_of(config: &Config, key: Key) -> String {
    match key {
        Key::V => FORMAT_VERSION.to_string(),
        Key::Scenario => config.scenario.token().to_string(),
        Key::Strategy => config.strategy.token().to_string(),
        Key::Seed => config.seed.to_string(),
        Key::Servers => config.servers.to_string(),
        Key::Routing => config.routing.token().to_string(),
        Key::Arrival => format_arrival(&config.arrival),
        Key::CacheLatency => format_latency(config.cache_latency),
        Key::DbLatency => format_latency(config.db_latency),
        Key::DbWriteLatency => config
            .db_write_latency
            .map_or_else(String::new, format_latency),
        Key::DbPool => config
            .db_pool
            .map_or_else(|| "unlimited".to_string(), |pool| pool.to_string()),
        Key::LockTtl => format_duration(config.lock_ttl),
        Key::Poll => format_duration(config.poll),
        Key::WaitTimeout => format_duration(config.wait_timeout),
        Key::Release => config.release.token().to_string(),
        Key::Crash => config
            .crash
            .map_or_else(|| "none".to_string(), |r| r.to_string()),
        Key::Pause => config.pause.map_or_else(
            || "none".to_string(),
            |p| format!("{}:{}", p.request, format_duration(p.duration)),
        ),
        Key::Users => config.users.to_string(),
        Key::Clicks => config.clicks.to_string(),
        Key::ClickGap => format_duration(config.click_gap),
        Key::AwaitInsert => config.await_insert.to_string(),
        Key::Fencing => config.fencing.to_string(),
        Key::DbUnique => config.db_unique.to_string(),
        Key::Tx => config.tx.token().to_string(),
        Key::TxRetries => config.tx_retries.to_string(),
        Key::Requests => config.requests.to_string(),
        Key::Keys => config.keys.to_string(),
        Key::Cache => config.cache.token().to_string(),
        Key::ExpireAt => config
            .expire_at
            .map_or_else(|| "ttl".to_string(), format_duration),
        Key::Ttl => format_duration(config.ttl),
        Key::Grace => format_duration(config.grace),
        Key::DoubleCheck => config.double_check.to_string(),
        Key::Beta => shortest(config.beta),
        Key::Schedule => config.schedule.to_string(),
    }
}

// ---------------------------------------------------------------------------
// Splitting the fragment

/// The fragment of `input`: the text after the first `#`, nothing for a URL
/// without one, or the whole input when it is a bare fragment.
fn fragment(input: &str) -> &str {
    match input.split_once('#') {
        Some((_, fragment)) => fragment,
        None if input.contains("://") => "",
        None => input,
    }
}

/// The decoded pieces in order, keeping only the last of a repeated key;
/// a piece without `=` carries its error instead of a value.
fn pairs(fragment: &str) -> Vec<(String, Result<String, String>)> {
    let mut seen = HashSet::new();
    let mut pairs: Vec<_> = fragment
        .split('&')
        .filter(|piece| !piece.is_empty())
        .rev()
        .map(|piece| match piece.split_once('=') {
            Some((key, value)) => (decode(key), Ok(decode(value))),
            None => (decode(piece), Err("expected key=value".to_string())),
        })
        .filter(|(key, _)| seen.insert(key.clone()))
        .collect();
    pairs.reverse();
    pairs
}

fn decode(text: &str) -> String {
    percent_decode_str(text).decode_utf8_lossy().into_owned()
}

fn apply_named(config: &mut Config, name: &str, value: &str) -> Result<(), String> {
    let key = Key::from_token(name).ok_or_else(|| {
        format!(
            "unknown key `{}`; accepted keys are {}",
            quote(name),
            Key::choices()
        )
    })?;
    apply(config, key, value)
}

/// Bounds `users * clicks` as a whole; on excess `clicks` falls back to its
/// default (which keeps any valid `users` within the bound).
fn limit_ticket_requests(config: &mut Config) -> Option<ConfigError> {
    let total = config.total_requests();
    if total <= u64::from(MAX_TICKET_REQUESTS) {
        return None;
    }
    let message = format!(
        "{} users * {} clicks is {total} requests, above the limit of {MAX_TICKET_REQUESTS}",
        config.users, config.clicks
    );
    config.clicks = Config::new(config.scenario).clicks;
    Some(ConfigError {
        key: Key::Clicks.token().to_string(),
        message,
    })
}

/// An `at:` list needs a time for every request (stampede) or user
/// (ticket); extra times are unused. A short list falls back to `burst`.
fn check_arrival_list(config: &mut Config) -> Option<ConfigError> {
    let Arrival::At(times) = &config.arrival else {
        return None;
    };
    let (needed, what) = match config.scenario {
        ScenarioKind::Stampede => (config.requests, "requests"),
        ScenarioKind::Ticket => (config.users, "users"),
    };
    if times.len() >= needed as usize {
        return None;
    }
    let message = format!(
        "`at:` lists {} times but the run has {needed} {what}; give one time per {}",
        times.len(),
        what.trim_end_matches('s')
    );
    config.arrival = Arrival::Burst;
    Some(ConfigError {
        key: Key::Arrival.token().to_string(),
        message,
    })
}

/// A transaction awaits every statement before its commit, so it cannot
/// run the original bug's unawaited insert; `tx` falls back to `none`.
fn check_transaction(config: &mut Config) -> Option<ConfigError> {
    if config.tx == TxMode::None || config.await_insert {
        return None;
    }
    let message = format!(
        "`tx={}` needs `await_insert=true`: a transaction awaits its insert before COMMIT",
        config.tx.token()
    );
    config.tx = TxMode::None;
    Some(ConfigError {
        key: Key::Tx.token().to_string(),
        message,
    })
}

// ---------------------------------------------------------------------------
// Values

/// A closed set of values with one URL spelling each.
trait Token: Copy + 'static {
    const ALL: &'static [Self];

    fn token(self) -> &'static str;

    fn from_token(text: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.token() == text)
    }

    /// Every spelling, as `a, b or c`.
    fn choices() -> String {
        let names: Vec<_> = Self::ALL.iter().map(|value| value.token()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }
}

impl Token for ScenarioKind {
    const ALL: &'static [Self] = &[ScenarioKind::Ticket, ScenarioKind::Stampede];

    fn token(self) -> &'static str {
        self.name()
    }
}

impl Token for StrategyKind {
    const ALL: &'static [Self] = &StrategyKind::ALL;

    fn token(self) -> &'static str {
        self.name()
    }
}

impl Token for Routing {
    const ALL: &'static [Self] = &[Routing::RoundRobin, Routing::Sticky, Routing::Random];

    fn token(self) -> &'static str {
        match self {
            Routing::RoundRobin => "round-robin",
            Routing::Sticky => "sticky",
            Routing::Random => "random",
        }
    }
}

impl Token for ReleaseMode {
    const ALL: &'static [Self] = &[ReleaseMode::Delete, ReleaseMode::Owner];

    fn token(self) -> &'static str {
        match self {
            ReleaseMode::Delete => "delete",
            ReleaseMode::Owner => "owner",
        }
    }
}

impl Token for TxMode {
    const ALL: &'static [Self] = &[
        TxMode::None,
        TxMode::ReadCommitted,
        TxMode::Serializable,
        TxMode::ForUpdate,
    ];

    fn token(self) -> &'static str {
        self.name()
    }
}

impl Token for CacheStart {
    const ALL: &'static [Self] = &[CacheStart::Cold, CacheStart::Warm];

    fn token(self) -> &'static str {
        match self {
            CacheStart::Cold => "cold",
            CacheStart::Warm => "warm",
        }
    }
}

impl Token for Key {
    const ALL: &'static [Self] = &[
        Key::V,
        Key::Scenario,
        Key::Strategy,
        Key::Seed,
        Key::Servers,
        Key::Routing,
        Key::Arrival,
        Key::CacheLatency,
        Key::DbLatency,
        Key::DbWriteLatency,
        Key::DbPool,
        Key::LockTtl,
        Key::Poll,
        Key::WaitTimeout,
        Key::Release,
        Key::Crash,
        Key::Pause,
        Key::Users,
        Key::Clicks,
        Key::ClickGap,
        Key::AwaitInsert,
        Key::Fencing,
        Key::DbUnique,
        Key::Tx,
        Key::TxRetries,
        Key::Requests,
        Key::Keys,
        Key::Cache,
        Key::ExpireAt,
        Key::Ttl,
        Key::Grace,
        Key::DoubleCheck,
        Key::Beta,
        Key::Schedule,
    ];

    fn token(self) -> &'static str {
        match self {
            Key::V => "v",
            Key::Scenario => "scenario",
            Key::Strategy => "strategy",
            Key::Seed => "seed",
            Key::Servers => "servers",
            Key::Routing => "routing",
            Key::Arrival => "arrival",
            Key::CacheLatency => "cache_latency",
            Key::DbLatency => "db_latency",
            Key::DbWriteLatency => "db_write_latency",
            Key::DbPool => "db_pool",
            Key::LockTtl => "lock_ttl",
            Key::Poll => "poll",
            Key::WaitTimeout => "wait_timeout",
            Key::Release => "release",
            Key::Crash => "crash",
            Key::Pause => "pause",
            Key::Users => "users",
            Key::Clicks => "clicks",
            Key::ClickGap => "click_gap",
            Key::AwaitInsert => "await_insert",
            Key::Fencing => "fencing",
            Key::DbUnique => "db_unique",
            Key::Tx => "tx",
            Key::TxRetries => "tx_retries",
            Key::Requests => "requests",
            Key::Keys => "keys",
            Key::Cache => "cache",
            Key::ExpireAt => "expire_at",
            Key::Ttl => "ttl",
            Key::Grace => "grace",
            Key::DoubleCheck => "double_check",
            Key::Beta => "beta",
            Key::Schedule => "schedule",
        }
    }
}

impl Key {
    /// Whether the key means anything for this scenario.
    fn applies_to(self, scenario: ScenarioKind) -> bool {
        let only = match self {
            Key::Users
            | Key::Clicks
            | Key::ClickGap
            | Key::AwaitInsert
            | Key::Fencing
            | Key::DbUnique
            | Key::Tx
            | Key::TxRetries => ScenarioKind::Ticket,
            Key::Requests
            | Key::Keys
            | Key::Cache
            | Key::ExpireAt
            | Key::Ttl
            | Key::Grace
            | Key::DoubleCheck
            | Key::Beta => ScenarioKind::Stampede,
            _ => return true,
        };
        only == scenario
    }

    /// The closed set of values, for keys that have one.
    fn choices_list(self) -> Vec<&'static str> {
        fn tokens<T: Token>() -> Vec<&'static str> {
            T::ALL.iter().map(|value| value.token()).collect()
        }
        match self {
            Key::Scenario => tokens::<ScenarioKind>(),
            Key::Strategy => tokens::<StrategyKind>(),
            Key::Routing => tokens::<Routing>(),
            Key::Cache => tokens::<CacheStart>(),
            Key::Release => tokens::<ReleaseMode>(),
            Key::Tx => tokens::<TxMode>(),
            Key::AwaitInsert | Key::DoubleCheck | Key::Fencing | Key::DbUnique => {
                vec!["true", "false"]
            }
            _ => Vec::new(),
        }
    }
}

/// The message for a bad value: the value, then what was expected.
fn bad_value(value: &str, reason: &str) -> String {
    format!("bad value `{}`: {reason}", quote(value))
}

/// User text for a message, cut short when long.
fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let mut quoted: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    if chars.next().is_some() {
        quoted.push_str("...");
    }
    quoted
}

fn check_version(value: &str) -> Result<(), String> {
    if value == FORMAT_VERSION.to_string() {
        Ok(())
    } else {
        Err(format!(
            "unsupported format version `{}`; this build reads v={FORMAT_VERSION}",
            quote(value)
        ))
    }
}

fn parse_token<T: Token>(value: &str) -> Result<T, String> {
    T::from_token(value).ok_or_else(|| bad_value(value, &format!("expected {}", T::choices())))
}

/// A decimal whole number within `min..=max`.
fn parse_number<T>(value: &str, min: T, max: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display + Copy,
{
    is_digits(value)
        .then(|| value.parse::<T>().ok())
        .flatten()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            bad_value(
                value,
                &format!("expected a whole number from {min} to {max}"),
            )
        })
}

/// `none` as `None`, else what `parse` reads; errors also name `none`.
fn parse_or<T>(
    value: &str,
    none: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    if value == none {
        return Ok(None);
    }
    parse(value)
        .map(Some)
        .map_err(|message| format!("{message}, or {none}"))
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(bad_value(value, "expected true or false (or 1 or 0)")),
    }
}

fn duration_value(value: &str) -> Result<Micros, String> {
    parse_duration(value).map_err(|reason| bad_value(value, &reason))
}

fn parse_poll(value: &str) -> Result<Micros, String> {
    match duration_value(value)? {
        0 => Err(bad_value(
            value,
            "the poll interval must be at least 1us (a zero poll would spin forever)",
        )),
        poll => Ok(poll),
    }
}

/// `R:D`: request R stalls for D inside its critical section.
fn parse_pause(value: &str) -> Result<Pause, String> {
    let shape = || {
        bad_value(
            value,
            &format!(
                "expected R:D, where R is a request number from 0 to {MAX_REQUESTS} \
                 and D is {DURATION_FORMS}"
            ),
        )
    };
    let (request, duration) = value.split_once(':').ok_or_else(shape)?;
    let request = parse_number(request, 0, MAX_REQUESTS).map_err(|_| shape())?;
    let duration = parse_duration(duration).map_err(|reason| bad_value(value, &reason))?;
    Ok(Pause { request, duration })
}

/// A finite number from 0 to [`MAX_BETA`].
fn parse_beta(value: &str) -> Result<f64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|beta| beta.is_finite() && (0.0..=MAX_BETA).contains(beta))
        .ok_or_else(|| {
            bad_value(
                value,
                &format!("expected a number from 0 to {}", shortest(MAX_BETA)),
            )
        })
}

/// `const:D`, `uniform:D..D`, `exp:D`, or a bare `D` as `const:D`.
fn parse_latency(value: &str) -> Result<Latency, String> {
    let shape = || {
        let forms = "const:D, uniform:D..D or exp:D";
        bad_value(
            value,
            &format!("expected {forms}, where D is {DURATION_FORMS}"),
        )
    };
    let duration = |text: &str| parse_duration(text).map_err(|reason| bad_value(value, &reason));
    match value.split_once(':') {
        Some(("const", d)) => Ok(Latency::Const(duration(d)?)),
        Some(("exp", d)) => Ok(Latency::Exp(duration(d)?)),
        Some(("uniform", range)) => {
            let (low, high) = range.split_once("..").ok_or_else(shape)?;
            let (low, high) = (duration(low)?, duration(high)?);
            if low > high {
                let reason = "expected uniform:LOW..HIGH with LOW <= HIGH";
                return Err(bad_value(value, reason));
            }
            Ok(Latency::Uniform(low, high))
        }
        Some(_) => Err(shape()),
        None => parse_duration(value)
            .map(Latency::Const)
            .map_err(|_| shape()),
    }
}

/// `burst`, `gap:D`, `poisson:RATE` or `at:D,D,...`.
fn parse_arrival(value: &str) -> Result<Arrival, String> {
    let shape = || {
        let forms = "burst, gap:D, poisson:RATE or at:D,D,...";
        let rate = format!(
            "RATE is arrivals per second (above 0, at most {})",
            shortest(MAX_POISSON_RATE)
        );
        bad_value(
            value,
            &format!("expected {forms}, where D is {DURATION_FORMS} and {rate}"),
        )
    };
    let duration = |text: &str| parse_duration(text).map_err(|reason| bad_value(value, &reason));
    match value.split_once(':') {
        None if value == "burst" => Ok(Arrival::Burst),
        Some(("gap", d)) => Ok(Arrival::Gap(duration(d)?)),
        Some(("poisson", rate)) => rate
            .parse::<f64>()
            .ok()
            .filter(|rate| rate.is_finite() && *rate > 0.0 && *rate <= MAX_POISSON_RATE)
            .map(Arrival::Poisson)
            .ok_or_else(shape),
        Some(("at", times)) => {
            if times.split(',').count() > MAX_REQUESTS as usize {
                let reason = format!("expected at most {MAX_REQUESTS} times in at:D,D,...");
                return Err(bad_value(value, &reason));
            }
            let times = times.split(',').map(duration).collect::<Result<_, _>>()?;
            Ok(Arrival::At(times))
        }
        _ => Err(shape()),
    }
}

fn format_latency(latency: Latency) -> String {
    match latency {
        Latency::Const(d) => format!("const:{}", format_duration(d)),
        Latency::Uniform(low, high) => {
            format!(
                "uniform:{}..{}",
                format_duration(low),
                format_duration(high)
            )
        }
        Latency::Exp(mean) => format!("exp:{}", format_duration(mean)),
    }
}

fn format_arrival(arrival: &Arrival) -> String {
    match arrival {
        Arrival::Burst => "burst".to_string(),
        Arrival::Gap(gap) => format!("gap:{}", format_duration(*gap)),
        Arrival::Poisson(rate) => format!("poisson:{}", shortest(*rate)),
        Arrival::At(times) => {
            let times: Vec<_> = times.iter().map(|&t| format_duration(t)).collect();
            format!("at:{}", times.join(","))
        }
    }
}

// ---------------------------------------------------------------------------
// Durations

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn duration_problem(problem: &str) -> String {
    format!("{problem}; expected {DURATION_FORMS}")
}

fn too_long() -> String {
    let max = format_duration(MAX_DURATION);
    duration_problem(&format!("longer than the maximum of {max}"))
}

fn not_whole_micros() -> String {
    duration_problem("not a whole number of microseconds")
}

/// `1`, `1.5` or `0.25` followed by `us`, `ms` or `s`; `None` for any
/// other shape.
fn parse_decimal(text: &str) -> Option<Result<Micros, String>> {
    let (number, unit) = text.split_at(text.find(|c: char| c.is_ascii_alphabetic())?);
    let scale = match unit {
        "us" => 1,
        "ms" => MS,
        "s" => SECOND,
        _ => return None,
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, "0"));
    (is_digits(whole) && is_digits(fraction)).then(|| decimal_micros(whole, fraction, scale))
}

/// `whole.fraction` times `scale`, a power of ten.
fn decimal_micros(whole: &str, fraction: &str, scale: Micros) -> Result<Micros, String> {
    let fraction = fraction.trim_end_matches('0');
    let places = scale.ilog10() as usize;
    if fraction.len() > places {
        return Err(not_whole_micros());
    }
    // Padded to `places` digits, the fraction counts microseconds.
    let padded = format!("{fraction:0<places$}");
    let fraction_micros = padded
        .bytes()
        .fold(0, |micros, b| micros * 10 + Micros::from(b - b'0'));
    whole
        .parse::<Micros>()
        .ok()
        .and_then(|whole| whole.checked_mul(scale))
        .and_then(|micros| micros.checked_add(fraction_micros))
        .ok_or_else(too_long)
}

fn parse_humantime(text: &str) -> Result<Micros, String> {
    // humantime reads `m` as minutes; typed into a latency field it is far
    // more likely a millisecond cut short (`5m` on the way to `5ms`).
    let mut units = text.split(|c: char| !c.is_ascii_alphabetic());
    if units.any(|unit| unit == "m") {
        return Err(format!(
            "`m` is ambiguous: write ms for milliseconds or min for minutes ({DURATION_FORMS})"
        ));
    }
    let duration =
        humantime::parse_duration(text).map_err(|_| format!("expected {DURATION_FORMS}"))?;
    if duration.subsec_nanos() % 1_000 != 0 {
        return Err(not_whole_micros());
    }
    Micros::try_from(duration.as_micros()).map_err(|_| too_long())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_list_the_keys_of_the_scenario_with_their_values() {
        let config = parse_fragment("scenario=ticket&users=3&await_insert=false").unwrap();
        let params = params(&config);
        let keys: Vec<_> = params.iter().map(|param| param.key).collect();
        assert!(keys.contains(&"users") && keys.contains(&"click_gap"));
        assert!(!keys.contains(&"requests") && !keys.contains(&"v"));
        let users = params.iter().find(|param| param.key == "users").unwrap();
        assert_eq!(users.value, "3");
        let insert = params.iter().find(|p| p.key == "await_insert").unwrap();
        assert_eq!((insert.value.as_str(), insert.choices.len()), ("false", 2));
        let write = params.iter().find(|p| p.key == "db_write_latency").unwrap();
        assert_eq!(write.value, "");
    }

    #[test]
    fn the_fault_and_fix_keys_parse_and_name_themselves() {
        let config = parse_fragment(
            "scenario=ticket&strategy=ticket-lock&crash=2&pause=1:30ms&release=owner\
             &fencing=true&db_unique=1",
        )
        .unwrap();
        assert_eq!(config.strategy, StrategyKind::TicketLock);
        assert_eq!(config.crash, Some(2));
        let pause = Pause {
            request: 1,
            duration: 30 * MS,
        };
        assert_eq!(config.pause, Some(pause));
        assert_eq!(config.release, ReleaseMode::Owner);
        assert!(config.fencing && config.db_unique);
        assert_eq!(
            to_fragment(&config),
            "v=1&scenario=ticket&strategy=ticket-lock&release=owner&crash=2&pause=1:30ms\
             &fencing=true&db_unique=true"
        );
        let beta = parse_fragment("scenario=stampede&strategy=xfetch&beta=2.5").unwrap();
        assert_eq!(beta.beta, 2.5);
        assert_eq!(Config::new(ScenarioKind::Stampede).beta, 1.0);
        for (input, key, expected) in [
            ("scenario=ticket&pause=1", "pause", "expected R:D"),
            ("scenario=ticket&pause=x:1ms", "pause", "expected R:D"),
            (
                "scenario=ticket&pause=1:5",
                "pause",
                "durations need a unit",
            ),
            ("scenario=ticket&crash=-1", "crash", "or none"),
            (
                "scenario=ticket&release=maybe",
                "release",
                "expected delete or owner",
            ),
            (
                "scenario=ticket&fencing=yes",
                "fencing",
                "expected true or false",
            ),
            ("scenario=stampede&beta=-1", "beta", "from 0 to 1000000"),
            ("scenario=stampede&beta=NaN", "beta", "from 0 to 1000000"),
        ] {
            let error = error_of(input);
            assert_eq!(error.key, key, "{input}");
            assert!(
                error.message.contains(expected),
                "{input}: {}",
                error.message
            );
        }
        let keys = |scenario| -> Vec<&str> {
            params(&Config::new(scenario))
                .iter()
                .map(|param| param.key)
                .collect()
        };
        let ticket = keys(ScenarioKind::Ticket);
        for key in ["release", "crash", "pause", "fencing", "db_unique"] {
            assert!(ticket.contains(&key), "{key}");
        }
        let stampede = keys(ScenarioKind::Stampede);
        for key in ["release", "crash", "pause", "beta"] {
            assert!(stampede.contains(&key), "{key}");
        }
        assert!(!stampede.contains(&"db_unique") && !ticket.contains(&"beta"));
        let strategies = params(&Config::default())
            .into_iter()
            .find(|param| param.key == "strategy")
            .unwrap()
            .choices;
        assert_eq!(strategies.len(), StrategyKind::ALL.len());
        assert!(strategies.contains(&"xfetch") && strategies.contains(&"emitter-lock"));
    }

    #[test]
    fn with_param_changes_one_key_and_checks_it() {
        let config = parse_fragment("scenario=stampede&requests=7&seed=3").unwrap();
        let changed = with_param(&config, "db_latency", "uniform:1ms..5ms").unwrap();
        assert_eq!(changed.db_latency, Latency::Uniform(MS, 5 * MS));
        assert_eq!((changed.requests, changed.seed), (7, 3));
        let reset = with_param(&changed, "requests", "").unwrap();
        assert_eq!(reset.requests, Config::new(ScenarioKind::Stampede).requests);
        let error = with_param(&config, "requests", "many").unwrap_err();
        assert_eq!(error.key, "requests");
        let error = with_param(&config, "arrival", "at:1ms&x=1").unwrap_err();
        assert_eq!(error.key, "arrival");
        let ticket = with_param(&config, "scenario", "ticket").unwrap();
        assert_eq!((ticket.scenario, ticket.seed), (ScenarioKind::Ticket, 3));
    }

    fn error_of(input: &str) -> ConfigError {
        parse_fragment(input).expect_err(input)
    }

    fn every_variant_configs() -> Vec<Config> {
        let mut configs = Vec::new();
        for (i, &strategy) in StrategyKind::ALL.iter().enumerate() {
            for &scenario in ScenarioKind::ALL {
                let mut config = Config::new(scenario);
                config.strategy = strategy;
                config.seed = i as u64 * 1_000_003;
                configs.push(config);
            }
        }
        let mut ticket = Config::new(ScenarioKind::Ticket);
        ticket.users = 50;
        ticket.clicks = 3;
        ticket.click_gap = 1_500;
        ticket.await_insert = false;
        ticket.routing = Routing::Sticky;
        ticket.servers = 4;
        ticket.db_pool = Some(2);
        ticket.arrival = Arrival::Gap(10 * MS);
        ticket.cache_latency = Latency::Uniform(MS, 5 * MS);
        ticket.db_latency = Latency::Exp(2 * MS);
        ticket.db_write_latency = Some(Latency::Const(30 * MS));
        ticket.lock_ttl = 0;
        ticket.poll = 1;
        ticket.wait_timeout = 250 * MS;
        ticket.release = ReleaseMode::Owner;
        ticket.crash = Some(3);
        ticket.pause = Some(Pause {
            request: 0,
            duration: 30 * MS,
        });
        ticket.fencing = true;
        ticket.db_unique = true;
        configs.push(ticket);

        let mut stampede = Config::new(ScenarioKind::Stampede);
        stampede.routing = Routing::Random;
        stampede.arrival = Arrival::Poisson(2.5);
        stampede.requests = 0;
        stampede.keys = 7;
        stampede.cache = CacheStart::Warm;
        stampede.expire_at = Some(3 * SECOND);
        stampede.ttl = 0;
        stampede.grace = 1_500 * MS;
        stampede.double_check = false;
        stampede.beta = 0.25;
        stampede.pause = Some(Pause {
            request: MAX_REQUESTS,
            duration: 0,
        });
        stampede.seed = u64::MAX;
        configs.push(stampede.clone());

        stampede.arrival = Arrival::At(vec![0, 5 * MS, SECOND, 7, MAX_DURATION]);
        stampede.expire_at = Some(0);
        stampede.db_write_latency = Some(stampede.db_latency);
        stampede.schedule = crate::config::Schedule::new(vec![0, 2, 36, 1]);
        configs.push(stampede.clone());

        stampede.arrival = Arrival::Poisson(1.0 / 3.0);
        configs.push(stampede);
        configs
    }

    #[test]
    fn bare_ticket_has_the_ticket_defaults() {
        let config = parse_fragment("scenario=ticket").unwrap();
        assert_eq!(config, Config::new(ScenarioKind::Ticket));
        assert_eq!(config.users, 1);
        assert_eq!(config.clicks, 2);
        assert!(config.await_insert);
    }

    #[test]
    fn empty_input_opens_the_default_scenario() {
        for input in [
            "",
            "#",
            "&&",
            "#&",
            "http://host/app",
            "http://host/app?x=1#",
        ] {
            assert_eq!(parse_fragment(input), Ok(Config::default()), "{input}");
            assert_eq!(parse_fragment_lenient(input).1, vec![], "{input}");
        }
    }

    #[test]
    fn parses_the_design_example() {
        let config = parse_fragment(
            "#v=1&scenario=stampede&strategy=keyed-mutex&requests=50&arrival=burst\
             &db_latency=const:20ms&cache_latency=const:1ms&ttl=60s&seed=7",
        )
        .unwrap();
        let mut expected = Config::new(ScenarioKind::Stampede);
        expected.strategy = StrategyKind::KeyedMutex;
        expected.requests = 50;
        expected.seed = 7;
        assert_eq!(config, expected);
        assert_eq!(config.db_latency, Latency::Const(20 * MS));
        assert_eq!(config.cache_latency, Latency::Const(MS));
        assert_eq!(config.ttl, 60 * SECOND);
    }

    #[test]
    fn reads_the_fragment_of_a_whole_url() {
        let config =
            parse_fragment("http://localhost:8080/app/?x=1&users=9#v=1&scenario=ticket&users=3")
                .unwrap();
        assert_eq!(config.scenario, ScenarioKind::Ticket);
        assert_eq!(config.users, 3);
    }

    #[test]
    fn scenario_applies_first_and_the_last_repeat_wins() {
        let config =
            parse_fragment("requests=3&strategy=add&scenario=ticket&strategy=single-flight")
                .unwrap();
        assert_eq!(config.scenario, ScenarioKind::Ticket);
        assert_eq!(config.requests, 3);
        assert_eq!(config.strategy, StrategyKind::SingleFlight);
    }

    #[test]
    fn decodes_percent_escapes() {
        let config = parse_fragment("scenario=ticket&db%5Flatency=uniform%3A1ms..2ms").unwrap();
        assert_eq!(config.db_latency, Latency::Uniform(MS, 2 * MS));
    }

    #[test]
    fn each_error_names_its_key() {
        let cases = [
            ("scenario=stampede&colour=red", "colour"),
            ("scenario=stampede&strategy=mutex", "strategy"),
            ("scenario=stampede&db_latency=foo", "db_latency"),
            (
                "scenario=stampede&cache_latency=uniform:5ms..1ms",
                "cache_latency",
            ),
            ("scenario=stampede&ttl=5", "ttl"),
            ("scenario=stampede&grace=1ns", "grace"),
            ("scenario=stampede&lock_ttl=86401s", "lock_ttl"),
            ("scenario=stampede&requests=1000001", "requests"),
            ("scenario=stampede&servers=0", "servers"),
            ("scenario=stampede&keys=-1", "keys"),
            ("scenario=stampede&seed=18446744073709551616", "seed"),
            ("scenario=stampede&poll=0", "poll"),
            ("scenario=stampede&db_pool=0", "db_pool"),
            ("scenario=stampede&double_check=yes", "double_check"),
            ("scenario=ticket&schedule=0Z", "schedule"),
            ("scenario=stampede&arrival=poisson:0", "arrival"),
            ("scenario=stampede&arrival=poisson:inf", "arrival"),
            ("scenario=stampede&arrival=at:", "arrival"),
            ("scenario=stampede&arrival=at:1ms,,2ms", "arrival"),
            ("scenario=stampede&routing", "routing"),
            ("scenario=ticket&users=100000&clicks=1000", "clicks"),
            ("scenario=ticket&clicks=0", "clicks"),
            ("scenario=rocket", "scenario"),
            ("strategy=add", "scenario"),
            ("v=1", "scenario"),
            ("v=2&scenario=ticket", "v"),
            ("colour=red&v=2", "v"),
        ];
        for (input, key) in cases {
            assert_eq!(error_of(input).key, key, "{input}");
        }
    }

    #[test]
    fn messages_list_the_accepted_forms() {
        let error = error_of("scenario=stampede&db_latency=foo");
        assert_eq!(
            error.message,
            "bad value `foo`: expected const:D, uniform:D..D or exp:D, \
             where D is a duration such as 500us, 20ms or 1s"
        );
        assert_eq!(
            error.to_string(),
            format!("`db_latency`: {}", error.message)
        );
        let unknown = error_of("scenario=stampede&colour=red").message;
        assert!(unknown.contains("unknown key `colour`"), "{unknown}");
        assert!(unknown.contains("v, scenario, strategy, seed"), "{unknown}");
        assert!(unknown.ends_with("beta or schedule"), "{unknown}");
        let strategy = error_of("scenario=stampede&strategy=x").message;
        assert!(
            strategy.ends_with(
                "none, get-set, add, keyed-mutex, single-flight, emitter-lock, ticket-lock, \
                 stale-while-revalidate or xfetch"
            ),
            "{strategy}"
        );
        let version = error_of("scenario=stampede&v=2").message;
        assert!(version.contains("this build reads v=1"), "{version}");
        let unit = error_of("scenario=stampede&ttl=5").message;
        assert!(
            unit.contains("durations need a unit: us, ms or s"),
            "{unit}"
        );
        let pool = error_of("scenario=stampede&db_pool=none").message;
        assert!(pool.ends_with("from 1 to 1000000, or unlimited"), "{pool}");
        assert_eq!(
            error_of("scenario=stampede&routing").message,
            "expected key=value"
        );
        assert_eq!(error_of("v=1").message, "required: ticket or stampede");
    }

    #[test]
    fn long_values_are_cut_short_in_messages() {
        let long = "x".repeat(10_000);
        let error = error_of(&format!("scenario=stampede&strategy={long}"));
        assert!(error.message.len() < 200, "{}", error.message);
    }

    #[test]
    fn accepts_edge_values() {
        let config = parse_fragment(
            "scenario=ticket&users=0&requests=0&db_pool=unlimited&expire_at=ttl\
             &await_insert=0&double_check=1&poll=1us&db_latency=5ms&arrival=at:0",
        )
        .unwrap();
        assert_eq!(config.users, 0);
        assert_eq!(config.requests, 0);
        assert_eq!(config.db_pool, None);
        assert_eq!(config.expire_at, None);
        assert!(!config.await_insert);
        assert!(config.double_check);
        assert_eq!(config.poll, 1);
        assert_eq!(config.db_latency, Latency::Const(5 * MS));
        assert_eq!(config.arrival, Arrival::At(vec![0]));
        let most = "scenario=ticket&users=1000&clicks=1000&lock_ttl=86400s";
        assert_eq!(parse_fragment(most).unwrap().clicks, 1_000);
    }

    #[test]
    fn round_trips_every_variant() {
        for config in every_variant_configs() {
            let fragment = to_fragment(&config);
            assert!(
                fragment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ":,.-=&_".contains(c)),
                "{fragment}"
            );
            assert_eq!(parse_fragment(&fragment), Ok(config.clone()), "{fragment}");
            assert_eq!(
                parse_fragment(&format!("#{fragment}")),
                Ok(config),
                "{fragment}"
            );
        }
    }

    #[test]
    fn writes_the_canonical_fragment() {
        assert_eq!(
            to_fragment(&Config::default()),
            "v=1&scenario=stampede&strategy=none"
        );
        let mut config = Config::new(ScenarioKind::Stampede);
        config.strategy = StrategyKind::KeyedMutex;
        config.seed = 7;
        config.arrival = Arrival::At(vec![0, 5 * MS, SECOND]);
        config.cache_latency = Latency::Uniform(MS, 5 * MS);
        config.requests = 50;
        config.ttl = 1_500 * MS;
        assert_eq!(
            to_fragment(&config),
            "v=1&scenario=stampede&strategy=keyed-mutex&seed=7&arrival=at:0,5ms,1s\
             &cache_latency=uniform:1ms..5ms&requests=50&ttl=1500ms"
        );
        config.arrival = Arrival::Poisson(0.5);
        config.db_latency = Latency::Exp(2 * MS);
        assert!(to_fragment(&config).contains("&arrival=poisson:0.5&"));
        assert!(to_fragment(&config).contains("&db_latency=exp:2ms&"));
    }

    #[test]
    fn a_bare_m_is_refused_with_the_units_to_use() {
        let message = parse_duration("5m").unwrap_err();
        assert!(
            message.contains("ms") && message.contains("min"),
            "{message}"
        );
        let error = parse_fragment("scenario=ticket&click_gap=5m").unwrap_err();
        assert!(error.to_string().contains("click_gap"), "{error}");
    }

    #[test]
    fn parses_durations() {
        let good = [
            ("0", 0),
            ("000", 0),
            ("0s", 0),
            ("0.0ms", 0),
            ("500us", 500),
            ("20ms", 20 * MS),
            ("1s", SECOND),
            ("2min", 120 * SECOND),
            ("1h", 3_600 * SECOND),
            ("1s 500ms", 1_500 * MS),
            ("1000ns", 1),
            ("1.5ms", 1_500),
            ("0.25s", 250 * MS),
            ("1.000001s", SECOND + 1),
            ("2.000us", 2),
            ("86400s", MAX_DURATION),
            ("86399.999999s", MAX_DURATION - 1),
        ];
        for (text, micros) in good {
            assert_eq!(parse_duration(text), Ok(micros), "{text}");
        }
        let bad = [
            "",
            "5",
            "ms",
            "1.5us",
            "0.0000001s",
            "1ns",
            "2m",
            "1s 5m",
            "86401s",
            "86400.000001s",
            "2d",
            "1.ms",
            ".5ms",
            "-1ms",
            "1e3ms",
            "20 ms x",
        ];
        for text in bad {
            let error = parse_duration(text).expect_err(text);
            assert!(error.contains("a duration such as"), "{text}: {error}");
        }
        assert!(parse_duration("5")
            .unwrap_err()
            .starts_with("durations need a unit"));
    }

    #[test]
    fn formats_durations() {
        assert_eq!(format_duration(0), "0");
        assert_eq!(format_duration(1_500), "1500us");
        assert_eq!(format_duration(1_500_000), "1500ms");
        assert_eq!(format_duration(2_000_000), "2s");
        assert_eq!(format_duration(7), "7us");
        assert_eq!(format_duration(MAX_DURATION), "86400s");
    }

    #[test]
    fn lenient_parse_keeps_good_keys_and_reports_bad_ones() {
        let (config, errors) = parse_fragment_lenient(
            "scenario=ticket&users=5&strategy=bogus&clicks=0&poll=1ms&colour=red",
        );
        let mut expected = Config::new(ScenarioKind::Ticket);
        expected.users = 5;
        expected.poll = MS;
        assert_eq!(config, expected);
        let keys: Vec<_> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["strategy", "clicks", "colour"]);

        let (config, errors) = parse_fragment_lenient("requests=4&scenario=boat");
        assert_eq!(config.scenario, ScenarioKind::Stampede);
        assert_eq!(config.requests, 4);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].key, "scenario");

        let (config, errors) = parse_fragment_lenient("requests=4");
        assert_eq!(config.requests, 4);
        assert_eq!(errors[0].key, "scenario");

        let (config, errors) = parse_fragment_lenient("scenario=ticket&users=100000&clicks=11");
        assert_eq!((config.users, config.clicks), (100_000, 2));
        assert_eq!(errors[0].key, "clicks");
    }

    #[test]
    fn never_panics_on_odd_input() {
        let inputs = [
            "%",
            "%%",
            "%FF=%FE",
            "=",
            "==",
            "=x",
            "a=b=c",
            "#v=1&scenario=ticket&arrival=at:",
            "scenario=ticket&arrival=at:,",
            "scenario=stampede&arrival=gap:",
            "scenario=stampede&db_latency=uniform:..",
            "scenario=stampede&db_latency=uniform:1ms",
            "scenario=stampede&ttl=99999999999999999999s",
            "scenario=stampede&ttl=99999999999999999999h",
            "scenario=stampede&ttl=1.00000000000000000000000000000000s",
            "scenario=stampede&ttl=1.0000000000000000000000000000000001s",
            "scenario=stampede&ttl=18446744073709551615s",
            "scenario=stampede&ttl=.5s",
            "scenario=stampede&ttl=5.s",
            "scenario=stampede&ttl=µs",
            "scenario=stampede&ttl=1.5µs",
            "scenario=stampede&arrival=poisson:NaN",
            "scenario=stampede&arrival=poisson:-1",
            "scenario=stampede&arrival=poisson:1e400",
            "scenario=stampede&seed=-0",
            "\u{0}=\u{0}",
            "scenario=%E2%82",
            "#####",
        ];
        for input in inputs {
            let _ = parse_fragment_lenient(input);
        }
    }
}
