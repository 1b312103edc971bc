//! The SQL model against hostile statements: mangled statements of every
//! kind the model runs (token deletions, repeats, swaps with tokens of
//! other statements, and values at the edges of their types), run by three
//! sessions on one database and loaded as schemas, never panic; each is an
//! error or a reply. `SELECT *` with an alias and with no table are
//! PostgreSQL's syntax errors, which the model once panicked on.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use proptest::prelude::*;

use interleave::script::sql::parse::parse;
use interleave::script::sql::store::Landed;
use interleave::script::sql::{schema, Database};

const SCHEMA: &str = r#"CREATE TABLE events (id int PRIMARY KEY, capacity int NOT NULL DEFAULT 10, seats int NOT NULL DEFAULT 5);
CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE, name text);
CREATE TABLE orders (id serial PRIMARY KEY, user_id int, event_id int REFERENCES events (id), total numeric(10,2), meta jsonb);
CREATE TABLE jobs (id serial PRIMARY KEY, kind text, state text NOT NULL DEFAULT 'new', attempts int NOT NULL DEFAULT 0, payload jsonb, run_at timestamptz, every interval);
CREATE TABLE runs (job_id int REFERENCES jobs (id));
CREATE TABLE accounts (id int PRIMARY KEY, owner text, email text, balance numeric(10,2) NOT NULL DEFAULT 0, meta jsonb);
CREATE TABLE ledger (account_id int, amount numeric, n int, big bigint, score float8, kind text);
CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL DEFAULT 0, tags text[]);
INSERT INTO events (id, capacity) VALUES (1, 2), (2, 100);
INSERT INTO users (email, name) VALUES ('a@x', 'a'), ('b@x', 'b');
INSERT INTO orders (user_id, event_id, total, meta) VALUES (1, 1, 9.5, '{"a": [1, {"b": null}]}');
INSERT INTO jobs (kind, payload, run_at, every) VALUES ('sms', '{"to": "x"}', '2024-01-31 00:00:00+00', '1 day'), ('mail', NULL, NULL, NULL);
INSERT INTO accounts (id, owner, email, balance, meta) VALUES (1, 'ann', 'ann@x', 100, '{"plan": "pro"}'), (2, 'bob', 'bob@x', 0, NULL);
INSERT INTO ledger VALUES (1, 1.5, 1, 9223372036854775807, 1.5e10, 'in');
INSERT INTO counters (id, n, tags) VALUES (1, 0, '{a,b}'), (2, 2147483647, NULL);
"#;

/// Statements of every kind the model runs (several taken from the SQL
/// tests and the examples).
const SEEDS: &[&str] = &[
    r#"SELECT e.capacity, count(o.id) AS sold FROM events e LEFT JOIN orders o ON o.event_id = e.id WHERE e.id = $1 GROUP BY e.capacity"#,
    r#"SELECT e.id, e.capacity, count(o.id) AS sold FROM events e LEFT JOIN orders o ON o.event_id = e.id GROUP BY e.id, e.capacity ORDER BY e.id"#,
    r#"WITH n(a, b, c) AS (SELECT id, state FROM jobs) SELECT * FROM n"#,
    r#"DELETE FROM runs USING jobs WHERE runs.job_id = jobs.id AND jobs.id = 99 RETURNING runs.job_id"#,
    r#"INSERT INTO events VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET nope1 = 1 RETURNING nope4"#,
    r#"WITH next AS (SELECT id FROM jobs WHERE state = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) UPDATE jobs SET state = 'running' FROM next WHERE jobs.id = next.id RETURNING next.id"#,
    r#"SELECT payload->>'to' AS to, jsonb_set(payload, '{tries}', '1') AS p FROM jobs WHERE id = 3"#,
    r#"SELECT kind, array_agg(id ORDER BY id) AS ids FROM jobs GROUP BY kind ORDER BY kind"#,
    r#"SELECT id, (run_at + interval '1 month')::text AS m, (run_at - INTERVAL '1 hour')::text AS h, (run_at + every)::text AS e FROM jobs ORDER BY id"#,
    r#"SELECT id, CASE WHEN attempts > 0 THEN 'retried' ELSE 'fresh' END AS k FROM jobs ORDER BY id"#,
    r#"SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = 'sms') AS e"#,
    r#"SELECT id FROM accounts WHERE id IN (SELECT id, owner FROM accounts)"#,
    r#"WITH ins AS (INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING RETURNING id) SELECT id FROM ins UNION ALL SELECT id FROM users WHERE email = $1"#,
    r#"SELECT id FROM events LIMIT 'a'"#,
    r#"SELECT u.name, count(o.id) AS n FROM users u LEFT OUTER JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY u.name"#,
    r#"SELECT count(s.nope) FROM events s"#,
    r#"SELECT account_id, count(*) AS c, sum(amount) AS total FROM ledger GROUP BY account_id ORDER BY account_id"#,
    r#"SELECT EXTRACT(EPOCH FROM interval '90 seconds') AS s"#,
    r#"SELECT CURRENT_DATE = now()::date AS same"#,
    r#"SELECT to_char($1::timestamptz, $2) AS s"#,
    r#"SELECT owner FROM accounts WHERE email LIKE $1"#,
    r#"ROLLBACK TO SAVEPOINT get_or_create"#,
    r#"SELECT pg_try_advisory_lock(1) AS got"#,
    r#"SELECT pg_advisory_xact_lock(42)"#,
    r#"SELECT sum(n) AS sn, sum(big) AS sb, sum(score) AS sf, avg(n) AS an, avg(amount) AS aa, min(amount), max(kind), count(DISTINCT kind) AS kinds, count(n) FROM ledger"#,
    r#"SELECT id FROM events GROUP BY nope5 HAVING nope6 > 1"#,
    r#"SELECT GREATEST(1, 5, 3) AS g, LEAST(4, 2) AS l, COALESCE(NULL, 7) AS c"#,
    r#"SELECT date_trunc('day', timestamptz '2024-05-06 07:08:09+00') AS d"#,
    r#"SELECT extract(day from '2024-03-01'::timestamptz - '2024-02-01'::timestamptz) AS d"#,
    r#"SELECT id FROM accounts WHERE meta->>'plan' = $1"#,
    r#"CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL, total numeric(10,2) NOT NULL)"#,
    r#"SELECT length(gen_random_uuid()::text) AS n"#,
    r#"WITH d AS (DELETE FROM users WHERE id = 99) SELECT 1 AS one"#,
    r#"SELECT balance FROM accounts WHERE id = 1 FOR UPDATE"#,
    r#"INSERT INTO runs (job_id) VALUES ($1)"#,
    r#"BEGIN"#,
    r#"UPDATE counters SET n = $1 WHERE id = 1"#,
    r#"SHOW timezone"#,
    r#"SELECT * orders"#,
    r#"SELECT *"#,
    r#"SELECT id, tags[1], array_length(tags, 1) FROM counters WHERE tags @> ARRAY['a'] ORDER BY id"#,
    r#"SELECT id, row_number() OVER (PARTITION BY kind ORDER BY id) AS r FROM jobs"#,
    r#"INSERT INTO ledger (account_id, amount, n, big, score, kind) SELECT id, balance, 1, 2, 0.5, owner FROM accounts RETURNING *"#,
    r#"UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance"#,
    r#"LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE"#,
    r#"SAVEPOINT get_or_create"#,
    r#"COMMIT"#,
    r#"SET LOCAL lock_timeout = '1s'"#,
];

/// Tokens at the edges: extreme and malformed values, and pieces of syntax.
const EDGES: &[&str] = &[
    "NULL",
    "-1",
    "0",
    "2147483648",
    "9223372036854775808",
    "-9223372036854775808",
    "1e308",
    "'NaN'",
    "'Infinity'",
    "''",
    "'{'",
    "'{1,2'",
    "'[1,'",
    "'2024-13-45'",
    "'1 year'",
    "9999999999999999999999999999.99",
    "$1",
    "$0",
    "$99999",
    "(",
    ")",
    ",",
    "*",
    "::",
    "int",
    "jsonb",
    "numeric(1000,2)",
    "ARRAY[",
    "]",
    "->>",
    "||",
    "/",
    "%",
    "^",
    "ORDER BY",
    "LIMIT",
    "OFFSET -1",
    "GROUP BY 1",
    "DISTINCT",
    "UNION",
    "RETURNING *",
    "FOR UPDATE",
    "1/0",
    "10^400",
    "(-2)^0.5",
    "ln(0)",
    "sqrt(-1)",
    "mod(1,0)",
    "repeat('x', 100000000)",
    "generate_series(1, 100000000)",
    "interval '1e9 days'",
    "count(*)",
    "sum(",
    "CASE WHEN",
    "END",
    "EXISTS (SELECT 1)",
    "IN (SELECT",
    "NOT",
    "BETWEEN",
    "LIKE '%'",
    "JOIN",
    "ON",
    "USING (id)",
    "OVER (",
    "row_number()",
    "ntile(0)",
    "FILTER (WHERE",
    "unnest(",
    "to_timestamp(1e20)",
    "to_char(",
    "chr(1114112)",
    "substr('abc', -2147483648, 2147483647)",
    "split_part('a', '', -1)",
    "'1e400'::float8",
    "32768::smallint",
    "'1.5'::int",
    "date '294277-01-01'",
    "pg_advisory_lock(",
    "SAVEPOINT a",
    "ROLLBACK TO a",
    "WITH x AS (",
];

/// A change to a statement's tokens.
#[derive(Clone, Debug)]
enum Change {
    Delete(usize),
    Repeat(usize),
    Edge(usize, usize),
    Borrow(usize, usize, usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (0..64usize).prop_map(Change::Delete),
        (0..64usize).prop_map(Change::Repeat),
        (0..64usize, 0..EDGES.len()).prop_map(|(at, edge)| Change::Edge(at, edge)),
        (0..64usize, 0..SEEDS.len(), 0..64usize)
            .prop_map(|(at, seed, from)| Change::Borrow(at, seed, from)),
    ]
}

/// Words, quoted strings and single punctuation marks.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || "_$.".contains(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c == '\'' {
            let mut quoted = String::from("'");
            for d in chars.by_ref() {
                quoted.push(d);
                if d == '\'' {
                    break;
                }
            }
            out.push(quoted);
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn mangle(seed: usize, changes: &[Change]) -> String {
    let mut words = tokens(SEEDS[seed]);
    for change in changes {
        let at = |i: usize, len: usize| i % (len + 1);
        match *change {
            Change::Delete(i) if !words.is_empty() => {
                let i = i % words.len();
                words.remove(i);
            }
            Change::Repeat(i) if !words.is_empty() => {
                let i = i % words.len();
                words.insert(i, words[i].clone());
            }
            Change::Edge(i, edge) => words.insert(at(i, words.len()), EDGES[edge].to_string()),
            Change::Borrow(i, other, from) => {
                let other = tokens(SEEDS[other]);
                if !other.is_empty() {
                    let word = other[from % other.len()].clone();
                    words.insert(at(i, words.len()), word);
                }
            }
            _ => {}
        }
    }
    words.join(" ")
}

fn database() -> Database {
    let mut db = Database::default();
    schema::load(SCHEMA, &mut db).expect("the schema loads");
    db
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mangled_statements_never_panic(
        steps in prop::collection::vec(
            (0..3u64, 0..SEEDS.len(), prop::collection::vec(change(), 0..4), any::<bool>()),
            1..12,
        ),
    ) {
        let mut db = database();
        for (i, (session, seed, changes, as_schema)) in steps.into_iter().enumerate() {
            let text = mangle(seed, &changes);
            if as_schema {
                let _ = schema::load(&text, &mut db.clone());
            } else if let Ok(plan) = parse(&text) {
                let _ = db.run(Some(session), &plan, i as f64 * 10.0);
                let _ = db.take_retry();
            }
        }
    }
}

#[test]
fn a_star_with_an_alias_or_no_table_is_postgresqls_syntax_error() {
    // PostgreSQL 15: `ERROR: syntax error at or near "orders"` and
    // `ERROR: SELECT * with no tables specified is not valid`, both 42601.
    let failed = |text: &str| match parse(text) {
        Err(error) => error,
        Ok(plan) => match database().run(Some(0), &plan, 0.0).landed {
            Landed::Failed(error) => error,
            other => panic!("{text}: {other:?}"),
        },
    };
    let alias = failed("SELECT * orders");
    assert_eq!(alias.code, "42601");
    assert!(
        alias
            .message
            .starts_with("syntax error at or near \"orders\""),
        "{}",
        alias.message
    );
    let qualified = failed("SELECT o.* x FROM orders o");
    assert!(
        qualified
            .message
            .starts_with("syntax error at or near \"x\""),
        "{}",
        qualified.message
    );
    let none = failed("SELECT *");
    assert_eq!(
        (none.code.as_ref(), none.message.as_str()),
        ("42601", "SELECT * with no tables specified is not valid")
    );
}

#[test]
fn a_number_beyond_the_models_numeric_says_so() {
    // PostgreSQL holds `1e308` as a numeric (and stores it in a float8
    // column); the model's numeric holds 38 digits, and says so.
    let plan = parse("INSERT INTO ledger (score) VALUES (1e308)").expect("parses");
    let Landed::Failed(error) = database().run(Some(0), &plan, 0.0).landed else {
        panic!("1e308 is beyond the model's numeric");
    };
    assert_eq!(error.code, "22003");
    assert!(
        error.message.contains("holds 38 digits"),
        "{}",
        error.message
    );
    let plan = parse("SELECT 'abc'::numeric AS n").expect("parses");
    let Landed::Failed(error) = database().run(Some(0), &plan, 0.0).landed else {
        panic!("abc is no number");
    };
    assert_eq!(error.code, "22P02");
}
