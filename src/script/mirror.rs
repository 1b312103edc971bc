//! A script run whose calls also go to real servers (`interleave real
//! --script`, docs/real.md): every cache call and `pg` statement, as it
//! lands in the simulation, is played on the [`Mirror`] too, in the
//! simulated order. The mirror answers with what the real server said when
//! it differs from the model's answer; the script then goes on with the
//! real answer. The script layer only defines the seam: the real servers
//! live in `crate::real::script`.

use serde_json::{json, Value};

use crate::config::Micros;

use super::call::Call;

/// A cache call's answer as the script's library reads it: a value (or
/// none), or the message of a rejection.
pub type CacheAnswer = Result<Option<Value>, String>;

/// One call's answer inside an `EXEC`'s: `{ value }`, with `absent: true`
/// when there is none (a GET's miss), told apart from a null value.
pub fn exec_answer(value: Option<Value>) -> Value {
    match value {
        Some(value) => json!({ "value": value }),
        None => json!({ "value": null, "absent": true }),
    }
}

/// The real side of a mirrored run.
pub trait Mirror {
    /// Cache call `call` lands at simulated time `now`, and the model
    /// answered `simulated`: plays it on the real server. `Some` with the
    /// real answer when it differs (the mirror records the difference).
    fn cache(&mut self, call: &Call, now: Micros, simulated: &CacheAnswer) -> Option<CacheAnswer>;

    /// A `pg` statement (its text and values, as the script sent them)
    /// of `request` (none: the script's top level) lands at `now` on a
    /// client's session (a connection): sent
    /// to the real PostgreSQL now, its answer read by [`Mirror::sql_answer`]
    /// once the model answers too (a statement that waits for a lock waits
    /// on both sides). Returns the statement's id.
    fn sql_send(
        &mut self,
        request: Option<u32>,
        session: u64,
        text: &str,
        values: &[Value],
        now: Micros,
    ) -> u64;

    /// A session's connection closes (after the ROLLBACK that closed it was
    /// answered): returns once the real server has ended its session too.
    fn sql_close(&mut self, session: u64);

    /// The model has statement `id` wait for another transaction's lock:
    /// returns once the real one waits too (or has been answered).
    fn sql_waits(&mut self, id: u64);

    /// The model's answer to statement `id` (`pg`'s result, or `{error}`):
    /// the real answer when it differs.
    fn sql_answer(&mut self, id: u64, simulated: &Value) -> Option<Value>;

    /// Statements `ids`, oldest first, waited for a transaction that just
    /// ended: which of them the real PostgreSQL let take what they waited
    /// for when it is not the oldest (`None`: the oldest, or no telling).
    /// PostgreSQL keeps no queue there: the statements waiting for a row
    /// that changed again all wake at once, and the first to lock it goes
    /// first; the model, first come first served unless told.
    fn sql_first(&mut self, ids: &[u64]) -> Option<usize>;
}
