//! PostgreSQL's planner folds the constant parts of a statement's
//! expressions before the statement reads a row
//! (`eval_const_expressions`), and an error in one is the statement's
//! error whether or not a row would have reached it: `DELETE FROM orders
//! WHERE id = 1/0` fails on an empty table, and so does `$1::int +
//! 2147483647` with `$1` = 5 (node-postgres's statements are planned with
//! their parameters' values). [`check`] evaluates those parts in
//! PostgreSQL's order before the store runs the statement; the store then
//! evaluates them again where it reads them, with the same result.
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
//! Rules"); `COALESCE` stops at its first constant that is not `NULL`; a
//! strict operator or function with a constant `NULL` (a `NULL`
//! parameter too) is `NULL`, its other parts unread. What folding leaves
//! unread is not run: such a statement runs with each part that folds to
//! `NULL` or to a boolean in that constant's place, as PostgreSQL runs
//! its rewritten plan.

use std::cell::Cell;

use serde_json::Value;

use super::eval::{eval, type_of, Context};
use super::parse::{Expr, Function, Op, Plan, SqlError};
use crate::sql::{Cte, JsonFunction, Select, TextFunction};

/// Fails as PostgreSQL's planner would on a constant part of `plan`;
/// else the plan as it runs: `plan` itself, or, when folding left a part
/// of it unread, `plan` with each part that folds to NULL or to a boolean
/// in that constant's place (`x / y < NULL::int` is `NULL`, `x / y > 0
/// AND false` is `false`: neither divides by a row's zero).
pub fn check(plan: &Plan, ctx: &Context) -> Result<Option<Plan>, SqlError> {
    let folding = Folding {
        ctx,
        pruned: Cell::new(false),
    };
    folding.plan(plan)?;
    // A qualification one of whose ANDed parts folds to false or NULL is
    // false, and none of it is read (PostgreSQL's `canonicalize_qual`:
    // `WHERE id = $1 AND a / b > 1` with `$1` NULL reads no row).
    let mut planned = plan.clone();
    let mut unmet = false;
    let mut found = Vec::new();
    quals(&mut planned, &mut found);
    for qual in found {
        if *qual != Expr::Value(Value::Bool(false)) && folding.unmet(qual)? {
            *qual = Expr::Value(Value::Bool(false));
            unmet = true;
        }
    }
    if !folding.pruned.get() {
        return Ok(unmet.then_some(planned));
    }
    crate::sql::visit_mut(&mut planned, &mut |e| {
        // A literal stays as written (an untyped NULL takes its column's
        // type).
        if matches!(e, Expr::Value(_)) {
            return;
        }
        if let Ok(Some(folded)) = folding.fold(e) {
            match folding.value(&folded) {
                Ok(Value::Null) => *e = typed_null(e, ctx),
                Ok(Value::Bool(b)) => *e = Expr::Value(Value::Bool(b)),
                _ => {}
            }
        }
    });
    Ok(Some(planned))
}

/// The qualifications of `plan` and of its `WITH` queries and
/// `INSERT … SELECT`'s query: each `WHERE`, `HAVING` and `ON`.
fn quals<'a>(plan: &'a mut Plan, found: &mut Vec<&'a mut Expr>) {
    match plan {
        Plan::Select(query) => select_quals(query, found),
        Plan::Insert(insert) => {
            cte_quals(&mut insert.with, found);
            if let Some(query) = &mut insert.select {
                select_quals(query, found);
            }
        }
        Plan::Update(update) => {
            cte_quals(&mut update.with, found);
            found.extend(update.filter.as_mut());
            found.extend(update.from.iter_mut().filter_map(|j| j.on.as_mut()));
        }
        Plan::Delete(delete) => {
            cte_quals(&mut delete.with, found);
            found.extend(delete.filter.as_mut());
            found.extend(delete.using.iter_mut().filter_map(|j| j.on.as_mut()));
        }
        _ => {}
    }
}

fn select_quals<'a>(query: &'a mut Select, found: &mut Vec<&'a mut Expr>) {
    let Select {
        with,
        filter,
        having,
        joins,
        ..
    } = query;
    cte_quals(with, found);
    found.extend(filter.as_mut());
    found.extend(having.as_mut());
    found.extend(joins.iter_mut().filter_map(|j| j.on.as_mut()));
}

fn cte_quals<'a>(with: &'a mut [Cte], found: &mut Vec<&'a mut Expr>) {
    for cte in with {
        match &mut cte.write {
            Some(write) => quals(write, found),
            None => select_quals(&mut cte.select, found),
        }
    }
}

/// NULL, with `e`'s type (what the reply's field says).
fn typed_null(e: &Expr, ctx: &Context) -> Expr {
    Expr::Cast(Box::new(Expr::Value(Value::Null)), type_of(e, ctx))
}

/// One statement's folding: the context its constants are evaluated in,
/// and whether a part that is not constant was left unread (an `AND`
/// that a constant `false` ends, a strict operator with a NULL).
struct Folding<'a> {
    ctx: &'a Context,
    pruned: Cell<bool>,
}

impl Folding<'_> {
    fn plan(&self, plan: &Plan) -> Result<(), SqlError> {
        for cte in plan.with() {
            match &cte.write {
                Some(write) => self.plan(write)?,
                None => self.select(&cte.select)?,
            }
        }
        if let Plan::Insert(insert) = plan {
            if let Some(query) = &insert.select {
                self.select(query)?;
            }
        }
        for e in plan.own_exprs() {
            self.fold(e)?;
        }
        Ok(())
    }

    fn select(&self, query: &Select) -> Result<(), SqlError> {
        for cte in &query.with {
            match &cte.write {
                Some(write) => self.plan(write)?,
                None => self.select(&cte.select)?,
            }
        }
        for e in query.own_exprs() {
            self.fold(e)?;
        }
        Ok(())
    }

    /// What `e` folds to, if it folds to a constant: an expression that
    /// reads no row (`e` with its parts folded, as PostgreSQL rewrites it;
    /// it keeps their casts, so its value's type is `e`'s), evaluated once
    /// already.
    fn fold(&self, e: &Expr) -> Result<Option<Expr>, SqlError> {
        match e {
            Expr::Value(_) => Ok(Some(e.clone())),
            Expr::Binary(a, op @ (Op::And | Op::Or), b) => self.logical(a, *op, b),
            Expr::Coalesce(list) => self.coalesce(list),
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => self.case(operand.as_deref(), branches, otherwise.as_deref()),
            _ => {
                if let Some(query) = e.subquery() {
                    self.select(query)?;
                }
                let mut parts = Vec::new();
                let mut failed = None;
                e.each_child(&mut |child| {
                    if failed.is_none() {
                        match self.fold(child) {
                            Ok(part) => parts.push(part),
                            Err(error) => failed = Some(error),
                        }
                    }
                });
                if let Some(error) = failed {
                    return Err(error);
                }
                // A strict operator or function with a NULL is NULL, its
                // other parts unread.
                if strict(e) {
                    for part in parts.iter().flatten() {
                        if self.value(part)?.is_null() {
                            if parts.iter().any(Option::is_none) {
                                self.pruned.set(true);
                            }
                            return Ok(Some(typed_null(e, self.ctx)));
                        }
                    }
                }
                if !immutable(e) || parts.iter().any(Option::is_none) {
                    return Ok(None);
                }
                let mut folded = e.clone();
                let mut parts = parts.into_iter().flatten();
                folded.each_child_mut(&mut |child| *child = parts.next().expect("a part each"));
                self.value(&folded)?;
                Ok(Some(folded))
            }
        }
    }

    /// Whether the qualification `qual` is false: one of its ANDed parts
    /// folds to false or NULL.
    fn unmet(&self, qual: &Expr) -> Result<bool, SqlError> {
        if let Expr::Binary(a, Op::And, b) = qual {
            return Ok(self.unmet(a)? || self.unmet(b)?);
        }
        Ok(match self.fold(qual)? {
            Some(folded) => matches!(self.value(&folded)?, Value::Null | Value::Bool(false)),
            None => false,
        })
    }

    /// A folded expression's value.
    fn value(&self, folded: &Expr) -> Result<Value, SqlError> {
        eval(folded, None, None, self.ctx)
    }

    /// `a AND b`, `a OR b`: a constant `false` (`true` for `OR`) ends it,
    /// and what comes after it is not folded.
    fn logical(&self, a: &Expr, op: Op, b: &Expr) -> Result<Option<Expr>, SqlError> {
        let ends = Value::Bool(op == Op::Or);
        let mut parts = Vec::new();
        for e in [a, b] {
            let part = self.fold(e)?;
            if let Some(part) = &part {
                if self.value(part)? == ends {
                    // The other side is not read (it may be a constant).
                    self.pruned.set(true);
                    return Ok(Some(Expr::Value(ends)));
                }
            }
            parts.push(part);
        }
        match (parts.remove(0), parts.remove(0)) {
            (Some(left), Some(right)) => {
                let both = Expr::Binary(Box::new(left), op, Box::new(right));
                self.value(&both)?;
                Ok(Some(both))
            }
            _ => Ok(None),
        }
    }

    /// `COALESCE(…)`: a constant `NULL` is dropped; a constant that is not
    /// ends it, and is what it folds to if nothing came before it.
    fn coalesce(&self, list: &[Expr]) -> Result<Option<Expr>, SqlError> {
        let mut first = true;
        for e in list {
            match self.fold(e)? {
                Some(part) if self.value(&part)?.is_null() => {}
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
        &self,
        operand: Option<&Expr>,
        branches: &[(Expr, Expr)],
        otherwise: Option<&Expr>,
    ) -> Result<Option<Expr>, SqlError> {
        let subject = operand.map(|e| self.fold(e)).transpose()?;
        let mut kept = false;
        for (when, then) in branches {
            let condition = match (self.fold(when)?, &subject) {
                (None, _) | (_, Some(None)) => None,
                (Some(when), None) => Some(self.value(&when)?),
                // `CASE x WHEN v`: whether `x = v`, as the evaluator's CASE
                // compares them.
                (Some(when), Some(Some(x))) => {
                    let test = Expr::Case {
                        operand: Some(Box::new(x.clone())),
                        branches: vec![(when, Expr::Value(Value::Bool(true)))],
                        otherwise: Some(Box::new(Expr::Value(Value::Bool(false)))),
                    };
                    Some(self.value(&test)?)
                }
            };
            match condition {
                Some(Value::Bool(false) | Value::Null) => continue,
                Some(Value::Bool(true)) => {
                    let result = self.fold(then)?;
                    return Ok(if kept { None } else { result });
                }
                _ => {
                    self.fold(then)?;
                    kept = true;
                }
            }
        }
        let result = match otherwise {
            Some(e) => self.fold(e)?,
            None => Some(Expr::Value(Value::Null)),
        };
        Ok(if kept { None } else { result })
    }
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

/// Whether PostgreSQL's `e` is strict (NULL when any part is NULL), of
/// those the model folds: the arithmetic, the comparisons, `NOT`, `LIKE`,
/// a cast, and the text and number functions.
fn strict(e: &Expr) -> bool {
    match e {
        Expr::Binary(_, op, _) => matches!(
            op,
            Op::Plus
                | Op::Minus
                | Op::Multiply
                | Op::Divide
                | Op::Modulo
                | Op::Eq
                | Op::NotEq
                | Op::Lt
                | Op::LtEq
                | Op::Gt
                | Op::GtEq
                | Op::JsonGet
                | Op::JsonText
        ),
        Expr::Not(_) | Expr::Negate(_) | Expr::Cast(..) | Expr::Like { .. } => true,
        Expr::Call(function, _) => match function {
            Function::Lower
            | Function::Upper
            | Function::Length
            | Function::Abs
            | Function::Round
            | Function::Ceil
            | Function::Floor
            | Function::HashText
            | Function::JsonbSet
            | Function::JsonArrayLength
            | Function::JsonbArrayLength => true,
            Function::Text(text) => *text != TextFunction::Concat,
            _ => false,
        },
        _ => false,
    }
}
