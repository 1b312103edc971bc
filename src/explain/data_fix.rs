//! The fix of a race found in a script's data, as code a person can
//! paste: the script's own SQL changed where the story points, and the
//! schema's expected uniqueness declared, each checked by running the
//! edited script the same way (`script_fix.rs` tries lock strategies for
//! code that calls `guard` or `lock`; code with no critical section needs
//! its own statements changed).
//!
//! - A duplicate row: the `INSERT` into that table gets `ON CONFLICT
//!   (columns) DO NOTHING`, and the schema a unique index on the columns
//!   it expects unique (`-- expect unique:`); else the index alone (the
//!   second insert then fails with 23505, and the code must catch it).
//!   In a transaction, `LOCK TABLE … IN SHARE ROW EXCLUSIVE MODE` after
//!   its `BEGIN` is tried first: a second transaction waits at its LOCK
//!   until the first commits, so its check sees the first's row and the
//!   code's own answer stays right (with `ON CONFLICT DO NOTHING` the
//!   second request would go on as if it had written its row).
//! - A lost update in SQL: the `SELECT` that read the row gets `FOR
//!   UPDATE` (it helps only inside a transaction: the run says whether);
//!   else the code's own check of what the UPDATE changes moves into its
//!   WHERE (`AND stock > 0`); else the UPDATE compares each column it sets
//!   with the value the code read (compare-and-set), and throws when it
//!   matched no row.
//! - A lost update of a cache key, a hash's field, a sorted set or a list
//!   (ioredis or node-redis): the lines
//!   from the read to the write go under a Redis lock, `SET lock:KEY
//!   token NX PX 5000` polled every 10 ms and released by
//!   check-and-delete (as `redis_lock.ts` does); through memjs, under a
//!   memcached lock, `add` with a 5 s expiry, deleted in a finally.
//! - A lost update through the globals (`db.update` of values computed
//!   from a read): compare-and-set, the fields as read joining its where,
//!   and a throw when it matched no row.
//! - A duplicate row through the globals (`db.insert`): the table's
//!   `expectUnique` key declared `unique` too, and each `db.insert` into
//!   it catching the `UniqueViolation`; else the key alone.

use crate::config::{Config, Schedule};
use crate::debugger::program::{edited_script, Program};
use crate::debugger::Recording;
use crate::explain::failures;
use crate::explain::fix::Fix;
use crate::explain::story::{Cause, Story, StoryKind};
use crate::script::sql::schema::expectations;
use crate::sim::trace::{OpKind, TraceEvent, TraceKey};
use crate::sim::{KeyNames, Metrics, What};

/// Most macrotasks a fixed run may take.
const MAX_STEPS: u64 = 200_000;

/// The fix of `story`, a race found in the data of `recording`'s script,
/// if an edit of its SQL removes the harm when run.
pub fn data_fix(recording: &Recording, story: &Story) -> Option<Fix> {
    let Program::Script(script) = &recording.program else {
        return None;
    };
    let table = recording.keys.describe(TraceKey::Data(story.key));
    let act = act_op(recording, story)?;
    let candidates = match (story.kind, act) {
        // The globals' `db.insert`: the table's expected key declared
        // unique, the insert letting the refusal go.
        (StoryKind::DuplicateRow, OpKind::DbInsert) => global_unique_fixes(&script.code, &table)
            .into_iter()
            .map(|mut candidate| {
                candidate.schema = script.schema.clone();
                candidate
            })
            .collect(),
        (StoryKind::DuplicateRow, OpKind::SqlInsert | OpKind::SqlCommit) => {
            let schema = script.schema.as_deref()?;
            let table = inserted_table(&script.code, schema, &table)?;
            // In a transaction, locking the table keeps the code's own
            // check deciding: `ON CONFLICT DO NOTHING` would let the
            // second request go on as if it had written its row.
            let lock = table_lock_fix(&script.code, schema, &table);
            lock.into_iter()
                .chain(begin_lock_fix(&script.code, schema, &table))
                .chain(unique_fixes(&script.code, schema, &table))
                .collect()
        }
        // A second row the unique constraint refused, and the request
        // failed with 23505: the insert does nothing instead.
        (StoryKind::FailedRequest, OpKind::SqlInsert) if story.cause == Cause::DbDefence => {
            quiet_inserts(&script.code, script.schema.as_deref(), &table)
                .into_iter()
                .collect()
        }
        // A get-or-create statement that waited for the other request's
        // row and, on its old snapshot, returned none: its insert updates
        // the row it conflicts with instead, and so returns it.
        (StoryKind::FailedRequest, _) if story.cause == Cause::ReadCommitted => {
            upsert_inserts(&script.code, script.schema.as_deref(), &table)
                .into_iter()
                .collect()
        }
        // A transaction sent through `pool.query`: the function that
        // BEGINs takes a client of its own for all its queries.
        (StoryKind::SharedTransaction, _) => {
            let begin = recording
                .events
                .iter()
                .position(|e| {
                    (e.request, e.step) == (story.check.request, story.check.step)
                        && e.what == What::Complete(OpKind::SqlBegin)
                })
                .and_then(|index| recording.position_of(index))
                .map(|(line, _)| line);
            begin
                .and_then(|line| client_fix(&script.code, script.schema.as_deref(), line))
                .into_iter()
                .collect()
        }
        // The globals' `db.update` writing values computed from a read.
        (StoryKind::LostUpdate, OpKind::DbUpdate) => {
            let lines = read_line(recording, story, GLOBAL_READS).zip(act_line(recording, story));
            lines
                .and_then(|(read, write)| compare_and_set_fix(&script.code, read, write))
                .map(|mut candidate| {
                    candidate.schema = script.schema.clone();
                    candidate
                })
                .into_iter()
                .collect()
        }
        // `FOR UPDATE` on the read, which holds inside a transaction; else
        // the code's own check moved into the UPDATE's WHERE, else the
        // UPDATE comparing what it sets with what was read.
        (StoryKind::LostUpdate, OpKind::SqlUpdate | OpKind::SqlInsert) => {
            let line = read_line(recording, story, SQL_READS);
            let schema = script.schema.as_deref();
            let lines = line.zip(act_line(recording, story));
            let in_sql = lines.into_iter().flat_map(|(read, write)| {
                let checked = sql_checked_update_fix(&script.code, &table, read, write);
                checked.into_iter().chain(sql_compare_and_set_fix(
                    &script.code,
                    &table,
                    read,
                    write,
                ))
            });
            lock_fixes(&script.code, schema, &table, line)
                .into_iter()
                .chain(in_sql.map(|mut candidate| {
                    candidate.schema = schema.map(str::to_string);
                    candidate
                }))
                .collect()
        }
        // An insert into what a count or a search matched: FOR UPDATE
        // locks no row that is not there yet; the table lock after BEGIN
        // keeps the second transaction's count waiting until the first
        // commits. Code in autocommit gets that transaction, around the
        // lines from the count to the insert.
        (StoryKind::WriteSkew, _) => {
            let schema = script.schema.as_deref()?;
            let in_transactions = literals(&script.code).iter().any(Literal::is_begin);
            let lines = read_line(recording, story, SQL_READS).zip(act_line(recording, story));
            let autocommit = lines
                .filter(|_| !in_transactions)
                .and_then(|(read, write)| {
                    sql_transaction_fix(&script.code, schema, &table, read, write)
                });
            table_lock_fix(&script.code, schema, &table)
                .into_iter()
                .chain(begin_lock_fix(&script.code, schema, &table))
                .chain(autocommit)
                .collect()
        }
        (StoryKind::LostUpdate, _) => {
            let lines = read_line(recording, story, CACHE_READS).zip(act_line(recording, story));
            lines
                .and_then(|(read, write)| {
                    cache_lock_fix(&script.code, script.schema.as_deref(), read, write)
                })
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    };
    let before = &recording.metrics;
    // Failures the script throws itself (a rate limiter's 429, once its
    // check sees the others' writes) are what a fix may add.
    let thrown_before = thrown_failures(&recording.events, &recording.keys, &script.code);
    candidates.into_iter().find_map(|candidate| {
        let program = edited_script(
            &candidate.code,
            candidate.schema.as_deref(),
            script.route.as_deref(),
        );
        let (metrics, same_schedule, thrown) = run_clean(&program, &recording.config)?;
        let other = |errors: u64, thrown: u64| errors.saturating_sub(thrown);
        if other(metrics.errors, thrown) > other(before.errors, thrown_before)
            && !candidate.may_fail
        {
            return None;
        }
        // A failure's fix has fewer failures.
        if story.kind == StoryKind::FailedRequest
            && other(metrics.errors, thrown) >= other(before.errors, thrown_before)
        {
            return None;
        }
        let mut outcome = outcome_text(story.kind, before, &metrics);
        if thrown > thrown_before {
            outcome += &format!(
                "; {} request(s) now fail with the script's own throw",
                thrown - thrown_before
            );
        }
        Some(Fix {
            key: "code".to_string(),
            text: format!(
                "{}: {outcome}; paste:\n{}",
                candidate.meaning,
                candidate
                    .paste
                    .lines()
                    .map(|line| format!("    {line}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            value: candidate.paste,
            meaning: candidate.meaning,
            fragment: program.fragment(&recording.config),
            same_schedule,
            outcome,
            metrics,
        })
    })
}

/// The operation of the story's act, the write that did the harm (for a
/// statement that waited on a row lock, the one its request issued).
fn act_op(recording: &Recording, story: &Story) -> Option<OpKind> {
    let index = act_index(recording, story)?;
    recording.events[..=index]
        .iter()
        .rev()
        .filter(|e| e.request == story.act.request)
        .find_map(|e| match e.what {
            What::Complete(op) | What::Issue(op) => Some(op),
            _ => None,
        })
}

/// The trace index of the story's act: its request's completion (or row
/// lock grant) on the story's key at the act's step.
fn act_index(recording: &Recording, story: &Story) -> Option<usize> {
    recording.events.iter().position(|e| {
        e.step == story.act.step
            && e.request == story.act.request
            && e.key == TraceKey::Data(story.key)
            && matches!(e.what, What::Complete(_) | What::RowLockGrant)
    })
}

const SQL_READS: &[OpKind] = &[OpKind::SqlSelect, OpKind::SqlSelectForUpdate];
const GLOBAL_READS: &[OpKind] = &[OpKind::DbFindOne, OpKind::DbFind];
const CACHE_READS: &[OpKind] = &[
    OpKind::CacheGet,
    OpKind::CacheGetStale,
    OpKind::CacheHashGet,
    OpKind::CacheSetRead,
    OpKind::CacheZsetRead,
    OpKind::CacheListRead,
];

/// The line of the read (one of `reads`) the later request made before
/// its write (the story's check).
fn read_line(recording: &Recording, story: &Story, reads: &[OpKind]) -> Option<u32> {
    let index = recording.events.iter().rposition(|e| {
        e.request == story.check.request
            && e.step == story.check.step
            && matches!(e.what, What::Complete(op) if reads.contains(&op))
    })?;
    recording.position_of(index).map(|(line, _)| line)
}

/// The line of the story's act, the write.
fn act_line(recording: &Recording, story: &Story) -> Option<u32> {
    let index = act_index(recording, story)?;
    recording.position_of(index).map(|(line, _)| line)
}

/// An edited script to try.
struct Candidate {
    code: String,
    schema: Option<String>,
    /// The code to paste: the edited statements, then the schema's line.
    paste: String,
    meaning: String,
    /// Whether the fix makes a request fail where the harm was (the
    /// constraint alone refuses the second row).
    may_fail: bool,
}

/// `ON CONFLICT … DO NOTHING` with a unique index, then the index alone.
fn unique_fixes(code: &str, schema: &str, table: &str) -> Vec<Candidate> {
    let Some(columns) = expectations(schema)
        .unwrap_or_default()
        .into_iter()
        .find(|(name, ..)| name == table)
        .map(|(_, columns, _)| columns.join(", "))
    else {
        return Vec::new();
    };
    let index = format!(
        "CREATE UNIQUE INDEX {table}_{}_key ON {table} ({columns});",
        columns.replace(", ", "_")
    );
    let indexed = format!("{}\n{index}\n", schema.trim_end());
    let mut fixes = Vec::new();
    let inserts: Vec<Literal> = literals(code)
        .into_iter()
        .filter(|l| l.is_insert_into(table) && !l.upper().contains("ON CONFLICT"))
        .collect();
    if !inserts.is_empty() {
        let clause = format!("ON CONFLICT ({columns}) DO NOTHING");
        let edited = edit(code, &inserts, |literal| literal.with_on_conflict(&clause));
        let lines: Vec<String> = inserts.iter().map(|l| l.line.to_string()).collect();
        fixes.push(Candidate {
            paste: format!("{}\n{index}", edited.pasted.join("\n")),
            code: edited.code,
            schema: Some(indexed.clone()),
            meaning: format!(
                "the INSERT on line {} does nothing when the row exists, and the schema declares \
                 the unique index",
                lines.join(", ")
            ),
            may_fail: false,
        });
    }
    fixes.push(Candidate {
        code: code.to_string(),
        schema: Some(indexed),
        paste: index,
        meaning: format!(
            "a unique index on {table} ({columns}): PostgreSQL refuses the second row with \
             23505, for the code to catch"
        ),
        may_fail: true,
    });
    fixes
}

/// What `db.insert` gets to let the database's refusal of a second row go.
const LET_DUPLICATE_GO: &str =
    ".catch((error) => { if (error.name !== \"UniqueViolation\") throw error; })";

/// For a script on the globals (`db.table`, `db.insert`): the table's
/// `expectUnique: [...]` also declared `unique` (the simulated database
/// then refuses a second row with a `UniqueViolation`), with each
/// `db.insert` into the table catching that refusal; then the key alone,
/// for the code to catch. None if the declaration cannot be found as
/// `db.table("TABLE", { … expectUnique: [ … ] … })`, or declares `unique`
/// already.
fn global_unique_fixes(code: &str, table: &str) -> Vec<Candidate> {
    let strings = literals(code);
    let skipped = strings_and_comments(code);
    // The literal `"TABLE"` right after `CALL(`, and that call's `(`.
    let calls = |call: &str| -> Vec<usize> {
        strings
            .iter()
            .filter(|literal| literal.text == table && literal.quote != '`')
            .filter_map(|literal| {
                let before = code[..literal.start - 1].trim_end();
                let open = before.strip_suffix('(')?;
                open.ends_with(call).then_some(before.len() - 1)
            })
            .collect()
    };
    let Some(close) = calls("db.table")
        .first()
        .and_then(|&open| closing(code, open, &skipped).map(|close| (open, close)))
    else {
        return Vec::new();
    };
    let declaration = &code[close.0..close.1];
    let Some(at) = declaration.find("expectUnique").map(|at| close.0 + at) else {
        return Vec::new();
    };
    let unique_declared = declaration.match_indices("unique").any(|(i, _)| {
        !declaration[..i].ends_with("expect") && declaration[i + 6..].trim_start().starts_with(':')
    });
    let after = code[at + "expectUnique".len()..].trim_start();
    let Some(list) = after.strip_prefix(':').map(str::trim_start) else {
        return Vec::new();
    };
    let open = code.len() - list.len();
    if unique_declared || !list.starts_with('[') {
        return Vec::new();
    }
    let Some(end) = closing(code, open, &skipped) else {
        return Vec::new();
    };
    let columns = &code[open..=end];
    let key = (at, format!("unique: {columns}, "));
    let key_line = line_of(code, at);
    let declared =
        format!("the table declares its key unique (`unique: {columns}` on line {key_line})");
    let inserts: Vec<(usize, String)> = calls("db.insert")
        .into_iter()
        .filter_map(|open| closing(code, open, &skipped))
        .map(|close| (close + 1, LET_DUPLICATE_GO.to_string()))
        .collect();
    let mut fixes = Vec::new();
    if !inserts.is_empty() {
        let lines: Vec<String> = inserts
            .iter()
            .map(|(at, _)| line_of(code, *at).to_string())
            .collect();
        let edits: Vec<(usize, String)> = std::iter::once(key.clone())
            .chain(inserts.iter().cloned())
            .collect();
        fixes.push(candidate_of(
            code,
            &edits,
            format!(
                "{declared}, so the database refuses a second row, and the db.insert on line {} \
                 lets that refusal go",
                lines.join(", ")
            ),
            false,
        ));
    }
    fixes.push(candidate_of(
        code,
        &[key],
        format!("{declared}: the database refuses the second row with a UniqueViolation, for the code to catch"),
        true,
    ));
    fixes
}

/// The statement `await db.update(TABLE, { WHERE }, { FIELD: f(READ.FIELD), … });`
/// on line `write` writes only if each field it computes from the row
/// read on line `read` (`READ.FIELD`) still holds what was read: `FIELD:
/// READ.FIELD` joins its where, and the request throws when the update
/// matched no row (optimistic locking: another request changed the row
/// since the read). None if the update is not such a statement.
fn compare_and_set_fix(code: &str, read: u32, write: u32) -> Option<Candidate> {
    let skipped = strings_and_comments(code);
    // The statement that spans line `write` (a call over several lines is
    // told at one of them).
    let (statement, open, close) = code
        .match_indices("await db.update(")
        .map(|(at, _)| at)
        .filter(|&at| {
            let line_start = code[..at].rfind('\n').map_or(0, |nl| nl + 1);
            code[line_start..at].trim().is_empty()
                && !skipped.iter().any(|&(start, end)| at >= start && at < end)
        })
        .find_map(|at| {
            let open = at + "await db.update".len();
            let close = closing(code, open, &skipped)?;
            (line_of(code, at) <= write && write <= line_of(code, close))
                .then_some((at, open, close))
        })?;
    if !code[close + 1..].starts_with(';') {
        return None;
    }
    let indent = statement - code[..statement].rfind('\n').map_or(0, |nl| nl + 1);
    let first_line = line_of(code, statement);
    let arguments = top_level(code, open + 1, close, &skipped);
    let [_, filter, set] = arguments.as_slice() else {
        return None;
    };
    let braces = |(from, to): (usize, usize)| {
        let start = from + code[from..to].find('{')?;
        let end = closing(code, start, &skipped)?;
        // Nothing but spaces and comments after the object.
        let blank = code[end + 1..to].char_indices().all(|(i, c)| {
            let at = end + 1 + i;
            c.is_whitespace() || skipped.iter().any(|&(s, e)| at >= s && at < e)
        });
        blank.then_some((start, end))
    };
    let (filter_open, filter_close) = braces(*filter)?;
    let (set_open, set_close) = braces(*set)?;
    // The fields the update computes from the row as read.
    let read_fields: Vec<String> = top_level(code, set_open + 1, set_close, &skipped)
        .into_iter()
        .filter_map(|(from, to)| {
            let (name, value) = code[from..to].split_once(':')?;
            let name = name.trim().trim_matches(['"', '\'']);
            let reads = value
                .match_indices(&format!(".{name}"))
                .find_map(|(at, _)| {
                    let before = &value[..at];
                    let object_start = before
                        .rfind(|c: char| {
                            !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
                        })
                        .map_or(0, |at| at + 1);
                    let object = &before[object_start..];
                    let after = value[at + name.len() + 1..].chars().next();
                    let whole =
                        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                    (!object.is_empty() && whole).then(|| format!("{object}.{name}"))
                })?;
            Some(format!("{name}: {reads}"))
        })
        .collect();
    if read_fields.is_empty() {
        return None;
    }
    let filter_body = code[filter_open + 1..filter_close].trim_end();
    let joined = match filter_body.trim().is_empty() {
        true => format!(" {} ", read_fields.join(", ")),
        false => format!(
            "{}, {} ",
            filter_body.trim_end_matches(','),
            read_fields.join(", ")
        ),
    };
    let matched_none = format!(
        ") === 0) throw new Error(\"the row changed since line {read} read it: try again\");"
    );
    let mut edited = String::with_capacity(code.len() + 128);
    edited.push_str(&code[..statement]);
    edited.push_str("if ((");
    edited.push_str(&code[statement..filter_open + 1]);
    edited.push_str(&joined);
    edited.push_str(&code[filter_close..close + 1]);
    edited.push_str(&matched_none);
    edited.push_str(&code[close + 2..]);
    let lines = code[statement..=close + 1].matches('\n').count() + 1;
    let paste = edited
        .lines()
        .skip(first_line as usize - 1)
        .take(lines)
        .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n");
    Some(Candidate {
        paste,
        code: edited,
        schema: None,
        meaning: format!(
            "the db.update on line {first_line} writes only if the row still holds what line {read} \
             read ({} in its where), and the request fails if another request changed it first \
             (optimistic locking: retry the request, or make the check and the write one \
             conditional update, with `$inc`)",
            read_fields
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        may_fail: true,
    })
}

/// An `await CLIENT.query("UPDATE TABLE SET … WHERE …", [PARAMS]);`
/// statement of its own, as the fixes of an update in autocommit edit it.
struct UpdateCall {
    update: Literal,
    /// Byte offsets in the code: the statement's `await`, the start of its
    /// line, and the call's parentheses.
    statement: usize,
    line_start: usize,
    open: usize,
    close: usize,
    /// Offsets in the SQL: its `SET`, `WHERE` and `RETURNING`.
    set_at: usize,
    where_at: Option<usize>,
    returning_at: Option<usize>,
    skipped: Vec<(usize, usize)>,
}

impl UpdateCall {
    /// The UPDATE of `table` on line `write`, if it is such a statement
    /// (and its WHERE has no `OR`, which a condition joined with `AND`
    /// would bind wrongly).
    fn on_line(code: &str, table: &str, write: u32) -> Option<UpdateCall> {
        let skipped = strings_and_comments(code);
        let update = literals(code)
            .into_iter()
            .find(|l| l.line == write && l.is_update_of(table) && !l.text.contains("${"))?;
        let upper = update.text.to_ascii_uppercase();
        let set_at = keyword(&upper, "SET", 0)?;
        let where_at = keyword(&upper, "WHERE", set_at);
        let returning_at = keyword(&upper, "RETURNING", set_at);
        if where_at.is_some_and(|at| keyword(&upper, "OR", at).is_some()) {
            return None;
        }
        let open = code[..update.start - 1].trim_end().len().checked_sub(1)?;
        if code.as_bytes()[open] != b'(' {
            return None;
        }
        let callee = code[..open].trim_end();
        let line_start = callee.rfind('\n').map_or(0, |nl| nl + 1);
        let head = callee[line_start..].trim_start();
        let statement = callee.len() - head.len();
        let client = head.strip_prefix("await ")?.strip_suffix(".query")?;
        if !client
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
        {
            return None;
        }
        let close = closing(code, open, &skipped)?;
        if !code[close + 1..].starts_with(';') {
            return None;
        }
        Some(UpdateCall {
            update,
            statement,
            line_start,
            open,
            close,
            set_at,
            where_at,
            returning_at,
            skipped,
        })
    }

    /// The columns its SET writes, as the table names them.
    fn columns(&self) -> Vec<String> {
        let sql = &self.update.text;
        let set_end = self.where_at.or(self.returning_at).unwrap_or(sql.len());
        top_level(sql, self.set_at + 3, set_end, &[])
            .into_iter()
            .filter_map(|(start, end)| {
                let column = sql[start..end].split_once('=')?.0.trim().trim_matches('"');
                Some(column.rsplit('.').next().unwrap_or(column).to_string())
            })
            .collect()
    }

    /// The edit that joins `conditions` (`["stock > 0"]`) to its WHERE.
    fn conditions(&self, conditions: &[String]) -> (usize, String) {
        let sql = &self.update.text;
        let at = match self.returning_at {
            Some(at) => sql[..at].trim_end().len(),
            None => sql.trim_end().trim_end_matches(';').trim_end().len(),
        };
        let joined = conditions
            .iter()
            .enumerate()
            .map(|(i, condition)| match (i, self.where_at) {
                (0, None) => format!(" WHERE {condition}"),
                _ => format!(" AND {condition}"),
            })
            .collect();
        (self.update.start + at, joined)
    }

    /// The first `$N` its SQL does not use yet.
    fn next_param(&self) -> usize {
        let sql = &self.update.text;
        (1..=99)
            .rev()
            .find(|n| sql.contains(&format!("${n}")))
            .unwrap_or(0)
            + 1
    }

    /// The edit that appends `values` to its params (an array added if it
    /// has none).
    fn params(&self, code: &str, values: &str) -> Option<(usize, String)> {
        let arguments = top_level(code, self.open + 1, self.close, &self.skipped);
        Some(match arguments.get(1) {
            Some(&(start, end)) => {
                let bracket = start + code[start..end].find('[')?;
                let shut = closing(code, bracket, &self.skipped)?;
                let empty = code[bracket + 1..shut].trim().is_empty();
                let at = code[..shut].trim_end().len();
                let text = match empty {
                    true => values.to_string(),
                    false => format!(", {values}"),
                };
                (at, text)
            }
            None => {
                let at = code[..self.close].trim_end().len();
                let comma = if code[..at].ends_with(',') { " " } else { ", " };
                (at, format!("{comma}[{values}]"))
            }
        })
    }

    /// `code` with `edits`, and the statement become `if ((await
    /// …).rowCount === 0) ON_NONE`; its lines are what to paste.
    fn candidate(
        &self,
        code: &str,
        mut edits: Vec<(usize, String)>,
        on_none: &str,
        meaning: String,
        may_fail: bool,
    ) -> Candidate {
        edits.push((self.statement, "if ((".to_string()));
        edits.push((self.close + 1, format!(").rowCount === 0) {on_none}")));
        let mut candidate = candidate_of(code, &edits, meaning, may_fail);
        let indent = self.statement - self.line_start;
        let first = line_of(code, self.statement) as usize;
        let lines = code[self.statement..=self.close].matches('\n').count() + 1;
        candidate.paste = candidate
            .code
            .lines()
            .skip(first - 1)
            .take(lines)
            .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
            .collect::<Vec<_>>()
            .join("\n");
        candidate
    }
}

/// The byte offset where line `line` (1-based) starts.
fn line_start(code: &str, line: u32) -> usize {
    match line {
        0 | 1 => 0,
        _ => code
            .match_indices('\n')
            .nth(line as usize - 2)
            .map_or(code.len(), |(at, _)| at + 1),
    }
}

/// The statement `await CLIENT.query("UPDATE TABLE SET COLUMN = … WHERE
/// …", [PARAMS]);` on line `write` writes only if each column it sets
/// still holds what line `read` read (`AND COLUMN = $N`, the value as the
/// code read it, `rows[0].COLUMN`, the first use of it from line `read`
/// on), and the request throws when the update matched no row (optimistic
/// locking): the lost update or the stale check of SQL in autocommit,
/// where `FOR UPDATE` holds nothing. None if the update is not such a
/// statement or the code uses no column it sets.
fn sql_compare_and_set_fix(code: &str, table: &str, read: u32, write: u32) -> Option<Candidate> {
    let call = UpdateCall::on_line(code, table, write)?;
    // The code's first use of each column it sets, from the read on.
    let from = line_start(code, read);
    let columns: Vec<(String, String)> = call
        .columns()
        .into_iter()
        .filter_map(|column| {
            let value = read_value(code, from, call.close, &column, &call.skipped)?;
            Some((column, value))
        })
        .collect();
    if columns.is_empty() {
        return None;
    }
    let conditions: Vec<String> = (call.next_param()..)
        .zip(&columns)
        .map(|(n, (column, _))| format!("{column} = ${n}"))
        .collect();
    let values: Vec<&str> = columns.iter().map(|(_, value)| value.as_str()).collect();
    let edits = vec![
        call.conditions(&conditions),
        call.params(code, &values.join(", "))?,
    ];
    let meaning = format!(
        "the UPDATE on line {write} writes only if the row still holds what line {read} read ({} \
         in its WHERE), and the request fails if another request changed it first (optimistic \
         locking: retry the request, or make the check part of the UPDATE's WHERE and read its \
         rowCount)",
        columns
            .iter()
            .map(|(column, value)| format!("`{column} = {value}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let thrown =
        format!("throw new Error(\"the row changed since line {read} read it: try again\")");
    Some(call.candidate(code, edits, &thrown, meaning, true))
}

/// The code's own check of a column the UPDATE on line `write` changes,
/// between line `read` and the UPDATE (`if (rows[0].stock <= 0) return
/// { status: 409 };`: a comparison with a number, then a `return` or a
/// `throw`), moved into the UPDATE's WHERE as what lets it through (`AND
/// stock > 0`): the check and the change become one statement, and a
/// request whose UPDATE then matches no row answers as the check does.
fn sql_checked_update_fix(code: &str, table: &str, read: u32, write: u32) -> Option<Candidate> {
    let call = UpdateCall::on_line(code, table, write)?;
    let columns = call.columns();
    let from = line_start(code, read);
    let (check_line, allowed, body) = code[from..call.statement]
        .match_indices("if (")
        .map(|(at, _)| from + at)
        .filter(|at| !call.skipped.iter().any(|&(s, e)| *at >= s && *at < e))
        .find_map(|at| {
            let open = at + "if ".len();
            let close = closing(code, open, &call.skipped)?;
            let allowed = passing_condition(&code[open + 1..close], &columns)?;
            let rest = code[close + 1..].split('\n').next()?.trim();
            let body = rest
                .strip_prefix('{')
                .and_then(|inner| inner.strip_suffix('}'))
                .unwrap_or(rest)
                .trim();
            let exits = body.starts_with("return") || body.starts_with("throw ");
            let one = body.ends_with(';') && !body[..body.len() - 1].contains(';');
            // The statement's own `;` ends the body.
            let body = body.trim_end_matches(';').trim_end().to_string();
            (exits && one).then(|| (line_of(code, at), allowed, body))
        })?;
    let edits = vec![call.conditions(std::slice::from_ref(&allowed))];
    let meaning = format!(
        "the check on line {check_line} moves into the UPDATE on line {write} (`{allowed}` in \
         its WHERE): the check and the change are one statement, and a request whose UPDATE \
         finds the row no longer passing answers as the check does",
    );
    Some(call.candidate(code, edits, &body, meaning, false))
}

/// A check `VALUE.column OP number` of one of `columns` (the value as the
/// code read it), turned into the condition that passes it:
/// `rows[0].stock <= 0` gives `stock > 0`.
fn passing_condition(condition: &str, columns: &[String]) -> Option<String> {
    const NEGATED: [(&str, &str); 8] = [
        ("===", "<>"),
        ("!==", "="),
        ("<=", ">"),
        (">=", "<"),
        ("==", "<>"),
        ("!=", "="),
        ("<", ">="),
        (">", "<="),
    ];
    let (at, op, negated) = NEGATED
        .iter()
        .find_map(|&(op, negated)| condition.find(op).map(|at| (at, op, negated)))?;
    let (left, right) = (condition[..at].trim(), condition[at + op.len()..].trim());
    let number = right.parse::<f64>().is_ok_and(f64::is_finite);
    let column = columns
        .iter()
        .find(|column| left.ends_with(&format!(".{column}")))?;
    let object = &left[..left.len() - column.len() - 1];
    let value_like = object.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && object
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '[' | ']'));
    (number && value_like).then(|| format!("{column} {negated} {right}"))
}

/// Where `word` stands as a word of `upper` from `from` on.
fn keyword(upper: &str, word: &str, from: usize) -> Option<usize> {
    let bytes = upper.as_bytes();
    upper[from..]
        .match_indices(word)
        .map(|(at, _)| from + at)
        .find(|&at| {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + word.len());
            !before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !after.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        })
}

/// The first expression in `code[from..to]` (outside strings and comments)
/// that reads `.column` of a value, as `rows[0].column` or `row.column`.
fn read_value(
    code: &str,
    from: usize,
    to: usize,
    column: &str,
    skipped: &[(usize, usize)],
) -> Option<String> {
    let name = format!(".{column}");
    code[from..to].match_indices(&name).find_map(|(at, _)| {
        let at = from + at;
        if skipped.iter().any(|&(start, end)| at >= start && at < end) {
            return None;
        }
        let after = code[at + name.len()..].chars().next();
        if after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            return None;
        }
        // Back over names, dots and whole `[…]` indexes: `rows[0]`, not
        // the array bracket before it.
        let bytes = code.as_bytes();
        let (mut start, mut depth) = (at, 0usize);
        while start > 0 {
            match bytes[start - 1] {
                b']' => depth += 1,
                b'[' if depth > 0 => depth -= 1,
                b'[' => break,
                b if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.') => {}
                _ if depth > 0 => {}
                _ => break,
            }
            start -= 1;
        }
        let object = &code[start..at];
        let named = object.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$');
        (named && depth == 0).then(|| format!("{object}{name}"))
    })
}

/// The top-level comma-separated pieces of `code[from..to]` (inside a
/// call's parentheses or an object's braces), as byte ranges.
fn top_level(
    code: &str,
    from: usize,
    to: usize,
    skipped: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut start = from;
    let mut i = from;
    let bytes = code.as_bytes();
    while i < to {
        if let Some(&(_, end)) = skipped.iter().find(|&&(s, e)| i >= s && i < e) {
            i = end;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                pieces.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !code[start..to].trim().is_empty() {
        pieces.push((start, to));
    }
    pieces
}

/// `code` with `edits` (text inserted at byte offsets), and the lines
/// they changed to paste.
fn candidate_of(
    code: &str,
    edits: &[(usize, String)],
    meaning: String,
    may_fail: bool,
) -> Candidate {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|(at, _)| *at);
    let mut edited = code.to_string();
    for (at, text) in edits.iter().rev() {
        edited.insert_str(*at, text);
    }
    let mut lines: Vec<usize> = edits
        .iter()
        .map(|(at, _)| line_of(code, *at) as usize - 1)
        .collect();
    lines.dedup();
    let paste = lines
        .iter()
        .filter_map(|&line| edited.lines().nth(line))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n");
    Candidate {
        code: edited,
        schema: None,
        paste,
        meaning,
        may_fail,
    }
}

/// The 1-based line of byte `offset` of `code`.
fn line_of(code: &str, offset: usize) -> u32 {
    code[..offset].matches('\n').count() as u32 + 1
}

/// The offset of the bracket that closes the one at `open` (`(`, `[` or
/// `{`), brackets in `skipped` ranges (strings, comments) aside.
fn closing(code: &str, open: usize, skipped: &[(usize, usize)]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    let bytes = code.as_bytes();
    while i < bytes.len() {
        if let Some(&(_, end)) = skipped.iter().find(|&&(start, end)| i >= start && i < end) {
            i = end;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The INSERTs into `table` do nothing when the row exists (`ON CONFLICT
/// DO NOTHING`, whichever unique constraint the row breaks).
fn quiet_inserts(code: &str, schema: Option<&str>, table: &str) -> Option<Candidate> {
    let inserts: Vec<Literal> = literals(code)
        .into_iter()
        .filter(|l| l.is_insert_into(table) && !l.upper().contains("ON CONFLICT"))
        .collect();
    if inserts.is_empty() {
        return None;
    }
    let edited = edit(code, &inserts, |literal| {
        literal.with_on_conflict("ON CONFLICT DO NOTHING")
    });
    let lines: Vec<String> = inserts.iter().map(|l| l.line.to_string()).collect();
    Some(Candidate {
        paste: edited.pasted.join("\n"),
        code: edited.code,
        schema: schema.map(str::to_string),
        meaning: format!(
            "the INSERT on line {} does nothing when the row exists",
            lines.join(", ")
        ),
        may_fail: false,
    })
}

/// The statements that insert into `table` `ON CONFLICT (c, …) DO
/// NOTHING` update the row they conflict with instead (`DO UPDATE SET c =
/// EXCLUDED.c`, a write of the value it has): after waiting for another
/// transaction's row, such a statement returns that row, where `DO
/// NOTHING` returns none.
fn upsert_inserts(code: &str, schema: Option<&str>, table: &str) -> Option<Candidate> {
    let into = format!("INSERT INTO {} ", table.to_uppercase());
    let upserted = |literal: &Literal| -> Option<String> {
        let upper = literal.text.to_ascii_uppercase();
        if !literal.upper().contains(&into) {
            return None;
        }
        let target = upper.find("ON CONFLICT (")? + "ON CONFLICT (".len();
        let close = target + upper[target..].find(')')?;
        let column = literal.text[target..close].split(',').next()?.trim();
        let rest = &upper[close + 1..];
        let nothing = close + 1 + rest.find("DO NOTHING")?;
        rest[..nothing - close - 1].trim().is_empty().then(|| {
            format!(
                "{}DO UPDATE SET {column} = EXCLUDED.{column}{}",
                &literal.text[..nothing],
                &literal.text[nothing + "DO NOTHING".len()..]
            )
        })
    };
    let upserts: Vec<Literal> = literals(code)
        .into_iter()
        .filter(|l| upserted(l).is_some())
        .collect();
    if upserts.is_empty() {
        return None;
    }
    let edited = edit(code, &upserts, |literal| {
        upserted(literal).unwrap_or_else(|| literal.text.clone())
    });
    let lines: Vec<String> = upserts.iter().map(|l| l.line.to_string()).collect();
    Some(Candidate {
        paste: edited.pasted.join("\n"),
        code: edited.code,
        schema: schema.map(str::to_string),
        meaning: format!(
            "the INSERT on line {} updates the row it conflicts with (DO UPDATE), so after the \
             wait the statement returns that row",
            lines.join(", ")
        ),
        may_fail: false,
    })
}

/// The table the duplicate row went into: `table` if the code inserts
/// into it, else (a `COMMIT`'s key is its transaction) the first table
/// the schema expects unique that the code inserts into.
fn inserted_table(code: &str, schema: &str, table: &str) -> Option<String> {
    let inserts = literals(code);
    let inserted = |t: &str| inserts.iter().any(|l| l.is_insert_into(t));
    if inserted(table) {
        return Some(table.to_string());
    }
    expectations(schema)
        .unwrap_or_default()
        .into_iter()
        .map(|(name, ..)| name)
        .find(|name| inserted(name))
}

/// `LOCK TABLE table IN SHARE ROW EXCLUSIVE MODE` after each `BEGIN` sent
/// on a line of its own (`await client.query("BEGIN");`), in the same
/// call on the next line. The mode excludes itself and every writer and
/// lets plain reads through.
fn table_lock_fix(code: &str, schema: &str, table: &str) -> Option<Candidate> {
    let literals = literals(code);
    if literals.iter().any(|l| l.upper().starts_with("LOCK ")) {
        return None;
    }
    let statement = format!("LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE");
    let begins: Vec<Literal> = literals.into_iter().filter(Literal::is_begin).collect();
    let (edited, pasted, lines) = insert_after(code, |number, line| {
        let begin = begins.iter().find(|l| l.line == number)?;
        let quoted = format!("{q}{}{q}", begin.text, q = begin.quote);
        let alone = line.trim_start().starts_with("await ") && line.trim_end().ends_with(';');
        if !alone || line.matches(&quoted).count() != 1 {
            return None;
        }
        Some(line.replace(&quoted, &format!("{q}{statement}{q}", q = begin.quote)))
    })?;
    Some(Candidate {
        code: edited,
        schema: Some(schema.to_string()),
        paste: pasted.join("\n"),
        meaning: format!(
            "{statement} after the BEGIN on line {}: a second transaction waits at its LOCK \
             until the first commits, so its check sees the first's row",
            lines.join(", ")
        ),
        may_fail: false,
    })
}

/// `code` with a line inserted after each line for which `after` (given
/// its number and text) gives one; with the inserted lines, trimmed, and
/// the numbers of the lines they follow. `None` if none was.
fn insert_after(
    code: &str,
    after: impl Fn(u32, &str) -> Option<String>,
) -> Option<(String, Vec<String>, Vec<String>)> {
    let mut edited = String::with_capacity(code.len() + 64);
    let (mut pasted, mut lines) = (Vec::new(), Vec::new());
    for (number, line) in (1..).zip(code.split_inclusive('\n')) {
        edited.push_str(line);
        let Some(inserted) = after(number, line) else {
            continue;
        };
        // On the line after, ending as the line it follows ended.
        let inserted = inserted.trim_end_matches('\n');
        match line.ends_with('\n') {
            true => edited.push_str(&format!("{inserted}\n")),
            false => edited.push_str(&format!("\n{inserted}")),
        }
        pasted.push(inserted.trim().to_string());
        lines.push(number.to_string());
    }
    (!pasted.is_empty()).then_some((edited, pasted, lines))
}

/// postgres.js's transactions: `LOCK TABLE table IN SHARE ROW EXCLUSIVE
/// MODE` first in each `sql.begin` callback, on the callback's own `sql`
/// (a line that opens one: `… .begin(async (tx) => {`, a mode before the
/// callback or not), as `table_lock_fix` puts it after a `BEGIN`.
fn begin_lock_fix(code: &str, schema: &str, table: &str) -> Option<Candidate> {
    if !crate::script::source::names_module(code, "postgres") || code.contains("LOCK TABLE") {
        return None;
    }
    let statement = format!("LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE");
    let (edited, pasted, lines) = insert_after(code, |_, line| {
        let sql = begin_callback(line)?;
        let indent = &line[..line.len() - line.trim_start().len()];
        Some(format!("{indent}  await {sql}`{statement}`;"))
    })?;
    Some(Candidate {
        code: edited,
        schema: Some(schema.to_string()),
        paste: pasted.join("\n"),
        meaning: format!(
            "{statement} first in the transaction that begins on line {}: a second transaction \
             waits at its LOCK until the first commits, so its check sees what the first wrote",
            lines.join(", ")
        ),
        may_fail: false,
    })
}

/// The parameter of the callback a line opens with `.begin(` (postgres.js's
/// `sql.begin([mode,] async (sql) => {`), if it ends the line.
fn begin_callback(line: &str) -> Option<&str> {
    let at = line.find(".begin(")?;
    let opened = line[at + ".begin(".len()..].trim_end().strip_suffix('{')?;
    let head = opened.trim_end().strip_suffix("=>")?;
    let (_, params) = head.rsplit_once("async")?;
    let name = params
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    (!name.is_empty() && name.chars().all(is_ident)).then_some(name)
}

/// `FOR UPDATE` on the `SELECT` of `table` nearest before `line`.
fn lock_fixes(code: &str, schema: Option<&str>, table: &str, line: Option<u32>) -> Vec<Candidate> {
    let selects: Vec<Literal> = literals(code)
        .into_iter()
        .filter(|l| l.is_select_from(table) && !l.upper().contains(" FOR "))
        .collect();
    let chosen = line
        .and_then(|line| selects.iter().rev().find(|l| l.line <= line))
        .or(selects.first());
    let Some(chosen) = chosen else {
        return Vec::new();
    };
    let edited = edit(code, std::slice::from_ref(chosen), Literal::with_for_update);
    vec![Candidate {
        paste: edited.pasted.join("\n"),
        code: edited.code,
        schema: schema.map(str::to_string),
        meaning: format!(
            "the SELECT on line {} locks the row it reads until the transaction ends, so the \
             other request's read waits for this one's write",
            chosen.line
        ),
        may_fail: false,
    }]
}

/// The check-and-delete release, as `redis_lock.ts` and Redis's docs
/// write it (the simulation recognises it).
const RELEASE: &str =
    "'if redis.call(\"get\", KEYS[1]) == ARGV[1] then return redis.call(\"del\", KEYS[1]) else return 0 end'";

/// A Redis lock (`SET key token NX PX`, released by check-and-delete)
/// around the lines from the read (`read`, with `CLIENT.get(KEY)`) to the
/// write (`write`), for ioredis or node-redis: the lost update of a cache
/// key. The lines must be one block's statements (same indentation,
/// balanced braces); a `try`/`finally` releases the lock, so an early
/// `return` or a throw between them cannot leave it taken. A name they
/// declare for the code after them is declared before the `try` (`let
/// name;`) and assigned in it; where that cannot be done (a destructuring
/// over several lines), the `try` runs to the end of the block.
fn cache_lock_fix(code: &str, schema: Option<&str>, read: u32, write: u32) -> Option<Candidate> {
    let imports = |name| crate::script::source::names_module(code, name);
    let (ioredis, node_redis, memjs) = (imports("ioredis"), imports("redis"), imports("memjs"));
    if !(ioredis || node_redis || memjs) || code.contains("lockToken") || write < read {
        return None;
    }
    let (client, key) = get_call(code.lines().nth(read as usize - 1)?)?;
    let quoted = ['\'', '"', '`'].iter().find_map(|&q| key.strip_prefix(q));
    let lock_key = match quoted {
        Some(rest) => format!("{}lock:{rest}", &key[..1]),
        None => format!("`lock:${{{key}}}`"),
    };
    // The condition of the wait for the lock, and its release.
    let (wait, release) = if ioredis {
        (
            format!("(await {client}.set({lock_key}, lockToken, \"PX\", 5000, \"NX\")) !== \"OK\""),
            format!("{client}.eval({RELEASE}, 1, {lock_key}, lockToken)"),
        )
    } else if node_redis {
        (
            format!(
                "(await {client}.set({lock_key}, lockToken, {{ NX: true, PX: 5000 }})) !== \"OK\""
            ),
            format!("{client}.eval({RELEASE}, {{ keys: [{lock_key}], arguments: [lockToken] }})"),
        )
    } else {
        // memjs: `add` stores only if the key is absent (true), and
        // memcached has no check-and-delete.
        (
            format!("!(await {client}.add({lock_key}, lockToken, {{ expires: 5 }}))"),
            format!("{client}.delete({lock_key})"),
        )
    };
    let wrapped = wrap_lines(
        code,
        read,
        write,
        Wrapping {
            setup: vec![
                "const lockToken = Math.random().toString(36).slice(2);".to_string(),
                format!("while ({wait}) {{"),
                "  await new Promise((resolve) => setTimeout(resolve, 10));".to_string(),
                "}".to_string(),
            ],
            opening: Vec::new(),
            rewrite: &|line| line.to_string(),
            closing: Vec::new(),
            finally: vec![format!("await {release};")],
        },
    )?;
    let note = wrapped.held_note("lock");
    Some(Candidate {
        code: wrapped.code,
        schema: schema.map(str::to_string),
        paste: wrapped.paste,
        meaning: format!(
            "lines {read} to {write} under a {}{}",
            match memjs {
                false => {
                    "Redis lock: SET NX PX with an owner token, released only by its owner, in a \
                     finally (an early return or a throw releases it too)"
                }
                true => {
                    "memcached lock: add with a 5 s expiry, deleted in a finally (an early \
                     return or a throw releases it too; memcached has no check-and-delete, so \
                     a holder that outlives the expiry deletes the next one's lock)"
                }
            },
            note
        ),
        may_fail: false,
    })
}

/// The lines from a count or search (`read`) to the insert (`write`),
/// sent through a pool in autocommit, as one transaction on a client of
/// their own that locks `table` first (`LOCK TABLE … IN SHARE ROW
/// EXCLUSIVE MODE`, which excludes itself and every writer and lets plain
/// reads through): a second request's count waits for the first's commit
/// and sees its row. Each `POOL.query(` of the lines goes to the client;
/// `COMMIT` follows the insert; a `finally` sends `ROLLBACK` (which ends
/// the transaction an early return or a throw left open, and is a no-op
/// after the COMMIT) and releases the client.
fn sql_transaction_fix(
    code: &str,
    schema: &str,
    table: &str,
    read: u32,
    write: u32,
) -> Option<Candidate> {
    if write < read {
        return None;
    }
    let first = code.lines().nth(read as usize - 1)?;
    let at = first.find(".query(")?;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let pool_start = first[..at]
        .rfind(|c: char| !is_ident(c))
        .map_or(0, |i| i + 1);
    let pool = &first[pool_start..at];
    if pool.is_empty() {
        return None;
    }
    let client = ["client", "txClient", "lockedClient"]
        .into_iter()
        .find(|name| !has_word(code, name))?;
    let pool_query = format!("{pool}.query(");
    let client_query = format!("{client}.query(");
    let rewrite = |line: &str| line.replace(&pool_query, &client_query);
    let statement = format!("LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE");
    let wrapped = wrap_lines(
        code,
        read,
        write,
        Wrapping {
            setup: vec![format!("const {client} = await {pool}.connect();")],
            opening: vec![
                format!("await {client}.query(\"BEGIN\");"),
                format!("await {client}.query(\"{statement}\");"),
            ],
            rewrite: &rewrite,
            closing: vec![format!("await {client}.query(\"COMMIT\");")],
            finally: vec![
                format!(
                    "await {client}.query(\"ROLLBACK\"); // ends what a return or a throw left \
                     open; after COMMIT, a no-op"
                ),
                format!("{client}.release();"),
            ],
        },
    )?;
    let note = wrapped.held_note("transaction");
    Some(Candidate {
        code: wrapped.code,
        schema: Some(schema.to_string()),
        paste: wrapped.paste,
        meaning: format!(
            "lines {read} to {write} in one transaction on a client of their own, with {statement} \
             first: a second request's check waits at its LOCK until the first commits, so it \
             sees what the first wrote{}",
            note
        ),
        may_fail: false,
    })
}

/// How `wrap_lines` wraps a block's lines: `setup` before the `try`,
/// `opening` at its start, each line through `rewrite`, `closing` after
/// the last of them, `finally` in the `finally` (lines without the
/// block's indent).
struct Wrapping<'a> {
    setup: Vec<String>,
    opening: Vec<String>,
    rewrite: &'a dyn Fn(&str) -> String,
    closing: Vec<String>,
    finally: Vec<String>,
}

/// The code with the lines wrapped, and the lines to paste.
struct Wrapped {
    code: String,
    paste: String,
    /// The `try` runs to the end of the block (names the lines declare
    /// for the code after them could not be declared before it).
    whole_block: bool,
    /// Names the lines declare for the code after them are declared
    /// before the `try`.
    hoisted: bool,
}

impl Wrapped {
    /// What the meaning adds about where the `try` ends.
    fn held_note(&self, what: &str) -> String {
        match (self.whole_block, self.hoisted) {
            (true, _) => " and held to the end of the block, whose code uses the names these \
                           lines declare"
                .to_string(),
            (false, true) => format!(
                "; the names these lines declare for the code after them are declared before \
                 the {what}"
            ),
            (false, false) => String::new(),
        }
    }
}

/// Lines `read` to `write` of one block (same indentation, balanced
/// braces) in a `try` with a `finally` (so an early `return` or a throw
/// runs it too). A name they declare for the code after them is declared
/// before the `try` (`let name;`) and assigned in it; where that cannot be
/// done (a destructuring over several lines), the `try` runs to the end
/// of the block.
fn wrap_lines(code: &str, read: u32, write: u32, wrapping: Wrapping) -> Option<Wrapped> {
    let lines: Vec<&str> = code.lines().collect();
    let (first, last) = (read as usize - 1, write as usize - 1);
    let wrapped = lines.get(first..=last)?;
    let indent = |line: &str| line.len() - line.trim_start().len();
    let ind = &wrapped[0][..indent(wrapped[0])];
    let braces = |lines: &[&str]| -> i64 {
        let count = |c: char| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        lines.iter().flat_map(|line| line.chars()).map(count).sum()
    };
    if indent(wrapped[wrapped.len() - 1]) != ind.len() || braces(wrapped) != 0 {
        return None;
    }
    // The rest of the block: the lines after the write, up to the first
    // that is indented less than the wrapped ones.
    let after: Vec<&str> = lines[last + 1..]
        .iter()
        .take_while(|line| line.trim().is_empty() || indent(line) >= ind.len())
        .copied()
        .collect();
    let used_after = |line: &str| {
        declared(&[line])
            .iter()
            .any(|name| after.iter().any(|line| has_word(line, name)))
    };
    let mut hoisted = Vec::new();
    let mut body: Vec<String> = Vec::new();
    let mut whole_block = false;
    for line in wrapped {
        if indent(line) != ind.len() || !used_after(line) {
            body.push((wrapping.rewrite)(line));
            continue;
        }
        match hoist(&line[ind.len()..]) {
            Some((name, assignment)) => {
                hoisted.push(name);
                if let Some(assignment) = assignment {
                    body.push((wrapping.rewrite)(&format!("{ind}{assignment}")));
                }
            }
            None => whole_block = true,
        }
    }
    let closing = wrapping.closing.iter().map(|line| format!("{ind}{line}"));
    let held = match whole_block {
        false => {
            body.extend(closing);
            0
        }
        true => {
            // The block's end: its last line that is not blank.
            let end = after
                .iter()
                .rposition(|line| !line.trim().is_empty())
                .map_or(0, |i| i + 1);
            if braces(&after) != 0 {
                return None;
            }
            hoisted.clear();
            body = wrapped
                .iter()
                .map(|line| (wrapping.rewrite)(line))
                .collect();
            body.extend(closing);
            body.extend(after[..end].iter().map(|line| (wrapping.rewrite)(line)));
            end
        }
    };
    let mut out = Vec::new();
    if !hoisted.is_empty() {
        out.push(format!("{ind}let {};", hoisted.join(", ")));
    }
    out.extend(wrapping.setup.iter().map(|line| format!("{ind}{line}")));
    out.push(format!("{ind}try {{"));
    out.extend(wrapping.opening.iter().map(|line| format!("{ind}  {line}")));
    out.extend(body.iter().map(|line| match line.trim().is_empty() {
        true => String::new(),
        false => format!("  {line}"),
    }));
    out.push(format!("{ind}}} finally {{"));
    out.extend(wrapping.finally.iter().map(|line| format!("{ind}  {line}")));
    out.push(format!("{ind}}}"));
    let mut edited: Vec<String> = lines[..first].iter().map(|l| l.to_string()).collect();
    edited.extend(out.iter().cloned());
    edited.extend(lines[last + 1 + held..].iter().map(|l| l.to_string()));
    let mut code = edited.join("\n");
    code.push('\n');
    Some(Wrapped {
        code,
        paste: out.join("\n"),
        whole_block,
        hoisted: !hoisted.is_empty(),
    })
}

/// The function around line `begin` (a `POOL.query("BEGIN")`) with a
/// client of its own: `const client = await POOL.connect()` first, every
/// `POOL.query(` in it on `client`, and `client.release()` in a finally
/// around the rest (an early return or a throw releases it too). `None`
/// if the line has no `.query(`, or no `async` function encloses it.
fn client_fix(code: &str, schema: Option<&str>, begin: u32) -> Option<Candidate> {
    let line = code.lines().nth(begin as usize - 1)?;
    let at = line.find(".query(")?;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let pool_start = line[..at]
        .rfind(|c: char| !is_ident(c) && c != '.')
        .map_or(0, |i| i + 1);
    let pool = &line[pool_start..at];
    if pool.is_empty() {
        return None;
    }
    let begin_at = code
        .lines()
        .take(begin as usize - 1)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    let (open, close) = enclosing_async_body(code, begin_at)?;
    // The lines of the body, between the line that opens it and the one
    // that closes it.
    let body_start = code[open..].find('\n')? + open + 1;
    let body_end = code[..close].rfind('\n')? + 1;
    if body_end <= body_start {
        return None;
    }
    let body = &code[body_start..body_end];
    let name = ["client", "txClient", "connection"]
        .into_iter()
        .find(|name| !body.lines().any(|line| has_word(line, name)))?;
    let indent = |line: &str| line.len() - line.trim_start().len();
    let ind = body
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| &line[..indent(line)])
        .min_by_key(|ind| ind.len())?;
    let called = format!("{pool}.query(");
    let mut out = vec![
        format!("{ind}const {name} = await {pool}.connect();"),
        format!("{ind}try {{"),
    ];
    out.extend(body.lines().map(|line| match line.trim().is_empty() {
        true => String::new(),
        false => format!("  {}", line.replace(&called, &format!("{name}.query("))),
    }));
    out.push(format!("{ind}}} finally {{"));
    out.push(format!("{ind}  {name}.release();"));
    out.push(format!("{ind}}}"));
    let pasted = out.join("\n");
    let code = format!("{}{pasted}\n{}", &code[..body_start], &code[body_end..]);
    let first = code[..body_start].lines().count() as u32 + 1;
    Some(Candidate {
        code,
        schema: schema.map(str::to_string),
        paste: pasted,
        meaning: format!(
            "the transaction on a client of its own: from line {first}, `const {name} = await \
             {pool}.connect()`, every `{pool}.query` there on `{name}`, and `{name}.release()` in \
             a finally"
        ),
        may_fail: false,
    })
}

/// The braces (byte offsets) of the body of the innermost `async`
/// function around offset `at`: its `{` ends a line that says `async`.
/// Braces in strings and comments do not count.
fn enclosing_async_body(code: &str, at: usize) -> Option<(usize, usize)> {
    let skipped = strings_and_comments(code);
    let in_skipped = |i: usize| skipped.iter().any(|&(start, end)| i >= start && i < end);
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    for (i, c) in code.char_indices() {
        if (c != '{' && c != '}') || in_skipped(i) {
            continue;
        }
        match c {
            '{' => open.push(i),
            _ => pairs.push((open.pop()?, i)),
        }
    }
    pairs
        .into_iter()
        .filter(|&(start, end)| start < at && at < end)
        .filter(|&(start, _)| {
            let line_start = code[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = code[start..].find('\n').map_or(code.len(), |i| start + i);
            code[line_start..start].contains("async") && code[start + 1..line_end].trim().is_empty()
        })
        .max_by_key(|&(start, _)| start)
}

/// The script's string literals (quotes included) and comments, as byte
/// ranges: where a bracket or a name is not code.
fn strings_and_comments(code: &str) -> Vec<(usize, usize)> {
    literals(code)
        .iter()
        .map(|literal| (literal.start - 1, literal.start + literal.text.len() + 1))
        .chain(comments(code))
        .collect()
}

/// The script's comments, as byte ranges (strings skipped).
fn comments(code: &str) -> Vec<(usize, usize)> {
    let strings: Vec<(usize, usize)> = literals(code)
        .iter()
        .map(|literal| (literal.start - 1, literal.start + literal.text.len() + 1))
        .collect();
    let in_string = |i: usize| strings.iter().any(|&(start, end)| i >= start && i < end);
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find('/').map(|at| i + at) {
        let end = match code[at + 1..].chars().next() {
            _ if in_string(at) => at + 1,
            Some('/') => code[at..].find('\n').map_or(code.len(), |e| at + e),
            Some('*') => code[at + 2..]
                .find("*/")
                .map_or(code.len(), |e| at + 2 + e + 2),
            _ => at + 1,
        };
        if end > at + 1 {
            found.push((at, end));
        }
        i = end;
    }
    found
}

/// A declaration statement (`const name = value…`, `let name: T = …`, a
/// destructuring on one line, `let name;`) split in two: what declares
/// its names before a block (`name`, `name: T` or `a, b`), and the
/// assignment that stays in the block (none for `let name;`). `None` for
/// one that cannot be split (several declarators, a destructuring over
/// several lines).
fn hoist(statement: &str) -> Option<(String, Option<String>)> {
    let rest = ["const ", "let ", "var "]
        .iter()
        .find_map(|keyword| statement.strip_prefix(keyword))?;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let (pattern, value) = match rest.split_once('=') {
        Some((pattern, value)) if !value.starts_with(['=', '>']) => (pattern.trim(), Some(value)),
        Some(_) => return None,
        None => (rest.trim_end().strip_suffix(';')?.trim(), None),
    };
    let name = pattern.split(':').next().unwrap_or_default().trim();
    if !name.is_empty()
        && name.chars().all(is_ident)
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Some((
            pattern.to_string(),
            value.map(|value| format!("{name} ={value}")),
        ));
    }
    // A destructuring: on one line, and assigned in parentheses.
    let value = value?.trim_end().strip_suffix(';')?;
    let balanced = |open: char, close: char| {
        statement.matches(open).count() == statement.matches(close).count()
    };
    let closes = matches!(
        (pattern.chars().next(), pattern.chars().last()),
        (Some('{'), Some('}')) | (Some('['), Some(']'))
    );
    if !closes || !balanced('(', ')') || !balanced('{', '}') || !balanced('[', ']') {
        return None;
    }
    let names = declared(&[statement]);
    (!names.is_empty()).then(|| (names.join(", "), Some(format!("({pattern} ={value});"))))
}

/// The names `lines` declare with `const`, `let` or `var` at their start
/// (a plain name, or those of a destructuring pattern).
fn declared(lines: &[&str]) -> Vec<String> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    lines
        .iter()
        .filter_map(|line| {
            let line = line.trim_start();
            ["const ", "let ", "var "]
                .iter()
                .find_map(|keyword| line.strip_prefix(keyword))
        })
        .flat_map(|rest| {
            let pattern = rest.split('=').next().unwrap_or_default();
            pattern
                .split(|c: char| !is_ident(c))
                .filter(|word| !word.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether `name` occurs in `line` as a whole word.
fn has_word(line: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(name).any(|(at, _)| {
        !line[..at].chars().next_back().is_some_and(is_ident)
            && !line[at + name.len()..].chars().next().is_some_and(is_ident)
    })
}

/// The client and the key of the first `CLIENT.get(KEY)` on `line`, or
/// of another read (`CLIENT.hget(KEY, FIELD)`, `CLIENT.zcard(KEY)`, …).
fn get_call(line: &str) -> Option<(String, String)> {
    // The reads a lost update starts from, by ioredis's and node-redis's
    // names: a value, a hash's field, a sorted set or a list read whole.
    const READ_CALLS: &[&str] = &[
        ".get(",
        ".hget(",
        ".hGet(",
        ".hgetall(",
        ".hGetAll(",
        ".hlen(",
        ".hLen(",
        ".hkeys(",
        ".hKeys(",
        ".hvals(",
        ".hVals(",
        ".scard(",
        ".sCard(",
        ".smembers(",
        ".sMembers(",
        ".zcard(",
        ".zCard(",
        ".zcount(",
        ".zCount(",
        ".zrange(",
        ".zRange(",
        ".zrangebyscore(",
        ".zRangeByScore(",
        ".zrevrange(",
        ".zscore(",
        ".zScore(",
        ".zrank(",
        ".zRank(",
        ".llen(",
        ".lLen(",
        ".lrange(",
        ".lRange(",
        ".lindex(",
        ".lIndex(",
    ];
    let (at, call) = READ_CALLS
        .iter()
        .filter_map(|call| line.find(call).map(|at| (at, *call)))
        .min()?;
    let client_start = line[..at]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
        .map_or(0, |i| i + 1);
    let client = &line[client_start..at];
    let args = &line[at + call.len()..];
    let mut depth = 0;
    let end = args.char_indices().find_map(|(i, c)| match c {
        '(' | '[' | '{' => {
            depth += 1;
            None
        }
        ')' | ']' | '}' if depth > 0 => {
            depth -= 1;
            None
        }
        ')' | ',' => Some(i),
        _ => None,
    })?;
    let key = args[..end].trim();
    (!client.is_empty() && !key.is_empty()).then(|| (client.to_string(), key.to_string()))
}

/// Runs `program` under `config` (its schedule if it still fits, else the
/// normal run) to the end; its counters if no request hung and no harm
/// is left in its data.
fn run_clean(program: &Program, config: &Config) -> Option<(Metrics, bool, u64)> {
    let attempt = |config: &Config| -> Option<(Metrics, u64)> {
        let mut run = program.start(config, true).ok()?;
        if !run.run_for(MAX_STEPS).ok()? {
            return None;
        }
        let m = run.metrics();
        if m.hung > 0 || m.duplicate_tickets > 0 || !run.data_harm().is_empty() {
            return None;
        }
        let thrown = match program {
            Program::Script(script) => {
                let keys = run.key_names();
                thrown_failures(&run.take_trace().0, &keys, &script.code)
            }
            _ => 0,
        };
        Some((m, thrown))
    };
    if let Some((metrics, thrown)) = attempt(config) {
        return Some((metrics, true, thrown));
    }
    let mut normal = config.clone();
    normal.schedule = Schedule::default();
    (normal != *config)
        .then(|| attempt(&normal))
        .flatten()
        .map(|(metrics, thrown)| (metrics, false, thrown))
}

/// The failed requests of a run of `code` whose error the script threw
/// itself: the message's `(line L, …)` is a line of `code` with a
/// `throw` on it (not a TypeError, a rejected query or a timeout).
fn thrown_failures(events: &[TraceEvent], keys: &KeyNames, code: &str) -> u64 {
    let lines: Vec<&str> = code.lines().collect();
    let thrown = failures(events, keys).filter(|(_, message)| {
        message
            .and_then(message_line)
            .and_then(|line| lines.get(line.checked_sub(1)?))
            .is_some_and(|line| has_word(line, "throw"))
    });
    thrown.count() as u64
}

/// The line a failure's message names: `... (line 21, column 15)`.
fn message_line(message: &str) -> Option<usize> {
    let at = message.rfind("(line ")?;
    let digits: String = message[at + 6..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The fixed run beside the harmed one.
fn outcome_text(kind: StoryKind, before: &Metrics, after: &Metrics) -> String {
    let was = |now: u64, then: u64| match now == then {
        true => String::new(),
        false => format!(" (was {then})"),
    };
    let mut parts = Vec::new();
    match kind {
        StoryKind::LostUpdate => parts.push("no lost update".to_string()),
        StoryKind::WriteSkew => parts.push("no write skew".to_string()),
        StoryKind::SharedTransaction => parts.push("no shared transaction".to_string()),
        StoryKind::FailedRequest => {}
        _ => parts.push(format!(
            "{} duplicate rows{}",
            after.duplicate_tickets,
            was(after.duplicate_tickets, before.duplicate_tickets)
        )),
    }
    parts.push(format!(
        "{} error{}{}",
        after.errors,
        if after.errors == 1 { "" } else { "s" },
        was(after.errors, before.errors)
    ));
    parts.push(crate::explain::fix::cost_text(before, after));
    parts.join(", ")
}

/// A string literal of the script: its text between the quotes, where
/// that starts (a byte offset), and the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq)]
struct Literal {
    start: usize,
    text: String,
    line: u32,
    /// The quote: `'`, `"` or a backtick.
    quote: char,
}

impl Literal {
    fn upper(&self) -> String {
        self.text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase()
    }

    fn is_insert_into(&self, table: &str) -> bool {
        let upper = self.upper();
        upper
            .strip_prefix("INSERT INTO ")
            .and_then(|rest| rest.split([' ', '(']).next())
            .is_some_and(|name| same_table(name, table))
    }

    /// `BEGIN` or `START TRANSACTION`, with or without its modes.
    fn is_begin(&self) -> bool {
        let upper = self.upper();
        upper == "BEGIN" || upper.starts_with("BEGIN ") || upper.starts_with("START TRANSACTION")
    }

    fn is_update_of(&self, table: &str) -> bool {
        let upper = self.upper();
        let rest = upper.strip_prefix("UPDATE ");
        let rest = rest.map(|rest| rest.strip_prefix("ONLY ").unwrap_or(rest));
        rest.and_then(|rest| rest.split(' ').next())
            .is_some_and(|name| same_table(name, table))
    }

    fn is_select_from(&self, table: &str) -> bool {
        let upper = self.upper();
        upper.starts_with("SELECT ")
            && upper
                .split(" FROM ")
                .nth(1)
                .and_then(|rest| rest.split([' ', ',', ';']).next())
                .is_some_and(|name| same_table(name, table))
    }

    /// The literal with `clause` before its `RETURNING` (on the same
    /// spacing), else at its end.
    fn with_on_conflict(&self, clause: &str) -> String {
        let upper = self.text.to_ascii_uppercase();
        let returning = upper
            .match_indices("RETURNING")
            .map(|(at, _)| at)
            .find(|&at| at > 0 && upper[..at].ends_with(char::is_whitespace));
        match returning {
            Some(at) => {
                let space_start = self.text[..at].trim_end().len();
                let space = &self.text[space_start..at];
                format!("{}{clause}{space}{}", &self.text[..at], &self.text[at..])
            }
            None => self.appended(clause),
        }
    }

    fn with_for_update(&self) -> String {
        self.appended("FOR UPDATE")
    }

    /// The literal with ` clause` at its end, before a closing `;`.
    fn appended(&self, clause: &str) -> String {
        let body = self.text.trim_end();
        let (body, semicolon) = match body.strip_suffix(';') {
            Some(body) => (body.trim_end(), ";"),
            None => (body, ""),
        };
        format!(
            "{body} {clause}{semicolon}{}",
            &self.text[self.text.trim_end().len()..]
        )
    }
}

/// Whether a table name as written (maybe schema-qualified or quoted)
/// names `table`.
fn same_table(written: &str, table: &str) -> bool {
    let last = written.rsplit('.').next().unwrap_or(written);
    last.trim_matches('"').eq_ignore_ascii_case(table)
}

/// The code with literals replaced, and the replaced ones as written
/// there (quotes included) for pasting.
struct Edited {
    code: String,
    pasted: Vec<String>,
}

fn edit(code: &str, literals: &[Literal], change: impl Fn(&Literal) -> String) -> Edited {
    let mut out = String::with_capacity(code.len() + 64);
    let mut pasted = Vec::new();
    let mut from = 0;
    for literal in literals {
        let changed = change(literal);
        out.push_str(&code[from..literal.start]);
        out.push_str(&changed);
        from = literal.start + literal.text.len();
        pasted.push(format!("{q}{changed}{q}", q = literal.quote));
    }
    out.push_str(&code[from..]);
    Edited { code: out, pasted }
}

/// The script's string literals (quotes, double quotes and backticks;
/// comments skipped), in order.
fn literals(code: &str) -> Vec<Literal> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = code[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 2);
                line += code[i..end].matches('\n').count() as u32;
                i = end;
                continue;
            }
            quote @ (b'\'' | b'"' | b'`') => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != quote {
                    if bytes[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let end = j.min(bytes.len());
                found.push(Literal {
                    start,
                    text: code[start..end].to_string(),
                    line,
                    quote: quote as char,
                });
                line += code[start..end].matches('\n').count() as u32;
                i = end + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_through_the_pool_moves_to_a_client_of_its_own() {
        let code = "const db = new Pool();\n// a { in a comment\napp.post('/pay', async (req, res) => {\n  const client = 'a } in a string';\n  await db.query('BEGIN');\n  if (!req.ok) { await db.query('ROLLBACK'); return res.send(client); }\n  await db.query(`COMMIT`);\n});\n";
        let fix = client_fix(code, None, 5).expect("a fix");
        assert_eq!(
            fix.code,
            "const db = new Pool();\n// a { in a comment\napp.post('/pay', async (req, res) => {\n  const txClient = await db.connect();\n  try {\n    const client = 'a } in a string';\n    await txClient.query('BEGIN');\n    if (!req.ok) { await txClient.query('ROLLBACK'); return res.send(client); }\n    await txClient.query(`COMMIT`);\n  } finally {\n    txClient.release();\n  }\n});\n"
        );
        assert!(fix
            .meaning
            .starts_with("the transaction on a client of its own: from line 4,"));
        // No `.query(` on the line, or no async function around it.
        assert!(client_fix(code, None, 4).is_none());
        let sync = "function f(db) {\n  db.query('BEGIN');\n}\n";
        assert!(client_fix(sync, None, 2).is_none());
    }

    #[test]
    fn the_codes_check_moves_into_the_updates_where() {
        let columns = ["stock".to_string()];
        let passing = |condition: &str| passing_condition(condition, &columns);
        assert_eq!(passing("rows[0].stock <= 0").as_deref(), Some("stock > 0"));
        assert_eq!(passing("item.stock<1").as_deref(), Some("stock >= 1"));
        assert_eq!(
            passing("r.rows[0].stock === 0").as_deref(),
            Some("stock <> 0")
        );
        assert_eq!(passing("p.stock > 100").as_deref(), Some("stock <= 100"));
        // Not a comparison of a read column with a number.
        assert_eq!(passing("!rows[0].stock"), None);
        assert_eq!(passing("rows[0].price <= 0"), None);
        assert_eq!(passing("rows[0].stock <= limit"), None);
        assert_eq!(passing("f(x).stock <= 0"), None);
        let code = "async function handle() {\n  const { rows } = await pool.query('SELECT stock FROM products WHERE id = 1');\n  if (rows[0].stock <= 0) { return { status: 409 }; }\n  await pool.query('UPDATE products SET stock = stock - 1 WHERE id = 1 RETURNING stock');\n}\n";
        let fix = sql_checked_update_fix(code, "products", 2, 4).expect("a fix");
        assert_eq!(
            fix.paste,
            "if ((await pool.query('UPDATE products SET stock = stock - 1 WHERE id = 1 AND stock > 0 RETURNING stock')).rowCount === 0) return { status: 409 };"
        );
        // A body of more than one statement, or that goes on: none.
        let long = code.replace("{ return { status: 409 }; }", "{ log(); return; }");
        assert!(sql_checked_update_fix(&long, "products", 2, 4).is_none());
        let on = code.replace("{ return { status: 409 }; }", "count('empty');");
        assert!(sql_checked_update_fix(&on, "products", 2, 4).is_none());
    }

    #[test]
    fn an_update_in_autocommit_compares_what_it_sets_with_what_was_read() {
        // One line with params: the read value joins them.
        let code = "async function handle() {\n  const { rows } = await pool.query('SELECT stock FROM products WHERE id = $1', [1]);\n  if (rows[0].stock <= 0) return;\n  await pool.query('UPDATE products SET stock = stock - 1 WHERE id = $1', [1]);\n}\n";
        let fix = sql_compare_and_set_fix(code, "products", 2, 4).expect("a fix");
        assert_eq!(
            fix.paste,
            "if ((await pool.query('UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock = $2', [1, rows[0].stock])).rowCount === 0) throw new Error(\"the row changed since line 2 read it: try again\");"
        );
        assert!(fix
            .meaning
            .contains("(`stock = rows[0].stock` in its WHERE)"));
        // Over several lines, no params, RETURNING, a value read from a
        // row object and a column the code never read.
        let code = "async function handle(c) {\n  const row = (await c.query(\"SELECT n FROM counts WHERE id = 1\")).rows[0];\n  await c.query(\n    \"UPDATE counts SET n = n + 1, seen = now() WHERE id = 1 RETURNING n\"\n  );\n  return row.n;\n}\n";
        let fix = sql_compare_and_set_fix(code, "counts", 2, 4);
        // `row.n` is used only after the statement: nothing to compare.
        assert!(fix.is_none());
        let code = code.replace(
            "WHERE id = 1\")).rows[0];",
            "WHERE id = 1\")).rows[0];\n  if (row.n > 9) return;",
        );
        let fix = sql_compare_and_set_fix(&code, "counts", 2, 5).expect("a fix");
        assert_eq!(
            fix.paste,
            "if ((await c.query(\n  \"UPDATE counts SET n = n + 1, seen = now() WHERE id = 1 AND n = $1 RETURNING n\", [row.n]\n)).rowCount === 0) throw new Error(\"the row changed since line 2 read it: try again\");"
        );
        // A kept result, an OR in the WHERE, another table: no fix.
        let kept = "const { rows } = await pool.query('SELECT n FROM t');\nconst r = await pool.query('UPDATE t SET n = $1', [rows[0].n + 1]);\n";
        assert!(sql_compare_and_set_fix(kept, "t", 1, 2).is_none());
        let bare = kept.replace("const r = await", "await");
        assert!(sql_compare_and_set_fix(&bare, "t", 1, 2).is_some());
        assert!(sql_compare_and_set_fix(&bare, "u", 1, 2).is_none());
        let or = bare.replace("SET n = $1'", "SET n = $1 WHERE a OR b'");
        assert!(sql_compare_and_set_fix(&or, "t", 1, 2).is_none());
    }

    #[test]
    fn the_table_is_locked_after_each_begin_sent_on_a_line_of_its_own() {
        let code = "// LOCK TABLE in a comment is no lock\nasync function a(c) {\n  await c.query('BEGIN');\n  await c.query('INSERT INTO t VALUES (1)');\n}\nasync function b(c) { await c.query('BEGIN'); return c; }\nasync function d(c) {\n    await c.query(\"START TRANSACTION ISOLATION LEVEL READ COMMITTED\");\n}";
        let fix = table_lock_fix(code, "CREATE TABLE t (n int);", "t").expect("a fix");
        let lock = "LOCK TABLE t IN SHARE ROW EXCLUSIVE MODE";
        let start = "    await c.query(\"START TRANSACTION ISOLATION LEVEL READ COMMITTED\");\n";
        let expected = code
            .replace(
                "  await c.query('BEGIN');\n",
                &format!("  await c.query('BEGIN');\n  await c.query('{lock}');\n"),
            )
            .replace(start, &format!("{start}    await c.query(\"{lock}\");\n"));
        assert_eq!(fix.code, expected);
        // A BEGIN on the last line, with no line break after it.
        let last = table_lock_fix("await c.query('BEGIN');", "", "t").expect("a fix");
        assert_eq!(
            last.code,
            format!("await c.query('BEGIN');\nawait c.query('{lock}');")
        );
        assert_eq!(
            fix.paste,
            format!("await c.query('{lock}');\nawait c.query(\"{lock}\");")
        );
        assert!(
            fix.meaning.contains("after the BEGIN on line 3, 8:"),
            "{}",
            fix.meaning
        );
        let locked = fix.code.clone();
        assert!(table_lock_fix(&locked, "", "t").is_none(), "locks already");
        assert!(table_lock_fix("await c.query('SELECT 1');", "", "t").is_none());
    }

    #[test]
    fn literals_are_found_with_their_lines() {
        let code = "// 'not this'\nconst a = \"SELECT 1\";\n/* `nor\nthis` */ q(`INSERT\n INTO t`, 'x\\'y');";
        let found: Vec<(String, u32)> = literals(code)
            .into_iter()
            .map(|l| (l.text, l.line))
            .collect();
        assert_eq!(
            found,
            [
                ("SELECT 1".to_string(), 2),
                ("INSERT\n INTO t".to_string(), 4),
                ("x\\'y".to_string(), 5)
            ]
        );
    }

    fn literal(text: &str) -> Literal {
        Literal {
            start: 0,
            text: text.to_string(),
            line: 1,
            quote: '"',
        }
    }

    #[test]
    fn on_conflict_goes_before_returning_on_its_spacing() {
        let clause = "ON CONFLICT (user_id) DO NOTHING";
        assert_eq!(
            literal("INSERT INTO orders (user_id) VALUES ($1) RETURNING id").with_on_conflict(clause),
            "INSERT INTO orders (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING RETURNING id"
        );
        assert_eq!(
            literal("INSERT INTO orders (user_id)\n     VALUES ($1)\n     RETURNING id")
                .with_on_conflict(clause),
            "INSERT INTO orders (user_id)\n     VALUES ($1)\n     ON CONFLICT (user_id) DO NOTHING\n     RETURNING id"
        );
        assert_eq!(
            literal("INSERT INTO orders (user_id) VALUES ($1);\n").with_on_conflict(clause),
            "INSERT INTO orders (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING;\n"
        );
        assert_eq!(
            literal("SELECT seats FROM events WHERE id = $1").with_for_update(),
            "SELECT seats FROM events WHERE id = $1 FOR UPDATE"
        );
    }

    #[test]
    fn a_get_or_create_does_update_and_text_beyond_ascii_keeps_its_places() {
        // 'ﬀ' is 3 bytes and its upper case "FF" 2: the places found in
        // the upper-cased text must still be the literal's own.
        let code = "q(`WITH ins AS (INSERT INTO users (email, note) VALUES ($1, 'ﬀ')\n  ON CONFLICT (email, note)  DO NOTHING RETURNING id) SELECT id FROM ins`);\nq('INSERT INTO users (email) VALUES ($1) ON CONFLICT DO NOTHING');";
        let fix = upsert_inserts(code, None, "users").expect("a fix");
        assert_eq!(
            fix.code,
            "q(`WITH ins AS (INSERT INTO users (email, note) VALUES ($1, 'ﬀ')\n  ON CONFLICT (email, note)  DO UPDATE SET email = EXCLUDED.email RETURNING id) SELECT id FROM ins`);\nq('INSERT INTO users (email) VALUES ($1) ON CONFLICT DO NOTHING');"
        );
        assert!(upsert_inserts(code, None, "orders").is_none());
        assert_eq!(
            literal("INSERT INTO t (a) VALUES ('ﬀ') RETURNING id")
                .with_on_conflict("ON CONFLICT DO NOTHING"),
            "INSERT INTO t (a) VALUES ('ﬀ') ON CONFLICT DO NOTHING RETURNING id"
        );
        let quiet = quiet_inserts("q('INSERT INTO t (a) VALUES (1)');", None, "t").expect("a fix");
        assert_eq!(
            quiet.paste,
            "'INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING'"
        );
    }

    #[test]
    fn statements_are_matched_by_table() {
        assert!(literal("insert into public.\"orders\" (a) values (1)").is_insert_into("orders"));
        assert!(!literal("INSERT INTO orders_archive (a) VALUES (1)").is_insert_into("orders"));
        assert!(literal("SELECT id\n FROM events WHERE id = 1").is_select_from("events"));
        assert!(!literal("SELECT id FROM users WHERE id = 1").is_select_from("events"));
    }
}
