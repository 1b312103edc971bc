//! The types PostgreSQL gives expressions: what a column's field in a
//! reply says, and how arithmetic and comparisons compute (a `numeric`
//! exactly, a float as a float, a time by the calendar).

use serde_json::Value;

use super::parse::{Aggregate, Element, Expr, Function, Op, SqlError, TextFunction, Type};
use super::value::{cast, error};

/// What an expression may read besides the row: the simulated clock, and
/// the types of the table's columns, which decide how arithmetic and
/// comparisons compute (a `numeric` is held as its text, "19.50", which
/// orders as text beside a parameter's otherwise; a text compared with an
/// integer, timestamp, date or uuid column is read as that type, as
/// PostgreSQL types an untyped parameter by the column it meets), and
/// the database's UUID counter, which `gen_random_uuid()` draws from,
/// and what `current_setting()` reads: the session's parameters and its
/// transaction's isolation.
#[derive(Default)]
pub struct Context {
    pub now_ms: f64,
    pub types: Vec<(String, Type)>,
    pub uuids: Uuids,
    pub settings: super::settings::Settings,
    pub isolation: Option<crate::sql::Isolation>,
}

/// The database's `gen_random_uuid()`: deterministic UUIDs (of version
/// 4's form) from one counter, which every statement's context shares
/// ([`Uuids::shared`]) so that each call, per row, gives a new one. A
/// clone (a copy of the database) counts on from the same number on its
/// own.
#[derive(Default)]
pub struct Uuids(std::rc::Rc<std::cell::Cell<u64>>);

impl Clone for Uuids {
    fn clone(&self) -> Self {
        Uuids(std::rc::Rc::new(std::cell::Cell::new(self.0.get())))
    }
}

impl Uuids {
    /// The same counter.
    pub fn shared(&self) -> Uuids {
        Uuids(self.0.clone())
    }

    pub fn next(&self) -> String {
        let n = self.0.get() + 1;
        self.0.set(n);
        format!("00000000-0000-4000-8000-{n:012x}")
    }
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
    pub fn as_column(
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
                Some(
                    ty @ (Type::Int
                    | Type::BigInt
                    | Type::Timestamp
                    | Type::Date
                    | Type::Uuid
                    | Type::Array(_)),
                ),
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
pub enum Arithmetic {
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

pub fn arithmetic(expr: &Expr, ctx: &Context) -> Arithmetic {
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
        Expr::Call(Function::Extract, _) => Arithmetic::Numeric,
        Expr::Call(Function::DatePart, _) => Arithmetic::Float,
        Expr::Call(Function::Ceil | Function::Floor, args) => match arithmetic(&args[0], ctx) {
            Arithmetic::Numeric => Arithmetic::Numeric,
            _ => Arithmetic::Float,
        },
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
        } => widest(&mut results(branches, otherwise.as_deref())),
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
        Expr::Value(_) | Expr::Param(_) | Expr::Default => Type::Text,
        Expr::Now => Type::Timestamp,
        Expr::Uuid => Type::Uuid,
        // An `xid`; its text is a number, as a bigint's is.
        Expr::Xmax => Type::BigInt,
        Expr::Negate(inner) => type_of(inner, ctx),
        // Its typed arguments' common type (an untyped NULL, string or
        // parameter takes the others' type, as PostgreSQL resolves one):
        // the widest number (`coalesce(100, big)` is a bigint), else the
        // first one's; text if none is typed.
        Expr::Coalesce(list) => widest(&mut list.iter().filter(|e| !untyped(e))),
        Expr::Not(_)
        | Expr::IsNull(..)
        | Expr::InList(..)
        | Expr::Any(..)
        | Expr::Like { .. }
        | Expr::Exists(..)
        | Expr::InSelect(..) => Type::Bool,
        // The store puts a subquery's value, as its type, in its place
        // before anything is typed (`Database::resolve`).
        Expr::Scalar(_) | Expr::Outer(..) => Type::Text,
        // Every case has the subquery's type: the first that ran says it.
        Expr::PerRow(per_row) => per_row
            .cases
            .iter()
            .find_map(|(_, case)| case.as_ref().ok())
            .map_or(Type::Text, |e| type_of(e, ctx)),
        Expr::Aggregate(kind, args, ..) => {
            let arg = args.first().map(|arg| type_of(arg, ctx));
            result_type(*kind, arg).unwrap_or(Type::Text)
        }
        Expr::Call(function, args) => match function {
            Function::AdvisoryLock { wait: true, .. }
            | Function::AdvisoryUnlockAll
            | Function::Sleep => Type::Void,
            Function::AdvisoryLock { wait: false, .. } | Function::AdvisoryUnlock => Type::Bool,
            Function::HashText => Type::Int,
            Function::CurrentSetting | Function::SetConfig | Function::ToChar => Type::Text,
            Function::Text(TextFunction::Position) => Type::Int,
            Function::Text(_) => Type::Text,
            Function::Ceil | Function::Floor => match type_of(&args[0], ctx) {
                Type::Numeric(_) => Type::Numeric(None),
                _ => Type::Float,
            },
            Function::ArrayLength | Function::Cardinality | Function::ArrayPosition => Type::Int,
            Function::DateTrunc | Function::ToTimestamp => Type::Timestamp,
            Function::Json(function) => match function.is_binary() {
                true => Type::Jsonb,
                false => Type::Json,
            },
            Function::Extract => Type::Numeric(None),
            Function::DatePart => Type::Float,
            Function::JsonbSet => Type::Jsonb,
            Function::JsonArrayLength | Function::JsonbArrayLength => Type::Int,
            // An array of its elements' widest type (text for literals).
            Function::Array => {
                Type::Array(Element::of(widest(&mut args.iter())).unwrap_or(Element::Text))
            }
            Function::ArrayAppend | Function::ArrayRemove => array_type(&args[0], &args[1], ctx),
            Function::ArrayPrepend => array_type(&args[1], &args[0], ctx),
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
        } => widest(&mut results(branches, otherwise.as_deref())),
        Expr::Binary(a, op, b) => match op {
            Op::Minus if type_of(a, ctx) == Type::Jsonb => Type::Jsonb,
            Op::Plus | Op::Minus | Op::Multiply | Op::Divide => {
                match temporal(type_of(a, ctx), *op, type_of(b, ctx)) {
                    Some(ty) => ty,
                    None => widest(&mut [&**a, &**b].into_iter()),
                }
            }
            Op::Modulo => widest(&mut [&**a, &**b].into_iter()),
            Op::Concat => match (type_of(a, ctx), type_of(b, ctx)) {
                (Type::Array(x), Type::Array(y)) if rank(y.ty()) > rank(x.ty()) => Type::Array(y),
                (array @ Type::Array(_), _) | (_, array @ Type::Array(_)) => array,
                (Type::Jsonb, _) | (_, Type::Jsonb) => Type::Jsonb,
                _ => Type::Text,
            },
            Op::JsonGet | Op::JsonPath => type_of(a, ctx),
            Op::JsonText | Op::JsonPathText => Type::Text,
            Op::Subscript => match type_of(a, ctx) {
                Type::Array(element) => element.ty(),
                _ => Type::Text,
            },
            _ => Type::Bool,
        },
    }
}

/// The type of an array function's answer: its array's, else an array of
/// its element's.
fn array_type(array: &Expr, element: &Expr, ctx: &Context) -> Type {
    match type_of(array, ctx) {
        array @ Type::Array(_) => array,
        _ => Type::Array(Element::of(type_of(element, ctx)).unwrap_or(Element::Text)),
    }
}

/// A literal's or a parameter's value, whose type PostgreSQL takes from
/// the other side (an array's, beside an array; a COALESCE's other
/// arguments').
pub fn untyped(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Value(Value::String(_) | Value::Null) | Expr::Param(_)
    )
}

/// Whether an expression is a `numeric`: a cast to one, a `numeric`
/// column, or arithmetic on one (without a float).
pub fn is_numeric(expr: &Expr, ctx: &Context) -> bool {
    arithmetic(expr, ctx) == Arithmetic::Numeric
}

/// The type of `a op b` when a side is a time: a timestamp (or a date)
/// moved by an interval, a date moved by days, two timestamps' difference
/// (two dates': whole days), intervals added or scaled. `None` when
/// neither side is one.
pub fn temporal(a: Type, op: Op, b: Type) -> Option<Type> {
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
        // An untyped value beside a date is one (PostgreSQL's `date -
        // date`, the one operator of that shape).
        (Date | Type::Text, Op::Minus, Date | Type::Text) if a == Date || b == Date => Type::Int,
        (Date, Op::Plus | Op::Minus, Type::Int) | (Type::Int, Op::Plus, Date) => Date,
        (I, Op::Plus | Op::Minus, I) => I,
        (I, Op::Multiply | Op::Divide, n) | (n, Op::Multiply, I) if number(n) => I,
        _ => return None,
    })
}

/// The type of `kind` over an argument of type `arg` (`None`: `*`), or
/// PostgreSQL's error for an argument it does not take.
pub fn result_type(kind: Aggregate, arg: Option<Type>) -> Result<Type, SqlError> {
    Ok(match (kind, arg) {
        (Aggregate::Count, _) => Type::BigInt,
        // Its arguments' types are checked with the values (`aggregate`).
        (Aggregate::StringAgg, _) => Type::Text,
        (Aggregate::Sum, Some(Type::Int)) => Type::BigInt,
        (Aggregate::Sum | Aggregate::Avg, Some(Type::BigInt | Type::Numeric(_))) => {
            Type::Numeric(None)
        }
        (Aggregate::Avg, Some(Type::Int)) => Type::Numeric(None),
        (Aggregate::Sum | Aggregate::Avg, Some(Type::Float)) => Type::Float,
        (Aggregate::Min | Aggregate::Max, Some(ty)) if !matches!(ty, Type::Json) => ty,
        (Aggregate::ArrayAgg, Some(ty)) => Type::Array(Element::of(ty).unwrap_or(Element::Text)),
        (Aggregate::JsonbAgg, Some(_)) => Type::Jsonb,
        (Aggregate::JsonAgg, Some(_)) => Type::Json,
        (Aggregate::BoolAnd | Aggregate::BoolOr, Some(Type::Bool)) => Type::Bool,
        (kind, arg) => {
            let name = match kind {
                Aggregate::Sum => "sum",
                Aggregate::Avg => "avg",
                Aggregate::Min => "min",
                Aggregate::ArrayAgg => "array_agg",
                Aggregate::BoolAnd => "bool_and",
                Aggregate::BoolOr => "bool_or",
                _ => "max",
            };
            let arg = arg.map_or("*", Type::name);
            return Err(error(
                "42883",
                format!("function {name}({arg}) does not exist"),
            ));
        }
    })
}

/// A CASE's results: each branch's THEN, then its ELSE.
fn results<'a>(
    branches: &'a [(Expr, Expr)],
    otherwise: Option<&'a Expr>,
) -> impl Iterator<Item = &'a Expr> {
    branches.iter().map(|(_, then)| then).chain(otherwise)
}
