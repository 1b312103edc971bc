//! Aggregates (`count`, `sum`, `min`, `max`, `avg`, `string_agg`,
//! `array_agg`, `json_agg` and `jsonb_agg`, with `DISTINCT` and an
//! `ORDER BY` of their own; `FILTER (WHERE …)` is a CASE in the argument,
//! `sql::parse`)
//! and the SELECTs they make: rows in groups by their `GROUP BY` columns
//! (all of them in one group without it), each group's HAVING, and one
//! output row per group. The types are PostgreSQL's: `count` is a
//! `bigint`, the `sum` of integers a `bigint` and of bigints a `numeric`,
//! `avg` a `numeric` (a double's a double), `min` and `max` their
//! argument's, `array_agg` an array of it, `json_agg` a JSON array.

use std::cmp::Ordering;

use serde_json::Value;

use super::eval::eval;
use super::json;
use super::numeric::Decimal;
use super::parse::{Aggregate, Expr, Projection, Select, SqlError, Type};
use super::types::{is_numeric, result_type, type_of, Context};
use super::value::{compare_as, decimal, error, jsonb, number, Row};

/// `kind(args)` over `rows` (no `args`: `count(*)`), read in `order`
/// (the call's own `ORDER BY`; else the rows' order): NULLs left out (but
/// by `array_agg` and the JSON ones), each value once if `distinct`; NULL
/// over no values, but `count`'s 0.
pub fn compute(
    kind: Aggregate,
    args: &[Expr],
    distinct: bool,
    order: &[(Expr, bool, bool)],
    rows: &[&Row],
    ctx: &Context,
) -> Result<Value, SqlError> {
    let Some(arg) = args.first() else {
        if kind == Aggregate::StringAgg {
            return Err(string_agg_types(args, ctx));
        }
        return Ok(Value::from(rows.len() as u64));
    };
    let ty = result_type(kind, Some(type_of(arg, ctx)))?;
    let numeric = is_numeric(arg, ctx);
    let rows = in_order(rows, order, ctx)?;
    if kind == Aggregate::StringAgg {
        return string_agg(args, distinct, order, &rows, ctx);
    }
    // `array_agg` and `json_agg` keep NULLs (as one value, with DISTINCT).
    let keeps_null = kind.keeps_nulls();
    let mut values: Vec<Value> = Vec::new();
    for row in rows {
        let value = eval(arg, Some(row), None, ctx)?;
        let seen = |other: &Value| {
            other.is_null() && value.is_null()
                || compare_as(other, &value, numeric) == Some(Ordering::Equal)
        };
        let repeated = distinct && values.iter().any(seen);
        if (keeps_null || !value.is_null()) && !repeated {
            values.push(value);
        }
    }
    // PostgreSQL sorts a DISTINCT aggregate's input: by the value (NULL
    // last), or as its ORDER BY says (whose terms are the value).
    if distinct && keeps_null {
        sort_distinct(&mut values, |value| value, order, numeric);
    }
    if keeps_null {
        if values.is_empty() {
            return Ok(Value::Null);
        }
        return Ok(match kind {
            Aggregate::JsonAgg | Aggregate::JsonbAgg => {
                let arg = type_of(arg, ctx);
                let items = values.into_iter().map(|v| json::to_json(v, arg)).collect();
                match kind {
                    Aggregate::JsonbAgg => jsonb(Value::Array(items)),
                    _ => Value::Array(items),
                }
            }
            _ => Value::Array(values),
        });
    }
    if kind == Aggregate::Count {
        return Ok(Value::from(values.len() as u64));
    }
    if values.is_empty() {
        return Ok(Value::Null);
    }
    let count = values.len();
    Ok(match (kind, ty) {
        (Aggregate::BoolAnd, _) => Value::Bool(values.iter().all(|v| *v == Value::Bool(true))),
        (Aggregate::BoolOr, _) => Value::Bool(values.contains(&Value::Bool(true))),
        (Aggregate::Min | Aggregate::Max, _) => {
            let mut values = values.into_iter();
            let mut best = values.next().unwrap_or(Value::Null);
            for value in values {
                let ordering = compare_as(&value, &best, numeric).unwrap_or(Ordering::Equal);
                let wanted = match kind {
                    Aggregate::Min => Ordering::Less,
                    _ => Ordering::Greater,
                };
                // A tie takes the later value, as PostgreSQL's `numeric_larger`
                // and `numeric_smaller` do (`10` then `10.0`: `10.0`).
                if ordering == wanted || ordering == Ordering::Equal {
                    best = value;
                }
            }
            best
        }
        (_, Type::Float) => {
            let mut sum = 0.0;
            for value in &values {
                sum += number(value)?;
            }
            match kind {
                Aggregate::Avg => crate::script::world::number(sum / count as f64),
                _ => crate::script::world::number(sum),
            }
        }
        (Aggregate::Sum, Type::BigInt) => {
            let mut sum: i64 = 0;
            for value in &values {
                let n = value.as_i64().unwrap_or(0);
                sum = sum
                    .checked_add(n)
                    .ok_or_else(|| error("22003", "bigint out of range".into()))?;
            }
            Value::from(sum)
        }
        _ => {
            let overflow = || error("22003", "value overflows numeric format".into());
            let mut sum = Decimal::from_i64(0);
            for value in &values {
                let d = decimal(value)?.unwrap_or(Decimal::from_i64(0));
                sum = sum.checked_add(d).ok_or_else(overflow)?;
            }
            let total = match kind {
                Aggregate::Avg => sum
                    .checked_div(Decimal::from_i64(count as i64))
                    .ok_or_else(overflow)?,
                _ => sum,
            };
            Value::String(total.to_string())
        }
    })
}

/// `rows` in the order of an aggregate's `ORDER BY` (stable: rows that
/// tie keep their order), or as they are without one.
fn in_order<'r>(
    rows: &[&'r Row],
    order: &[(Expr, bool, bool)],
    ctx: &Context,
) -> Result<Vec<&'r Row>, SqlError> {
    if order.is_empty() {
        return Ok(rows.to_vec());
    }
    let mut keyed = Vec::with_capacity(rows.len());
    for row in rows {
        let keys = order
            .iter()
            .map(|(e, ..)| eval(e, Some(row), None, ctx))
            .collect::<Result<Vec<_>, _>>()?;
        keyed.push((keys, *row));
    }
    let terms: Vec<(bool, bool)> = order.iter().map(|&(_, d, n)| (d, n)).collect();
    let numeric: Vec<bool> = order.iter().map(|(e, ..)| is_numeric(e, ctx)).collect();
    keyed.sort_by(|(a, _), (b, _)| compare_keys(a, b, &terms, &numeric));
    Ok(keyed.into_iter().map(|(_, row)| row).collect())
}

/// A DISTINCT aggregate's values in PostgreSQL's order: ascending, NULL
/// last, unless its ORDER BY (on the value itself) says otherwise.
fn sort_distinct<T>(
    values: &mut [T],
    value: impl Fn(&T) -> &Value,
    order: &[(Expr, bool, bool)],
    numeric: bool,
) {
    let term = order.first().map_or((false, false), |&(_, d, n)| (d, n));
    values.sort_by(|a, b| {
        compare_keys(
            std::slice::from_ref(value(a)),
            std::slice::from_ref(value(b)),
            &[term],
            &[numeric],
        )
    });
}

/// `string_agg(value, delimiter)`: the values that are not NULL, as text,
/// each after the first preceded by its own row's delimiter (NULL: none);
/// NULL over no values. PostgreSQL's 42883 for arguments that are not two
/// texts.
fn string_agg(
    args: &[Expr],
    distinct: bool,
    order: &[(Expr, bool, bool)],
    rows: &[&Row],
    ctx: &Context,
) -> Result<Value, SqlError> {
    let [value, delimiter] = args else {
        return Err(string_agg_types(args, ctx));
    };
    if [value, delimiter].iter().any(|e| !is_text(e, ctx)) {
        return Err(string_agg_types(args, ctx));
    }
    let mut parts: Vec<(Value, String)> = Vec::new();
    for row in rows {
        let text = eval(value, Some(row), None, ctx)?;
        if text.is_null() || (distinct && parts.iter().any(|(seen, _)| *seen == text)) {
            continue;
        }
        let between = match eval(delimiter, Some(row), None, ctx)? {
            Value::String(between) => between,
            _ => String::new(),
        };
        parts.push((text, between));
    }
    if distinct {
        sort_distinct(&mut parts, |(text, _)| text, order, false);
    }
    if parts.is_empty() {
        return Ok(Value::Null);
    }
    let mut joined = String::new();
    for (i, (text, between)) in parts.iter().enumerate() {
        if i > 0 {
            joined.push_str(between);
        }
        joined.push_str(text.as_str().unwrap_or_default());
    }
    Ok(Value::String(joined))
}

/// Whether PostgreSQL takes `e` as a text argument (a text, or an
/// untyped literal or NULL).
fn is_text(e: &Expr, ctx: &Context) -> bool {
    matches!(e, Expr::Value(Value::String(_) | Value::Null)) || type_of(e, ctx) == Type::Text
}

/// PostgreSQL's 42883 for a `string_agg` of other arguments.
fn string_agg_types(args: &[Expr], ctx: &Context) -> SqlError {
    let names: Vec<&str> = args
        .iter()
        .map(|e| match e {
            Expr::Value(Value::String(_) | Value::Null) => "unknown",
            e => type_of(e, ctx).name(),
        })
        .collect();
    error(
        "42883",
        format!("function string_agg({}) does not exist", names.join(", ")),
    )
}

/// `expr` over a group: its aggregates over all of `rows`, its columns
/// (grouped ones, the same in every row) from the first.
pub fn eval_group(expr: &Expr, rows: &[&Row], ctx: &Context) -> Result<Value, SqlError> {
    let mut bound = expr.clone();
    substitute(&mut bound, rows, ctx)?;
    eval(&bound, rows.first().copied(), None, ctx)
}

/// Replaces each aggregate in `expr` with its value over `rows`, typed.
fn substitute(expr: &mut Expr, rows: &[&Row], ctx: &Context) -> Result<(), SqlError> {
    if let Expr::Aggregate(kind, args, distinct, order) = expr {
        let value = compute(*kind, args, *distinct, order, rows, ctx)?;
        let ty = type_of(expr, ctx);
        *expr = Expr::Cast(Box::new(Expr::Value(value)), ty);
        return Ok(());
    }
    let mut result = Ok(());
    expr.each_child_mut(&mut |child| {
        if result.is_ok() {
            result = substitute(child, rows, ctx);
        }
    });
    result
}

/// The first column `expr` reads outside an aggregate that is not one of
/// `grouped`.
fn ungrouped(expr: &Expr, grouped: &[String], exprs: &[Expr]) -> Option<String> {
    match expr {
        Expr::Aggregate(..) => None,
        _ if exprs.contains(expr) => None,
        Expr::Column(name) if !grouped.contains(name) => Some(name.clone()),
        _ => {
            let mut first = None;
            expr.each_child(&mut |child| {
                if first.is_none() {
                    first = ungrouped(child, grouped, exprs);
                }
            });
            first
        }
    }
}

/// What a GROUP BY name groups by.
pub enum GroupTerm {
    Column(String),
    Expr(Expr),
}

/// A GROUP BY name, as PostgreSQL reads it: the table's column
/// (`table_column`, as resolved) if there is one, else the output column
/// of that name (`output`): its column, or its expression. `None` if it
/// is neither.
pub fn group_term(table_column: Option<String>, output: Option<&Expr>) -> Option<GroupTerm> {
    match (table_column, output) {
        (Some(column), _) => Some(GroupTerm::Column(column)),
        (None, Some(Expr::Column(column))) => Some(GroupTerm::Column(column.clone())),
        (None, Some(e)) => Some(GroupTerm::Expr(e.clone())),
        (None, None) => None,
    }
}

fn must_group(table: &str, column: &str) -> SqlError {
    // A joined SELECT's columns are qualified already (`e.name`).
    let column = match table.is_empty() {
        true => column.to_string(),
        false => format!("{table}.{column}"),
    };
    error(
        "42803",
        format!(
            "column \"{column}\" must appear in the GROUP BY clause or be used in an aggregate function"
        ),
    )
}

/// The output of a SELECT with aggregates or GROUP BY over the rows its
/// WHERE kept: one row per group that passes HAVING, in the groups' order
/// (by their GROUP BY values), each with the values its ORDER BY sorts by.
/// `table` names the table in errors; `ctx.types` lists its columns.
pub fn grouped(
    table: &str,
    select: &Select,
    rows: &[&Row],
    ctx: &Context,
) -> Result<Vec<(Row, Vec<Value>)>, SqlError> {
    let items: Vec<(String, Expr)> = match &select.projection {
        Projection::Items(items) => items.clone(),
        Projection::All => ctx
            .types
            .iter()
            .map(|(name, _)| (name.clone(), Expr::Column(name.clone())))
            .collect(),
    };
    let mut columns = Vec::new();
    let mut group_exprs = select.group_exprs.clone();
    for name in &select.group_by {
        let table_column = ctx.column_type(name).map(|_| name.clone());
        let output = items.iter().find(|(output, _)| output == name);
        match group_term(table_column, output.map(|(_, e)| e)) {
            Some(GroupTerm::Expr(e)) => group_exprs.push(e),
            Some(GroupTerm::Column(column)) => columns.push(column),
            // Neither: the analysis names the missing column.
            None => columns.push(name.clone()),
        }
    }
    let exprs = items.iter().map(|(_, e)| e).chain(select.having.as_ref());
    for expr in exprs {
        if let Some(column) = ungrouped(expr, &columns, &group_exprs) {
            return Err(must_group(table, &column));
        }
    }
    let groups: Vec<Vec<&Row>> = if columns.is_empty() && group_exprs.is_empty() {
        vec![rows.to_vec()]
    } else {
        let key = |row: &Row| -> Result<Vec<Value>, SqlError> {
            let mut key: Vec<Value> = columns
                .iter()
                .map(|column| row.get(column).cloned().unwrap_or(Value::Null))
                .collect();
            for e in &group_exprs {
                key.push(eval(e, Some(row), None, ctx)?);
            }
            Ok(key)
        };
        let numeric: Vec<bool> = columns
            .iter()
            .map(|c| ctx.numeric(c))
            .chain(group_exprs.iter().map(|e| is_numeric(e, ctx)))
            .collect();
        let keys = rows
            .iter()
            .map(|row| key(row))
            .collect::<Result<Vec<_>, _>>()?;
        let same = |a: &[Value], b: &[Value]| {
            a.iter().zip(b).zip(&numeric).all(|((x, y), &numeric)| {
                (x.is_null() && y.is_null()) || compare_as(x, y, numeric) == Some(Ordering::Equal)
            })
        };
        let mut order: Vec<usize> = (0..rows.len()).collect();
        let ascending = vec![(false, false); numeric.len()];
        order.sort_by(|&a, &b| compare_keys(&keys[a], &keys[b], &ascending, &numeric));
        let mut groups: Vec<(usize, Vec<&Row>)> = Vec::new();
        for index in order {
            match groups.last_mut() {
                Some((first, members)) if same(&keys[*first], &keys[index]) => {
                    members.push(rows[index])
                }
                _ => groups.push((index, vec![rows[index]])),
            }
        }
        groups.into_iter().map(|(_, members)| members).collect()
    };
    let mut out = Vec::new();
    for members in groups {
        if let Some(having) = &select.having {
            if eval_group(having, &members, ctx)? != Value::Bool(true) {
                continue;
            }
        }
        let mut row = Row::new();
        for (name, expr) in &items {
            row.insert(name.clone(), eval_group(expr, &members, ctx)?);
        }
        let mut keys = Vec::new();
        for (name, ..) in &select.order {
            let value = match row.get(name) {
                Some(value) => value.clone(),
                None if columns.contains(name) => members
                    .first()
                    .and_then(|first| first.get(name))
                    .cloned()
                    .unwrap_or(Value::Null),
                None if ctx.column_type(name).is_some() => return Err(must_group(table, name)),
                None => return Err(error("42703", format!("column \"{name}\" does not exist"))),
            };
            keys.push(value);
        }
        out.push((row, keys));
    }
    Ok(out)
}

/// Orders two rows by their ORDER BY values: each term ascending or
/// descending, NULLs first or last, a `numeric` term by value.
pub fn compare_keys(
    a: &[Value],
    b: &[Value],
    order: &[(bool, bool)],
    numeric: &[bool],
) -> Ordering {
    for (k, (descending, nulls_first)) in order.iter().enumerate() {
        let (x, y) = (&a[k], &b[k]);
        let ordering = match (x.is_null(), y.is_null(), *nulls_first) {
            (true, true, _) => Ordering::Equal,
            (true, false, true) | (false, true, false) => Ordering::Less,
            (true, false, false) | (false, true, true) => Ordering::Greater,
            (false, false, _) => {
                let ordering = compare_as(x, y, numeric[k]).unwrap_or(Ordering::Equal);
                match *descending {
                    true => ordering.reverse(),
                    false => ordering,
                }
            }
        };
        if ordering.is_ne() {
            return ordering;
        }
    }
    Ordering::Equal
}
