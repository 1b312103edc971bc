//! PostgreSQL's planner folds the constant parts of a statement's
//! expressions before the statement reads a row
//! (`eval_const_expressions`), and an error in one is the statement's
//! error whether or not a row would have reached it: `DELETE FROM orders
//! WHERE id = 1/0` fails on an empty table, and so does `$1::int +
//! 2147483647` with `$1` = 5 (node-postgres's statements are planned with
//! their parameters' values). [`check`] evaluates those parts in
//! PostgreSQL's order before the store runs the statement; the store then
//! evaluates them again where it reads them, as it always did, with the
//! same result.
//!
//! Folded: an expression with no column, no subquery, no aggregate and no
//! function PostgreSQL marks other than immutable (`now()`,
//! `gen_random_uuid()`, `current_setting`, `to_char`, `concat`,
//! `to_json`, the advisory locks, …); the arguments of those are folded
//! still. As PostgreSQL does, an `AND` stops at a constant `false` (an
//! `OR` at `true`), so `WHERE false AND 1/0 = 1` reads no row and fails
//! nothing, while `WHERE 1/0 = 1 AND false` fails; a `CASE` drops the
//! arms whose condition is a constant `false` or `NULL` without folding
//! their result, and everything after an arm whose condition is a
//! constant `true`; the other arms' results are folded, so `CASE WHEN
//! user_id > 0 THEN 1 ELSE 1/0 END` fails on a table whose every row
//! would take the first arm (PostgreSQL's manual, "Expression Evaluation
//! Rules"); `COALESCE` stops at its first constant that is not `NULL`.

use serde_json::Value;

use super::eval::{eval, Context};
use super::parse::{Expr, Function, Op, Plan, SqlError};
use crate::sql::{JsonFunction, Select, TextFunction};

/// Fails as PostgreSQL's planner would on a constant part of `plan`.
pub fn check(plan: &Plan, ctx: &Context) -> Result<(), SqlError> {
    for cte in plan.with() {
        match &cte.write {
            Some(write) => check(write, ctx)?,
            None => select(&cte.select, ctx)?,
        }
    }
    if let Plan::Insert(insert) = plan {
        if let Some(query) = &insert.select {
            select(query, ctx)?;
        }
    }
    for e in plan.own_exprs() {
        fold(e, ctx)?;
    }
    Ok(())
}

fn select(query: &Select, ctx: &Context) -> Result<(), SqlError> {
    for cte in &query.with {
        match &cte.write {
            Some(write) => check(write, ctx)?,
            None => select(&cte.select, ctx)?,
        }
    }
    for e in query.own_exprs() {
        fold(e, ctx)?;
    }
    Ok(())
}

/// What `e` folds to, if it folds to a constant: an expression that reads
/// no row (`e` with its parts folded, as PostgreSQL rewrites it; it keeps
/// their casts, so its value's type is `e`'s), evaluated once already.
fn fold(e: &Expr, ctx: &Context) -> Result<Option<Expr>, SqlError> {
    match e {
        Expr::Value(_) => Ok(Some(e.clone())),
        Expr::Binary(a, op @ (Op::And | Op::Or), b) => logical(a, *op, b, ctx),
        Expr::Coalesce(list) => coalesce(list, ctx),
        Expr::Case {
            operand,
            branches,
            otherwise,
        } => case(operand.as_deref(), branches, otherwise.as_deref(), ctx),
        _ => {
            if let Some(query) = e.subquery() {
                select(query, ctx)?;
            }
            let mut parts = Vec::new();
            let mut failed = None;
            e.each_child(&mut |child| {
                if failed.is_none() {
                    match fold(child, ctx) {
                        Ok(part) => parts.push(part),
                        Err(error) => failed = Some(error),
                    }
                }
            });
            if let Some(error) = failed {
                return Err(error);
            }
            if !immutable(e) || parts.iter().any(Option::is_none) {
                return Ok(None);
            }
            let mut folded = e.clone();
            let mut parts = parts.into_iter().flatten();
            folded.each_child_mut(&mut |child| *child = parts.next().expect("a part each"));
            eval(&folded, None, None, ctx)?;
            Ok(Some(folded))
        }
    }
}

/// A folded expression's value.
fn value(folded: &Expr, ctx: &Context) -> Result<Value, SqlError> {
    eval(folded, None, None, ctx)
}

/// Whether PostgreSQL folds `e` once its parts are constants: an
/// operator, a cast, a test, or a function it marks immutable.
fn immutable(e: &Expr) -> bool {
    match e {
        Expr::Binary(..)
        | Expr::Not(_)
        | Expr::Negate(_)
        | Expr::IsNull(..)
        | Expr::InList(..)
        | Expr::Any(..)
        | Expr::Cast(..)
        | Expr::Like { .. } => true,
        Expr::Call(function, _) => match function {
            // Stable (they read the session's settings, or print through
            // a type's output) or volatile.
            Function::AdvisoryLock { .. }
            | Function::AdvisoryUnlock
            | Function::AdvisoryUnlockAll
            | Function::CurrentSetting
            | Function::SetConfig
            | Function::Sleep
            | Function::DateTrunc
            | Function::ToTimestamp
            | Function::ToChar
            | Function::Extract
            | Function::DatePart
            | Function::Text(TextFunction::Concat)
            | Function::Json(
                JsonFunction::JsonBuildObject
                | JsonFunction::JsonbBuildObject
                | JsonFunction::JsonBuildArray
                | JsonFunction::JsonbBuildArray
                | JsonFunction::ToJson
                | JsonFunction::ToJsonb,
            ) => false,
            _ => true,
        },
        _ => false,
    }
}

/// `a AND b`, `a OR b`: a constant `false` (`true` for `OR`) ends it,
/// and what comes after it is not folded.
fn logical(a: &Expr, op: Op, b: &Expr, ctx: &Context) -> Result<Option<Expr>, SqlError> {
    let ends = Value::Bool(op == Op::Or);
    let mut parts = Vec::new();
    for e in [a, b] {
        let part = fold(e, ctx)?;
        if let Some(part) = &part {
            if value(part, ctx)? == ends {
                return Ok(Some(Expr::Value(ends)));
            }
        }
        parts.push(part);
    }
    match (parts.remove(0), parts.remove(0)) {
        (Some(left), Some(right)) => {
            let both = Expr::Binary(Box::new(left), op, Box::new(right));
            value(&both, ctx)?;
            Ok(Some(both))
        }
        _ => Ok(None),
    }
}

/// `COALESCE(…)`: a constant `NULL` is dropped; a constant that is not
/// ends it, and is what it folds to if nothing came before it.
fn coalesce(list: &[Expr], ctx: &Context) -> Result<Option<Expr>, SqlError> {
    let mut first = true;
    for e in list {
        match fold(e, ctx)? {
            Some(part) if value(&part, ctx)?.is_null() => {}
            Some(part) => return Ok(first.then_some(part)),
            None => first = false,
        }
    }
    Ok(first.then_some(Expr::Value(Value::Null)))
}

/// `CASE`: an arm whose condition is a constant `false` or `NULL` is
/// dropped unfolded; one whose condition is a constant `true` ends it
/// (what it folds to, if no arm came before it); otherwise every arm's
/// result and the `ELSE` are folded.
fn case(
    operand: Option<&Expr>,
    branches: &[(Expr, Expr)],
    otherwise: Option<&Expr>,
    ctx: &Context,
) -> Result<Option<Expr>, SqlError> {
    let subject = operand.map(|e| fold(e, ctx)).transpose()?;
    let mut kept = false;
    for (when, then) in branches {
        let condition = match (fold(when, ctx)?, &subject) {
            (None, _) | (_, Some(None)) => None,
            (Some(when), None) => Some(value(&when, ctx)?),
            // `CASE x WHEN v`: whether `x = v`, as the evaluator's CASE
            // compares them.
            (Some(when), Some(Some(x))) => {
                let test = Expr::Case {
                    operand: Some(Box::new(x.clone())),
                    branches: vec![(when, Expr::Value(Value::Bool(true)))],
                    otherwise: Some(Box::new(Expr::Value(Value::Bool(false)))),
                };
                Some(value(&test, ctx)?)
            }
        };
        match condition {
            Some(Value::Bool(false) | Value::Null) => continue,
            Some(Value::Bool(true)) => {
                let result = fold(then, ctx)?;
                return Ok(if kept { None } else { result });
            }
            _ => {
                fold(then, ctx)?;
                kept = true;
            }
        }
    }
    let result = match otherwise {
        Some(e) => fold(e, ctx)?,
        None => Some(Expr::Value(Value::Null)),
    };
    Ok(if kept { None } else { result })
}
