//! `SELECT pg_sleep(seconds)`: the server sleeps before it answers, so the
//! statement's round trip takes that much longer (a transaction keeps its
//! row locks and its connection meanwhile). The sleep is worked out when
//! the statement is sent, from its bound argument; the reply (`''`, or
//! NULL for a NULL argument) when it lands.

use serde_json::Value;

use super::eval::eval;
use super::types::Context;
use super::SqlError;
use crate::sql::{Expr, Plan, Type};

/// The longest sleep the run's clock takes: about 31 years.
const LONGEST_SECONDS: f64 = 1e9;

/// The seconds a `pg_sleep` argument asks for, as PostgreSQL reads it (a
/// double precision: `'abc'` is 22P02); `None` for NULL, which does not
/// sleep.
pub fn seconds_of(arg: &Expr, ctx: &Context) -> Result<Option<f64>, SqlError> {
    let value = eval(
        &Expr::Cast(Box::new(arg.clone()), Type::Float),
        None,
        None,
        ctx,
    )?;
    Ok(match value {
        Value::Null => None,
        value => Some(value.as_f64().unwrap_or(0.0)),
    })
}

/// How much longer the statement takes, in microseconds: 0 unless it is
/// `SELECT pg_sleep(…)` with a positive number of seconds (a negative one,
/// NaN or an argument in error sleeps not at all, the error coming back
/// with the reply).
pub fn sleep_micros(plan: &Plan) -> u64 {
    let Some(arg) = plan.sleep() else {
        return 0;
    };
    match seconds_of(arg, &Context::default()) {
        Ok(Some(seconds)) if seconds > 0.0 => (seconds.min(LONGEST_SECONDS) * 1e6).round() as u64,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::sql::parse;

    fn micros(text: &str) -> u64 {
        sleep_micros(&parse(text).unwrap())
    }

    #[test]
    fn a_sleep_statement_takes_its_seconds_longer() {
        assert_eq!(micros("SELECT pg_sleep(0.05)"), 50_000);
        assert_eq!(micros("select pg_sleep(1e-3) AS s"), 1_000);
        assert_eq!(micros("SELECT pg_sleep('2')"), 2_000_000);
        assert_eq!(micros("SELECT pg_sleep(-1)"), 0);
        assert_eq!(micros("SELECT pg_sleep(NULL)"), 0);
        assert_eq!(micros("SELECT pg_sleep('abc')"), 0);
        assert_eq!(micros("SELECT pg_sleep(1e12)"), 1_000_000_000_000_000);
        // Not a statement of its own: no sleep (the store refuses it).
        assert_eq!(micros("SELECT pg_sleep(1) FROM t"), 0);
        assert_eq!(micros("SELECT 1"), 0);
    }
}
