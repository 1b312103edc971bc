//! SQL text to a plan the simulated PostgreSQL runs (docs/sql.md): the
//! statement is parsed by `sqlparser` (PostgreSQL dialect), then narrowed
//! to the subset the model knows. Anything else is an error that quotes
//! the statement and says what is supported. A schema's text becomes its
//! statements as data ([`schema`]), which `script::sql::schema` applies.

use serde_json::Value;
use sqlparser::ast::{
    self, AssignmentTarget, BinaryOperator, ColumnOption, ConflictTarget, Expr as SqlExpr,
    FromTable, FunctionArg, FunctionArgExpr, FunctionArguments, LimitClause, ObjectName,
    ObjectNamePart, OnConflictAction, OnInsert, OrderByKind, SelectItem, SetExpr, Statement,
    TableConstraint, TableFactor, TableObject, TableWithJoins, TransactionIsolationLevel,
    TransactionMode, UnaryOperator, Value as SqlValue,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::{
    quote, Column, Default, Delete, Expr, Insert, Isolation, Item, Key, OnConflict, Op, Plan,
    Projection, SchemaPlan, SchemaStep, Select, SqlError, TableSchema, Type, Update,
};

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
                .or_else(|_| n.parse::<f64>().map(number))
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

/// A JSON number, integral when it can be (so `1` prints as `1`), as
/// `script::world::number` makes them.
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 9.007_199_254_740_992e15 {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// A schema's statements as data, in their order (CREATE TABLE with
/// columns, types, defaults, PRIMARY KEY and UNIQUE; CREATE UNIQUE INDEX;
/// INSERT for seed rows; DROP TABLE IF EXISTS, which is nothing to do),
/// up to the first that does not parse or is not one of them: that one is
/// the plan's error, and the statements after it are left out.
pub fn schema(text: &str) -> SchemaPlan {
    let mut steps = Vec::new();
    let error = parse_all(text)
        .and_then(|statements| {
            for statement in statements {
                if let Some(step) = schema_step(statement)? {
                    steps.push(step);
                }
            }
            Ok(())
        })
        .err();
    SchemaPlan { steps, error }
}

/// One statement of a schema as a step (`None`: nothing to do).
fn schema_step(statement: Statement) -> Result<Option<SchemaStep>, SqlError> {
    let shown = statement.to_string();
    Ok(Some(match statement {
        Statement::CreateTable(create) => {
            let name = object_name(&create.name);
            if create.query.is_some() {
                return Err(SqlError::unsupported(&shown, "CREATE TABLE … AS"));
            }
            let mut columns = Vec::new();
            let mut keys = Vec::new();
            for def in &create.columns {
                let column_name = ident(&def.name);
                let (ty, serial) = column_type(&def.data_type);
                let mut column = Column {
                    name: column_name.clone(),
                    ty,
                    default: serial.then_some(Default::Serial),
                    not_null: serial,
                };
                for option in &def.options {
                    match &option.option {
                        ColumnOption::NotNull => column.not_null = true,
                        ColumnOption::Null => {}
                        ColumnOption::PrimaryKey(_) => {
                            column.not_null = true;
                            keys.push(Key {
                                name: option
                                    .name
                                    .as_ref()
                                    .map_or(format!("{name}_pkey"), ident),
                                columns: vec![column_name.clone()],
                            });
                        }
                        ColumnOption::Unique(_) => keys.push(Key {
                            name: option
                                .name
                                .as_ref()
                                .map_or(format!("{name}_{column_name}_key"), ident),
                            columns: vec![column_name.clone()],
                        }),
                        ColumnOption::Default(expr) => {
                            column.default = Some(default(&shown, expr)?);
                        }
                        ColumnOption::Generated { .. } => {
                            column.default = Some(Default::Serial);
                            column.not_null = true;
                        }
                        // Checked nowhere in the model: documented.
                        ColumnOption::ForeignKey(_) | ColumnOption::Check(_) => {}
                        _ => {}
                    }
                }
                columns.push(column);
            }
            for constraint in &create.constraints {
                match constraint {
                    TableConstraint::PrimaryKey(pk) => {
                        let cols = ident_columns(&pk.columns);
                        for column in columns.iter_mut().filter(|c| cols.contains(&c.name)) {
                            column.not_null = true;
                        }
                        keys.push(Key {
                            name: pk.name.as_ref().map_or(format!("{name}_pkey"), ident),
                            columns: cols,
                        });
                    }
                    TableConstraint::Unique(unique) => {
                        let cols = ident_columns(&unique.columns);
                        keys.push(Key {
                            name: unique
                                .name
                                .as_ref()
                                .map_or(format!("{name}_{}_key", cols.join("_")), ident),
                            columns: cols,
                        });
                    }
                    _ => {}
                }
            }
            let schema = TableSchema {
                name,
                columns,
                keys,
                expect_unique: Vec::new(),
            };
            for key in &schema.keys {
                for column in &key.columns {
                    if !schema.columns.iter().any(|c| &c.name == column) {
                        return Err(SqlError::new(
                            "42703",
                            format!(
                                "column \"{column}\" named in key does not exist, in \"{}\"",
                                quote(&shown)
                            ),
                        ));
                    }
                }
            }
            SchemaStep::Create(schema)
        }
        Statement::CreateIndex(index) => {
            if !index.unique {
                return Ok(None);
            }
            let table = object_name(&index.table_name);
            let columns = ident_columns(&index.columns);
            let name = index
                .name
                .as_ref()
                .map_or(format!("{table}_{}_idx", columns.join("_")), object_name);
            SchemaStep::UniqueIndex {
                table,
                key: Key { name, columns },
            }
        }
        Statement::Insert(_) => {
            let Plan::Insert(insert) = parse(&shown)? else {
                unreachable!("an insert")
            };
            SchemaStep::Seed { insert, shown }
        }
        Statement::Drop { if_exists: true, .. } => return Ok(None),
        _ => {
            return Err(SqlError::unsupported(
                &shown,
                "this statement in a schema (it may hold CREATE TABLE, CREATE UNIQUE INDEX, INSERT and DROP TABLE IF EXISTS)",
            ))
        }
    }))
}

fn ident_columns(columns: &[ast::IndexColumn]) -> Vec<String> {
    columns
        .iter()
        .map(|c| match &c.column.expr {
            SqlExpr::Identifier(name) => ident(name),
            other => other.to_string(),
        })
        .collect()
}

/// A column's DEFAULT.
fn default(shown: &str, expr: &SqlExpr) -> Result<Default, SqlError> {
    if let SqlExpr::Function(function) = expr {
        match object_name(&function.name).as_str() {
            "nextval" => return Ok(Default::Serial),
            "gen_random_uuid" | "uuid_generate_v4" => return Ok(Default::Uuid),
            _ => {}
        }
    }
    expression(shown, expr.clone()).map(Default::Expr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::params;

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
