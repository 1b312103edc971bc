//! SQL text to a plan the simulated PostgreSQL runs (docs/sql.md): the
//! statement is parsed by `sqlparser` (PostgreSQL dialect), then narrowed
//! to the subset the model knows. Anything else is an error that quotes
//! the statement and says what is supported.

use serde_json::Value;
use sqlparser::ast::{
    self, AssignmentTarget, BinaryOperator, ConflictTarget, Expr as SqlExpr, FromTable,
    FunctionArg, FunctionArgExpr, FunctionArguments, LimitClause, ObjectName, ObjectNamePart,
    OnConflictAction, OnInsert, OrderByKind, SelectItem, SetExpr, Statement, TableFactor,
    TableObject, TableWithJoins, TransactionIsolationLevel, TransactionMode, UnaryOperator,
    Value as SqlValue,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

/// A column type, as far as the model tells types apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    BigInt,
    Numeric,
    Float,
    Text,
    Bool,
    Json,
    Timestamp,
    Uuid,
}

impl Type {
    /// PostgreSQL's type id (pg's `dataTypeID`), which picks pg's parser:
    /// `bigint` and `numeric` come back as strings, timestamps as `Date`s.
    pub fn oid(self) -> u32 {
        match self {
            Type::Int => 23,
            Type::BigInt => 20,
            Type::Numeric => 1700,
            Type::Float => 701,
            Type::Text => 25,
            Type::Bool => 16,
            Type::Json => 3802,
            Type::Timestamp => 1184,
            Type::Uuid => 2950,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "integer",
            Type::BigInt => "bigint",
            Type::Numeric => "numeric",
            Type::Float => "double precision",
            Type::Text => "text",
            Type::Bool => "boolean",
            Type::Json => "jsonb",
            Type::Timestamp => "timestamp with time zone",
            Type::Uuid => "uuid",
        }
    }
}

/// A column type by its SQL name (`serial` also gives a default). A type
/// the model does not know is kept as text.
pub fn column_type(data_type: &ast::DataType) -> (Type, bool) {
    let name = data_type.to_string().to_lowercase();
    let base = name.split('(').next().unwrap_or("").trim();
    match base {
        "serial" | "serial4" | "smallserial" | "serial2" => (Type::Int, true),
        "bigserial" | "serial8" => (Type::BigInt, true),
        "int" | "integer" | "int4" | "smallint" | "int2" => (Type::Int, false),
        "bigint" | "int8" => (Type::BigInt, false),
        "numeric" | "decimal" => (Type::Numeric, false),
        "real" | "float" | "float4" | "float8" | "double precision" | "double" => {
            (Type::Float, false)
        }
        "boolean" | "bool" => (Type::Bool, false),
        "json" | "jsonb" => (Type::Json, false),
        "uuid" => (Type::Uuid, false),
        other if other.starts_with("timestamp") || other == "date" || other == "timestamptz" => {
            (Type::Timestamp, false)
        }
        _ => (Type::Text, false),
    }
}

/// An isolation level the model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

/// One statement, as the store runs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    Select(Select),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    Begin(Option<Isolation>),
    SetIsolation(Isolation),
    Commit,
    Rollback,
}

impl Plan {
    /// The table it reaches, if any (the trace's key).
    pub fn table(&self) -> Option<&str> {
        match self {
            Plan::Select(select) => select.table.as_deref(),
            Plan::Insert(insert) => Some(&insert.table),
            Plan::Update(update) => Some(&update.table),
            Plan::Delete(delete) => Some(&delete.table),
            _ => None,
        }
    }
}

/// What a SELECT (or RETURNING) gives back.
#[derive(Clone, Debug, PartialEq)]
pub enum Projection {
    /// `*`
    All,
    Items(Vec<(String, Item)>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Expr(Expr),
    /// `count(*)` (or `count(column)`: the rows where it is not NULL),
    /// cast to a type (`count(*)::int`) or `bigint`.
    Count(Option<String>, Option<Type>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Select {
    /// `None`: `SELECT 1` with no FROM.
    pub table: Option<String>,
    pub projection: Projection,
    pub filter: Option<Expr>,
    /// Columns, descending?
    pub order: Vec<(String, bool)>,
    pub limit: Option<Expr>,
    pub for_update: bool,
    /// `FOR UPDATE NOWAIT` (fail at once) or `SKIP LOCKED` (leave them).
    pub nowait: bool,
    pub skip_locked: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Insert {
    pub table: String,
    /// Empty: every column in table order.
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Expr>>,
    pub on_conflict: Option<OnConflict>,
    pub returning: Option<Projection>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OnConflict {
    /// `ON CONFLICT [(columns)] DO NOTHING`
    Nothing(Option<Vec<String>>),
    /// `ON CONFLICT (columns) DO UPDATE SET … [WHERE …]`
    Update {
        target: Vec<String>,
        set: Vec<(String, Expr)>,
        filter: Option<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    pub table: String,
    pub set: Vec<(String, Expr)>,
    pub filter: Option<Expr>,
    pub returning: Option<Projection>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Delete {
    pub table: String,
    pub filter: Option<Expr>,
    pub returning: Option<Projection>,
}

/// An expression over one row.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Column(String),
    /// `EXCLUDED.column` in `ON CONFLICT DO UPDATE`.
    Excluded(String),
    Value(Value),
    /// `$n`, 1-based, before binding.
    Param(usize),
    Binary(Box<Expr>, Op, Box<Expr>),
    Not(Box<Expr>),
    Negate(Box<Expr>),
    /// `IS NULL` (`true`) or `IS NOT NULL` (`false`).
    IsNull(Box<Expr>, bool),
    /// `x [NOT] IN (a, b)`.
    InList(Box<Expr>, Vec<Expr>, bool),
    /// `x = ANY(array)`.
    Any(Box<Expr>, Box<Expr>),
    /// `now()`, `CURRENT_TIMESTAMP`: the simulated clock.
    Now,
    /// `gen_random_uuid()`.
    Uuid,
    /// `COALESCE(a, b, …)`.
    Coalesce(Vec<Expr>),
    /// `x::type`.
    Cast(Box<Expr>, Type),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    Plus,
    Minus,
    Multiply,
    Divide,
    Concat,
}

const SUPPORTED: &str =
    "the SQL the simulation runs is SELECT (one table, WHERE, ORDER BY, LIMIT, \
     FOR UPDATE, count(*)), INSERT … VALUES (ON CONFLICT DO NOTHING | DO UPDATE, RETURNING), \
     UPDATE … SET (RETURNING), DELETE (RETURNING), BEGIN / START TRANSACTION [ISOLATION LEVEL …], \
     SET TRANSACTION ISOLATION LEVEL, COMMIT and ROLLBACK";

/// Why a statement cannot run: PostgreSQL's SQLSTATE and message.
#[derive(Clone, Debug, PartialEq)]
pub struct SqlError {
    pub code: &'static str,
    pub message: String,
    /// pg's `detail`, `constraint` and `table`, when PostgreSQL gives them.
    pub detail: Option<String>,
    pub constraint: Option<String>,
    pub table: Option<String>,
}

impl SqlError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        SqlError {
            code,
            message: message.into(),
            detail: None,
            constraint: None,
            table: None,
        }
    }

    pub fn syntax(message: impl Into<String>) -> Self {
        SqlError::new("42601", message)
    }

    /// Valid SQL the model does not run.
    pub fn unsupported(statement: &str, what: &str) -> Self {
        SqlError::new(
            "0A000",
            format!(
                "{what} is not supported by the simulation, in \"{}\": {SUPPORTED}",
                quote(statement)
            ),
        )
    }
}

/// A statement as an error message quotes it: on one line, cut at 200
/// characters.
pub fn quote(statement: &str) -> String {
    let line: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 200 {
        let cut: String = line.chars().take(200).collect();
        format!("{cut}…")
    } else {
        line
    }
}

/// Parses SQL text: every statement in it (the schema has several).
pub fn parse_all(text: &str) -> Result<Vec<Statement>, SqlError> {
    Parser::new(&PostgreSqlDialect {})
        .with_recursion_limit(64)
        .try_with_sql(text)
        .and_then(|mut parser| parser.parse_statements())
        .map_err(|error| {
            SqlError::syntax(format!(
                "{} in \"{}\"",
                error.to_string().trim_start_matches("sql parser error: "),
                quote(text)
            ))
        })
}

/// Parses one query's text into its plan.
pub fn parse(text: &str) -> Result<Plan, SqlError> {
    let statements = parse_all(text)?;
    match statements.len() {
        1 => plan(text, statements.into_iter().next().expect("one")),
        0 => Err(SqlError::syntax("the query is empty")),
        _ => Err(SqlError::unsupported(
            text,
            "more than one statement in one query",
        )),
    }
}

fn plan(text: &str, statement: Statement) -> Result<Plan, SqlError> {
    match statement {
        Statement::Query(query) => select(text, *query).map(Plan::Select),
        Statement::Insert(insert) => self::insert(text, insert).map(Plan::Insert),
        Statement::Update(update) => {
            let table = single_table(text, &update.table)?;
            if update.from.is_some() {
                return Err(SqlError::unsupported(text, "UPDATE … FROM"));
            }
            Ok(Plan::Update(Update {
                table,
                set: assignments(text, &update.assignments)?,
                filter: update.selection.map(|e| expr(text, e)).transpose()?,
                returning: update.returning.map(|r| projection(text, r)).transpose()?,
            }))
        }
        Statement::Delete(delete) => {
            let tables = match &delete.from {
                FromTable::WithFromKeyword(tables) | FromTable::WithoutKeyword(tables) => tables,
            };
            if tables.len() != 1 || delete.using.is_some() {
                return Err(SqlError::unsupported(text, "DELETE of several tables"));
            }
            Ok(Plan::Delete(Delete {
                table: single_table(text, &tables[0])?,
                filter: delete.selection.map(|e| expr(text, e)).transpose()?,
                returning: delete.returning.map(|r| projection(text, r)).transpose()?,
            }))
        }
        Statement::StartTransaction { modes, .. } => Ok(Plan::Begin(isolation(text, &modes)?)),
        Statement::Set(ast::Set::SetTransaction { modes, .. }) => isolation(text, &modes)?
            .map(Plan::SetIsolation)
            .ok_or_else(|| {
                SqlError::unsupported(text, "SET TRANSACTION without an isolation level")
            }),
        Statement::Commit { .. } => Ok(Plan::Commit),
        Statement::Rollback {
            savepoint: None, ..
        } => Ok(Plan::Rollback),
        Statement::Rollback { .. } => Err(SqlError::unsupported(text, "ROLLBACK TO SAVEPOINT")),
        other => Err(SqlError::unsupported(text, &statement_kind(&other))),
    }
}

/// The statement's first words, as an error names it.
fn statement_kind(statement: &Statement) -> String {
    let text = statement.to_string();
    let words: Vec<&str> = text.split_whitespace().take(2).collect();
    words.join(" ")
}

fn isolation(text: &str, modes: &[TransactionMode]) -> Result<Option<Isolation>, SqlError> {
    let mut level = None;
    for mode in modes {
        if let TransactionMode::IsolationLevel(chosen) = mode {
            level = Some(match chosen {
                // PostgreSQL runs READ UNCOMMITTED as READ COMMITTED.
                TransactionIsolationLevel::ReadUncommitted
                | TransactionIsolationLevel::ReadCommitted => Isolation::ReadCommitted,
                TransactionIsolationLevel::RepeatableRead => Isolation::RepeatableRead,
                TransactionIsolationLevel::Serializable => Isolation::Serializable,
                TransactionIsolationLevel::Snapshot => {
                    return Err(SqlError::unsupported(text, "ISOLATION LEVEL SNAPSHOT"))
                }
            });
        }
    }
    Ok(level)
}

/// A name as PostgreSQL folds it: unquoted names are lower case.
fn ident(ident: &ast::Ident) -> String {
    if ident.quote_style.is_some() {
        ident.value.clone()
    } else {
        ident.value.to_lowercase()
    }
}

/// A table's name (its last part: `public.orders` is `orders`).
pub fn object_name(name: &ObjectName) -> String {
    match name.0.last() {
        Some(ObjectNamePart::Identifier(part)) => ident(part),
        _ => name.to_string(),
    }
}

fn single_table(text: &str, from: &TableWithJoins) -> Result<String, SqlError> {
    if !from.joins.is_empty() {
        return Err(SqlError::unsupported(text, "JOIN"));
    }
    match &from.relation {
        TableFactor::Table {
            name, args: None, ..
        } => Ok(object_name(name)),
        _ => Err(SqlError::unsupported(text, "a FROM that is not a table")),
    }
}

fn select(text: &str, query: ast::Query) -> Result<Select, SqlError> {
    if query.with.is_some() {
        return Err(SqlError::unsupported(text, "WITH"));
    }
    let ast::Query {
        body,
        order_by,
        limit_clause,
        locks,
        ..
    } = query;
    let SetExpr::Select(select) = *body else {
        return Err(SqlError::unsupported(
            text,
            "a query that is not one SELECT",
        ));
    };
    let select = *select;
    let table = match select.from.as_slice() {
        [] => None,
        [from] => Some(single_table(text, from)?),
        _ => return Err(SqlError::unsupported(text, "a SELECT of several tables")),
    };
    let grouped = !matches!(&select.group_by, ast::GroupByExpr::Expressions(e, _) if e.is_empty());
    if select.distinct.is_some() || grouped || select.having.is_some() {
        return Err(SqlError::unsupported(text, "DISTINCT, GROUP BY or HAVING"));
    }
    let mut order = Vec::new();
    if let Some(order_by) = order_by {
        let OrderByKind::Expressions(items) = order_by.kind else {
            return Err(SqlError::unsupported(text, "ORDER BY ALL"));
        };
        for item in items {
            let column = match item.expr {
                SqlExpr::Identifier(name) => ident(&name),
                SqlExpr::CompoundIdentifier(parts) => parts.last().map(ident).unwrap_or_default(),
                _ => return Err(SqlError::unsupported(text, "ORDER BY an expression")),
            };
            let descending = matches!(item.options.sort, Some(ast::OrderBySort::Desc));
            order.push((column, descending));
        }
    }
    let limit = match limit_clause {
        None => None,
        Some(LimitClause::LimitOffset {
            limit,
            offset: None,
            limit_by,
        }) if limit_by.is_empty() => limit.map(|e| expr(text, e)).transpose()?,
        Some(_) => return Err(SqlError::unsupported(text, "OFFSET")),
    };
    let mut for_update = false;
    let mut nowait = false;
    let mut skip_locked = false;
    for lock in &locks {
        match lock.nonblock {
            Some(ast::NonBlock::Nowait) => nowait = true,
            Some(ast::NonBlock::SkipLocked) => skip_locked = true,
            None => {}
        }
        match lock.lock_type {
            ast::LockType::Update => for_update = true,
            ast::LockType::Share => return Err(SqlError::unsupported(text, "FOR SHARE")),
        }
    }
    if for_update && table.is_none() {
        return Err(SqlError::unsupported(text, "FOR UPDATE without a table"));
    }
    Ok(Select {
        table,
        projection: projection(text, select.projection)?,
        filter: select.selection.map(|e| expr(text, e)).transpose()?,
        order,
        limit,
        for_update,
        nowait,
        skip_locked,
    })
}

fn projection(text: &str, items: Vec<SelectItem>) -> Result<Projection, SqlError> {
    let mut out = Vec::new();
    for item in items {
        let (expression, alias) = match item {
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                if out.is_empty() {
                    return Ok(Projection::All);
                }
                return Err(SqlError::unsupported(text, "* beside other columns"));
            }
            SelectItem::UnnamedExpr(e) => (e, None),
            SelectItem::ExprWithAlias { expr, alias } => (expr, Some(ident(&alias))),
            SelectItem::ExprWithAliases { .. } => {
                return Err(SqlError::unsupported(text, "several aliases"))
            }
        };
        let name = alias.unwrap_or_else(|| default_name(&expression));
        let (counted, cast) = match &expression {
            SqlExpr::Cast {
                expr: inner,
                data_type,
                ..
            } => (count(text, inner)?, Some(column_type(data_type).0)),
            _ => (count(text, &expression)?, None),
        };
        let item = match counted {
            Some(column) => Item::Count(column, cast),
            None => Item::Expr(expr(text, expression)?),
        };
        out.push((name, item));
    }
    Ok(Projection::Items(out))
}

/// The column name PostgreSQL gives an unnamed expression.
fn default_name(expression: &SqlExpr) -> String {
    match expression {
        SqlExpr::Identifier(name) => ident(name),
        SqlExpr::CompoundIdentifier(parts) => parts.last().map(ident).unwrap_or_default(),
        SqlExpr::Function(function) => object_name(&function.name),
        SqlExpr::Nested(expr) => default_name(expr),
        // PostgreSQL names `x::int` after `x`, and `count(*)::int` `count`.
        SqlExpr::Cast { expr, .. } => default_name(expr),
        _ => "?column?".to_string(),
    }
}

/// `count(*)` or `count(column)`: `Some(None)` or `Some(Some(column))`.
fn count(text: &str, expression: &SqlExpr) -> Result<Option<Option<String>>, SqlError> {
    let SqlExpr::Function(function) = expression else {
        return Ok(None);
    };
    if object_name(&function.name) != "count" {
        return Ok(None);
    }
    let FunctionArguments::List(list) = &function.args else {
        return Err(SqlError::unsupported(text, "this use of count"));
    };
    match list.args.as_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)] => Ok(Some(None)),
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(SqlExpr::Identifier(name)))] => {
            Ok(Some(Some(ident(name))))
        }
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(SqlExpr::Value(_)))] => Ok(Some(None)),
        _ => Err(SqlError::unsupported(text, "this use of count")),
    }
}

fn assignments(text: &str, set: &[ast::Assignment]) -> Result<Vec<(String, Expr)>, SqlError> {
    set.iter()
        .map(|assignment| match &assignment.target {
            AssignmentTarget::ColumnName(name) => {
                Ok((object_name(name), expr(text, assignment.value.clone())?))
            }
            AssignmentTarget::Tuple(_) => Err(SqlError::unsupported(text, "SET (a, b) = …")),
        })
        .collect()
}

fn insert(text: &str, insert: ast::Insert) -> Result<Insert, SqlError> {
    let table = match &insert.table {
        TableObject::TableName(name) => object_name(name),
        _ => return Err(SqlError::unsupported(text, "INSERT INTO a function")),
    };
    let columns = insert.columns.iter().map(object_name).collect();
    let Some(source) = insert.source else {
        return Err(SqlError::unsupported(text, "INSERT without VALUES"));
    };
    let SetExpr::Values(values) = *source.body else {
        return Err(SqlError::unsupported(text, "INSERT … SELECT"));
    };
    let rows = values
        .rows
        .into_iter()
        .map(|row| row.content.into_iter().map(|e| expr(text, e)).collect())
        .collect::<Result<Vec<Vec<Expr>>, SqlError>>()?;
    let on_conflict = match insert.on {
        None => None,
        Some(OnInsert::OnConflict(conflict)) => {
            let target = match conflict.conflict_target {
                None => None,
                Some(ConflictTarget::Columns { columns, .. }) => {
                    Some(columns.iter().map(ident).collect::<Vec<_>>())
                }
                Some(ConflictTarget::OnConstraint(name)) => {
                    Some(vec![format!("\u{0}{}", object_name(&name))])
                }
            };
            Some(match conflict.action {
                OnConflictAction::DoNothing => OnConflict::Nothing(target),
                OnConflictAction::DoUpdate(update) => OnConflict::Update {
                    target: target.ok_or_else(|| {
                        SqlError::syntax(format!(
                            "ON CONFLICT DO UPDATE requires inference specification or constraint name, in \"{}\"",
                            quote(text)
                        ))
                    })?,
                    set: assignments(text, &update.assignments)?,
                    filter: update.selection.map(|e| expr(text, e)).transpose()?,
                },
            })
        }
        Some(_) => return Err(SqlError::unsupported(text, "ON DUPLICATE KEY")),
    };
    Ok(Insert {
        table,
        columns,
        rows,
        on_conflict,
        returning: insert.returning.map(|r| projection(text, r)).transpose()?,
    })
}

/// An expression of a schema (a column's DEFAULT).
pub fn expression(text: &str, expression: SqlExpr) -> Result<Expr, SqlError> {
    expr(text, expression)
}

fn expr(text: &str, expression: SqlExpr) -> Result<Expr, SqlError> {
    Ok(match expression {
        SqlExpr::Identifier(name) => Expr::Column(ident(&name)),
        SqlExpr::CompoundIdentifier(parts) => match parts.as_slice() {
            [first, column] if ident(first) == "excluded" => Expr::Excluded(ident(column)),
            [.., column] => Expr::Column(ident(column)),
            [] => return Err(SqlError::syntax("an empty name")),
        },
        SqlExpr::Value(value) => literal(text, value.value)?,
        SqlExpr::Nested(inner) => expr(text, *inner)?,
        SqlExpr::BinaryOp { left, op, right } => {
            let op = match op {
                BinaryOperator::Eq => Op::Eq,
                BinaryOperator::NotEq => Op::NotEq,
                BinaryOperator::Lt => Op::Lt,
                BinaryOperator::LtEq => Op::LtEq,
                BinaryOperator::Gt => Op::Gt,
                BinaryOperator::GtEq => Op::GtEq,
                BinaryOperator::And => Op::And,
                BinaryOperator::Or => Op::Or,
                BinaryOperator::Plus => Op::Plus,
                BinaryOperator::Minus => Op::Minus,
                BinaryOperator::Multiply => Op::Multiply,
                BinaryOperator::Divide => Op::Divide,
                BinaryOperator::StringConcat => Op::Concat,
                other => {
                    return Err(SqlError::unsupported(
                        text,
                        &format!("the operator {other}"),
                    ))
                }
            };
            Expr::Binary(
                Box::new(expr(text, *left)?),
                op,
                Box::new(expr(text, *right)?),
            )
        }
        SqlExpr::UnaryOp { op, expr: inner } => match op {
            UnaryOperator::Not => Expr::Not(Box::new(expr(text, *inner)?)),
            UnaryOperator::Minus => Expr::Negate(Box::new(expr(text, *inner)?)),
            UnaryOperator::Plus => expr(text, *inner)?,
            other => {
                return Err(SqlError::unsupported(
                    text,
                    &format!("the operator {other}"),
                ))
            }
        },
        SqlExpr::IsNull(inner) => Expr::IsNull(Box::new(expr(text, *inner)?), true),
        SqlExpr::IsNotNull(inner) => Expr::IsNull(Box::new(expr(text, *inner)?), false),
        SqlExpr::In {
            expr: inner,
            target: ast::InTarget::List(list),
            negated,
            ..
        } => Expr::InList(
            Box::new(expr(text, *inner)?),
            list.into_iter()
                .map(|e| expr(text, e))
                .collect::<Result<_, _>>()?,
            negated,
        ),
        // `id = ANY($1)` with an array.
        SqlExpr::AnyOp {
            left,
            compare_op: BinaryOperator::Eq,
            right,
            ..
        } => Expr::Any(Box::new(expr(text, *left)?), Box::new(expr(text, *right)?)),
        // `$1::int`, `'x'::text`, `CAST(x AS bigint)`: the value as that
        // type (a bigint comes back to pg as a string).
        // An array cast (`$1::int[]` for `= ANY($1::int[])`) keeps the
        // array as it came.
        SqlExpr::Cast {
            expr: inner,
            data_type: ast::DataType::Array(_),
            ..
        } => expr(text, *inner)?,
        SqlExpr::Cast {
            expr: inner,
            data_type,
            ..
        } => Expr::Cast(Box::new(expr(text, *inner)?), column_type(&data_type).0),
        SqlExpr::Function(function) => {
            let name = object_name(&function.name);
            let args: Vec<Expr> = match function.args {
                FunctionArguments::None => Vec::new(),
                FunctionArguments::List(list) => list
                    .args
                    .into_iter()
                    .map(|arg| match arg {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => expr(text, e),
                        _ => Err(SqlError::unsupported(text, &format!("this call of {name}"))),
                    })
                    .collect::<Result<_, _>>()?,
                FunctionArguments::Subquery(_) => {
                    return Err(SqlError::unsupported(text, "a subquery"))
                }
            };
            match (name.as_str(), args.len()) {
                ("now" | "current_timestamp" | "localtimestamp", 0) => Expr::Now,
                ("gen_random_uuid", 0) => Expr::Uuid,
                ("coalesce", n) if n > 0 => Expr::Coalesce(args),
                _ => {
                    return Err(SqlError::unsupported(
                        text,
                        &format!("the function {name}() (the model knows now(), gen_random_uuid(), coalesce() and count())"),
                    ))
                }
            }
        }
        SqlExpr::Subquery(_) | SqlExpr::Exists { .. } | SqlExpr::In { .. } => {
            return Err(SqlError::unsupported(text, "a subquery"))
        }
        other => {
            return Err(SqlError::unsupported(
                text,
                &format!("the expression {}", quote(&other.to_string())),
            ))
        }
    })
}

fn literal(text: &str, value: SqlValue) -> Result<Expr, SqlError> {
    Ok(match value {
        SqlValue::Number(n, _) => Expr::Value(
            n.parse::<i64>()
                .map(Value::from)
                .or_else(|_| n.parse::<f64>().map(crate::script::world::number))
                .map_err(|_| SqlError::syntax(format!("bad number {n}")))?,
        ),
        SqlValue::SingleQuotedString(s)
        | SqlValue::EscapedStringLiteral(s)
        | SqlValue::NationalStringLiteral(s) => Expr::Value(Value::String(s)),
        SqlValue::DollarQuotedString(s) => Expr::Value(Value::String(s.value)),
        SqlValue::Boolean(b) => Expr::Value(Value::Bool(b)),
        SqlValue::Null => Expr::Value(Value::Null),
        SqlValue::Placeholder(p) => {
            let n = p
                .strip_prefix('$')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| SqlError::unsupported(text, &format!("the placeholder {p}")))?;
            Expr::Param(n)
        }
        other => return Err(SqlError::unsupported(text, &format!("the literal {other}"))),
    })
}

/// The highest `$n` a plan uses.
pub fn params(plan: &Plan) -> usize {
    let mut most = 0;
    visit(plan, &mut |e| {
        if let Expr::Param(n) = e {
            most = most.max(*n);
        }
    });
    most
}

/// The lowest `$n` a plan uses (0 if none).
pub fn first_param(plan: &Plan) -> usize {
    let mut least = usize::MAX;
    visit(plan, &mut |e| {
        if let Expr::Param(n) = e {
            least = least.min(*n);
        }
    });
    if least == usize::MAX {
        0
    } else {
        least
    }
}

/// Replaces every `$n` with `values[n - 1]`.
pub fn bind(plan: &mut Plan, values: &[Value]) {
    visit_mut(plan, &mut |e| {
        if let Expr::Param(n) = e {
            *e = Expr::Value(values.get(*n - 1).cloned().unwrap_or(Value::Null));
        }
    });
}

fn visit(plan: &Plan, f: &mut dyn FnMut(&Expr)) {
    let mut plan = plan.clone();
    visit_mut(&mut plan, &mut |e| f(e));
}

fn visit_mut(plan: &mut Plan, f: &mut dyn FnMut(&mut Expr)) {
    fn walk(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
        match e {
            Expr::Binary(a, _, b) => {
                walk(a, f);
                walk(b, f);
            }
            Expr::Not(a) | Expr::Negate(a) | Expr::IsNull(a, _) | Expr::Cast(a, _) => walk(a, f),
            Expr::InList(a, list, _) => {
                walk(a, f);
                list.iter_mut().for_each(|e| walk(e, f));
            }
            Expr::Any(a, b) => {
                walk(a, f);
                walk(b, f);
            }
            Expr::Coalesce(list) => list.iter_mut().for_each(|e| walk(e, f)),
            _ => {}
        }
        f(e);
    }
    fn projection(p: &mut Option<Projection>, f: &mut dyn FnMut(&mut Expr)) {
        if let Some(Projection::Items(items)) = p {
            for (_, item) in items {
                if let Item::Expr(e) = item {
                    walk(e, f);
                }
            }
        }
    }
    let filter = |e: &mut Option<Expr>, f: &mut dyn FnMut(&mut Expr)| {
        if let Some(e) = e {
            walk(e, f);
        }
    };
    match plan {
        Plan::Select(select) => {
            let mut items = Some(select.projection.clone());
            projection(&mut items, f);
            select.projection = items.expect("kept");
            filter(&mut select.filter, f);
            filter(&mut select.limit, f);
        }
        Plan::Insert(insert) => {
            insert.rows.iter_mut().flatten().for_each(|e| walk(e, f));
            if let Some(OnConflict::Update {
                set, filter: cond, ..
            }) = &mut insert.on_conflict
            {
                set.iter_mut().for_each(|(_, e)| walk(e, f));
                filter(cond, f);
            }
            projection(&mut insert.returning, f);
        }
        Plan::Update(update) => {
            update.set.iter_mut().for_each(|(_, e)| walk(e, f));
            filter(&mut update.filter, f);
            projection(&mut update.returning, f);
        }
        Plan::Delete(delete) => {
            filter(&mut delete.filter, f);
            projection(&mut delete.returning, f);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_parses() {
        let plan =
            parse("SELECT id FROM Orders WHERE user_id = $1 AND event_id = $2 FOR UPDATE").unwrap();
        let Plan::Select(select) = &plan else {
            panic!("{plan:?}")
        };
        assert_eq!(select.table.as_deref(), Some("orders"));
        assert!(select.for_update);
        assert_eq!(params(&plan), 2);
        assert!(matches!(
            parse("INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO NOTHING RETURNING *"),
            Ok(Plan::Insert(Insert {
                on_conflict: Some(OnConflict::Nothing(Some(_))),
                returning: Some(Projection::All),
                ..
            }))
        ));
        assert_eq!(
            parse("begin isolation level serializable"),
            Ok(Plan::Begin(Some(Isolation::Serializable)))
        );
        assert_eq!(parse("COMMIT"), Ok(Plan::Commit));
        let Ok(Plan::Select(select)) = parse("SELECT id FROM t WHERE id = ANY($1::int[])") else {
            panic!("ANY with an array cast")
        };
        assert!(matches!(select.filter, Some(Expr::Any(..))));
    }

    #[test]
    fn anything_else_quotes_the_statement() {
        let error = parse("SELECT * FROM a JOIN b ON a.id = b.id").unwrap_err();
        assert_eq!(error.code, "0A000");
        assert!(
            error
                .message
                .starts_with("JOIN is not supported by the simulation, in \"SELECT * FROM a JOIN b ON a.id = b.id\""),
            "{}",
            error.message
        );
        let error = parse("SELEC 1").unwrap_err();
        assert_eq!(error.code, "42601");
        assert!(error.message.contains("SELEC 1"), "{}", error.message);
    }
}
