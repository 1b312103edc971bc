//! Expressions over a row, with SQL's NULL: a comparison with NULL is
//! NULL, and a WHERE keeps a row only when it is true.

use std::cmp::Ordering;

use serde_json::Value;

use super::interval::Interval;
use super::numeric::Decimal;
use super::parse::{Element, Expr, Function, Op, SqlError, Type};
use super::types::{arithmetic, temporal, untyped, Arithmetic};
pub use super::types::{is_numeric, type_of, Context};
pub use super::value::{cast, cast_as, compare_as, sql_equal, text, Row};
use super::value::{
    cast_array, compare, decimal, equal_as, error, is_float, jsonb_concat, kind, number, overflow,
};
use super::{array, array_text, dates, json, json_edit, to_char};

/// The key under which an INSERT's RETURNING rows carry their `xmax`
/// (no table can have a column of that name: PostgreSQL refuses one).
pub const XMAX: &str = "xmax";

/// Whether reading `e` runs a correlated subquery.
fn runs_subquery(e: &Expr) -> bool {
    let mut found = matches!(e, Expr::PerRow(_));
    e.each_child(&mut |child| found |= runs_subquery(child));
    found
}

/// Whether a WHERE keeps `row`.
pub fn matches(
    filter: &Expr,
    row: &Row,
    excluded: Option<&Row>,
    ctx: &Context,
) -> Result<bool, SqlError> {
    Ok(eval(filter, Some(row), excluded, ctx)? == Value::Bool(true))
}

pub fn eval(
    expr: &Expr,
    row: Option<&Row>,
    excluded: Option<&Row>,
    ctx: &Context,
) -> Result<Value, SqlError> {
    Ok(match expr {
        // The store runs a statement's subqueries first and puts their
        // values in their place (`Database::resolve`); one left is in a
        // schema's CHECK or DEFAULT, where PostgreSQL refuses it too.
        Expr::Exists(..) | Expr::InSelect(..) | Expr::Scalar(_) => {
            return Err(error("0A000", "cannot use subquery here".into()))
        }
        // An INSERT's VALUES put the column's default in its place
        // (`Database::new_row`); anywhere else PostgreSQL refuses it.
        Expr::Default => {
            return Err(error(
                "42601",
                "DEFAULT is not allowed in this context".into(),
            ))
        }
        // The store binds a correlated subquery's outer columns before it
        // runs it (`Database::bind_rows`); one left reads a query the
        // model runs no subquery for.
        Expr::Outer(_, name) => {
            return Err(error(
                "0A000",
                format!(
                    "a correlated subquery of a query that joins tables is not supported by \
                     the simulation (it reads the outer row's {name})"
                ),
            ))
        }
        Expr::PerRow(per_row) => {
            let values = per_row
                .columns
                .iter()
                .map(|column| row.and_then(|row| row.get(column)).cloned().unwrap_or(Value::Null))
                .collect::<Vec<_>>();
            match per_row.cases.iter().find(|(key, _)| *key == values) {
                Some((_, Ok(value))) => eval(value, row, excluded, ctx)?,
                Some((_, Err(failed))) => return Err(failed.clone()),
                None => {
                    return Err(error(
                        "0A000",
                        "a correlated subquery for a row the statement did not read first is \
                         not supported by the simulation"
                            .into(),
                    ))
                }
            }
        }
        Expr::Column(name) => row
            .and_then(|row| row.get(name).cloned())
            .ok_or_else(|| super::analysis::missing(name))?,
        Expr::Excluded(name) => excluded
            .and_then(|row| row.get(name).cloned())
            .ok_or_else(|| super::analysis::missing_excluded(name))?,
        Expr::Value(value) => value.clone(),
        Expr::Param(n) => return Err(error("08P01", format!("there is no parameter ${n}"))),
        Expr::Now => Value::String(timestamp(ctx.now_ms)),
        Expr::Uuid => Value::String(ctx.uuids.next()),
        // An INSERT's RETURNING rows carry it.
        Expr::Xmax => match row.and_then(|row| row.get(XMAX)) {
            Some(xmax) => xmax.clone(),
            None => {
                return Err(error(
                    "0A000",
                    "the system column xmax is supported by the simulation only in an \
                     INSERT's RETURNING (xmax = 0: the row was inserted, not updated)"
                        .into(),
                ))
            }
        },
        Expr::Coalesce(list) => {
            for item in list {
                let value = eval(item, row, excluded, ctx)?;
                if !value.is_null() {
                    return Ok(value);
                }
            }
            Value::Null
        }
        // An array as text is PostgreSQL's text of it.
        Expr::Cast(inner, Type::Text) if matches!(type_of(inner, ctx), Type::Array(_)) => {
            match eval(inner, row, excluded, ctx)? {
                Value::Array(items) => Value::String(array_text::literal(&items)),
                other => other,
            }
        }
        // A jsonb as text is PostgreSQL's text of it (`{"a": 1}`).
        Expr::Cast(inner, Type::Text) if type_of(inner, ctx) == Type::Jsonb => {
            match eval(inner, row, excluded, ctx)? {
                Value::Null => Value::Null,
                string @ Value::String(_) => Value::String(string.to_string()),
                other => Value::String(super::functions::json_text(&other)),
            }
        }
        // A timestamp column as text is PostgreSQL's output format.
        Expr::Cast(inner, Type::Text) if type_of(inner, ctx) == Type::Timestamp => {
            match eval(inner, row, excluded, ctx)? {
                Value::String(s) => Value::String(super::time::output(&s)),
                other => other,
            }
        }
        Expr::Cast(inner, ty) => cast_as(
            eval(inner, row, excluded, ctx)?,
            *ty,
            is_numeric(inner, ctx),
        )?,
        Expr::Not(inner) => match eval(inner, row, excluded, ctx)? {
            Value::Bool(b) => Value::Bool(!b),
            Value::Null => Value::Null,
            other => return Err(not_boolean(&other)),
        },
        Expr::Negate(inner) => match eval(inner, row, excluded, ctx)? {
            Value::Null => Value::Null,
            Value::String(s) if type_of(inner, ctx) == Type::Interval => {
                Value::String(Interval::parse(&s, None)?.negate().output())
            }
            value => match decimal(&value) {
                Ok(Some(d)) if is_numeric(inner, ctx) => {
                    Value::String(d.checked_neg().ok_or_else(overflow)?.to_string())
                }
                _ => crate::script::world::number(-number(&value)?),
            },
        },
        Expr::IsNull(inner, is_null) => {
            Value::Bool(eval(inner, row, excluded, ctx)?.is_null() == *is_null)
        }
        Expr::InList(inner, list, negated) => {
            let value = eval(inner, row, excluded, ctx)?;
            if value.is_null() {
                return Ok(Value::Null);
            }
            let numeric = std::iter::once(&**inner)
                .chain(list)
                .map(|e| arithmetic(e, ctx))
                .max()
                == Some(Arithmetic::Numeric);
            let mut found = false;
            let mut unknown = false;
            for item in list {
                let candidate =
                    ctx.as_column(inner, Some(item), eval(item, row, excluded, ctx)?)?;
                if candidate.is_null() {
                    unknown = true;
                } else if equal_as(&value, &candidate, numeric) {
                    found = true;
                }
            }
            match (found, unknown) {
                (true, _) => Value::Bool(!negated),
                (false, true) => Value::Null,
                (false, false) => Value::Bool(*negated),
            }
        }
        // `x = ANY(array)`: true if an element equals x, else NULL if an
        // element (or x) is NULL, else false.
        Expr::Any(inner, array) => {
            let value = eval(inner, row, excluded, ctx)?;
            let items = match eval(array, row, excluded, ctx)? {
                Value::Array(items) => items,
                Value::Null => return Ok(Value::Null),
                // A parameter's array comes as PostgreSQL's text of one.
                other => array_text::parse(&text(&other))?,
            };
            if value.is_null() {
                return Ok(Value::Null);
            }
            let numeric = is_numeric(inner, ctx);
            let mut answer = Value::Bool(false);
            for item in items {
                if item.is_null() {
                    answer = Value::Null;
                } else if equal_as(&value, &ctx.as_column(inner, None, item)?, numeric) {
                    return Ok(Value::Bool(true));
                }
            }
            answer
        }
        Expr::Aggregate(..) => {
            return Err(error(
                "42803",
                "aggregate functions are not allowed here".into(),
            ))
        }
        Expr::Call(function, _) if function.is_advisory() => {
            return Err(error(
                "0A000",
                "an advisory lock is taken or released only by a statement of its own in the simulation: SELECT pg_advisory_xact_lock($1)".into(),
            ))
        }
        Expr::Call(Function::Sleep, _) => {
            return Err(error(
                "0A000",
                "pg_sleep() is a statement of its own in the simulation, SELECT pg_sleep($1), which takes that much longer".into(),
            ))
        }
        Expr::Call(Function::CurrentSetting, args) => {
            let name = cast(eval(&args[0], row, excluded, ctx)?, Type::Text)?;
            let missing_ok = match args.get(1) {
                Some(arg) => cast(eval(arg, row, excluded, ctx)?, Type::Bool)?,
                None => Value::Bool(false),
            };
            let Value::String(name) = name else {
                return Ok(Value::Null);
            };
            let name = name.to_lowercase();
            let default = crate::sql::parameters::default_of(&name);
            match ctx.settings.show(&name, default.as_ref(), ctx.isolation) {
                Ok(value) => Value::String(value),
                Err(_) if missing_ok == Value::Bool(true) => Value::Null,
                Err(error) => return Err(error),
            }
        }
        Expr::Call(Function::SetConfig, _) => {
            return Err(error(
                "0A000",
                "set_config() is a statement of its own in the simulation: SELECT set_config($1, $2, true)".into(),
            ))
        }
        Expr::Call(function, args) if function.is_array() => {
            let values = args
                .iter()
                .map(|arg| eval(arg, row, excluded, ctx))
                .collect::<Result<Vec<_>, _>>()?;
            // The element type: the answer's, else its array argument's.
            let element = std::iter::once(expr).chain(args.first()).find_map(|e| match type_of(e, ctx) {
                Type::Array(element) => Some(element),
                _ => None,
            });
            array::call(*function, values, element.unwrap_or(Element::Text))?
        }
        Expr::Call(function @ (Function::JsonbSet | Function::JsonArrayLength | Function::JsonbArrayLength), args) => {
            let (name, wanted) = match function {
                Function::JsonbSet => ("jsonb_set", Type::Jsonb),
                Function::JsonArrayLength => ("json_array_length", Type::Json),
                _ => ("jsonb_array_length", Type::Jsonb),
            };
            let mut values = Vec::new();
            for (i, arg) in args.iter().enumerate() {
                let ty = type_of(arg, ctx);
                let given = if untyped(arg) { "unknown" } else { ty.name() };
                let value = eval(arg, row, excluded, ctx)?;
                // The document, and jsonb_set's new value, are json.
                let json = i == 0 || (i == 2 && *function == Function::JsonbSet);
                let value = match (json, untyped(arg)) {
                    (true, true) => cast(value, wanted)?,
                    _ => value,
                };
                values.push((value, given, json && !untyped(arg) && ty != wanted));
            }
            if values.iter().any(|(_, _, wrong)| *wrong) {
                let given: Vec<&str> = values.iter().map(|(_, given, _)| *given).collect();
                return Err(error(
                    "42883",
                    format!("function {name}({}) does not exist", given.join(", ")),
                ));
            }
            let mut values = values.into_iter().map(|(value, ..)| value);
            let doc = values.next().unwrap_or(Value::Null);
            match function {
                Function::JsonbSet => {
                    let path = values.next().unwrap_or(Value::Null);
                    let new = values.next().unwrap_or(Value::Null);
                    let create = values.next().unwrap_or(Value::Bool(true));
                    json_edit::set(doc, &path, new, &create)?
                }
                _ => json_edit::array_length(&doc)?,
            }
        }
        Expr::Call(Function::Json(function), args) => {
            let values = args
                .iter()
                .map(|arg| Ok((eval(arg, row, excluded, ctx)?, type_of(arg, ctx))))
                .collect::<Result<Vec<_>, SqlError>>()?;
            json::call(*function, values)?
        }
        Expr::Call(Function::ToTimestamp, args) => {
            dates::from_epoch(&eval(&args[0], row, excluded, ctx)?)?
        }
        Expr::Call(Function::ToChar, args) => {
            to_char::given(type_of(&args[0], ctx), untyped(&args[0]))?;
            to_char::to_char(
                &eval(&args[0], row, excluded, ctx)?,
                &eval(&args[1], row, excluded, ctx)?,
            )
        }
        Expr::Call(function @ (Function::DateTrunc | Function::Extract | Function::DatePart), args) => {
            let (unit, value) = (
                eval(&args[0], row, excluded, ctx)?,
                eval(&args[1], row, excluded, ctx)?,
            );
            let name = match function {
                Function::DateTrunc => "date_trunc",
                Function::Extract => "pg_catalog.extract",
                _ => "date_part",
            };
            let given = dates::given(name, type_of(&args[1], ctx), untyped(&args[1]))?;
            match function {
                Function::DateTrunc => dates::trunc(&unit, &value, given)?,
                Function::Extract => dates::part(&unit, &value, given, true)?,
                Function::DatePart => dates::part(&unit, &value, given, false)?,
                _ => unreachable!("matched above"),
            }
        }
        Expr::Call(function, args) => {
            let values = args
                .iter()
                .map(|arg| eval(arg, row, excluded, ctx))
                .collect::<Result<Vec<_>, _>>()?;
            let numeric = arithmetic(expr, ctx) == Arithmetic::Numeric;
            super::functions::call(*function, values, numeric)?
        }
        Expr::Like {
            expr: inner,
            pattern,
            insensitive,
            negated,
        } => {
            let (value, pattern) = (
                eval(inner, row, excluded, ctx)?,
                eval(pattern, row, excluded, ctx)?,
            );
            match super::functions::like(&value, &pattern, *insensitive)? {
                Some(found) => Value::Bool(found != *negated),
                None => Value::Null,
            }
        }
        Expr::Case {
            operand,
            branches,
            otherwise,
        } => {
            let subject = operand
                .as_deref()
                .map(|e| eval(e, row, excluded, ctx))
                .transpose()?;
            for (when, then) in branches {
                let hit = match &subject {
                    // `CASE x WHEN v`: `x = v`.
                    Some(subject) => {
                        let candidate = eval(when, row, excluded, ctx)?;
                        !subject.is_null()
                            && !candidate.is_null()
                            && compare(subject, &candidate) == Some(Ordering::Equal)
                    }
                    None => truth(&eval(when, row, excluded, ctx)?)? == Some(true),
                };
                if hit {
                    return eval(then, row, excluded, ctx);
                }
            }
            match otherwise {
                Some(e) => eval(e, row, excluded, ctx)?,
                None => Value::Null,
            }
        }
        // AND and OR stop at the side that decides, reading first a side
        // with no correlated subquery, as PostgreSQL orders a qual by its
        // cost: `id = 3 AND (SELECT …) > 1` runs the subquery, and raises
        // its error, only for the row with id 3.
        Expr::Binary(left, op @ (Op::And | Op::Or), right) => {
            let (first, second) = match (runs_subquery(left), runs_subquery(right)) {
                (true, false) => (right, left),
                _ => (left, right),
            };
            let decides = Some(*op == Op::Or);
            let first = truth(&eval(first, row, excluded, ctx)?)?;
            if first == decides {
                return Ok(Value::Bool(*op == Op::Or));
            }
            let second = truth(&eval(second, row, excluded, ctx)?)?;
            match (first, second) {
                (_, s) if s == decides => Value::Bool(*op == Op::Or),
                (Some(_), Some(_)) => Value::Bool(*op == Op::And),
                _ => Value::Null,
            }
        }
        Expr::Binary(left, op, right) => {
            let a = eval(left, row, excluded, ctx)?;
            let b = eval(right, row, excluded, ctx)?;
            if matches!(op, Op::JsonPath | Op::JsonPathText) {
                return json_edit::at_path(&a, &b, *op == Op::JsonPathText);
            }
            if *op == Op::Minus {
                match type_of(left, ctx) {
                    Type::Jsonb => return json_edit::minus(a, b, type_of(right, ctx)),
                    Type::Json => {
                        let right = if untyped(right) { "unknown" } else { type_of(right, ctx).name() };
                        return Err(error(
                            "42883",
                            format!("operator does not exist: json - {right}"),
                        ));
                    }
                    _ => {}
                }
            }
            if matches!(
                op,
                Op::Contains
                    | Op::ContainedBy
                    | Op::Overlap
                    | Op::Subscript
                    | Op::Concat
                    | Op::HasKey
            ) {
                let types = (type_of(left, ctx), type_of(right, ctx));
                let arrays = [types.0, types.1]
                    .iter()
                    .any(|ty| matches!(ty, Type::Array(_)));
                if *op != Op::Concat || arrays {
                    // The elements' type: the answer's for `||` (the wider
                    // of two arrays'), else an array side's.
                    let answer = (*op == Op::Concat).then(|| type_of(expr, ctx));
                    let element = answer
                        .into_iter()
                        .chain([types.0, types.1])
                        .find_map(|ty| match ty {
                            Type::Array(element) => Some(element),
                            _ => None,
                        });
                    return collection_binary(
                        (a, types.0, untyped(left)),
                        (*op, element),
                        (b, types.1, untyped(right)),
                    );
                }
            }
            if matches!(op, Op::DistinctFrom | Op::NotDistinctFrom) {
                // `=` that takes two NULLs as the same and is never NULL.
                let same = match (a.is_null(), b.is_null()) {
                    (true, true) => true,
                    (false, false) => {
                        operate((left, a), Op::Eq, (right, b), ctx)? == Value::Bool(true)
                    }
                    _ => false,
                };
                return Ok(Value::Bool(same == (*op == Op::NotDistinctFrom)));
            }
            operate((left, a), *op, (right, b), ctx)?
        }
    })
}

/// `a op b`, the values of `left` and `right`: a comparison, arithmetic
/// (of times too), `||`, json's `->` and `->>`, AND, OR.
fn operate(
    (left, mut a): (&Expr, Value),
    op: Op,
    (right, mut b): (&Expr, Value),
    ctx: &Context,
) -> Result<Value, SqlError> {
    if matches!(
        op,
        Op::Eq | Op::NotEq | Op::Lt | Op::LtEq | Op::Gt | Op::GtEq
    ) {
        b = ctx.as_column(left, Some(right), b)?;
        a = ctx.as_column(right, Some(left), a)?;
    }
    if !matches!(
        op,
        Op::And | Op::Or | Op::Concat | Op::JsonGet | Op::JsonText | Op::Modulo
    ) {
        let types = (type_of(left, ctx), type_of(right, ctx));
        // A date moves by an integer of days or an interval: PostgreSQL
        // has no operator for another type, and several for an untyped
        // value.
        if matches!(op, Op::Plus | Op::Minus)
            && (types.0 == Type::Date || types.1 == Type::Date)
            && temporal(types.0, op, types.1).is_none()
        {
            let name = |expr: &Expr, ty: Type| if untyped(expr) { "unknown" } else { ty.name() };
            let (code, what) = match untyped(left) || untyped(right) {
                true => ("42725", "is not unique"),
                false => ("42883", "does not exist"),
            };
            return Err(error(
                code,
                format!(
                    "operator {what}: {} {} {}",
                    name(left, types.0),
                    symbol(op),
                    name(right, types.1)
                ),
            ));
        }
        if types.0 == Type::Interval
            || types.1 == Type::Interval
            || temporal(types.0, op, types.1).is_some()
        {
            return temporal_binary(&a, types.0, op, &b, types.1);
        }
    }
    let numeric = !matches!(
        op,
        Op::And | Op::Or | Op::Concat | Op::JsonGet | Op::JsonText
    ) && arithmetic(left, ctx).max(arithmetic(right, ctx)) == Arithmetic::Numeric;
    binary(&a, op, &b, numeric)
}

/// `a op b` on arrays (`@>`, `<@`, `&&`, `[i]`, and `||` beside an
/// array) or jsonb (`@>`, `<@`, `?`).
fn collection_binary(
    (a, ta, a_untyped): (Value, Type, bool),
    (op, element): (Op, Option<Element>),
    (b, tb, b_untyped): (Value, Type, bool),
) -> Result<Value, SqlError> {
    let jsonb = |value: Value| match value {
        Value::String(s) => cast(Value::String(s), Type::Jsonb),
        other => Ok(other),
    };
    Ok(match (op, element) {
        (Op::Subscript, _) if a.is_null() || b.is_null() => Value::Null,
        (Op::Subscript, _) => match a {
            Value::Array(items) => array::element(&items, &b),
            _ => {
                return Err(error(
                    "42804",
                    format!(
                        "cannot subscript type {} because it does not support subscripting",
                        ta.name()
                    ),
                ))
            }
        },
        (Op::Contains | Op::ContainedBy | Op::Overlap, _) if a.is_null() || b.is_null() => {
            Value::Null
        }
        (Op::Contains | Op::ContainedBy | Op::Overlap, Some(element)) => {
            let (a, b) = (cast_array(a, element)?, cast_array(b, element)?);
            Value::Bool(match op {
                Op::Contains => array::contains(&a, &b),
                Op::ContainedBy => array::contains(&b, &a),
                _ => array::overlap(&a, &b),
            })
        }
        (Op::Contains | Op::ContainedBy, None) if ta == Type::Jsonb || tb == Type::Jsonb => {
            let (a, b) = (jsonb(a)?, jsonb(b)?);
            Value::Bool(match op {
                Op::Contains => array::json_contains(&a, &b, true),
                _ => array::json_contains(&b, &a, true),
            })
        }
        (Op::HasKey, _) if a.is_null() || b.is_null() => Value::Null,
        (Op::HasKey, None) if ta == Type::Jsonb => {
            let key = text(&b);
            Value::Bool(match jsonb(a)? {
                Value::Object(fields) => fields.contains_key(&key),
                Value::Array(items) => items.iter().any(|item| item.as_str() == Some(&key)),
                other => other.as_str() == Some(&key),
            })
        }
        (Op::Contains | Op::ContainedBy | Op::Overlap | Op::HasKey, _) => {
            let name = |ty: Type, untyped: bool| if untyped { "unknown" } else { ty.name() };
            return Err(error(
                "42883",
                format!(
                    "operator does not exist: {} {} {}",
                    name(ta, a_untyped),
                    symbol(op),
                    name(tb, b_untyped)
                ),
            ));
        }
        (Op::Concat, Some(element)) => {
            let items = |value: Value, ty: Type, untyped: bool| match value {
                Value::Null if untyped || matches!(ty, Type::Array(_)) => Ok(Vec::new()),
                value if untyped || matches!(ty, Type::Array(_)) => cast_array(value, element),
                value => Ok(vec![cast(value, element.ty())?]),
            };
            if a.is_null() && b.is_null() {
                return Ok(Value::Null);
            }
            let mut all = items(a, ta, a_untyped)?;
            all.extend(items(b, tb, b_untyped)?);
            Value::Array(all)
        }
        _ => unreachable!("eval sends only these operators here"),
    })
}

/// `a op b` where a side is an interval, or two timestamps subtract:
/// PostgreSQL's interval arithmetic and order (`interval`, `time`).
fn temporal_binary(a: &Value, ta: Type, op: Op, b: &Value, tb: Type) -> Result<Value, SqlError> {
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    let interval = |v: &Value| Interval::parse(&text(v), None);
    let kept = |v: &Value, t: Type| match t {
        Type::Date => super::time::parse_timestamp(&text(v), "date"),
        _ => Ok(text(v)),
    };
    let comparison = matches!(
        op,
        Op::Eq | Op::NotEq | Op::Lt | Op::LtEq | Op::Gt | Op::GtEq
    );
    if comparison {
        return Ok(Value::Bool(holds(
            op,
            interval(a)?.cmp_total(&interval(b)?),
        )));
    }
    let shown = |i: Interval| Value::String(i.output());
    Ok(match (temporal(ta, op, tb), ta, tb) {
        // A date moved by whole days.
        (Some(Type::Date), _, _) => {
            let (date, days) = if ta == Type::Date { (a, b) } else { (b, a) };
            let by = Interval {
                months: 0,
                days: number(days)? as i64,
                micros: 0,
            };
            let sign = if op == Op::Minus { -1 } else { 1 };
            let moved = super::time::shift(&kept(date, Type::Date)?, by, sign)?;
            Value::String(super::time::parse_date(&moved)?)
        }
        // Two dates' whole days apart.
        (Some(Type::Int), _, _) => {
            match super::time::between(&kept(a, Type::Date)?, &kept(b, Type::Date)?) {
                Some(apart) => Value::from(apart.days),
                None => return Err(error("22008", "cannot subtract infinite dates".into())),
            }
        }
        (Some(Type::Timestamp), Type::Interval, _) => {
            Value::String(super::time::shift(&kept(b, tb)?, interval(a)?, 1)?)
        }
        (Some(Type::Timestamp), _, _) => {
            let sign = if op == Op::Minus { -1 } else { 1 };
            Value::String(super::time::shift(&kept(a, ta)?, interval(b)?, sign)?)
        }
        (Some(Type::Interval), Type::Interval, Type::Interval) => {
            let b = match op {
                Op::Minus => interval(b)?.negate(),
                _ => interval(b)?,
            };
            shown(
                interval(a)?
                    .checked_add(b)
                    .ok_or_else(|| error("22008", "interval out of range".into()))?,
            )
        }
        (Some(Type::Interval), Type::Interval, _) => {
            let factor = number(b)?;
            match op {
                Op::Divide if factor == 0.0 => {
                    return Err(error("22012", "division by zero".into()))
                }
                Op::Divide => shown(interval(a)?.scale(1.0 / factor)?),
                _ => shown(interval(a)?.scale(factor)?),
            }
        }
        (Some(Type::Interval), _, Type::Interval) => shown(interval(b)?.scale(number(a)?)?),
        (Some(Type::Interval), _, _) => {
            let (x, y) = (kept(a, ta)?, kept(b, tb)?);
            match super::time::between(&x, &y) {
                Some(i) => shown(i),
                None => return Err(error("22008", "interval out of range".into())),
            }
        }
        _ => {
            return Err(error(
                "42883",
                format!(
                    "operator does not exist: {} {} {}",
                    ta.name(),
                    symbol(op),
                    tb.name()
                ),
            ))
        }
    })
}

/// Whether comparison `op` holds of two sides ordered `ordering`.
fn holds(op: Op, ordering: Ordering) -> bool {
    match op {
        Op::Eq => ordering.is_eq(),
        Op::NotEq => ordering.is_ne(),
        Op::Lt => ordering.is_lt(),
        Op::LtEq => ordering.is_le(),
        Op::Gt => ordering.is_gt(),
        Op::GtEq => ordering.is_ge(),
        _ => unreachable!("not a comparison: {op:?}"),
    }
}

fn not_boolean(value: &Value) -> SqlError {
    error(
        "42804",
        format!(
            "argument of WHERE must be type boolean, not \"{}\"",
            text(value)
        ),
    )
}

pub(super) fn truth(value: &Value) -> Result<Option<bool>, SqlError> {
    match value {
        Value::Bool(b) => Ok(Some(*b)),
        Value::Null => Ok(None),
        other => Err(not_boolean(other)),
    }
}

/// `a op b`; `numeric`: a side is a `numeric` (and neither a float), so
/// both compute as `numeric`s.
fn binary(a: &Value, op: Op, b: &Value, numeric: bool) -> Result<Value, SqlError> {
    match op {
        Op::And => {
            return Ok(match (truth(a)?, truth(b)?) {
                (Some(false), _) | (_, Some(false)) => Value::Bool(false),
                (Some(true), Some(true)) => Value::Bool(true),
                _ => Value::Null,
            })
        }
        Op::Or => {
            return Ok(match (truth(a)?, truth(b)?) {
                (Some(true), _) | (_, Some(true)) => Value::Bool(true),
                (Some(false), Some(false)) => Value::Bool(false),
                _ => Value::Null,
            })
        }
        _ => {}
    }
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    if numeric {
        if let (Some(x), Some(y)) = (decimal(a)?, decimal(b)?) {
            return numeric_binary(x, op, y);
        }
    }
    let ordering = || {
        compare(a, b).ok_or_else(|| {
            // A parameter's text meets a number: PostgreSQL casts it to the
            // column's type and fails there.
            if let (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) =
                (a, b)
            {
                let ty = if n.is_f64() { "numeric" } else { "integer" };
                return error(
                    "22P02",
                    format!("invalid input syntax for type {ty}: \"{s}\""),
                );
            }
            error(
                "42883",
                format!(
                    "operator does not exist: {} {} {}",
                    kind(a),
                    symbol(op),
                    kind(b)
                ),
            )
        })
    };
    Ok(match op {
        Op::Eq => Value::Bool(ordering()? == Ordering::Equal),
        Op::NotEq => Value::Bool(ordering()? != Ordering::Equal),
        Op::Lt => Value::Bool(ordering()? == Ordering::Less),
        Op::LtEq => Value::Bool(ordering()? != Ordering::Greater),
        Op::Gt => Value::Bool(ordering()? == Ordering::Greater),
        Op::GtEq => Value::Bool(ordering()? != Ordering::Less),
        Op::Concat if a.is_object() || a.is_array() || b.is_object() || b.is_array() => {
            jsonb_concat(a, b)?
        }
        Op::Concat => Value::String(text(a) + &text(b)),
        Op::JsonGet | Op::JsonText => super::functions::json_field(a, op == Op::JsonText, b)?,
        Op::JsonPath | Op::JsonPathText => unreachable!("eval reads paths (json_edit)"),
        Op::Contains | Op::ContainedBy | Op::Overlap | Op::Subscript | Op::HasKey => {
            unreachable!("eval runs the arrays' operators (collection_binary)")
        }
        Op::DistinctFrom | Op::NotDistinctFrom => {
            unreachable!("eval runs IS [NOT] DISTINCT FROM")
        }
        Op::Modulo if a.as_i64().is_some() && b.as_i64().is_some() => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            if y == 0 {
                return Err(error("22012", "division by zero".into()));
            }
            // i64::MIN % -1 is 0 (checked_rem says overflow).
            Value::from(x.checked_rem(y).unwrap_or(0))
        }
        Op::Modulo => match (decimal(a)?, decimal(b)?) {
            (Some(x), Some(y)) => numeric_binary(x, Op::Modulo, y)?,
            _ => {
                return Err(error(
                    "42883",
                    format!("operator does not exist: {} % {}", kind(a), kind(b)),
                ))
            }
        },
        // Two integers: exact, and past a bigint's range PostgreSQL's 22003.
        Op::Plus | Op::Minus | Op::Multiply | Op::Divide
            if a.as_i64().is_some() && b.as_i64().is_some() =>
        {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            let result = match op {
                Op::Plus => x.checked_add(y),
                Op::Minus => x.checked_sub(y),
                Op::Multiply => x.checked_mul(y),
                _ if y == 0 => return Err(error("22012", "division by zero".into())),
                _ => x.checked_div(y),
            };
            Value::from(result.ok_or_else(|| error("22003", "bigint out of range".into()))?)
        }
        Op::Plus | Op::Minus | Op::Multiply | Op::Divide => {
            let (x, y) = (number(a)?, number(b)?);
            let integral = x.fract() == 0.0 && y.fract() == 0.0 && !is_float(a) && !is_float(b);
            let result = match op {
                Op::Plus => x + y,
                Op::Minus => x - y,
                Op::Multiply => x * y,
                _ => {
                    if y == 0.0 {
                        return Err(error("22012", "division by zero".into()));
                    }
                    if integral {
                        (x / y).trunc()
                    } else {
                        x / y
                    }
                }
            };
            crate::script::world::number(result)
        }
        Op::And | Op::Or => unreachable!("above"),
    })
}

/// `x op y` on two `numeric`s, with PostgreSQL's scale: `+` and `-` keep
/// the larger, `*` adds them, `/` has at least 16 significant digits.
fn numeric_binary(x: Decimal, op: Op, y: Decimal) -> Result<Value, SqlError> {
    let result = match op {
        Op::Plus => x.checked_add(y),
        Op::Minus => x.checked_sub(y),
        Op::Multiply => x.checked_mul(y),
        Op::Divide if y.is_zero() => return Err(error("22012", "division by zero".into())),
        Op::Divide => x.checked_div(y),
        Op::Modulo if y.is_zero() => return Err(error("22012", "division by zero".into())),
        Op::Modulo => x.checked_rem(y),
        _ => return Ok(Value::Bool(holds(op, x.compare(&y)))),
    };
    Ok(Value::String(result.ok_or_else(overflow)?.to_string()))
}

fn symbol(op: Op) -> &'static str {
    match op {
        Op::Eq => "=",
        Op::NotEq => "<>",
        Op::Lt => "<",
        Op::LtEq => "<=",
        Op::Gt => ">",
        Op::GtEq => ">=",
        Op::And => "AND",
        Op::Or => "OR",
        Op::Plus => "+",
        Op::Minus => "-",
        Op::Multiply => "*",
        Op::Divide => "/",
        Op::Modulo => "%",
        Op::Concat => "||",
        Op::JsonGet => "->",
        Op::JsonText => "->>",
        Op::JsonPath => "#>",
        Op::JsonPathText => "#>>",
        Op::Contains => "@>",
        Op::ContainedBy => "<@",
        Op::Overlap => "&&",
        Op::Subscript => "[]",
        Op::HasKey => "?",
        Op::DistinctFrom => "IS DISTINCT FROM",
        Op::NotDistinctFrom => "IS NOT DISTINCT FROM",
    }
}

pub use super::time::timestamp;

pub use crate::sql::columns;

pub fn has_column(expr: &Expr) -> bool {
    let mut any = false;
    columns(expr, &mut |_| any = true);
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso() {
        assert_eq!(timestamp(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(1_700_000_000_123.0), "2023-11-14T22:13:20.123Z");
    }

    #[test]
    fn null_is_neither_true_nor_false() {
        let ctx = Context::default();
        let null_eq = Expr::Binary(
            Box::new(Expr::Value(Value::Null)),
            Op::Eq,
            Box::new(Expr::Value(Value::from(1))),
        );
        assert_eq!(eval(&null_eq, None, None, &ctx).unwrap(), Value::Null);
        let row = Row::new();
        assert!(!matches(&null_eq, &row, None, &ctx).unwrap());
        assert!(sql_equal(&Value::from(5), &Value::String("5".into())));
    }

    #[test]
    fn a_numeric_divides_with_postgresql_scale() {
        let ctx = Context {
            now_ms: 0.0,
            types: vec![("amount".into(), Type::Numeric(Some((12, 2))))],
            ..Context::default()
        };
        let numeric =
            |text: &str| Expr::Cast(Box::new(Expr::Value(text.into())), Type::Numeric(None));
        let int = |n: i64| Expr::Value(Value::from(n));
        let text = |s: &str| Expr::Value(Value::from(s));
        let op = |a: Expr, o: Op, b: Expr| Expr::Binary(Box::new(a), o, Box::new(b));
        let amount = || Expr::Column("amount".into());
        let mut row = Row::new();
        row.insert("amount".into(), Value::from("100.00"));
        let value = |e: &Expr| eval(e, Some(&row), None, &ctx).unwrap();
        // `SELECT 7.0 / 2, $1::numeric / 3, CAST(100 / 3.0 AS numeric(12,2))`
        // with '10', as PostgreSQL 15 answers it.
        let seven = op(numeric("7.0"), Op::Divide, int(2));
        assert_eq!(value(&seven), "3.5000000000000000");
        assert_eq!(
            value(&op(numeric("10"), Op::Divide, int(3))),
            "3.3333333333333333"
        );
        let third = op(int(100), Op::Divide, numeric("3.0"));
        assert_eq!(value(&third), "33.3333333333333333");
        let cast = Expr::Cast(Box::new(third), Type::Numeric(Some((12, 2))));
        assert_eq!(value(&cast), "33.33");
        // Integers, and untyped text beside one, still divide as integers.
        assert_eq!(value(&op(int(7), Op::Divide, int(2))), Value::from(3));
        assert_eq!(value(&op(text("10"), Op::Divide, int(3))), Value::from(3));
        // A numeric(12,2) column: its scale through + - * and a sign.
        assert_eq!(value(&op(amount(), Op::Plus, numeric("0.5"))), "100.50");
        assert_eq!(value(&op(amount(), Op::Minus, text("30"))), "70.00");
        assert_eq!(value(&op(amount(), Op::Multiply, int(3))), "300.00");
        assert_eq!(value(&Expr::Negate(Box::new(amount()))), "-100.00");
        assert_eq!(value(&Expr::Negate(Box::new(numeric("7.0")))), "-7.0");
        // Compared as numbers, a parameter's text too ("100.00" > "5").
        assert_eq!(value(&op(amount(), Op::Gt, text("5"))), Value::Bool(true));
        assert_eq!(
            value(&op(amount(), Op::Eq, numeric("100.0"))),
            Value::Bool(true)
        );
        let list = Expr::InList(Box::new(amount()), vec![numeric("1e2")], false);
        assert_eq!(value(&list), Value::Bool(true));
        let error = eval(&op(amount(), Op::Eq, text("abc")), Some(&row), None, &ctx).unwrap_err();
        assert_eq!(error.code, "22P02");
        assert_eq!(
            error.message,
            "invalid input syntax for type numeric: \"abc\""
        );
    }

    #[test]
    fn a_typmod_rounds_a_numeric_and_bounds_it() {
        let typmod = Type::Numeric(Some((12, 2)));
        assert_eq!(cast(Value::from(100), typmod).unwrap(), "100.00");
        assert_eq!(cast(Value::from("19.505"), typmod).unwrap(), "19.51");
        assert_eq!(
            cast(Value::from("19.50"), Type::Numeric(None)).unwrap(),
            "19.50"
        );
        assert_eq!(
            cast_as(Value::from("33.3333333333333333"), typmod, true).unwrap(),
            "33.33"
        );
        let error = cast(Value::from("9999999999.995"), typmod).unwrap_err();
        assert_eq!(error.code, "22003");
        assert_eq!(error.message, "numeric field overflow");
        assert_eq!(
            error.detail.as_deref(),
            Some("A field with precision 12, scale 2 must round to an absolute value less than 10^10.")
        );
        // A numeric rounds into an integer; untyped text must be one.
        assert_eq!(
            cast_as(Value::from("2.5"), Type::Int, true).unwrap(),
            Value::from(3)
        );
        assert_eq!(
            cast(Value::from("2.5"), Type::Int).unwrap_err().code,
            "22P02"
        );
    }
}
