//! Expressions over a row, with SQL's NULL: a comparison with NULL is
//! NULL, and a WHERE keeps a row only when it is true.

use std::cmp::Ordering;

use serde_json::Value;

use serde_json::Map;

use super::interval::Interval;
use super::numeric::Decimal;
use super::parse::{Expr, Function, Op, SqlError, Type};

/// A row: a JSON object of its columns.
pub type Row = Map<String, Value>;

/// What an expression may read besides the row: the simulated clock, and
/// the types of the table's columns, which decide how arithmetic and
/// comparisons compute (a `numeric` is held as its text, "19.50", which
/// orders as text beside a parameter's otherwise; a text compared with an
/// integer, timestamp, date or uuid column is read as that type, as
/// PostgreSQL types an untyped parameter by the column it meets).
pub struct Context {
    pub now_ms: f64,
    pub types: Vec<(String, Type)>,
}

impl Context {
    fn column(&self, name: &str) -> Arithmetic {
        self.column_type(name)
            .map_or(Arithmetic::Other, Arithmetic::of)
    }

    pub fn column_type(&self, name: &str) -> Option<Type> {
        self.types
            .iter()
            .find(|(column, _)| column == name)
            .map(|(_, ty)| *ty)
    }

    /// `value` (of the expression `other`, if known) as the column `expr`
    /// is, where `expr` is an integer, timestamp, date or uuid column and
    /// `value` a text (not a `numeric`'s): PostgreSQL's error if the text
    /// is not one.
    fn as_column(
        &self,
        expr: &Expr,
        other: Option<&Expr>,
        value: Value,
    ) -> Result<Value, SqlError> {
        let (Expr::Column(name) | Expr::Excluded(name)) = expr else {
            return Ok(value);
        };
        if other.is_some_and(|other| arithmetic(other, self) != Arithmetic::Other) {
            return Ok(value);
        }
        match (self.column_type(name), &value) {
            (
                Some(ty @ (Type::Int | Type::BigInt | Type::Timestamp | Type::Date | Type::Uuid)),
                Value::String(_),
            ) => cast(value, ty),
            _ => Ok(value),
        }
    }

    /// Whether a column of the table is a `numeric`.
    pub fn numeric(&self, name: &str) -> bool {
        self.column(name) == Arithmetic::Numeric
    }
}

/// How PostgreSQL computes an expression's arithmetic, by its type: a
/// `numeric` exactly, with its scale; a float as a float, which wins over
/// a `numeric`; `Other` is an integer, text or an untyped parameter
/// (which takes the type of the other side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Arithmetic {
    Other,
    Numeric,
    Float,
}

impl Arithmetic {
    fn of(ty: Type) -> Arithmetic {
        match ty {
            Type::Numeric(_) => Arithmetic::Numeric,
            Type::Float => Arithmetic::Float,
            _ => Arithmetic::Other,
        }
    }
}

fn arithmetic(expr: &Expr, ctx: &Context) -> Arithmetic {
    let widest = |list: &mut dyn Iterator<Item = &Expr>| {
        list.map(|e| arithmetic(e, ctx))
            .max()
            .unwrap_or(Arithmetic::Other)
    };
    match expr {
        Expr::Cast(_, ty) => Arithmetic::of(*ty),
        Expr::Column(name) | Expr::Excluded(name) => ctx.column(name),
        Expr::Negate(inner) => arithmetic(inner, ctx),
        Expr::Binary(a, Op::Plus | Op::Minus | Op::Multiply | Op::Divide | Op::Modulo, b) => {
            arithmetic(a, ctx).max(arithmetic(b, ctx))
        }
        Expr::Coalesce(list) => widest(&mut list.iter()),
        Expr::Aggregate(..) => Arithmetic::of(type_of(expr, ctx)),
        Expr::Call(Function::Round, args) if args.len() == 2 => Arithmetic::Numeric,
        Expr::Call(
            Function::Abs
            | Function::Round
            | Function::Greatest
            | Function::Least
            | Function::NullIf,
            args,
        ) => widest(&mut args.iter()),
        Expr::Case {
            branches,
            otherwise,
            ..
        } => widest(
            &mut branches
                .iter()
                .map(|(_, then)| then)
                .chain(otherwise.as_deref()),
        ),
        _ => Arithmetic::Other,
    }
}

/// The type PostgreSQL gives an expression (text when it cannot tell, as
/// for an untyped literal): a column's field in a reply, and an
/// aggregate's argument.
pub fn type_of(expr: &Expr, ctx: &Context) -> Type {
    let rank = |t: Type| match t {
        Type::Int => 0,
        Type::BigInt => 1,
        Type::Numeric(_) => 2,
        Type::Float => 3,
        _ => 0,
    };
    let widest = |list: &mut dyn Iterator<Item = &Expr>| {
        list.map(|e| type_of(e, ctx))
            .reduce(|a, b| if rank(a) >= rank(b) { a } else { b })
            .unwrap_or(Type::Text)
    };
    match expr {
        Expr::Column(name) | Expr::Excluded(name) => ctx.column_type(name).unwrap_or(Type::Text),
        Expr::Cast(_, ty) => *ty,
        Expr::Value(Value::Number(n)) if n.is_i64() => Type::Int,
        Expr::Value(Value::Number(_)) => Type::Numeric(None),
        Expr::Value(Value::Bool(_)) => Type::Bool,
        Expr::Value(_) | Expr::Param(_) => Type::Text,
        Expr::Now => Type::Timestamp,
        Expr::Uuid => Type::Uuid,
        Expr::Negate(inner) => type_of(inner, ctx),
        Expr::Coalesce(list) => list.first().map_or(Type::Text, |e| type_of(e, ctx)),
        Expr::Not(_) | Expr::IsNull(..) | Expr::InList(..) | Expr::Any(..) | Expr::Like { .. } => {
            Type::Bool
        }
        Expr::Aggregate(kind, arg, _) => {
            let arg = arg.as_deref().map(|arg| type_of(arg, ctx));
            super::aggregate::result_type(*kind, arg).unwrap_or(Type::Text)
        }
        Expr::Call(function, args) => match function {
            Function::AdvisoryLock { wait: true, .. } | Function::AdvisoryUnlockAll => Type::Void,
            Function::AdvisoryLock { wait: false, .. } | Function::AdvisoryUnlock => Type::Bool,
            Function::HashText => Type::Int,
            Function::Lower | Function::Upper => Type::Text,
            Function::Length => Type::Int,
            Function::Round if args.len() == 2 => Type::Numeric(None),
            // `round(integer)` is `round(double precision)`.
            Function::Round => match type_of(&args[0], ctx) {
                Type::Numeric(_) => Type::Numeric(None),
                _ => Type::Float,
            },
            Function::Abs | Function::Greatest | Function::Least | Function::NullIf => {
                widest(&mut args.iter())
            }
        },
        Expr::Case {
            branches,
            otherwise,
            ..
        } => widest(
            &mut branches
                .iter()
                .map(|(_, then)| then)
                .chain(otherwise.as_deref()),
        ),
        Expr::Binary(a, op, b) => match op {
            Op::Plus | Op::Minus | Op::Multiply | Op::Divide => {
                match temporal(type_of(a, ctx), *op, type_of(b, ctx)) {
                    Some(ty) => ty,
                    None => widest(&mut [&**a, &**b].into_iter()),
                }
            }
            Op::Modulo => widest(&mut [&**a, &**b].into_iter()),
            Op::Concat => match (type_of(a, ctx), type_of(b, ctx)) {
                (Type::Jsonb, _) | (_, Type::Jsonb) => Type::Jsonb,
                _ => Type::Text,
            },
            Op::JsonGet => type_of(a, ctx),
            Op::JsonText => Type::Text,
            _ => Type::Bool,
        },
    }
}

/// Whether an expression is a `numeric`: a cast to one, a `numeric`
/// column, or arithmetic on one (without a float).
pub fn is_numeric(expr: &Expr, ctx: &Context) -> bool {
    arithmetic(expr, ctx) == Arithmetic::Numeric
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

pub(super) fn error(code: &'static str, message: String) -> SqlError {
    SqlError::new(code, message)
}

pub fn eval(
    expr: &Expr,
    row: Option<&Row>,
    excluded: Option<&Row>,
    ctx: &Context,
) -> Result<Value, SqlError> {
    Ok(match expr {
        Expr::Column(name) => match row {
            Some(row) => row
                .get(name)
                .cloned()
                .ok_or_else(|| error("42703", format!("column \"{name}\" does not exist")))?,
            None => return Err(error("42703", format!("column \"{name}\" does not exist"))),
        },
        Expr::Excluded(name) => excluded
            .and_then(|row| row.get(name).cloned())
            .ok_or_else(|| error("42703", format!("column excluded.{name} does not exist")))?,
        Expr::Value(value) => value.clone(),
        Expr::Param(n) => return Err(error("08P01", format!("there is no parameter ${n}"))),
        Expr::Now => Value::String(timestamp(ctx.now_ms)),
        Expr::Uuid => {
            return Err(error(
                "0A000",
                "gen_random_uuid() is supported only as a column's DEFAULT".into(),
            ))
        }
        Expr::Coalesce(list) => {
            for item in list {
                let value = eval(item, row, excluded, ctx)?;
                if !value.is_null() {
                    return Ok(value);
                }
            }
            Value::Null
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
        Expr::Any(inner, array) => {
            let value = eval(inner, row, excluded, ctx)?;
            let Value::Array(items) = eval(array, row, excluded, ctx)? else {
                return Err(error("22P02", "ANY(…) needs an array".into()));
            };
            if value.is_null() {
                return Ok(Value::Null);
            }
            let numeric = is_numeric(inner, ctx);
            let mut found = false;
            for item in items.into_iter().filter(|item| !item.is_null()) {
                found |= equal_as(&value, &ctx.as_column(inner, None, item)?, numeric);
            }
            Value::Bool(found)
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
        Expr::Binary(left, op, right) => {
            let mut a = eval(left, row, excluded, ctx)?;
            let mut b = eval(right, row, excluded, ctx)?;
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
                if types.0 == Type::Interval
                    || types.1 == Type::Interval
                    || temporal(types.0, *op, types.1).is_some()
                {
                    return temporal_binary(&a, types.0, *op, &b, types.1);
                }
            }
            let numeric = !matches!(
                op,
                Op::And | Op::Or | Op::Concat | Op::JsonGet | Op::JsonText
            ) && arithmetic(left, ctx).max(arithmetic(right, ctx))
                == Arithmetic::Numeric;
            binary(&a, *op, &b, numeric)?
        }
    })
}

/// The type of `a op b` when a side is a time: a timestamp (or a date)
/// moved by an interval, two timestamps' difference, intervals added or
/// scaled. `None` when neither side is one.
fn temporal(a: Type, op: Op, b: Type) -> Option<Type> {
    use Type::{Date, Interval as I, Timestamp as T};
    let number = |t: Type| {
        matches!(
            t,
            Type::Int | Type::BigInt | Type::Numeric(_) | Type::Float | Type::Text
        )
    };
    Some(match (a, op, b) {
        (T | Date, Op::Plus | Op::Minus, I) | (I, Op::Plus, T | Date) => T,
        (T | Date, Op::Minus, T | Date) if a == T || b == T => I,
        (I, Op::Plus | Op::Minus, I) => I,
        (I, Op::Multiply | Op::Divide, n) | (n, Op::Multiply, I) if number(n) => I,
        _ => return None,
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
        let ordering = interval(a)?.cmp_total(&interval(b)?);
        return Ok(Value::Bool(match op {
            Op::Eq => ordering.is_eq(),
            Op::NotEq => ordering.is_ne(),
            Op::Lt => ordering.is_lt(),
            Op::LtEq => ordering.is_le(),
            Op::Gt => ordering.is_gt(),
            _ => ordering.is_ge(),
        }));
    }
    let shown = |i: Interval| Value::String(i.output());
    Ok(match (temporal(ta, op, tb), ta, tb) {
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
        _ => {
            let ordering = x.compare(&y);
            return Ok(Value::Bool(match op {
                Op::Eq => ordering.is_eq(),
                Op::NotEq => ordering.is_ne(),
                Op::Lt => ordering.is_lt(),
                Op::LtEq => ordering.is_le(),
                Op::Gt => ordering.is_gt(),
                Op::GtEq => ordering.is_ge(),
                _ => unreachable!("not a comparison: {op:?}"),
            }));
        }
    };
    Ok(Value::String(result.ok_or_else(overflow)?.to_string()))
}

fn overflow() -> SqlError {
    error("22003", "value overflows numeric format".into())
}

/// A value as a `numeric` (`None`: neither a number nor text).
pub(super) fn decimal(value: &Value) -> Result<Option<Decimal>, SqlError> {
    let parsed = match value {
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some(Decimal::from_i64(i)),
            None => Decimal::parse(&n.to_string()),
        },
        Value::String(s) => Decimal::parse(s),
        _ => return Ok(None),
    };
    match parsed {
        Some(d) => Ok(Some(d)),
        None => Err(error(
            "22P02",
            format!("invalid input syntax for type numeric: \"{}\"", text(value)),
        )),
    }
}

fn is_float(value: &Value) -> bool {
    matches!(value, Value::Number(n) if n.is_f64())
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
    }
}

pub(super) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "unknown",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "numeric",
        Value::String(_) => "text",
        Value::Array(_) | Value::Object(_) => "jsonb",
    }
}

pub(super) fn number(value: &Value) -> Result<f64, SqlError> {
    match value {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => s.trim().parse::<f64>().map_err(|_| {
            error(
                "22P02",
                format!("invalid input syntax for type numeric: \"{s}\""),
            )
        }),
        other => Err(error(
            "42883",
            format!("operator does not exist: {} + integer", kind(other)),
        )),
    }
}

/// SQL's `=` on two non-NULL values (a parameter's text meets a number by
/// value, as PostgreSQL casts it to the column's type).
pub fn sql_equal(a: &Value, b: &Value) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// Orders two non-NULL values, as `numeric`s if `numeric` (a `numeric`
/// column beside a parameter's text, which otherwise orders as text).
pub fn compare_as(a: &Value, b: &Value, numeric: bool) -> Option<Ordering> {
    if numeric {
        if let (Ok(Some(x)), Ok(Some(y))) = (decimal(a), decimal(b)) {
            return Some(x.compare(&y));
        }
    }
    compare(a, b)
}

fn equal_as(a: &Value, b: &Value, numeric: bool) -> bool {
    compare_as(a, b, numeric) == Some(Ordering::Equal)
}

/// Orders two non-NULL values; `None` if they do not compare.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    // Integers compare exactly (a bigint past 2^53 is not a double).
    if let (Some(x), Some(y)) = (int_value(a), int_value(b)) {
        if matches!((a, b), (Value::Number(_), _) | (_, Value::Number(_))) {
            return Some(x.cmp(&y));
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::Number(x), Value::String(s)) => {
            x.as_f64()?.partial_cmp(&s.trim().parse::<f64>().ok()?)
        }
        (Value::String(s), Value::Number(y)) => {
            s.trim().parse::<f64>().ok()?.partial_cmp(&y.as_f64()?)
        }
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::String(s)) | (Value::String(s), Value::Bool(x)) => {
            let parsed = match s.to_lowercase().as_str() {
                "t" | "true" => true,
                "f" | "false" => false,
                _ => return None,
            };
            Some(if matches!(a, Value::Bool(_)) {
                x.cmp(&parsed)
            } else {
                parsed.cmp(x)
            })
        }
        // jsonb: equal as values (an object's keys in any order), else
        // ordered by their text.
        (Value::Object(_) | Value::Array(_), Value::String(s)) => {
            let b: Value = serde_json::from_str(s).ok()?;
            compare(a, &b)
        }
        (Value::String(s), Value::Object(_) | Value::Array(_)) => {
            let a: Value = serde_json::from_str(s).ok()?;
            compare(&a, b)
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
            match a == b {
                true => Some(Ordering::Equal),
                false => Some(a.to_string().cmp(&b.to_string())),
            }
        }
        _ => None,
    }
}

/// A value as a value of type `ty`, or PostgreSQL's error.
pub fn cast(value: Value, ty: Type) -> Result<Value, SqlError> {
    cast_as(value, ty, false)
}

/// [`cast`], where `numeric` says the value is a `numeric`'s text, which
/// an integer rounds (half away from zero), where untyped text must be an
/// integer's.
pub fn cast_as(value: Value, ty: Type, numeric: bool) -> Result<Value, SqlError> {
    let invalid = |name: &str, value: &Value| {
        error(
            "22P02",
            format!("invalid input syntax for type {name}: \"{}\"", text(value)),
        )
    };
    Ok(match (ty, value) {
        (_, Value::Null) => Value::Null,
        (Type::Int, value) if int_value(&value).is_some_and(|i| i32::try_from(i).is_err()) => {
            return Err(error(
                "22003",
                format!(
                    "value \"{}\" is out of range for type integer",
                    text(&value)
                ),
            ));
        }
        (Type::Int | Type::BigInt, Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => {
                let f = n.as_f64().unwrap_or(0.0).round();
                if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
                    return Err(error("22003", "bigint out of range".into()));
                }
                Value::from(f as i64)
            }
        },
        (Type::Int | Type::BigInt, Value::String(s)) if numeric => {
            match Decimal::parse(&s).and_then(Decimal::to_i64) {
                Some(i) => Value::from(i),
                None => return Err(error("22003", format!("{} out of range", ty.name()))),
            }
        }
        (Type::Int | Type::BigInt, Value::String(s)) => match s.trim().parse::<i64>() {
            Ok(i) => Value::from(i),
            Err(_) => return Err(invalid("integer", &Value::String(s))),
        },
        (Type::Int | Type::BigInt, Value::Bool(b)) => Value::from(i64::from(b)),
        (Type::Numeric(typmod), value @ (Value::Number(_) | Value::String(_))) => {
            let Some(d) = decimal(&value)? else {
                return Err(invalid("numeric", &value));
            };
            Value::String(fit(d, typmod)?.to_string())
        }
        (Type::Float, Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(f) => crate::script::world::number(f),
            Err(_) => return Err(invalid("double precision", &Value::String(s))),
        },
        (Type::Float, Value::Number(n)) => Value::Number(n),
        (Type::Bool, Value::Bool(b)) => Value::Bool(b),
        (Type::Bool, Value::String(s)) => match s.trim().to_lowercase().as_str() {
            "t" | "true" | "yes" | "on" | "1" | "y" => Value::Bool(true),
            "f" | "false" | "no" | "off" | "0" | "n" => Value::Bool(false),
            _ => return Err(invalid("boolean", &Value::String(s))),
        },
        (Type::Json | Type::Jsonb, Value::String(s)) => match serde_json::from_str(&s) {
            Ok(value) if ty == Type::Jsonb => jsonb(value),
            Ok(value) => value,
            // PostgreSQL names json for jsonb too, and quotes no value.
            Err(_) => return Err(error("22P02", "invalid input syntax for type json".into())),
        },
        (Type::Jsonb, value) => jsonb(value),
        (Type::Json, value) => value,
        (Type::Timestamp, value @ (Value::String(_) | Value::Number(_))) => Value::String(
            super::time::parse_timestamp(&text(&value), "timestamp with time zone")?,
        ),
        (Type::Date, value @ (Value::String(_) | Value::Number(_))) => {
            Value::String(super::time::parse_date(&text(&value))?)
        }
        (Type::Uuid, value @ (Value::String(_) | Value::Number(_))) => match uuid(&text(&value)) {
            Some(canonical) => Value::String(canonical),
            None => return Err(invalid("uuid", &value)),
        },
        (Type::Interval, value @ (Value::String(_) | Value::Number(_))) => {
            Value::String(Interval::parse(&text(&value), None)?.output())
        }
        (Type::Text, Value::String(s)) => Value::String(s),
        (Type::Text | Type::Uuid | Type::Timestamp | Type::Date, value) => {
            Value::String(text(&value))
        }
        (ty, value) => return Err(invalid(ty.name(), &value)),
    })
}

/// A uuid as PostgreSQL reads one (32 hex digits, in any case, with a
/// hyphen after any group of four or none, braces around them allowed),
/// in its canonical form: lowercase, 8-4-4-4-12.
fn uuid(text: &str) -> Option<String> {
    let inner = text.trim();
    let inner = match inner.strip_prefix('{') {
        Some(rest) => rest.strip_suffix('}')?,
        None => inner,
    };
    let mut digits = String::with_capacity(32);
    let mut previous = None;
    for c in inner.chars() {
        match c {
            '-' if digits.len() % 4 == 0 && previous.is_some_and(|p: char| p != '-') => {}
            c if c.is_ascii_hexdigit() => digits.push(c.to_ascii_lowercase()),
            _ => return None,
        }
        previous = Some(c);
    }
    if digits.len() != 32 || inner.ends_with('-') {
        return None;
    }
    Some(format!(
        "{}-{}-{}-{}-{}",
        &digits[..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..]
    ))
}

/// An integer's value, from a number or an integer's text.
fn int_value(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// jsonb's `||`: two objects merge (the right one's keys win), else both
/// sides are arrays (a value that is not one becomes its only element) and
/// they concatenate. A side that is text is read as jsonb.
fn jsonb_concat(a: &Value, b: &Value) -> Result<Value, SqlError> {
    let json = |value: &Value| match value {
        Value::String(s) => serde_json::from_str(s).map_err(|_| {
            error(
                "22P02",
                format!("invalid input syntax for type json: \"{s}\""),
            )
        }),
        other => Ok(other.clone()),
    };
    Ok(match (json(a)?, json(b)?) {
        (Value::Object(mut left), Value::Object(right)) => {
            left.extend(right);
            jsonb(Value::Object(left))
        }
        (left, right) => {
            let items = |value: Value| match value {
                Value::Array(items) => items,
                other => vec![other],
            };
            let mut all = items(left);
            all.extend(items(right));
            Value::Array(all)
        }
    })
}

/// A jsonb value as PostgreSQL keeps it: each object's keys shorter first,
/// then byte by byte (so they come back in that order).
pub(super) fn jsonb(value: Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut entries: Vec<(String, Value)> = object.into_iter().collect();
            entries.sort_by(|(a, _), (b, _)| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
            Value::Object(entries.into_iter().map(|(k, v)| (k, jsonb(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(jsonb).collect()),
        other => other,
    }
}

/// A `numeric(precision, scale)`'s value: rounded to its scale, or
/// PostgreSQL's error when more digits than `precision - scale` are left
/// before the point.
fn fit(value: Decimal, typmod: Option<(u16, i16)>) -> Result<Decimal, SqlError> {
    let Some((precision, scale)) = typmod else {
        return Ok(value);
    };
    let rounded = value.round(scale.into()).ok_or_else(overflow)?;
    let most = i32::from(precision) - i32::from(scale);
    if rounded.integer_digits().is_some_and(|digits| digits > most) {
        let bound = if most == 0 {
            "1".to_string()
        } else {
            format!("10^{most}")
        };
        return Err(SqlError {
            detail: Some(format!(
                "A field with precision {precision}, scale {scale} must round to an absolute value less than {bound}."
            )),
            ..SqlError::new("22003", "numeric field overflow")
        });
    }
    Ok(rounded)
}

/// A value as PostgreSQL prints it in text.
pub fn text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".into(),
        Value::String(s) => s.clone(),
        Value::Bool(true) => "true".into(),
        Value::Bool(false) => "false".into(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
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
        let ctx = Context {
            now_ms: 0.0,
            types: Vec::new(),
        };
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
