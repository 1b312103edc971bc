//! SQL text to a plan the simulated PostgreSQL runs (docs/sql.md): the
//! statement is parsed by `sqlparser` (PostgreSQL dialect), then narrowed
//! to the subset the model knows. Anything else is an error that quotes
//! the statement and says what is supported. A schema's text becomes its
//! statements as data ([`schema`]), which `script::sql::schema` applies.

use serde_json::Value;
use sqlparser::ast::{
    self, AssignmentTarget, BinaryOperator, ColumnOption, ConflictTarget, Expr as SqlExpr,
    FromTable, FunctionArg, FunctionArgExpr, FunctionArguments, JoinConstraint, JoinOperator,
    LimitClause, NullsDistinctOption, ObjectName, ObjectNamePart, OnConflictAction, OnInsert,
    OrderByKind, SelectItem, SetExpr, Statement, TableConstraint, TableFactor, TableObject,
    TableWithJoins, TransactionIsolationLevel, TransactionMode, UnaryOperator, Value as SqlValue,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

use super::parameters;
use super::{
    quote, Aggregate, Check, Column, Cte, Default, Delete, Element, Expr, ForeignKey, Function,
    Insert, Isolation, Join, JsonFunction, Key, LockTable, OnConflict, Op, Plan, Projection,
    SchemaPlan, SchemaStep, Select, SqlError, TableLock, TableSchema, TextFunction, Type, Update,
    FUNCTIONS_MARK,
};

/// A column type by its SQL name (`serial` also gives a default). A type
/// the model does not know is kept as text.
pub fn column_type(data_type: &ast::DataType) -> (Type, bool) {
    if let ast::DataType::Array(element) = data_type {
        let element = match element {
            ast::ArrayElemTypeDef::SquareBracket(inner, _)
            | ast::ArrayElemTypeDef::AngleBracket(inner)
            | ast::ArrayElemTypeDef::Parenthesis(inner)
            | ast::ArrayElemTypeDef::ParenthesisNotNull(inner)
            | ast::ArrayElemTypeDef::Qualified(inner, _) => Element::of(column_type(inner).0),
            ast::ArrayElemTypeDef::None => None,
        };
        return (element.map_or(Type::Text, Type::Array), false);
    }
    let name = data_type.to_string().to_lowercase();
    let base = name.split('(').next().unwrap_or("").trim();
    match base {
        "serial" | "serial4" | "smallserial" | "serial2" => (Type::Int, true),
        "bigserial" | "serial8" => (Type::BigInt, true),
        "int" | "integer" | "int4" | "smallint" | "int2" => (Type::Int, false),
        "bigint" | "int8" => (Type::BigInt, false),
        "numeric" | "decimal" | "dec" => (Type::Numeric(typmod(data_type)), false),
        "real" | "float" | "float4" | "float8" | "double precision" | "double" => {
            (Type::Float, false)
        }
        "boolean" | "bool" => (Type::Bool, false),
        "json" => (Type::Json, false),
        "jsonb" => (Type::Jsonb, false),
        "uuid" => (Type::Uuid, false),
        "date" => (Type::Date, false),
        "interval" => (Type::Interval, false),
        other if other.starts_with("timestamp") => (Type::Timestamp, false),
        _ => (Type::Text, false),
    }
}

/// `varchar(n)`'s (`character varying(n)`'s) n.
fn max_chars(data_type: &ast::DataType) -> Option<u32> {
    match data_type {
        ast::DataType::Varchar(Some(ast::CharacterLength::IntegerLength { length, .. }))
        | ast::DataType::CharacterVarying(Some(ast::CharacterLength::IntegerLength {
            length,
            ..
        })) => u32::try_from(*length).ok(),
        _ => None,
    }
}

/// `numeric(p, s)`'s precision and scale (`numeric(p)` has scale 0; a
/// bare `numeric` has none).
fn typmod(data_type: &ast::DataType) -> Option<(u16, i16)> {
    let (ast::DataType::Numeric(info) | ast::DataType::Decimal(info) | ast::DataType::Dec(info)) =
        data_type
    else {
        return None;
    };
    match *info {
        ast::ExactNumberInfo::None => None,
        ast::ExactNumberInfo::Precision(p) => Some((u16::try_from(p).ok()?, 0)),
        ast::ExactNumberInfo::PrecisionAndScale(p, s) => {
            Some((u16::try_from(p).ok()?, i16::try_from(s).ok()?))
        }
    }
}

/// One statement of a text, as the model reads it.
struct Piece<'a> {
    /// Its text, from its first token up to its `;` or the end of the text.
    text: &'a str,
    /// Its first two words, as an error names the statement.
    kind: String,
    /// The statement, parsed when it is one that a query or a schema step
    /// can be (`statement`'s list); `None` for any other statement.
    statement: Option<Statement>,
}

/// The statements of SQL text (a schema has several), each parsed only if
/// a query or a schema step can be it: the parser's entry points for those
/// few kinds are called one by one, so that the SQL module links no more
/// of the parser than they reach (docs/sql.md).
fn statements(text: &str) -> Result<Vec<Piece<'_>>, SqlError> {
    let syntax = |error: ParserError| {
        // PostgreSQL's weakest row lock, which the parser does not read:
        // not a syntax error in PostgreSQL.
        let words = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase();
        if words.contains("FOR KEY SHARE") {
            return SqlError::unsupported(text, "FOR KEY SHARE");
        }
        SqlError::syntax(format!(
            "{} in \"{}\"",
            error.to_string().trim_start_matches("sql parser error: "),
            quote(text)
        ))
    };
    let dialect = PostgreSqlDialect {};
    let tokens = Tokenizer::new(&dialect, text)
        .tokenize_with_location()
        .map_err(|error| syntax(error.into()))?;
    let mut parser = Parser::new(&dialect)
        .with_recursion_limit(64)
        .with_tokens_with_locations(lock_of_lists(no_key_as_update(tokens)));
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut pieces = Vec::new();
    loop {
        while parser.consume_token(&Token::SemiColon) {}
        let first = parser.peek_token_ref();
        if first.token == Token::EOF {
            return Ok(pieces);
        }
        let start = offset(text, &lines, first.span.start);
        let kind = match &parser.peek_nth_token_ref(1).token {
            second @ Token::Word(_) => format!("{} {}", word(&first.token), word(second)),
            _ => word(&first.token),
        };
        let statement = match statement(&mut parser).map_err(syntax)? {
            Some(statement) => Some(statement),
            None => {
                // Another statement: left unparsed, up to its end.
                while !matches!(parser.peek_token_ref().token, Token::SemiColon | Token::EOF) {
                    parser.advance_token();
                }
                None
            }
        };
        let next = parser.peek_token_ref();
        let end = match next.token {
            Token::SemiColon => offset(text, &lines, next.span.start),
            Token::EOF => text.len(),
            _ => {
                return Err(syntax(
                    parser
                        .expected_ref::<()>("end of statement", next)
                        .unwrap_err(),
                ))
            }
        };
        pieces.push(Piece {
            text: text[start..end].trim_end(),
            kind,
            statement,
        });
    }
}

/// `FOR NO KEY UPDATE` read as `FOR UPDATE`, which the parser reads: the
/// two lock a row against the same statements here, where no foreign key
/// takes `FOR KEY SHARE` (the one lock they differ on). Errors that name
/// the clause still name it as written ([`lock_clause`]).
fn no_key_as_update(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let is = |token: &TokenWithSpan, keyword: Keyword| matches!(&token.token, Token::Word(w) if w.keyword == keyword && w.quote_style.is_none());
    let mut kept: Vec<TokenWithSpan> = Vec::with_capacity(tokens.len());
    let mut rest = tokens.into_iter().peekable();
    while let Some(token) = rest.next() {
        let after_for = kept
            .iter()
            .rev()
            .find(|t| !matches!(t.token, Token::Whitespace(_)))
            .is_some_and(|t| is(t, Keyword::FOR));
        if after_for && is(&token, Keyword::NO) {
            // NO, then KEY, then UPDATE: drop NO KEY (and the space after each).
            let mut ahead = Vec::new();
            while let Some(next) = rest.next_if(|t| matches!(t.token, Token::Whitespace(_))) {
                ahead.push(next);
            }
            if rest.peek().is_some_and(|t| is(t, Keyword::KEY)) {
                let key = rest.next().expect("KEY");
                let mut spaces = Vec::new();
                while let Some(next) = rest.next_if(|t| matches!(t.token, Token::Whitespace(_))) {
                    spaces.push(next);
                }
                if rest.peek().is_some_and(|t| is(t, Keyword::UPDATE)) {
                    continue;
                }
                kept.push(token);
                kept.extend(ahead);
                kept.push(key);
                kept.extend(spaces);
                continue;
            }
            kept.push(token);
            kept.extend(ahead);
            continue;
        }
        kept.push(token);
    }
    kept
}

/// `FOR UPDATE OF a, b` read as `FOR UPDATE OF a FOR UPDATE OF b`, which
/// the parser reads (it takes one table after `OF`): each comma of an
/// `OF` list becomes the clause again, at the comma's place.
fn lock_of_lists(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let is = |token: &TokenWithSpan, keyword: Keyword| matches!(&token.token, Token::Word(w) if w.keyword == keyword && w.quote_style.is_none());
    let space = || TokenWithSpan::wrap(Token::Whitespace(ast_space()));
    let mut kept: Vec<TokenWithSpan> = Vec::with_capacity(tokens.len());
    // The clause's strength (UPDATE or SHARE) while its OF list is read.
    let mut strength: Option<TokenWithSpan> = None;
    for token in tokens {
        let mut words = kept
            .iter()
            .rev()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)));
        match &token.token {
            Token::Word(_) if is(&token, Keyword::OF) => {
                let (lock, of) = (words.next(), words.next());
                strength = match (lock, of) {
                    (Some(lock), Some(of))
                        if (is(lock, Keyword::UPDATE) || is(lock, Keyword::SHARE))
                            && is(of, Keyword::FOR) =>
                    {
                        Some(lock.clone())
                    }
                    _ => None,
                };
            }
            Token::Comma => {
                if let Some(lock) = &strength {
                    kept.extend([
                        space(),
                        TokenWithSpan::new(Token::make_keyword("FOR"), token.span),
                        space(),
                        lock.clone(),
                        space(),
                        TokenWithSpan::new(Token::make_keyword("OF"), token.span),
                        space(),
                    ]);
                    continue;
                }
            }
            Token::Whitespace(_) | Token::Period => {}
            // A table's name (which may be a keyword), up to NOWAIT, SKIP
            // LOCKED or the next clause.
            Token::Word(w)
                if w.quote_style.is_some()
                    || !matches!(w.keyword, Keyword::NOWAIT | Keyword::SKIP | Keyword::FOR) => {}
            _ => strength = None,
        }
        kept.push(token);
    }
    kept
}

fn ast_space() -> sqlparser::tokenizer::Whitespace {
    sqlparser::tokenizer::Whitespace::Space
}

/// How a statement names its row lock in PostgreSQL's errors: `FOR NO KEY
/// UPDATE` as written, which is read as `FOR UPDATE` ([`no_key_as_update`]).
fn lock_clause(text: &str, for_update: bool) -> &'static str {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match for_update {
        true if words.to_uppercase().contains("FOR NO KEY UPDATE") => "FOR NO KEY UPDATE",
        true => "FOR UPDATE",
        false => "FOR SHARE",
    }
}

/// The first words of PostgreSQL's other statements (besides a `CREATE` of
/// another kind), which the model does not parse: an error says they are
/// not supported, where any other first word is a syntax error.
#[rustfmt::skip]
const OTHER_STATEMENTS: &[&str] = &[
    "ALTER", "ANALYZE", "CALL", "CHECKPOINT", "CLOSE", "CLUSTER", "COMMENT", "COPY",
    "DEALLOCATE", "DECLARE", "DISCARD", "DO", "EXECUTE", "EXPLAIN", "FETCH", "GRANT",
    "IMPORT", "LISTEN", "LOAD", "MERGE", "MOVE", "NOTIFY", "PREPARE", "REASSIGN",
    "REFRESH", "REINDEX", "RESET", "REVOKE", "SECURITY", "SET",
    "SHOW", "TABLE", "TRUNCATE", "UNLISTEN", "VACUUM",
];

/// Parses the next statement if it is one that a query or a schema step
/// can be; `None` for another of PostgreSQL's (its first words may be
/// consumed).
fn statement(parser: &mut Parser) -> Result<Option<Statement>, ParserError> {
    let first = parser.peek_token();
    let keyword = match &first.token {
        Token::Word(word) if word.quote_style.is_none() => word.keyword,
        Token::LParen => Keyword::SELECT,
        _ => return parser.expected("an SQL statement", first),
    };
    let statement = match keyword {
        Keyword::SELECT | Keyword::WITH | Keyword::VALUES => parser.parse_query()?.into(),
        Keyword::INSERT => {
            let token = parser.next_token();
            parser.parse_insert(token)?
        }
        Keyword::UPDATE => {
            let token = parser.next_token();
            parser.parse_update(token)?
        }
        Keyword::DELETE => {
            let token = parser.next_token();
            parser.parse_delete(token)?
        }
        Keyword::START => {
            parser.advance_token();
            parser.parse_start_transaction()?
        }
        Keyword::BEGIN => {
            parser.advance_token();
            parser.parse_begin()?
        }
        Keyword::END | Keyword::COMMIT => {
            parser.advance_token();
            parser.parse_commit()?
        }
        Keyword::ROLLBACK | Keyword::ABORT => {
            parser.advance_token();
            parser.parse_rollback()?
        }
        Keyword::SAVEPOINT => {
            parser.advance_token();
            parser.parse_savepoint()?
        }
        Keyword::RELEASE => {
            parser.advance_token();
            parser.parse_release()?
        }
        Keyword::SET
            if is(parser.peek_nth_token_ref(1), Keyword::TRANSACTION)
                && !is(parser.peek_nth_token_ref(2), Keyword::SNAPSHOT) =>
        {
            parser.advance_token();
            parser.advance_token();
            ast::Set::SetTransaction {
                modes: parser.parse_transaction_modes()?,
                snapshot: None,
                session: false,
            }
            .into()
        }
        // Sets the session's default_transaction_isolation.
        Keyword::SET
            if is(parser.peek_nth_token_ref(1), Keyword::SESSION)
                && is(parser.peek_nth_token_ref(2), Keyword::CHARACTERISTICS) =>
        {
            parser.advance_token();
            parser.advance_token();
            parser.advance_token();
            parser.expect_keywords(&[Keyword::AS, Keyword::TRANSACTION])?;
            ast::Set::SetTransaction {
                modes: parser.parse_transaction_modes()?,
                snapshot: None,
                session: true,
            }
            .into()
        }
        Keyword::CREATE => {
            parser.advance_token();
            // The modifiers of a table that PostgreSQL's CREATE TABLE takes.
            let scope = parser.parse_one_of_keywords(&[Keyword::GLOBAL, Keyword::LOCAL]);
            let temporary = parser
                .parse_one_of_keywords(&[Keyword::TEMP, Keyword::TEMPORARY])
                .is_some();
            let unlogged = !temporary && parser.parse_keyword(Keyword::UNLOGGED);
            let modified = scope.is_some() || temporary || unlogged;
            if parser.parse_keyword(Keyword::TABLE) {
                let global = scope.map(|scope| scope == Keyword::GLOBAL);
                parser
                    .parse_create_table(false, temporary, unlogged, global, false, false, None)?
                    .into()
            } else if !modified && parser.parse_keyword(Keyword::INDEX) {
                parser.parse_create_index(false)?.into()
            } else if !modified && parser.parse_keywords(&[Keyword::UNIQUE, Keyword::INDEX]) {
                parser.parse_create_index(true)?.into()
            } else {
                return Ok(None);
            }
        }
        Keyword::DROP => {
            parser.advance_token();
            parser.parse_drop()?
        }
        Keyword::LOCK => parser.parse_lock_statement()?.into(),
        Keyword::SET | Keyword::RESET | Keyword::SHOW => match parameter(parser)? {
            Some(statement) => statement,
            None => return Ok(None),
        },
        Keyword::ALTER if is(parser.peek_nth_token_ref(1), Keyword::TABLE) => {
            match alter_table(parser)? {
                Some(alter) => Statement::AlterTable(alter),
                None => return Ok(None),
            }
        }
        _ => match &first.token {
            Token::Word(word) if OTHER_STATEMENTS.contains(&word.value.to_uppercase().as_str()) => {
                return Ok(None)
            }
            _ => return parser.expected("an SQL statement", first),
        },
    };
    Ok(Some(statement))
}

/// A value of an INSERT's VALUES: an expression, or `DEFAULT`.
fn value_of(text: &str, e: SqlExpr) -> Result<Expr, SqlError> {
    match e {
        SqlExpr::Identifier(name)
            if name.quote_style.is_none() && name.value.eq_ignore_ascii_case("default") =>
        {
            Ok(Expr::Default)
        }
        e => expr(text, e),
    }
}

/// The `ALTER TABLE` a schema dump holds (`pg_dump --schema-only`): `ADD
/// [CONSTRAINT name]` a key, a foreign key or a check, `ALTER [COLUMN] c
/// SET DEFAULT …`, `SET NOT NULL` or `ADD GENERATED … AS IDENTITY`, and
/// `OWNER TO`; `None` for any other (not supported), read up to its end.
fn alter_table(parser: &mut Parser) -> Result<Option<ast::AlterTable>, ParserError> {
    parser.advance_token();
    parser.advance_token();
    let if_exists = parser.parse_keywords(&[Keyword::IF, Keyword::EXISTS]);
    let only = parser.parse_keyword(Keyword::ONLY);
    let name = parser.parse_object_name(false)?;
    let mut operations = Vec::new();
    loop {
        if parser.parse_keyword(Keyword::ADD) {
            let Some(constraint) = parser.parse_optional_table_constraint()? else {
                return Ok(None);
            };
            let not_valid = parser.parse_keywords(&[Keyword::NOT, Keyword::VALID]);
            operations.push(ast::AlterTableOperation::AddConstraint {
                constraint,
                not_valid,
            });
        } else if parser.parse_keyword(Keyword::ALTER) {
            let _ = parser.parse_keyword(Keyword::COLUMN);
            let column_name = parser.parse_identifier()?;
            let op = if parser.parse_keywords(&[Keyword::SET, Keyword::DEFAULT]) {
                ast::AlterColumnOperation::SetDefault {
                    value: parser.parse_expr()?,
                }
            } else if parser.parse_keywords(&[Keyword::SET, Keyword::NOT, Keyword::NULL]) {
                ast::AlterColumnOperation::SetNotNull
            } else if parser.parse_keywords(&[Keyword::ADD, Keyword::GENERATED]) {
                // `{ ALWAYS | BY DEFAULT } AS IDENTITY [ (sequence options) ]`.
                let mut depth = 0usize;
                loop {
                    match &parser.peek_token_ref().token {
                        Token::SemiColon | Token::EOF => break,
                        Token::Comma if depth == 0 => break,
                        Token::LParen => depth += 1,
                        Token::RParen => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    parser.advance_token();
                }
                ast::AlterColumnOperation::AddGenerated {
                    generated_as: None,
                    sequence_options: None,
                }
            } else {
                return Ok(None);
            };
            operations.push(ast::AlterTableOperation::AlterColumn { column_name, op });
        } else if parser.parse_keywords(&[Keyword::OWNER, Keyword::TO]) {
            parser.parse_identifier()?;
        } else {
            return Ok(None);
        }
        if !parser.consume_token(&Token::Comma) {
            break;
        }
    }
    Ok(Some(ast::AlterTable {
        name,
        if_exists,
        only,
        operations,
        location: None,
        on_cluster: None,
        table_type: None,
        end_token: ast::helpers::attached_token::AttachedToken::empty(),
    }))
}

/// A `SET`'s plan, its value checked (`value` `None`: `DEFAULT`).
fn set_plan(name: String, value: Option<String>, local: bool) -> Result<Plan, SqlError> {
    let (shown, ms) = parameters::checked(&name, value.as_deref())?;
    Ok(Plan::Set {
        value: match (&value, local) {
            (None, false) => None,
            _ => shown,
        },
        ms,
        name,
        local,
    })
}

/// [`parameter_name`] of an object name's parts.
fn object_parameter(name: &ObjectName) -> String {
    let parts: Vec<ast::Ident> = name
        .0
        .iter()
        .filter_map(|p| p.as_ident().cloned())
        .collect();
    parameter_name(&parts)
}

/// A run-time parameter's name: its parts, in lower case (PostgreSQL's
/// names are not case-sensitive, quoted or not), joined by dots.
fn parameter_name(parts: &[ast::Ident]) -> String {
    let parts: Vec<String> = parts.iter().map(|part| part.value.to_lowercase()).collect();
    parts.join(".")
}

/// A `SET`'s value as text (`None`: `DEFAULT`): a string as written, a
/// number, a word in lower case; a list joined by ", ".
fn parameter_value(text: &str, values: Vec<SqlExpr>) -> Result<Option<String>, SqlError> {
    let mut parts = Vec::new();
    for value in values {
        parts.push(match value {
            SqlExpr::Identifier(word)
                if word.quote_style.is_none() && word.value.eq_ignore_ascii_case("default") =>
            {
                return Ok(None)
            }
            SqlExpr::Identifier(word) => ident(&word),
            SqlExpr::Value(value) => match value.value {
                ast::Value::SingleQuotedString(s) | ast::Value::EscapedStringLiteral(s) => s,
                ast::Value::Number(n, _) => n.to_string(),
                ast::Value::Boolean(b) => if b { "on" } else { "off" }.to_string(),
                other => return Err(SqlError::unsupported(text, &format!("the value {other}"))),
            },
            SqlExpr::UnaryOp {
                op: ast::UnaryOperator::Minus,
                expr,
            } => match *expr {
                SqlExpr::Value(ast::ValueWithSpan {
                    value: ast::Value::Number(n, _),
                    ..
                }) => format!("-{n}"),
                other => return Err(SqlError::unsupported(text, &format!("the value -{other}"))),
            },
            other => return Err(SqlError::unsupported(text, &format!("the value {other}"))),
        });
    }
    Ok(Some(parts.join(", ")))
}

/// `SET [SESSION | LOCAL] name {= | TO} value, …`, `SET [LOCAL] TIME ZONE
/// value`, `RESET {name | ALL}` and `SHOW {name | TIME ZONE}`; `None` for
/// another statement that starts so (`SET ROLE`, `SHOW ALL`).
fn parameter(parser: &mut Parser) -> Result<Option<Statement>, ParserError> {
    let keyword = |token: &TokenWithSpan| match &token.token {
        Token::Word(word) if word.quote_style.is_none() => word.keyword,
        _ => Keyword::NoKeyword,
    };
    let first = keyword(&parser.next_token());
    // A parameter's name (its words and dots), then what must follow it.
    let named = |parser: &Parser, from: usize, then: &dyn Fn(&Token) -> bool| {
        let mut at = from;
        loop {
            if !matches!(parser.peek_nth_token_ref(at).token, Token::Word(_)) {
                return false;
            }
            at += 1;
            if parser.peek_nth_token_ref(at).token != Token::Period {
                return then(&parser.peek_nth_token_ref(at).token);
            }
            at += 1;
        }
    };
    let is_time_zone = |parser: &Parser| {
        is(parser.peek_token_ref(), Keyword::TIME)
            && is(parser.peek_nth_token_ref(1), Keyword::ZONE)
    };
    let end = |token: &Token| matches!(token, Token::SemiColon | Token::EOF);
    Ok(Some(match first {
        Keyword::SET => {
            let scope = match keyword(parser.peek_token_ref()) {
                Keyword::LOCAL => Some(ast::ContextModifier::Local),
                Keyword::SESSION => Some(ast::ContextModifier::Session),
                _ => None,
            };
            let from = usize::from(scope.is_some());
            if is(parser.peek_nth_token_ref(from), Keyword::TIME)
                && is(parser.peek_nth_token_ref(from + 1), Keyword::ZONE)
            {
                for _ in 0..from + 2 {
                    parser.advance_token();
                }
                let value = parser.parse_expr()?;
                let local = scope == Some(ast::ContextModifier::Local);
                return Ok(Some(ast::Set::SetTimeZone { local, value }.into()));
            }
            let assigns = |token: &Token| {
                *token == Token::Eq || matches!(token, Token::Word(w) if w.keyword == Keyword::TO)
            };
            if !named(parser, from, &assigns) {
                return Ok(None);
            }
            if scope.is_some() {
                parser.advance_token();
            }
            let variable = parser.parse_object_name(false)?;
            parser.advance_token();
            let values = parser.parse_comma_separated(|parser| parser.parse_expr())?;
            ast::Set::SingleAssignment {
                scope,
                hivevar: false,
                variable,
                values,
            }
            .into()
        }
        Keyword::RESET if parser.parse_keyword(Keyword::ALL) => {
            Statement::Reset(ast::ResetStatement {
                reset: ast::Reset::ALL,
            })
        }
        Keyword::RESET | Keyword::SHOW if is_time_zone(parser) => {
            parser.advance_token();
            parser.advance_token();
            let zone = ast::Ident::new("TimeZone");
            match first {
                Keyword::RESET => Statement::Reset(ast::ResetStatement {
                    reset: ast::Reset::ConfigurationParameter(ObjectName::from(vec![zone])),
                }),
                _ => Statement::ShowVariable {
                    variable: vec![zone],
                },
            }
        }
        Keyword::RESET | Keyword::SHOW if named(parser, 0, &end) => {
            let variable = parser.parse_object_name(false)?;
            match first {
                Keyword::RESET => Statement::Reset(ast::ResetStatement {
                    reset: ast::Reset::ConfigurationParameter(variable),
                }),
                _ => Statement::ShowVariable {
                    variable: variable
                        .0
                        .iter()
                        .filter_map(|p| p.as_ident().cloned())
                        .collect(),
                },
            }
        }
        _ => return Ok(None),
    }))
}

/// Whether a token is that keyword.
fn is(token: &TokenWithSpan, keyword: Keyword) -> bool {
    matches!(&token.token, Token::Word(word) if word.keyword == keyword)
}

/// A token as an error names a statement by its first words: keywords in
/// capitals, as PostgreSQL prints them.
fn word(token: &Token) -> String {
    match token {
        Token::Word(word) if word.keyword != Keyword::NoKeyword && word.quote_style.is_none() => {
            word.value.to_uppercase()
        }
        other => other.to_string(),
    }
}

/// The byte offset of a token's place (its line and its column, counted
/// in characters from 1).
fn offset(text: &str, lines: &[usize], place: Location) -> usize {
    let line = lines[(place.line as usize).saturating_sub(1).min(lines.len() - 1)];
    text[line..]
        .char_indices()
        .nth((place.column as usize).saturating_sub(1))
        .map_or(text.len(), |(i, _)| line + i)
}

/// Parses one query's text into its plan.
pub fn parse(text: &str) -> Result<Plan, SqlError> {
    let mut pieces = statements(text)?;
    match pieces.len() {
        1 => {
            let piece = pieces.pop().expect("one");
            match piece.statement {
                Some(statement) => plan(text, &piece.kind, statement),
                None => Err(SqlError::unsupported(text, &piece.kind)),
            }
        }
        0 => Err(SqlError::syntax("the query is empty")),
        _ => Err(SqlError::unsupported(
            text,
            "more than one statement in one query",
        )),
    }
}

/// A statement's plan, with the subqueries of its FROM ([`derived`]) as
/// `WITH` queries after its own.
fn plan(text: &str, kind: &str, statement: Statement) -> Result<Plan, SqlError> {
    let _derived = DerivedTables;
    let mut plan = plan_statement(text, kind, statement)?;
    let derived = take_derived();
    if !derived.is_empty() {
        match plan.with_mut() {
            Some(with) => with.extend(derived),
            None => return Err(SqlError::unsupported(text, "a subquery in FROM here")),
        }
    }
    Ok(plan)
}

fn plan_statement(text: &str, kind: &str, statement: Statement) -> Result<Plan, SqlError> {
    match statement {
        Statement::Query(mut query) => {
            let Some(with) = query.with.take() else {
                return select(text, *query).map(Plan::Select);
            };
            let (ctes, _names) = with_queries(text, with)?;
            let mut plan = match *query.body {
                SetExpr::Insert(statement)
                | SetExpr::Update(statement)
                | SetExpr::Delete(statement) => plan_statement(text, kind, statement)?,
                body => {
                    query.body = Box::new(body);
                    Plan::Select(select(text, *query)?)
                }
            };
            *plan.with_mut().expect("a query") = ctes;
            writes_once(text, &plan)?;
            Ok(plan)
        }
        Statement::Insert(insert) => self::insert(text, insert).map(Plan::Insert),
        Statement::Update(update) => {
            let from = match update.from {
                None => Vec::new(),
                Some(ast::UpdateTableFromKind::AfterSet(from)) => from,
                Some(ast::UpdateTableFromKind::BeforeSet(_)) => {
                    return Err(SqlError::unsupported(text, "UPDATE FROM … SET"))
                }
            };
            let (scope, alias, from) = written_table(text, &update.table, from)?;
            Ok(Plan::Update(Update {
                table: scope.name(),
                set: assignments(text, update.assignments)?,
                filter: update.selection.map(|e| expr(text, e)).transpose()?,
                returning: update.returning.map(|r| projection(text, r)).transpose()?,
                with: Vec::new(),
                from,
                alias,
                written: scope.written(),
                waited: None,
            }))
        }
        Statement::Delete(delete) => {
            let tables = match &delete.from {
                FromTable::WithFromKeyword(tables) | FromTable::WithoutKeyword(tables) => tables,
            };
            if tables.len() != 1 || !delete.tables.is_empty() {
                return Err(SqlError::unsupported(text, "DELETE of several tables"));
            }
            let using = delete.using.unwrap_or_default();
            let (scope, alias, using) = written_table(text, &tables[0], using)?;
            Ok(Plan::Delete(Delete {
                table: scope.name(),
                filter: delete.selection.map(|e| expr(text, e)).transpose()?,
                returning: delete.returning.map(|r| projection(text, r)).transpose()?,
                with: Vec::new(),
                using,
                alias,
                written: scope.written(),
                waited: None,
            }))
        }
        Statement::StartTransaction { modes, .. } => Ok(Plan::Begin(isolation(text, &modes)?)),
        Statement::Set(ast::Set::SingleAssignment {
            scope,
            variable,
            values,
            ..
        }) => set_plan(
            object_parameter(&variable),
            parameter_value(text, values)?,
            scope == Some(ast::ContextModifier::Local),
        ),
        Statement::Set(ast::Set::SetTimeZone { local, value }) => set_plan(
            "timezone".to_string(),
            parameter_value(text, vec![value])?,
            local,
        ),
        Statement::Reset(reset) => match reset.reset {
            ast::Reset::ConfigurationParameter(variable) => {
                let name = object_parameter(&variable);
                parameters::checked(&name, None)?;
                Ok(Plan::Reset(Some(name)))
            }
            _ => Ok(Plan::Reset(None)),
        },
        Statement::ShowVariable { variable } => match parameter_name(&variable).as_str() {
            "all" => Err(SqlError::unsupported(text, "SHOW ALL")),
            name => Ok(Plan::Show {
                name: name.to_string(),
                column: match name {
                    "timezone" => "TimeZone".to_string(),
                    "datestyle" => "DateStyle".to_string(),
                    _ => name.to_string(),
                },
                default: match name {
                    "transaction_isolation" => None,
                    _ => parameters::checked(name, None)?.0,
                },
            }),
        },
        Statement::Set(ast::Set::SetTransaction {
            modes,
            session: true,
            ..
        }) => {
            let level = modes.iter().find_map(|mode| match mode {
                TransactionMode::IsolationLevel(level) => Some(level.to_string()),
                _ => None,
            });
            let level = level.ok_or_else(|| {
                SqlError::unsupported(
                    text,
                    "SET SESSION CHARACTERISTICS without an isolation level",
                )
            })?;
            set_plan("default_transaction_isolation".into(), Some(level), false)
        }
        Statement::Set(ast::Set::SetTransaction { modes, .. }) => isolation(text, &modes)?
            .map(Plan::SetIsolation)
            .ok_or_else(|| {
                SqlError::unsupported(text, "SET TRANSACTION without an isolation level")
            }),
        Statement::Lock(lock) => Ok(Plan::Lock(lock_table(lock))),
        Statement::Commit { .. } => Ok(Plan::Commit),
        Statement::Rollback {
            savepoint: None, ..
        } => Ok(Plan::Rollback),
        Statement::Rollback {
            savepoint: Some(name),
            ..
        } => Ok(Plan::RollbackTo(ident(&name))),
        Statement::Savepoint { name } => Ok(Plan::Savepoint(ident(&name))),
        Statement::ReleaseSavepoint { name } => Ok(Plan::Release(ident(&name))),
        _ => Err(SqlError::unsupported(text, kind)),
    }
}

/// `LOCK [TABLE] [ONLY] name [*] [, …] [IN mode MODE] [NOWAIT]` (`ONLY`
/// and `*` change nothing where no table inherits from another).
fn lock_table(lock: ast::Lock) -> LockTable {
    use ast::LockTableMode as Mode;
    let mode = match lock.lock_mode {
        None | Some(Mode::AccessExclusive) => TableLock::AccessExclusive,
        Some(Mode::AccessShare) => TableLock::AccessShare,
        Some(Mode::RowShare) => TableLock::RowShare,
        Some(Mode::RowExclusive) => TableLock::RowExclusive,
        Some(Mode::ShareUpdateExclusive) => TableLock::ShareUpdateExclusive,
        Some(Mode::Share) => TableLock::Share,
        Some(Mode::ShareRowExclusive) => TableLock::ShareRowExclusive,
        Some(Mode::Exclusive) => TableLock::Exclusive,
    };
    LockTable {
        tables: lock.tables.iter().map(|t| object_name(&t.name)).collect(),
        mode,
        nowait: lock.nowait,
    }
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

/// The one table of a FROM, and its alias, as the statement's scope.
fn single_table(text: &str, from: &TableWithJoins) -> Result<Scope, SqlError> {
    if !from.joins.is_empty() {
        return Err(SqlError::unsupported(text, "JOIN outside a SELECT"));
    }
    let (table, alias) = relation(text, &from.relation)?;
    Ok(Scope::enter(vec![(Some(table), alias)]))
}

/// The table an UPDATE or a DELETE writes, as the statement's scope, with
/// the tables joined to it (UPDATE's FROM, DELETE's USING) read as one
/// FROM whose first table it is; its alias then, as their columns keep
/// their qualifiers. (The written table is never a `WITH` query's.)
fn written_table(
    text: &str,
    target: &TableWithJoins,
    joined: Vec<TableWithJoins>,
) -> Result<(Scope, Option<String>, Vec<Join>), SqlError> {
    if joined.is_empty() {
        return Ok((single_table(text, target)?, None, Vec::new()));
    }
    if !target.joins.is_empty() {
        return Err(SqlError::unsupported(text, "JOIN outside a SELECT"));
    }
    let (table, alias) = relation(text, &target.relation)?;
    let (scope, _, joins) = from_tables(text, joined, Some((table, alias.clone())))?;
    Ok((scope, alias, joins))
}

/// A table of a FROM, and its alias.
fn relation(text: &str, factor: &TableFactor) -> Result<(String, Option<String>), SqlError> {
    match factor {
        TableFactor::Table {
            name,
            args: None,
            alias,
            ..
        } => Ok((object_name(name), alias.as_ref().map(|a| ident(&a.name)))),
        _ => Err(SqlError::unsupported(text, "a FROM that is not a table")),
    }
}

/// A SELECT's FROM: its first table, and the tables joined to it
/// (`JOIN … ON` or `USING`, `INNER`, `LEFT [OUTER]`, `CROSS JOIN`, and
/// `FROM a, b`), whose `ON` conditions are read in the scope of them all.
fn from_tables(
    text: &str,
    from: Vec<TableWithJoins>,
    first: Option<(String, Option<String>)>,
) -> Result<(Scope, Option<String>, Vec<Join>), SqlError> {
    let mut tables = Vec::new();
    // Each joined table, with its kind, its ON condition as written, its
    // USING columns, and whether it starts a FROM item.
    let mut pending = Vec::new();
    let before = first.is_some() as usize;
    tables.extend(first);
    // What a subquery among them may not name (PostgreSQL's "invalid
    // reference"): the others.
    let siblings: Vec<String> = from
        .iter()
        .flat_map(|item| {
            std::iter::once(&item.relation).chain(item.joins.iter().map(|j| &j.relation))
        })
        .filter_map(|factor| match factor {
            TableFactor::Derived { alias, .. } => alias.as_ref().map(|a| ident(&a.name)),
            factor => relation(text, factor)
                .ok()
                .map(|(table, alias)| alias.unwrap_or(table)),
        })
        .collect();
    let _siblings = Siblings::enter(siblings);
    for (n, item) in from.into_iter().enumerate() {
        let (table, alias) = from_item(text, item.relation)?;
        if n + before > 0 {
            pending.push((
                table.clone(),
                alias.clone(),
                (false, false),
                None,
                Vec::new(),
                true,
            ));
        }
        tables.push((table, alias));
        for join in item.joins {
            let (table, alias) = from_item(text, join.relation)?;
            // Which sides keep a row with no match.
            let (left, right, constraint) = match join.join_operator {
                JoinOperator::Join(c) | JoinOperator::Inner(c) => (false, false, c),
                JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => (true, false, c),
                JoinOperator::CrossJoin(c) => (false, false, c),
                JoinOperator::Right(c) | JoinOperator::RightOuter(c) => (false, true, c),
                JoinOperator::FullOuter(c) => (true, true, c),
                _ => return Err(SqlError::unsupported(text, "this kind of JOIN")),
            };
            if right {
                let kind = if left { "FULL JOIN" } else { "RIGHT JOIN" };
                // Its left side is everything before it: one FROM item
                // of a SELECT.
                if n + before > 0 {
                    return Err(SqlError::unsupported(
                        text,
                        &format!(
                            "{kind} after another FROM item, or in UPDATE … FROM or DELETE … USING"
                        ),
                    ));
                }
                if matches!(constraint, JoinConstraint::Using(_)) {
                    return Err(SqlError::unsupported(text, &format!("{kind} … USING")));
                }
            }
            let (on, using) = match constraint {
                JoinConstraint::On(on) => (Some(on), Vec::new()),
                JoinConstraint::None => (None, Vec::new()),
                JoinConstraint::Using(names) => {
                    let mut using: Vec<String> = Vec::with_capacity(names.len());
                    for name in &names {
                        let column = object_name(name);
                        if using.contains(&column) {
                            return Err(SqlError::new(
                                "42701",
                                format!("column name \"{column}\" appears more than once in USING clause"),
                            ));
                        }
                        using.push(column);
                    }
                    (None, using)
                }
                JoinConstraint::UsingAlias(..) => {
                    return Err(SqlError::unsupported(text, "JOIN … USING … AS"))
                }
                JoinConstraint::Natural => return Err(SqlError::unsupported(text, "NATURAL JOIN")),
            };
            pending.push((
                table.clone(),
                alias.clone(),
                (left, right),
                on,
                using,
                false,
            ));
            tables.push((table, alias));
        }
    }
    let mut names: Vec<&str> = Vec::new();
    for (table, alias) in &tables {
        let name = alias.as_deref().unwrap_or(table);
        if names.contains(&name) {
            return Err(SqlError::new(
                "42712",
                format!("table name \"{name}\" specified more than once"),
            ));
        }
        names.push(name);
    }
    let alias = tables.first().and_then(|(_, alias)| alias.clone());
    let scope = Scope::enter(
        tables
            .into_iter()
            .map(|(table, alias)| (Some(table), alias))
            .collect(),
    );
    let joins = pending
        .into_iter()
        .map(|(table, alias, (left, right), on, using, new_item)| {
            Ok(Join {
                table,
                alias,
                left,
                right,
                on: on.map(|on| expr(text, on)).transpose()?,
                using,
                new_item,
            })
        })
        .collect::<Result<Vec<_>, SqlError>>()?;
    Ok((scope, alias, joins))
}

/// A level of [`SCOPES`]: the tables of one FROM, each by its name and
/// its alias.
type Tables = Vec<(Option<String>, Option<String>)>;

thread_local! {
    /// The tables of the statements being read, outermost first: a
    /// statement's FROM, then each subquery's inside it ([`Scope`]).
    static SCOPES: std::cell::RefCell<Vec<Tables>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The tables a qualified column may name (`orders.user_id`,
/// `o.user_id`) while a statement or a subquery is read: entered with its
/// FROM and left when dropped. A qualifier must name a table of the
/// innermost one that has it: an outer one makes a correlated subquery,
/// none is PostgreSQL's 42P01.
struct Scope {
    table: Option<String>,
}

impl Scope {
    fn enter(tables: Tables) -> Self {
        let table = tables.first().and_then(|(table, _)| table.clone());
        SCOPES.with(|scopes| scopes.borrow_mut().push(tables));
        WRITTEN.with(|written| written.borrow_mut().push(Vec::new()));
        Scope { table }
    }

    /// The columns this level named by its one table's name or alias, as
    /// written ([`Select::written`]), once its clauses are read.
    fn written(&self) -> Vec<(String, String)> {
        WRITTEN.with(|written| {
            written
                .borrow_mut()
                .last_mut()
                .map(std::mem::take)
                .unwrap_or_default()
        })
    }

    fn name(&self) -> String {
        self.table.clone().unwrap_or_default()
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        SCOPES.with(|scopes| scopes.borrow_mut().pop());
        WRITTEN.with(|written| written.borrow_mut().pop());
    }
}

thread_local! {
    /// For each level of [`SCOPES`], the columns it named qualified by its
    /// one table, which reads them by their bare names: the bare name and
    /// the name as written, first use first.
    static WRITTEN: std::cell::RefCell<Vec<Vec<(String, String)>>> = const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    /// The names of the `WITH` queries of the statement being read, which
    /// its FROM (and a later `WITH` query's) can name.
    static WITH_NAMES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps a statement's `WITH` names readable until dropped.
struct WithNames;

impl Drop for WithNames {
    fn drop(&mut self) {
        WITH_NAMES.with(|names| names.borrow_mut().clear());
        SILENT_WRITES.with(|names| names.borrow_mut().clear());
    }
}

thread_local! {
    /// The data-modifying `WITH` queries of the statement being read that
    /// return nothing (no RETURNING), which no FROM can read.
    static SILENT_WRITES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A statement's `WITH` queries, in order, each able to read the ones
/// before it: SELECTs, and data-modifying ones (an INSERT, UPDATE or
/// DELETE, its RETURNING rows its rows, [`Cte::write`]). `WITH RECURSIVE`
/// is not supported.
fn with_queries(text: &str, with: ast::With) -> Result<(Vec<Cte>, WithNames), SqlError> {
    if with.recursive {
        return Err(SqlError::unsupported(text, "WITH RECURSIVE"));
    }
    let names = WithNames;
    let mut ctes: Vec<Cte> = Vec::new();
    for cte in with.cte_tables {
        let name = ident(&cte.alias.name);
        if ctes.iter().any(|c| c.name == name) {
            return Err(SqlError::new(
                "42712",
                format!("WITH query name \"{name}\" specified more than once"),
            ));
        }
        if cte.from.is_some() {
            return Err(SqlError::unsupported(text, "WITH … FROM"));
        }
        let query = *cte.query;
        let (select, union, write) = match *query.body {
            SetExpr::Insert(statement)
            | SetExpr::Update(statement)
            | SetExpr::Delete(statement) => {
                let write = plan_statement(text, "this data-modifying WITH query", statement)?;
                if write.returning().is_none() {
                    SILENT_WRITES.with(|names| names.borrow_mut().push(name.clone()));
                }
                let nothing = Select::plain(None, Projection::All);
                (nothing, Vec::new(), Some(Box::new(write)))
            }
            body @ (SetExpr::Select(_) | SetExpr::SetOperation { .. }) => {
                let query = ast::Query {
                    body: Box::new(body),
                    ..query
                };
                let (select, union) = union_queries(text, query)?;
                (select, union_branches(&name, union), None)
            }
            _ => {
                return Err(SqlError::unsupported(
                    text,
                    "a WITH query that is not a SELECT, INSERT, UPDATE or DELETE",
                ))
            }
        };
        // The subqueries of its FROM, and its UNION's queries, run before it.
        ctes.extend(take_derived());
        let columns = cte.alias.columns.iter().map(|c| ident(&c.name)).collect();
        WITH_NAMES.with(|names| names.borrow_mut().push(name.clone()));
        ctes.push(Cte {
            write,
            ..Cte::new(name, columns, select, union)
        });
    }
    Ok((ctes, names))
}

/// Refuses a statement that updates or deletes from a table a
/// data-modifying `WITH` query before it writes: PostgreSQL runs them on
/// one snapshot, neither seeing the other's changes (the manual calls
/// the outcome unpredictable), and the model runs them in turn. Inserts
/// into one table from several parts are run.
fn writes_once(text: &str, plan: &Plan) -> Result<(), SqlError> {
    let mut written: Vec<&str> = Vec::new();
    let writes = plan.with().iter().filter_map(|cte| cte.write.as_deref());
    for write in writes.chain(std::iter::once(plan)) {
        let Some(table) = write.written_table() else {
            continue;
        };
        if !matches!(write, Plan::Insert(_)) && written.contains(&table) {
            return Err(SqlError::unsupported(
                text,
                "an UPDATE or DELETE of a table a data-modifying WITH query writes too",
            ));
        }
        written.push(table);
    }
    Ok(())
}

/// A FROM's table, or the `WITH` query of its name (which hides a table
/// of that name), as [`Cte::table`] names it, going by its own name.
fn with_query((table, alias): (String, Option<String>)) -> (String, Option<String>) {
    match WITH_NAMES.with(|names| names.borrow().contains(&table)) {
        true => (Cte::table(&table), alias.or(Some(table))),
        false => (table, alias),
    }
}

/// An item of a FROM: a table, a `WITH` query ([`with_query`]) or a
/// subquery ([`derived`]), and the name it goes by.
fn from_item(text: &str, factor: TableFactor) -> Result<(String, Option<String>), SqlError> {
    match factor {
        TableFactor::Derived {
            lateral,
            subquery,
            alias,
            ..
        } => derived(text, lateral, *subquery, alias),
        factor => {
            let (table, alias) = relation(text, &factor)?;
            if SILENT_WRITES.with(|names| names.borrow().contains(&table)) {
                return Err(SqlError::new(
                    "0A000",
                    format!("WITH query \"{table}\" does not have a RETURNING clause"),
                ));
            }
            Ok(with_query((table, alias)))
        }
    }
}

thread_local! {
    /// The names of the FROM whose subqueries are being read.
    static SIBLINGS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps the names of a statement's FROM for its subqueries until dropped.
struct Siblings(Option<Vec<String>>);

impl Siblings {
    /// Only a statement's own FROM (its subqueries in FROM are refused
    /// elsewhere).
    fn enter(names: Vec<String>) -> Self {
        if SCOPES.with(|scopes| !scopes.borrow().is_empty()) {
            return Siblings(None);
        }
        Siblings(Some(SIBLINGS.with(|siblings| siblings.replace(names))))
    }
}

impl Drop for Siblings {
    fn drop(&mut self) {
        if let Some(before) = self.0.take() {
            SIBLINGS.with(|siblings| *siblings.borrow_mut() = before);
        }
    }
}

thread_local! {
    /// The subqueries in FROM of the statement being read, as `WITH`
    /// queries not yet placed, and how many it has had.
    static DERIVED: std::cell::RefCell<(u32, Vec<Cte>)> = const { std::cell::RefCell::new((0, Vec::new())) };
}

/// Forgets a statement's subqueries in FROM when dropped (its end, or an
/// error).
struct DerivedTables;

impl Drop for DerivedTables {
    fn drop(&mut self) {
        DERIVED.with(|derived| *derived.borrow_mut() = (0, Vec::new()));
    }
}

/// The subqueries in FROM read since the last call, to run before the
/// query that reads them.
fn take_derived() -> Vec<Cte> {
    DERIVED.with(|derived| std::mem::take(&mut derived.borrow_mut().1))
}

/// The queries of a UNION after its first, each a subquery in FROM of
/// its own ([`Cte::derived`] of `name`), run before the union that
/// reads their rows ([`Cte::union`]): their names, each with ALL or not.
fn union_branches(name: &str, union: Vec<(Select, bool)>) -> Vec<(String, bool)> {
    DERIVED.with(|derived| {
        let mut derived = derived.borrow_mut();
        union
            .into_iter()
            .map(|(select, all)| {
                derived.0 += 1;
                let branch = Cte::new(
                    Cte::derived(name, derived.0),
                    Vec::new(),
                    select,
                    Vec::new(),
                );
                let named = (branch.name.clone(), all);
                derived.1.push(branch);
                named
            })
            .collect()
    })
}

/// A subquery in FROM (`FROM (SELECT …) AS s(a, b)`): a `WITH` query of a
/// name no query can write ([`Cte::derived`]), which the FROM reads by its
/// alias. PostgreSQL runs a subquery in FROM once for the statement, as
/// it runs a `WITH` query read once, so both give the same rows. Only in
/// the FROM of a statement or of its `WITH` queries: one inside another
/// query's subquery, or `LATERAL`, may read that query's columns.
fn derived(
    text: &str,
    lateral: bool,
    subquery: ast::Query,
    alias: Option<ast::TableAlias>,
) -> Result<(String, Option<String>), SqlError> {
    if lateral {
        return Err(SqlError::unsupported(text, "LATERAL"));
    }
    if SCOPES.with(|scopes| !scopes.borrow().is_empty()) {
        return Err(SqlError::unsupported(
            text,
            "a subquery in the FROM of a subquery",
        ));
    }
    // PostgreSQL 15 wants the name (16 makes one up).
    let Some(alias) = alias else {
        return Err(SqlError::new(
            "42601",
            "subquery in FROM must have an alias",
        ));
    };
    let (select, union) = union_queries(text, subquery)?;
    let name = ident(&alias.name);
    let union = union_branches(&name, union);
    let columns = alias.columns.iter().map(|c| ident(&c.name)).collect();
    let cte = DERIVED.with(|derived| {
        let mut derived = derived.borrow_mut();
        derived.0 += 1;
        let cte = Cte::new(Cte::derived(&name, derived.0), columns, select, union);
        derived.1.push(cte.clone());
        cte
    });
    Ok((Cte::table(&cte.name), Some(name)))
}

/// A column qualified by `name`, as the query that has `name` in its FROM
/// reads it: in a FROM of one table, the column alone; in a join,
/// `name.column`, the name the table goes by (the store reads it so).
/// Checked against the scopes (above), innermost first: a table of an
/// outer one makes it a column of that query's row (a correlated
/// subquery), [`Named::Outer`].
fn qualified_name(name: &str, column: String) -> Result<Named, SqlError> {
    SCOPES.with(|scopes| {
        let scopes = scopes.borrow();
        let names = |(table, alias): &(Option<String>, Option<String>)| {
            alias.as_deref() == Some(name) || (alias.is_none() && table.as_deref() == Some(name))
        };
        let renamed = |(table, alias): &(Option<String>, Option<String>)| {
            alias.is_some() && table.as_deref() == Some(name)
        };
        let Some((inner, outer)) = scopes.split_last() else {
            return Ok(Named::Here(column));
        };
        let key = |tables: &Tables| match tables.len() {
            1 => column.clone(),
            _ => format!("{name}.{column}"),
        };
        for (out, tables) in std::iter::once(inner).chain(outer.iter().rev()).enumerate() {
            if tables.iter().any(names) {
                if (out, tables.len()) == (0, 1) {
                    WRITTEN.with(|written| {
                        if let Some(level) = written.borrow_mut().last_mut() {
                            if !level.iter().any(|(bare, _)| *bare == column) {
                                level.push((column.clone(), format!("{name}.{column}")));
                            }
                        }
                    });
                }
                return Ok(match out {
                    0 => Named::Here(key(tables)),
                    _ => Named::Outer(out as u32, format!("{name}.{column}")),
                });
            }
            if tables.iter().any(renamed) {
                return Err(SqlError::new(
                    "42P01",
                    format!("invalid reference to FROM-clause entry for table \"{name}\""),
                ));
            }
        }
        // A subquery in FROM naming another item of that FROM.
        if SIBLINGS.with(|siblings| siblings.borrow().iter().any(|s| s == name)) {
            return Err(SqlError::new(
                "42P01",
                format!("invalid reference to FROM-clause entry for table \"{name}\""),
            ));
        }
        Err(SqlError::new(
            "42P01",
            format!("missing FROM-clause entry for table \"{name}\""),
        ))
    })
}

/// Where a qualified column is.
enum Named {
    /// A column of the query being read, as it reads it.
    Here(String),
    /// A column of the query this many out, as `name.column`.
    Outer(u32, String),
}

/// A qualified column that must be the query's own (`ORDER BY`, `GROUP
/// BY`, `t.*`).
fn qualified(text: &str, name: &str, column: String) -> Result<String, SqlError> {
    match qualified_name(name, column)? {
        Named::Here(column) => Ok(column),
        Named::Outer(..) => Err(SqlError::unsupported(
            text,
            &format!("a subquery's ORDER BY, GROUP BY or {name}.* of its outer query's row"),
        )),
    }
}

/// Whether the FROM being read joins tables.
fn joined() -> bool {
    SCOPES.with(|scopes| {
        scopes
            .borrow()
            .last()
            .is_some_and(|tables| tables.len() > 1)
    })
}

/// A column as ORDER BY or GROUP BY names it: `o.id` keeps its qualifier
/// in a join.
fn named_column(text: &str, parts: &[ast::Ident]) -> Result<String, SqlError> {
    match parts {
        [.., table, last] => qualified(text, &ident(table), ident(last)),
        [last] => Ok(ident(last)),
        [] => Err(SqlError::syntax("an empty name")),
    }
}

/// `A UNION [ALL] B … ORDER BY … LIMIT …`: `SELECT * FROM (A UNION B)`
/// with the ORDER BY and LIMIT, which name the union's output columns,
/// as PostgreSQL's must. The union is a subquery in FROM ([`derived`]).
fn union_select(text: &str, query: ast::Query) -> Result<Select, SqlError> {
    if SCOPES.with(|scopes| !scopes.borrow().is_empty()) {
        return Err(SqlError::unsupported(text, "a UNION inside a subquery"));
    }
    let ast::Query {
        body,
        order_by,
        limit_clause,
        fetch,
        locks,
        ..
    } = query;
    if let Some(lock) = locks.first() {
        let clause = match lock.lock_type {
            ast::LockType::Update => "FOR UPDATE",
            ast::LockType::Share => "FOR SHARE",
        };
        return Err(SqlError::new(
            "0A000",
            format!("{clause} is not allowed with UNION/INTERSECT/EXCEPT"),
        ));
    }
    // `SELECT * FROM (the union) AS union`, built as a plan: no ast is
    // cloned (a clone links sqlparser's whole Clone tree into the module).
    let alias = ast::TableAlias {
        explicit: true,
        name: ast::Ident::new("union"),
        columns: Vec::new(),
        at: None,
    };
    let (table, alias) = derived(text, false, plain_query(*body), Some(alias))?;
    // Its columns are the first query's, by name, so that ORDER BY 1
    // names one (over `*` the parser knows none).
    let projection = DERIVED.with(|derived| match derived.borrow().1.last() {
        Some(Cte {
            select:
                Select {
                    projection: Projection::Items(items),
                    ..
                },
            ..
        }) => Projection::Items(
            items
                .iter()
                .map(|(name, _)| (name.clone(), Expr::Column(name.clone())))
                .collect(),
        ),
        _ => Projection::All,
    });
    let (order, limit, offset) = order_and_limit(text, order_by, limit_clause, fetch, &projection)?;
    Ok(Select {
        alias,
        order,
        limit,
        offset,
        ..Select::plain(Some(table), projection)
    })
}

/// A query of `body` alone: no WITH, ORDER BY, LIMIT or lock.
fn plain_query(body: SetExpr) -> ast::Query {
    ast::Query {
        with: None,
        body: Box::new(body),
        order_by: None,
        limit_clause: None,
        fetch: None,
        locks: Vec::new(),
        for_clause: None,
        settings: None,
        format_clause: None,
        pipe_operators: Vec::new(),
    }
}

/// A WITH query's or a FROM subquery's SELECT, and for `A UNION [ALL] B
/// …` the queries after the first, each with ALL or not, left to right
/// as PostgreSQL reads them. INTERSECT and EXCEPT are not supported.
fn union_queries(text: &str, query: ast::Query) -> Result<(Select, Vec<(Select, bool)>), SqlError> {
    fn branches(text: &str, body: SetExpr, out: &mut Vec<(SetExpr, bool)>) -> Result<(), SqlError> {
        match body {
            SetExpr::SetOperation {
                left,
                op: ast::SetOperator::Union,
                set_quantifier,
                right,
            } => {
                branches(text, *left, out)?;
                let all = match set_quantifier {
                    ast::SetQuantifier::All => true,
                    ast::SetQuantifier::None | ast::SetQuantifier::Distinct => false,
                    _ => return Err(SqlError::unsupported(text, "UNION BY NAME")),
                };
                if matches!(*right, SetExpr::SetOperation { .. }) {
                    return Err(SqlError::unsupported(text, "INTERSECT or EXCEPT"));
                }
                out.push((*right, all));
                Ok(())
            }
            SetExpr::SetOperation { op, .. } => Err(SqlError::unsupported(text, &op.to_string())),
            body => {
                out.push((body, false));
                Ok(())
            }
        }
    }
    let union = matches!(*query.body, SetExpr::SetOperation { .. });
    // One that sorts, limits or locks reads the union as a subquery.
    let whole = query.order_by.is_some()
        || query.limit_clause.is_some()
        || query.fetch.is_some()
        || !query.locks.is_empty();
    if !union || whole {
        return Ok((select(text, query)?, Vec::new()));
    }
    let mut found = Vec::new();
    branches(text, *query.body, &mut found)?;
    let mut queries = found.into_iter().map(|(body, all)| {
        let query = match body {
            SetExpr::Query(query) => *query,
            body => plain_query(body),
        };
        select(text, query).map(|select| (select, all))
    });
    let (first, _) = queries.next().expect("a first query")?;
    Ok((first, queries.collect::<Result<_, _>>()?))
}

fn select(text: &str, query: ast::Query) -> Result<Select, SqlError> {
    if query.with.is_some() {
        return Err(SqlError::unsupported(text, "WITH"));
    }
    if matches!(*query.body, SetExpr::SetOperation { .. }) {
        return union_select(text, query);
    }
    let ast::Query {
        body,
        order_by,
        limit_clause,
        fetch,
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
    let (scope, alias, joins) = match select.from.is_empty() {
        true => (Scope::enter(vec![(None, None)]), None, Vec::new()),
        false => from_tables(text, select.from, None)?,
    };
    let table = scope.table.clone();
    let (distinct, distinct_on) = match select.distinct {
        None | Some(ast::Distinct::All) => (false, Vec::new()),
        Some(ast::Distinct::Distinct) => (true, Vec::new()),
        Some(ast::Distinct::On(exprs)) => {
            let columns = exprs
                .into_iter()
                .map(|e| match e {
                    SqlExpr::Identifier(name) => Ok(ident(&name)),
                    SqlExpr::CompoundIdentifier(parts) => named_column(text, &parts),
                    _ => Err(SqlError::unsupported(text, "DISTINCT ON an expression")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            (false, columns)
        }
    };
    let projection = projection(text, select.projection)?;
    let (mut group_by, mut group_exprs) = (Vec::new(), Vec::new());
    match select.group_by {
        ast::GroupByExpr::Expressions(list, modifiers) if modifiers.is_empty() => {
            for term in list {
                match group_term(text, term, &projection)? {
                    Expr::Column(column) => group_by.push(column),
                    other => group_exprs.push(other),
                }
            }
        }
        _ => return Err(SqlError::unsupported(text, "GROUP BY ALL or its modifiers")),
    }
    let having = select.having.map(|e| expr(text, e)).transpose()?;
    let (order, limit, offset) = order_and_limit(text, order_by, limit_clause, fetch, &projection)?;
    let mut for_update = false;
    let mut for_share = false;
    let mut nowait = false;
    let mut skip_locked = false;
    // The tables each lock clause names after OF, with its clause.
    let mut named = Vec::new();
    for lock in &locks {
        if let Some(name) = &lock.of {
            let clause = match lock.lock_type {
                ast::LockType::Update => lock_clause(text, true),
                ast::LockType::Share => "FOR SHARE",
            };
            named.push((object_name(name), clause));
        }
        match lock.nonblock {
            Some(ast::NonBlock::Nowait) => nowait = true,
            Some(ast::NonBlock::SkipLocked) => skip_locked = true,
            None => {}
        }
        match lock.lock_type {
            ast::LockType::Update => for_update = true,
            ast::LockType::Share => for_share = true,
        }
    }
    // The stronger lock, as PostgreSQL takes it.
    for_share &= !for_update;
    // PostgreSQL's errors name the clause.
    let clause = lock_clause(text, for_update);
    let locks = for_update || for_share;
    if locks && table.is_none() {
        return Err(SqlError::unsupported(
            text,
            &format!("{clause} without a table"),
        ));
    }
    // The FROM's tables (0 its first, n its n-th join) whose rows it
    // locks: those `OF` names, as the FROM names them (by an alias, if
    // one has it), else every one.
    let sources: Vec<(&str, &str)> = table
        .iter()
        .map(|t| (t.as_str(), alias.as_deref().unwrap_or(t)))
        .chain(
            joins
                .iter()
                .map(|j| (j.table.as_str(), j.alias.as_deref().unwrap_or(&j.table))),
        )
        .collect();
    let mut locked: Vec<usize> = Vec::new();
    for (name, clause) in &named {
        let Some(n) = sources.iter().position(|(_, goes_by)| goes_by == name) else {
            return Err(SqlError::new(
                "42P01",
                format!("relation \"{name}\" in {clause} clause not found in FROM clause"),
            ));
        };
        if !locked.contains(&n) {
            locked.push(n);
        }
    }
    if locks && named.is_empty() {
        locked = (0..sources.len()).collect();
    }
    for &n in &locked {
        // PostgreSQL locks the rows of the tables a WITH query reads, once
        // it is folded into the statement.
        let table = sources[n].0;
        if Cte::is_table(table) {
            let rows = match table.contains(" (FROM ") {
                true => "a subquery's rows",
                false => "a WITH query's rows",
            };
            return Err(SqlError::unsupported(text, &format!("{clause} of {rows}")));
        }
        // A row an outer join makes up has nothing to lock.
        let nullable = n > 0 && joins[n - 1].left || joins.iter().skip(n).any(|j| j.right);
        if nullable {
            return Err(SqlError::new(
                "0A000",
                format!("{clause} cannot be applied to the nullable side of an outer join"),
            ));
        }
    }
    if joins.is_empty() {
        locked.clear();
    }
    // PostgreSQL's rule: the leftmost ORDER BY items are DISTINCT ON's.
    let leftmost = order.iter().take(distinct_on.len());
    if leftmost
        .map(|(column, ..)| column)
        .any(|column| !distinct_on.contains(column))
    {
        return Err(SqlError::new(
            "42P10",
            "SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
        ));
    }
    if locks && (distinct || !distinct_on.is_empty()) {
        return Err(SqlError::new(
            "0A000",
            format!("{clause} is not allowed with DISTINCT clause"),
        ));
    }
    // What DISTINCT compares is the output: ORDER BY can only name it.
    let shown = |column: &str| match &projection {
        Projection::All => true,
        Projection::Items(items) => items
            .iter()
            .any(|(name, e)| name == column || *e == Expr::Column(column.to_string())),
    };
    if distinct && order.iter().any(|(column, ..)| !shown(column)) {
        return Err(SqlError::new(
            "42P10",
            "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
        ));
    }
    let filter = select.selection.map(|e| expr(text, e)).transpose()?;
    for (clause, exprs) in [("WHERE", filter.as_slice()), ("GROUP BY", &group_exprs)] {
        if exprs.iter().any(Expr::has_aggregate) {
            return Err(SqlError::new(
                "42803",
                format!("aggregate functions are not allowed in {clause}"),
            ));
        }
    }
    let select = Select {
        table,
        projection,
        filter,
        group_by,
        group_exprs,
        having,
        order,
        limit,
        offset,
        for_update,
        for_share,
        nowait,
        skip_locked,
        locked,
        joins,
        alias,
        distinct,
        distinct_on,
        with: Vec::new(),
        written: scope.written(),
        waited: None,
    };
    drop(scope);
    if select.locks() && select.aggregated() {
        let what = match select.group_by.is_empty() {
            true => "aggregate functions",
            false => "GROUP BY clause",
        };
        return Err(SqlError::new(
            "0A000",
            format!("{clause} is not allowed with {what}"),
        ));
    }
    Ok(select)
}

/// `(a, b) < (x, y)`, as PostgreSQL compares rows: element by element,
/// the first unequal pair deciding (`a < x OR (a = x AND b < y)`), a NULL
/// there making it NULL; `=` every pair equal, `<>` any unequal.
fn row_comparison(
    text: &str,
    left: Vec<SqlExpr>,
    op: BinaryOperator,
    right: Vec<SqlExpr>,
) -> Result<Expr, SqlError> {
    if left.len() != right.len() {
        return Err(SqlError::new(
            "42601",
            "unequal number of entries in row expressions",
        ));
    }
    let (last, strict) = match op {
        BinaryOperator::Eq => (Op::Eq, None),
        BinaryOperator::NotEq => (Op::NotEq, None),
        BinaryOperator::Lt => (Op::Lt, Some(Op::Lt)),
        BinaryOperator::LtEq => (Op::LtEq, Some(Op::Lt)),
        BinaryOperator::Gt => (Op::Gt, Some(Op::Gt)),
        BinaryOperator::GtEq => (Op::GtEq, Some(Op::Gt)),
        other => {
            return Err(SqlError::unsupported(
                text,
                &format!("the operator {other} between rows"),
            ))
        }
    };
    let binary = |a: Expr, op: Op, b: Expr| Expr::Binary(Box::new(a), op, Box::new(b));
    let pairs = left
        .into_iter()
        .zip(right)
        .map(|(a, b)| Ok((expr(text, a)?, expr(text, b)?)))
        .collect::<Result<Vec<_>, SqlError>>()?;
    let mut pairs = pairs.into_iter().rev();
    let Some((a, b)) = pairs.next() else {
        return Err(SqlError::syntax("an empty row"));
    };
    let mut compared = binary(a, last, b);
    for (a, b) in pairs {
        compared = match (last, strict) {
            (Op::Eq, _) => binary(binary(a, Op::Eq, b), Op::And, compared),
            (Op::NotEq, _) => binary(binary(a, Op::NotEq, b), Op::Or, compared),
            (_, Some(strict)) => {
                let equal = binary(binary(a.clone(), Op::Eq, b.clone()), Op::And, compared);
                binary(binary(a, strict, b), Op::Or, equal)
            }
            _ => unreachable!("a comparison"),
        };
    }
    Ok(compared)
}

fn projection(text: &str, items: Vec<SelectItem>) -> Result<Projection, SqlError> {
    let mut out = Vec::new();
    for item in items {
        let (expression, alias) = match item {
            // `e.*` in a join: the store puts that table's columns here.
            SelectItem::QualifiedWildcard(
                ast::SelectItemQualifiedWildcardKind::ObjectName(name),
                _,
            ) if joined() => {
                let all = qualified(text, &object_name(&name), "*".to_string())?;
                out.push((all.clone(), Expr::Column(all)));
                continue;
            }
            SelectItem::Wildcard(options) | SelectItem::QualifiedWildcard(_, options)
                if options.opt_alias.is_some() =>
            {
                // `SELECT * t`: the parser reads an alias PostgreSQL does not.
                let alias = options
                    .opt_alias
                    .map(|alias| alias.value)
                    .unwrap_or_default();
                return Err(SqlError::syntax(format!(
                    "syntax error at or near \"{alias}\" in \"{}\"",
                    quote(text)
                )));
            }
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
        out.push((name, expr(text, expression)?));
    }
    Ok(Projection::Items(out))
}

/// A GROUP BY term: a column (or an output column by its name, which the
/// store resolves), an output column by its number (`1`), or an
/// expression.
fn group_term(text: &str, term: SqlExpr, projection: &Projection) -> Result<Expr, SqlError> {
    match term {
        SqlExpr::Identifier(name) => Ok(Expr::Column(ident(&name))),
        SqlExpr::CompoundIdentifier(parts) => Ok(Expr::Column(named_column(text, &parts)?)),
        SqlExpr::Nested(inner) => group_term(text, *inner, projection),
        SqlExpr::Value(ast::ValueWithSpan {
            value: SqlValue::Number(n, _),
            ..
        }) => {
            let name = output_column(&n, projection, "GROUP BY")?;
            Ok(match projection {
                Projection::Items(items) => items
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(Expr::Column(name), |(_, e)| e.clone()),
                Projection::All => Expr::Column(name),
            })
        }
        term => expr(text, term),
    }
}

/// The output column numbered `n` (1-based), by its name.
/// A query's ORDER BY (output columns or the FROM's, `ORDER BY 2`), and
/// its LIMIT (or FETCH FIRST) and OFFSET.
#[allow(clippy::type_complexity)]
fn order_and_limit(
    text: &str,
    order_by: Option<ast::OrderBy>,
    limit_clause: Option<LimitClause>,
    fetch: Option<ast::Fetch>,
    projection: &Projection,
) -> Result<(Vec<(String, bool, bool)>, Option<Expr>, Option<Expr>), SqlError> {
    let mut order = Vec::new();
    if let Some(order_by) = order_by {
        let OrderByKind::Expressions(items) = order_by.kind else {
            return Err(SqlError::unsupported(text, "ORDER BY ALL"));
        };
        for item in items {
            let column = match item.expr {
                SqlExpr::Identifier(name) => ident(&name),
                SqlExpr::CompoundIdentifier(parts) => named_column(text, &parts)?,
                // `ORDER BY 2`: the second output column.
                SqlExpr::Value(ast::ValueWithSpan {
                    value: SqlValue::Number(n, _),
                    ..
                }) => output_column(&n, projection, "ORDER BY")?,
                _ => return Err(SqlError::unsupported(text, "ORDER BY an expression")),
            };
            let descending = matches!(item.options.sort, Some(ast::OrderBySort::Desc));
            let nulls_first = item.options.nulls_first.unwrap_or(descending);
            order.push((column, descending, nulls_first));
        }
    }
    let (limit, offset) = match limit_clause {
        None => (None, None),
        Some(LimitClause::LimitOffset {
            limit,
            offset,
            limit_by,
        }) if limit_by.is_empty() => (
            limit.map(|e| expr(text, e)).transpose()?,
            offset.map(|o| expr(text, o.value)).transpose()?,
        ),
        Some(_) => return Err(SqlError::unsupported(text, "LIMIT offset, count")),
    };
    // `FETCH FIRST n ROWS ONLY` is the standard's LIMIT (one row without n).
    let limit = match (fetch, limit) {
        (None, limit) => limit,
        // PostgreSQL's grammar has no LIMIT before a FETCH.
        (Some(_), Some(_)) => {
            return Err(SqlError::new("42601", "syntax error at or near \"FETCH\""))
        }
        (Some(fetch), None) if fetch.with_ties || fetch.percent => {
            return Err(SqlError::unsupported(text, "FETCH … WITH TIES or PERCENT"))
        }
        (Some(fetch), None) => Some(match fetch.quantity {
            Some(quantity) => expr(text, quantity)?,
            None => Expr::Value(Value::from(1)),
        }),
    };
    Ok((order, limit, offset))
}

fn output_column(n: &str, projection: &Projection, clause: &str) -> Result<String, SqlError> {
    let index = n.parse::<usize>().unwrap_or(0);
    match projection {
        Projection::Items(items) if (1..=items.len()).contains(&index) => {
            Ok(items[index - 1].0.clone())
        }
        _ => Err(SqlError::new(
            "42P10",
            format!("{clause} position {n} is not in select list"),
        )),
    }
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
        // `date '…'` is named `date`.
        SqlExpr::TypedString(typed) => typed.data_type.to_string().to_lowercase(),
        SqlExpr::Case { .. } => "case".to_string(),
        SqlExpr::Array(_) => "array".to_string(),
        SqlExpr::Trim { trim_where, .. } => match trim_where {
            Some(ast::TrimWhereField::Leading) => "ltrim",
            Some(ast::TrimWhereField::Trailing) => "rtrim",
            _ => "btrim",
        }
        .to_string(),
        SqlExpr::Substring { .. } => "substring".to_string(),
        SqlExpr::Position { .. } => "position".to_string(),
        SqlExpr::Ceil { .. } => "ceil".to_string(),
        SqlExpr::Floor { .. } => "floor".to_string(),
        // `tags[1]` is named after `tags`.
        SqlExpr::CompoundFieldAccess { root, .. } => default_name(root),
        _ => "?column?".to_string(),
    }
}

fn assignments(text: &str, set: Vec<ast::Assignment>) -> Result<Vec<(String, Expr)>, SqlError> {
    set.into_iter()
        .map(|assignment| match &assignment.target {
            AssignmentTarget::ColumnName(name) => {
                Ok((object_name(name), expr(text, assignment.value)?))
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
    let columns: Vec<String> = insert.columns.iter().map(object_name).collect();
    // The query of `INSERT … SELECT` is read before the target's scope:
    // it does not see the target table's row.
    let (rows, select) = match insert.source.map(|source| *source) {
        // `DEFAULT VALUES`: one row of its columns' defaults.
        None if columns.is_empty() => (vec![Vec::new()], None),
        None => return Err(SqlError::unsupported(text, "INSERT without VALUES")),
        Some(source) => match *source.body {
            SetExpr::Values(values) => (
                values
                    .rows
                    .into_iter()
                    .map(|row| row.content.into_iter().map(|e| value_of(text, e)).collect())
                    .collect::<Result<Vec<Vec<Expr>>, SqlError>>()?,
                None,
            ),
            _ => (Vec::new(), Some(Box::new(self::select(text, source)?))),
        },
    };
    let scope = Scope::enter(vec![(
        Some(table.clone()),
        insert.table_alias.as_ref().map(|a| ident(&a.alias)),
    )]);
    let mut conflict_where = None;
    let on_conflict = match insert.on {
        None => None,
        Some(OnInsert::OnConflict(conflict)) => {
            let target = match conflict.conflict_target {
                None => None,
                Some(ConflictTarget::Columns { columns, predicate }) => {
                    conflict_where = predicate.map(|p| expr(text, p).map(Box::new)).transpose()?;
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
                    set: assignments(text, update.assignments)?,
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
        select,
        on_conflict,
        conflict_where,
        returning: insert.returning.map(|r| projection(text, r)).transpose()?,
        with: Vec::new(),
        written: scope.written(),
    })
}

/// A column by its name. Of PostgreSQL's system columns only `xmax` is in
/// the model (`Expr::Xmax`, in an INSERT's RETURNING); the others are the
/// simulation's gap, not columns the table lacks.
fn column(text: &str, name: String) -> Result<Expr, SqlError> {
    match name.as_str() {
        "xmax" => Ok(Expr::Xmax),
        "xmin" | "cmin" | "cmax" | "ctid" | "tableoid" => Err(SqlError::unsupported(
            text,
            &format!("the system column {name}"),
        )),
        _ => Ok(Expr::Column(name)),
    }
}

/// An expression of a schema (a column's DEFAULT).
pub fn expression(text: &str, expression: SqlExpr) -> Result<Expr, SqlError> {
    expr(text, expression)
}

fn expr(text: &str, expression: SqlExpr) -> Result<Expr, SqlError> {
    Ok(match expression {
        SqlExpr::Identifier(name) => column(text, ident(&name))?,
        SqlExpr::CompoundIdentifier(parts) => match parts.as_slice() {
            [first, column] if ident(first) == "excluded" => Expr::Excluded(ident(column)),
            [.., table, last] => match qualified_name(&ident(table), ident(last))? {
                Named::Here(name) => column(text, name)?,
                Named::Outer(out, name) => Expr::Outer(out, name),
            },
            [last] => column(text, ident(last))?,
            [] => return Err(SqlError::syntax("an empty name")),
        },
        SqlExpr::Value(value) => literal(text, value.value)?,
        SqlExpr::Nested(inner) => expr(text, *inner)?,
        SqlExpr::BinaryOp { left, op, right }
            if matches!((&*left, &*right), (SqlExpr::Tuple(_), SqlExpr::Tuple(_))) =>
        {
            let (SqlExpr::Tuple(left), SqlExpr::Tuple(right)) = (*left, *right) else {
                unreachable!("two rows")
            };
            row_comparison(text, left, op, right)?
        }
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
                BinaryOperator::Modulo => Op::Modulo,
                BinaryOperator::StringConcat => Op::Concat,
                BinaryOperator::Arrow => Op::JsonGet,
                BinaryOperator::LongArrow => Op::JsonText,
                BinaryOperator::HashArrow => Op::JsonPath,
                BinaryOperator::HashLongArrow => Op::JsonPathText,
                BinaryOperator::AtArrow => Op::Contains,
                BinaryOperator::ArrowAt => Op::ContainedBy,
                BinaryOperator::PGOverlap => Op::Overlap,
                BinaryOperator::Question => Op::HasKey,
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
        SqlExpr::IsDistinctFrom(a, b) => Expr::Binary(
            Box::new(expr(text, *a)?),
            Op::DistinctFrom,
            Box::new(expr(text, *b)?),
        ),
        SqlExpr::IsNotDistinctFrom(a, b) => Expr::Binary(
            Box::new(expr(text, *a)?),
            Op::NotDistinctFrom,
            Box::new(expr(text, *b)?),
        ),
        // `x BETWEEN a AND b` is `x >= a AND x <= b`, and `x NOT BETWEEN
        // a AND b` is `x < a OR x > b`, as PostgreSQL's parser rewrites
        // them (so NULLs and types are the comparisons').
        SqlExpr::Between {
            expr: inner,
            negated,
            low,
            high,
        } => {
            let inner = expr(text, *inner)?;
            let (above, below, both) = match negated {
                false => (Op::GtEq, Op::LtEq, Op::And),
                true => (Op::Lt, Op::Gt, Op::Or),
            };
            let low = Expr::Binary(Box::new(inner.clone()), above, Box::new(expr(text, *low)?));
            let high = Expr::Binary(Box::new(inner), below, Box::new(expr(text, *high)?));
            Expr::Binary(Box::new(low), both, Box::new(high))
        }
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
        // type (a bigint comes back to pg as a string). An array of a type
        // the model keeps no arrays of (`$1::timestamptz[]`) stays as it
        // came.
        SqlExpr::Cast {
            expr: inner,
            data_type,
            ..
        } => match column_type(&data_type).0 {
            Type::Text if matches!(data_type, ast::DataType::Array(_)) => expr(text, *inner)?,
            ty => Expr::Cast(Box::new(expr(text, *inner)?), ty),
        },
        // `timestamptz '2024-05-06 07:08:09+00'`, `date '…'`: the string
        // cast to the type.
        SqlExpr::TypedString(typed) => Expr::Cast(
            Box::new(literal(text, typed.value.value)?),
            column_type(&typed.data_type).0,
        ),
        // `ARRAY[a, b]`.
        SqlExpr::Array(array) => Expr::Call(
            Function::Array,
            array
                .elem
                .into_iter()
                .map(|e| expr(text, e))
                .collect::<Result<_, _>>()?,
        ),
        // `trim([BOTH | LEADING | TRAILING] [chars FROM] s)`.
        SqlExpr::Trim {
            trim_where,
            trim_what,
            expr: inner,
            trim_characters,
        } => {
            let function = match trim_where {
                Some(ast::TrimWhereField::Leading) => Function::Text(TextFunction::LTrim),
                Some(ast::TrimWhereField::Trailing) => Function::Text(TextFunction::RTrim),
                _ => Function::Text(TextFunction::Trim),
            };
            let mut args = vec![expr(text, *inner)?];
            let chars = trim_what
                .map(|e| *e)
                .or_else(|| trim_characters.and_then(|list| list.into_iter().next()));
            if let Some(chars) = chars {
                args.push(expr(text, chars)?);
            }
            Expr::Call(function, args)
        }
        SqlExpr::Substring {
            expr: inner,
            substring_from,
            substring_for,
            ..
        } => {
            let mut args = vec![
                expr(text, *inner)?,
                match substring_from {
                    Some(from) => expr(text, *from)?,
                    None => Expr::Value(Value::from(1)),
                },
            ];
            if let Some(length) = substring_for {
                args.push(expr(text, *length)?);
            }
            Expr::Call(Function::Text(TextFunction::Substring), args)
        }
        SqlExpr::Position { expr: wanted, r#in } => Expr::Call(
            Function::Text(TextFunction::Position),
            vec![expr(text, *r#in)?, expr(text, *wanted)?],
        ),
        SqlExpr::Extract {
            field, expr: inner, ..
        } => Expr::Call(
            Function::Extract,
            vec![
                Expr::Value(Value::String(field.to_string().to_lowercase())),
                expr(text, *inner)?,
            ],
        ),
        SqlExpr::Ceil {
            expr: inner,
            field: ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime),
        } => Expr::Call(Function::Ceil, vec![expr(text, *inner)?]),
        SqlExpr::Floor {
            expr: inner,
            field: ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime),
        } => Expr::Call(Function::Floor, vec![expr(text, *inner)?]),
        // `tags[1]`.
        // (Moved, never cloned: a clone of sqlparser's `Expr` links its
        // whole tree's `Clone` into the page's parser module.)
        SqlExpr::CompoundFieldAccess { root, access_chain } => {
            let mut chain = access_chain.into_iter();
            match (chain.next(), chain.next()) {
                (Some(ast::AccessExpr::Subscript(ast::Subscript::Index { index })), None) => {
                    Expr::Binary(
                        Box::new(expr(text, *root)?),
                        Op::Subscript,
                        Box::new(expr(text, index)?),
                    )
                }
                _ => {
                    return Err(SqlError::unsupported(
                        text,
                        "this subscript (one [index] is)",
                    ))
                }
            }
        }
        SqlExpr::Function(function) => call(text, function)?,
        // `INTERVAL '1 hour'`, `INTERVAL '5' MINUTE`.
        SqlExpr::Interval(interval) => {
            if interval.last_field.is_some() {
                return Err(SqlError::unsupported(text, "INTERVAL … TO …"));
            }
            let value = match (expr(text, *interval.value)?, interval.leading_field) {
                // A bare number, by its characters (`parse::<f64>` would link the
                // float parser into the page's parser module).
                (Expr::Value(Value::String(s)), Some(unit))
                    if !s.trim().is_empty()
                        && s.trim()
                            .chars()
                            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+')) =>
                {
                    Expr::Value(Value::String(format!("{s} {unit}")))
                }
                (value, _) => value,
            };
            Expr::Cast(Box::new(value), Type::Interval)
        }
        SqlExpr::Like {
            negated,
            any: false,
            expr: inner,
            pattern,
            escape_char: None,
        } => like(text, *inner, *pattern, false, negated)?,
        SqlExpr::ILike {
            negated,
            any: false,
            expr: inner,
            pattern,
            escape_char: None,
        } => like(text, *inner, *pattern, true, negated)?,
        SqlExpr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => Expr::Case {
            operand: operand.map(|e| expr(text, *e).map(Box::new)).transpose()?,
            branches: conditions
                .into_iter()
                .map(|when| Ok((expr(text, when.condition)?, expr(text, when.result)?)))
                .collect::<Result<_, SqlError>>()?,
            otherwise: else_result
                .map(|e| expr(text, *e).map(Box::new))
                .transpose()?,
        },
        SqlExpr::Exists { subquery, negated } => {
            Expr::Exists(Box::new(self::select(text, *subquery)?), negated)
        }
        SqlExpr::In {
            expr: inner,
            target: ast::InTarget::Subquery(subquery),
            negated,
            ..
        } => Expr::InSelect(
            Box::new(expr(text, *inner)?),
            Box::new(self::select(text, *subquery)?),
            negated,
        ),
        SqlExpr::Subquery(query) => Expr::Scalar(Box::new(self::select(text, *query)?)),
        SqlExpr::In { .. } => return Err(SqlError::unsupported(text, "this IN")),
        other => {
            return Err(SqlError::unsupported(
                text,
                &format!("the expression {}", quote(&other.to_string())),
            ))
        }
    })
}

fn like(
    text: &str,
    inner: SqlExpr,
    pattern: SqlExpr,
    insensitive: bool,
    negated: bool,
) -> Result<Expr, SqlError> {
    Ok(Expr::Like {
        expr: Box::new(expr(text, inner)?),
        pattern: Box::new(expr(text, pattern)?),
        insensitive,
        negated,
    })
}

fn call(text: &str, function: ast::Function) -> Result<Expr, SqlError> {
    let name = object_name(&function.name);
    if function.over.is_some() {
        return Err(SqlError::unsupported(
            text,
            &format!("{name}() OVER (a window)"),
        ));
    }
    if !function.within_group.is_empty() {
        return Err(SqlError::unsupported(text, &format!("this call of {name}")));
    }
    let aggregate = match name.as_str() {
        "count" => Some(Aggregate::Count),
        "sum" => Some(Aggregate::Sum),
        "min" => Some(Aggregate::Min),
        "max" => Some(Aggregate::Max),
        "avg" => Some(Aggregate::Avg),
        "array_agg" => Some(Aggregate::ArrayAgg),
        "json_agg" => Some(Aggregate::JsonAgg),
        "jsonb_agg" => Some(Aggregate::JsonbAgg),
        "string_agg" => Some(Aggregate::StringAgg),
        "bool_and" | "every" => Some(Aggregate::BoolAnd),
        "bool_or" => Some(Aggregate::BoolOr),
        _ => None,
    };
    // `agg(x) FILTER (WHERE c)` is `agg(CASE WHEN c THEN x END)` for an
    // aggregate that leaves NULLs out (`count(*)`'s x is 1).
    let filter = match (function.filter, aggregate) {
        (None, _) => None,
        (Some(filter), Some(kind)) if !kind.keeps_nulls() => {
            let filter = expr(text, *filter)?;
            if filter.has_aggregate() {
                return Err(SqlError::new(
                    "42803",
                    "aggregate functions are not allowed in FILTER",
                ));
            }
            Some(filter)
        }
        (Some(_), Some(_)) => {
            return Err(SqlError::unsupported(text, &format!("FILTER on {name}")))
        }
        (Some(_), None) => {
            return Err(SqlError::new(
                "42809",
                format!("FILTER specified, but {name} is not an aggregate function"),
            ))
        }
    };
    // The filter goes around the first argument (`count(*)`'s is 1).
    let filtered = |mut args: Vec<Expr>| match &filter {
        None => args,
        Some(when) => {
            let first = match args.is_empty() {
                true => Expr::Value(Value::from(1)),
                false => args.remove(0),
            };
            let case = Expr::Case {
                operand: None,
                branches: vec![(when.clone(), first)],
                otherwise: None,
            };
            args.insert(0, case);
            args
        }
    };
    let (distinct, args, clauses) = match function.args {
        FunctionArguments::None => (false, Vec::new(), Vec::new()),
        FunctionArguments::List(list) => {
            let distinct = matches!(
                list.duplicate_treatment,
                Some(ast::DuplicateTreatment::Distinct)
            );
            (distinct, list.args, list.clauses)
        }
        FunctionArguments::Subquery(_) => return Err(SqlError::unsupported(text, "a subquery")),
    };
    if let Some(kind) = aggregate {
        return aggregate_call(text, &name, kind, distinct, args, clauses, filtered);
    }
    if !clauses.is_empty() {
        return Err(SqlError::unsupported(text, &format!("this call of {name}")));
    }
    if distinct {
        return Err(SqlError::unsupported(text, &format!("this call of {name}")));
    }
    let args: Vec<Expr> = args
        .into_iter()
        .map(|arg| match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => expr(text, e),
            _ => Err(SqlError::unsupported(text, &format!("this call of {name}"))),
        })
        .collect::<Result<_, _>>()?;
    let function = match (name.as_str(), args.len()) {
        ("now" | "current_timestamp" | "localtimestamp", 0) => return Ok(Expr::Now),
        // The transaction's date, in the session's zone (UTC).
        ("current_date", 0) => return Ok(Expr::Cast(Box::new(Expr::Now), Type::Date)),
        ("gen_random_uuid", 0) => return Ok(Expr::Uuid),
        ("coalesce", n) if n > 0 => return Ok(Expr::Coalesce(args)),
        ("lower", 1) => Function::Lower,
        ("upper", 1) => Function::Upper,
        ("length" | "char_length" | "character_length", 1) => Function::Length,
        ("abs", 1) => Function::Abs,
        ("greatest", n) if n > 0 => Function::Greatest,
        ("least", n) if n > 0 => Function::Least,
        ("nullif", 2) => Function::NullIf,
        ("round", 1 | 2) => Function::Round,
        ("hashtext", 1) => Function::HashText,
        ("btrim" | "trim", 1 | 2) => Function::Text(TextFunction::Trim),
        ("ltrim", 1 | 2) => Function::Text(TextFunction::LTrim),
        ("rtrim", 1 | 2) => Function::Text(TextFunction::RTrim),
        ("replace", 3) => Function::Text(TextFunction::Replace),
        ("split_part", 3) => Function::Text(TextFunction::SplitPart),
        ("substr" | "substring", 2 | 3) => Function::Text(TextFunction::Substring),
        ("concat", n) if n > 0 => Function::Text(TextFunction::Concat),
        ("left", 2) => Function::Text(TextFunction::Left),
        ("right", 2) => Function::Text(TextFunction::Right),
        ("strpos", 2) => Function::Text(TextFunction::Position),
        ("lpad", 2 | 3) => Function::Text(TextFunction::LPad),
        ("rpad", 2 | 3) => Function::Text(TextFunction::RPad),
        ("ceil" | "ceiling", 1) => Function::Ceil,
        ("floor", 1) => Function::Floor,
        ("json_build_object", _) => Function::Json(JsonFunction::JsonBuildObject),
        ("jsonb_build_object", _) => Function::Json(JsonFunction::JsonbBuildObject),
        ("json_build_array", _) => Function::Json(JsonFunction::JsonBuildArray),
        ("jsonb_build_array", _) => Function::Json(JsonFunction::JsonbBuildArray),
        ("to_json", 1) => Function::Json(JsonFunction::ToJson),
        ("to_jsonb", 1) => Function::Json(JsonFunction::ToJsonb),
        ("jsonb_set", 3 | 4) => Function::JsonbSet,
        ("json_array_length", 1) => Function::JsonArrayLength,
        ("jsonb_array_length", 1) => Function::JsonbArrayLength,
        ("date_trunc", 2) => Function::DateTrunc,
        ("to_timestamp", 1) => Function::ToTimestamp,
        ("to_char", 2) => Function::ToChar,
        ("date_part", 2) => Function::DatePart,
        ("mod", 2) => {
            let [a, b] = <[Expr; 2]>::try_from(args).map_err(|_| SqlError::syntax("mod"))?;
            return Ok(Expr::Binary(Box::new(a), Op::Modulo, Box::new(b)));
        }
        ("array_length", 2) => Function::ArrayLength,
        ("cardinality", 1) => Function::Cardinality,
        ("array_append", 2) => Function::ArrayAppend,
        ("array_prepend", 2) => Function::ArrayPrepend,
        ("array_remove", 2) => Function::ArrayRemove,
        ("array_position", 2) => Function::ArrayPosition,
        ("pg_advisory_lock", 1 | 2) => Function::AdvisoryLock {
            transaction: false,
            wait: true,
        },
        ("pg_advisory_xact_lock", 1 | 2) => Function::AdvisoryLock {
            transaction: true,
            wait: true,
        },
        ("pg_try_advisory_lock", 1 | 2) => Function::AdvisoryLock {
            transaction: false,
            wait: false,
        },
        ("pg_try_advisory_xact_lock", 1 | 2) => Function::AdvisoryLock {
            transaction: true,
            wait: false,
        },
        ("pg_advisory_unlock", 1 | 2) => Function::AdvisoryUnlock,
        ("pg_advisory_unlock_all", 0) => Function::AdvisoryUnlockAll,
        ("current_setting", 1 | 2) => Function::CurrentSetting,
        ("set_config", 3) => Function::SetConfig,
        ("pg_sleep", 1) => Function::Sleep,
        ("pg_sleep", _) => {
            return Err(SqlError::new(
                "42883",
                format!(
                    "function pg_sleep({}) does not exist",
                    argument_types(&args)
                ),
            ))
        }
        _ => {
            return Err(SqlError::unsupported(
                text,
                &format!("the function {name}() (the model knows {FUNCTIONS_MARK})"),
            ))
        }
    };
    Ok(Expr::Call(function, args))
}

/// An aggregate's call: `kind([DISTINCT] args [ORDER BY …])`, its
/// arguments with the FILTER (`filtered`) around the first. `count(*)`
/// has none; `string_agg` takes two (the store says 42883 for another
/// number, as it knows their types); every other aggregate one.
fn aggregate_call(
    text: &str,
    name: &str,
    kind: Aggregate,
    distinct: bool,
    args: Vec<FunctionArg>,
    clauses: Vec<ast::FunctionArgumentClause>,
    filtered: impl Fn(Vec<Expr>) -> Vec<Expr>,
) -> Result<Expr, SqlError> {
    let unsupported = || SqlError::unsupported(text, &format!("this call of {name}"));
    let nested = |e: &Expr| match e.has_aggregate() {
        true => Err(SqlError::new(
            "42803",
            "aggregate function calls cannot be nested",
        )),
        false => Ok(()),
    };
    let mut order = Vec::new();
    for clause in clauses {
        let ast::FunctionArgumentClause::OrderBy(items) = clause else {
            return Err(unsupported());
        };
        for item in items {
            let e = expr(text, item.expr)?;
            nested(&e)?;
            let descending = matches!(item.options.sort, Some(ast::OrderBySort::Desc));
            let nulls_first = item.options.nulls_first.unwrap_or(descending);
            order.push((e, descending, nulls_first));
        }
    }
    let star = matches!(
        args.as_slice(),
        [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)]
    );
    let arguments = match star && kind == Aggregate::Count {
        true => Vec::new(),
        false => args
            .into_iter()
            .map(|arg| match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => {
                    let e = expr(text, e)?;
                    nested(&e)?;
                    Ok(e)
                }
                _ => Err(unsupported()),
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let wanted = match kind {
        Aggregate::StringAgg => arguments.len(),
        Aggregate::Count if star => 0,
        _ => 1,
    };
    if arguments.len() != wanted {
        return Err(unsupported());
    }
    if distinct && order.iter().any(|(e, ..)| !arguments.contains(e)) {
        return Err(SqlError::new(
            "42P10",
            "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
        ));
    }
    Ok(Expr::Aggregate(kind, filtered(arguments), distinct, order))
}

/// The argument types PostgreSQL names in "function f(…) does not
/// exist", for literals and parameters (anything else as `unknown`).
fn argument_types(args: &[Expr]) -> String {
    let name = |arg: &Expr| match arg {
        Expr::Value(Value::Number(n)) if n.is_i64() => "integer",
        Expr::Value(Value::Bool(_)) => "boolean",
        Expr::Cast(_, Type::Numeric(_)) => "numeric",
        _ => "unknown",
    };
    args.iter().map(name).collect::<Vec<_>>().join(", ")
}

fn literal(text: &str, value: SqlValue) -> Result<Expr, SqlError> {
    Ok(match value {
        SqlValue::Number(n, _) => match n.parse::<i64>() {
            Ok(i) => Expr::Value(Value::from(i)),
            // A point or an exponent (or more digits than a bigint has)
            // makes a `numeric`, with the places it is written with: `7.0`
            // is 7.0, which divides as a `numeric`, not 7.
            Err(_) => Expr::Cast(Box::new(Expr::Value(Value::String(n))), Type::Numeric(None)),
        },
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

/// A schema's statements as data, in their order (CREATE TABLE with
/// columns, types, defaults, PRIMARY KEY and UNIQUE; CREATE UNIQUE INDEX;
/// INSERT for seed rows; DROP TABLE IF EXISTS, which is nothing to do),
/// up to the first that does not parse or is not one of them: that one is
/// the plan's error, and the statements after it are left out.
pub fn schema(text: &str) -> SchemaPlan {
    // psql's own commands (pg_dump's `\restrict`, `\connect`) are psql's,
    // not the server's: a schema runs as `psql -f` runs it.
    let text: String = text
        .lines()
        .map(|line| match line.trim_start().starts_with('\\') {
            true => "",
            false => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let text = text.as_str();
    let mut steps = Vec::new();
    let error = statements(text)
        .and_then(|pieces| {
            for piece in pieces {
                if let Some(Statement::AlterTable(_)) = &piece.statement {
                    let Some(Statement::AlterTable(alter)) = piece.statement else {
                        unreachable!("an ALTER TABLE")
                    };
                    alter_created(&mut steps, piece.text, alter)?;
                } else if !ignored(&piece) {
                    if let Some(step) = schema_step(piece)? {
                        steps.push(step);
                    }
                }
            }
            Ok(())
        })
        .err();
    SchemaPlan { steps, error }
}

/// A table constraint of a CREATE TABLE or an `ALTER TABLE … ADD`, in its
/// table's schema: a key, a foreign key; a check comes back, for
/// [`table_checks`] to name.
fn add_constraint(
    schema: &mut TableSchema,
    constraint: TableConstraint,
) -> Option<(Option<String>, SqlExpr)> {
    let name = &schema.name;
    match constraint {
        TableConstraint::PrimaryKey(pk) => {
            let cols = ident_columns(&pk.columns);
            for column in schema.columns.iter_mut().filter(|c| cols.contains(&c.name)) {
                column.not_null = true;
            }
            schema.keys.push(Key {
                name: pk.name.as_ref().map_or(format!("{name}_pkey"), ident),
                columns: cols,
                primary: true,
                predicate: None,
                nulls_not_distinct: false,
            });
        }
        TableConstraint::Check(check) => {
            return Some((check.name.as_ref().map(ident), *check.expr));
        }
        TableConstraint::ForeignKey(fk) => {
            let columns = fk.columns.iter().map(ident).collect();
            let fk = foreign_key(name, columns, &fk);
            schema.foreign_keys.push(fk);
        }
        TableConstraint::Unique(unique) => {
            let cols = ident_columns(&unique.columns);
            schema.keys.push(Key {
                name: unique
                    .name
                    .as_ref()
                    .map_or(format!("{name}_{}_key", cols.join("_")), ident),
                nulls_not_distinct: unique.nulls_distinct == NullsDistinctOption::NotDistinct,
                columns: cols,
                primary: false,
                predicate: None,
            });
        }
        _ => {}
    }
    None
}

/// Statements of a schema dump that change nothing the model keeps:
/// session settings (`SET …`, `SELECT pg_catalog.set_config(…)`),
/// comments, owners and grants, extensions, and the sequences behind
/// serial columns (their columns' `DEFAULT nextval(…)` makes them serial).
fn ignored(piece: &Piece) -> bool {
    let kind = piece.kind.to_uppercase();
    let first = kind.split(' ').next().unwrap_or_default();
    let words = piece.text.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = words.to_lowercase();
    matches!(first, "SET" | "COMMENT" | "GRANT" | "REVOKE")
        && !matches!(
            piece.statement,
            Some(Statement::Set(ast::Set::SetTransaction { .. }))
        )
        || matches!(
            kind.as_str(),
            "CREATE EXTENSION" | "CREATE SEQUENCE" | "ALTER SEQUENCE" | "CREATE SCHEMA"
        )
        || first == "ALTER" && words.contains(" owner to ")
        || words.starts_with("select pg_catalog.set_config(")
}

/// An `ALTER TABLE` of a schema, applied to its table's CREATE TABLE
/// earlier in the schema: a constraint added, a column's default or NOT
/// NULL set, a column made an identity.
fn alter_created(
    steps: &mut Vec<SchemaStep>,
    shown: &str,
    alter: ast::AlterTable,
) -> Result<(), SqlError> {
    let name = object_name(&alter.name);
    // `OWNER TO` alone (of a table, or of a sequence as pg_dump writes it).
    if alter.operations.is_empty() {
        return Ok(());
    }
    let created = steps.iter_mut().rev().find_map(|step| match step {
        SchemaStep::Create(schema) if schema.name == name => Some(schema),
        _ => None,
    });
    let Some(schema) = created else {
        return Err(SqlError::new(
            "42P01",
            format!(
                "relation \"{name}\" does not exist, in \"{}\"",
                quote(shown)
            ),
        ));
    };
    let mut added = Vec::new();
    for operation in alter.operations {
        match operation {
            // A foreign key once the table it refers to is there: here.
            ast::AlterTableOperation::AddConstraint {
                constraint: TableConstraint::ForeignKey(fk),
                ..
            } => {
                let columns = fk.columns.iter().map(ident).collect();
                let key = foreign_key(&schema.name, columns, &fk);
                added.push(SchemaStep::ForeignKey {
                    table: schema.name.clone(),
                    key,
                });
            }
            ast::AlterTableOperation::AddConstraint { constraint, .. } => {
                if let Some(check) = add_constraint(schema, constraint) {
                    let checks = table_checks(shown, &schema.name, vec![check]);
                    schema.checks.extend(checks);
                }
            }
            ast::AlterTableOperation::AlterColumn { column_name, op } => {
                let column_name = ident(&column_name);
                let Some(column) = schema.columns.iter_mut().find(|c| c.name == column_name) else {
                    return Err(SqlError::new(
                        "42703",
                        format!("column \"{column_name}\" of relation \"{name}\" does not exist"),
                    ));
                };
                match op {
                    ast::AlterColumnOperation::SetDefault { value } => {
                        column.default = Some(default(shown, value)?);
                    }
                    ast::AlterColumnOperation::SetNotNull => column.not_null = true,
                    _ => {
                        column.default = Some(Default::Serial);
                        column.not_null = true;
                    }
                }
            }
            _ => {}
        }
    }
    steps.extend(added);
    Ok(())
}

/// One statement of a schema as a step (`None`: nothing to do).
fn schema_step(piece: Piece) -> Result<Option<SchemaStep>, SqlError> {
    let shown = piece.text;
    let not_in_schema = || {
        SqlError::unsupported(
            shown,
            "this statement in a schema (it may hold CREATE TABLE, CREATE [UNIQUE] INDEX, ALTER TABLE … ADD CONSTRAINT or ALTER COLUMN, INSERT, DROP TABLE IF EXISTS, and what pg_dump writes around them)",
        )
    };
    let Some(statement) = piece.statement else {
        return Err(not_in_schema());
    };
    Ok(Some(match statement {
        Statement::CreateTable(create) => {
            let name = object_name(&create.name);
            if create.query.is_some() {
                return Err(SqlError::unsupported(shown, "CREATE TABLE … AS"));
            }
            let mut columns = Vec::new();
            let mut keys = Vec::new();
            let mut checks = Vec::new();
            let mut foreign_keys = Vec::new();
            for def in create.columns {
                let column_name = ident(&def.name);
                let (ty, serial) = column_type(&def.data_type);
                let mut column = Column {
                    name: column_name.clone(),
                    ty,
                    default: serial.then_some(Default::Serial),
                    not_null: serial,
                    max_chars: max_chars(&def.data_type),
                };
                for option in def.options {
                    match option.option {
                        ColumnOption::NotNull => column.not_null = true,
                        ColumnOption::Null => {}
                        ColumnOption::PrimaryKey(_) => {
                            column.not_null = true;
                            keys.push(Key {
                                name: option.name.as_ref().map_or(format!("{name}_pkey"), ident),
                                columns: vec![column_name.clone()],
                                primary: true,
                                predicate: None,
                                nulls_not_distinct: false,
                            });
                        }
                        ColumnOption::Unique(unique) => keys.push(Key {
                            nulls_not_distinct: unique.nulls_distinct
                                == NullsDistinctOption::NotDistinct,
                            name: option
                                .name
                                .as_ref()
                                .map_or(format!("{name}_{column_name}_key"), ident),
                            columns: vec![column_name.clone()],
                            primary: false,
                            predicate: None,
                        }),
                        ColumnOption::Default(expr) => {
                            column.default = Some(default(shown, expr)?);
                        }
                        // A column computed from the row's others (`GENERATED
                        // ALWAYS AS (expr) STORED`) is refused, not taken
                        // for an identity.
                        ColumnOption::Generated {
                            generation_expr: Some(_),
                            ..
                        } => {
                            return Err(SqlError::unsupported(
                                shown,
                                &format!("the generated column \"{column_name}\""),
                            ));
                        }
                        ColumnOption::Generated { .. } => {
                            column.default = Some(Default::Serial);
                            column.not_null = true;
                        }
                        ColumnOption::Check(check) => {
                            let given = option.name.as_ref().or(check.name.as_ref());
                            checks.push((given.map(ident), *check.expr));
                        }
                        ColumnOption::ForeignKey(mut fk) => {
                            fk.name = fk.name.or_else(|| option.name.clone());
                            let columns = vec![column_name.clone()];
                            foreign_keys.push(foreign_key(&name, columns, &fk));
                        }
                        _ => {}
                    }
                }
                columns.push(column);
            }
            let mut schema = TableSchema {
                name,
                columns,
                keys,
                expect_unique: Vec::new(),
                checks: Vec::new(),
                foreign_keys,
            };
            for constraint in create.constraints {
                if let Some(check) = add_constraint(&mut schema, constraint) {
                    checks.push(check);
                }
            }
            schema.checks = table_checks(shown, &schema.name, checks);
            for key in &schema.keys {
                for column in &key.columns {
                    if !schema.columns.iter().any(|c| &c.name == column) {
                        return Err(SqlError::new(
                            "42703",
                            format!(
                                "column \"{column}\" named in key does not exist, in \"{}\"",
                                quote(shown)
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
            if let Some(expr) = (index.columns.iter())
                .map(|c| &c.column.expr)
                .find(|expr| !matches!(expr, SqlExpr::Identifier(_)))
            {
                let what = format!("a unique index on an expression ({expr})");
                return Err(SqlError::unsupported(shown, &what));
            }
            let columns = ident_columns(&index.columns);
            let name = index
                .name
                .as_ref()
                .map_or(format!("{table}_{}_idx", columns.join("_")), object_name);
            let predicate = index.predicate.map(|p| expr(shown, p)).transpose()?;
            SchemaStep::UniqueIndex {
                table,
                key: Key {
                    name,
                    columns,
                    primary: false,
                    predicate,
                    nulls_not_distinct: index.nulls_distinct == Some(false),
                },
            }
        }
        Statement::Insert(insert) => SchemaStep::Seed {
            insert: self::insert(shown, insert)?,
            shown: shown.to_string(),
        },
        Statement::Drop {
            if_exists: true, ..
        } => return Ok(None),
        _ => return Err(not_in_schema()),
    }))
}

/// A foreign key, named as PostgreSQL names it: `TABLE_COLUMNS_fkey`.
fn foreign_key(table: &str, columns: Vec<String>, fk: &ast::ForeignKeyConstraint) -> ForeignKey {
    let restricts = |action: &Option<ast::ReferentialAction>| {
        matches!(
            action,
            None | Some(ast::ReferentialAction::NoAction | ast::ReferentialAction::Restrict)
        )
    };
    ForeignKey {
        name: fk
            .name
            .as_ref()
            .map_or(format!("{table}_{}_fkey", columns.join("_")), ident),
        columns,
        table: object_name(&fk.foreign_table),
        referred: fk.referred_columns.iter().map(ident).collect(),
        restricts_delete: restricts(&fk.on_delete),
        restricts_update: restricts(&fk.on_update),
    }
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
fn default(shown: &str, expr: SqlExpr) -> Result<Default, SqlError> {
    if let SqlExpr::Function(function) = &expr {
        match object_name(&function.name).as_str() {
            "nextval" => return Ok(Default::Serial),
            "gen_random_uuid" | "uuid_generate_v4" => return Ok(Default::Uuid),
            _ => {}
        }
    }
    expression(shown, expr).map(Default::Expr)
}

/// A table's CHECK constraints, named as PostgreSQL names them when the
/// schema does not: `TABLE_COLUMN_check` for an expression over one
/// column, `TABLE_check` otherwise, numbered from 1 when taken. One whose
/// expression the model cannot evaluate is left out (accepted, not
/// checked, as docs/sql.md says).
fn table_checks(shown: &str, table: &str, given: Vec<(Option<String>, SqlExpr)>) -> Vec<Check> {
    let mut checks: Vec<Check> = Vec::new();
    for (name, expression) in given {
        let Ok(expr) = expr(shown, expression) else {
            continue;
        };
        let name = name.unwrap_or_else(|| {
            let mut named = Vec::new();
            super::columns(&expr, &mut |column| {
                if !named.iter().any(|c: &String| c == column) {
                    named.push(column.to_string());
                }
            });
            let base = match named.as_slice() {
                [column] => format!("{table}_{column}_check"),
                _ => format!("{table}_check"),
            };
            let taken = |name: &str| checks.iter().any(|c| c.name == name);
            (0..)
                .map(|n| match n {
                    0 => base.clone(),
                    n => format!("{base}{n}"),
                })
                .find(|name| !taken(name))
                .expect("a free name")
        });
        checks.push(Check { name, expr });
    }
    checks
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
        let savepoint = |name: &str| Plan::Savepoint(name.into());
        assert_eq!(parse("SAVEPOINT a"), Ok(savepoint("a")));
        assert_eq!(
            parse("savepoint \"Before Insert\""),
            Ok(savepoint("Before Insert"))
        );
        for text in ["RELEASE a", "RELEASE SAVEPOINT A"] {
            assert_eq!(parse(text), Ok(Plan::Release("a".into())), "{text}");
        }
        for text in [
            "ROLLBACK TO a",
            "ROLLBACK TO SAVEPOINT a",
            "rollback to savepoint a",
        ] {
            assert_eq!(parse(text), Ok(Plan::RollbackTo("a".into())), "{text}");
        }
        let Ok(Plan::Select(select)) = parse("SELECT id FROM t WHERE id = ANY($1::int[])") else {
            panic!("ANY with an array cast")
        };
        assert!(matches!(select.filter, Some(Expr::Any(..))));
    }

    #[test]
    fn a_decimal_literal_is_a_numeric_with_its_places() {
        let numeric = |text: &str| {
            Expr::Cast(
                Box::new(Expr::Value(Value::from(text))),
                Type::Numeric(None),
            )
        };
        let Ok(Plan::Select(select)) = parse("SELECT 7.0 / 2, 1e3, 7") else {
            panic!("a select")
        };
        let Projection::Items(items) = select.projection else {
            panic!("items")
        };
        let exprs: Vec<Expr> = items.into_iter().map(|(_, item)| item).collect();
        assert_eq!(
            exprs,
            [
                Expr::Binary(
                    Box::new(numeric("7.0")),
                    Op::Divide,
                    Box::new(Expr::Value(Value::from(2)))
                ),
                numeric("1e3"),
                Expr::Value(Value::from(7)),
            ]
        );
        let plan =
            schema("create table t (a numeric(12,2), b decimal(5), c numeric, d dec(3, -1))");
        let Some(SchemaStep::Create(table)) = plan.steps.first() else {
            panic!("{plan:?}")
        };
        let types: Vec<Type> = table.columns.iter().map(|c| c.ty).collect();
        assert_eq!(
            types,
            [
                Type::Numeric(Some((12, 2))),
                Type::Numeric(Some((5, 0))),
                Type::Numeric(None),
                Type::Numeric(Some((3, -1))),
            ]
        );
        let Ok(Plan::Select(select)) = parse("SELECT CAST(x AS numeric(12,2)) FROM t") else {
            panic!("a select")
        };
        let Projection::Items(items) = select.projection else {
            panic!("items")
        };
        assert_eq!(
            items[0].1,
            Expr::Cast(
                Box::new(Expr::Column("x".into())),
                Type::Numeric(Some((12, 2)))
            )
        );
    }

    #[test]
    fn anything_else_quotes_the_statement() {
        let error = parse("SELECT * FROM a NATURAL JOIN b").unwrap_err();
        assert_eq!(error.code, "0A000");
        assert!(
            error
                .message
                .starts_with("NATURAL JOIN is not supported by the simulation, in \"SELECT * FROM a NATURAL JOIN b\""),
            "{}",
            error.message
        );
        let error = parse("SELECT ctid FROM t").unwrap_err();
        assert_eq!(error.code, "0A000");
        assert!(
            error
                .message
                .starts_with("the system column ctid is not supported by the simulation"),
            "{}",
            error.message
        );
        for (statement, what) in [
            (
                "WITH RECURSIVE t(n) AS (SELECT 1) SELECT * FROM t",
                "WITH RECURSIVE",
            ),
            (
                "WITH x AS (UPDATE t SET a = 1 RETURNING id) DELETE FROM t",
                "an UPDATE or DELETE of a table a data-modifying WITH query writes too",
            ),
            (
                "WITH x AS (DELETE FROM t RETURNING id), y AS (UPDATE t SET a = 1) SELECT 1",
                "an UPDATE or DELETE of a table a data-modifying WITH query writes too",
            ),
            (
                "WITH x AS (VALUES (1)) SELECT * FROM x",
                "a WITH query that is not a SELECT, INSERT, UPDATE or DELETE",
            ),
            (
                "SELECT * FROM t WHERE id IN (WITH n AS (SELECT 1 AS id) SELECT id FROM n)",
                "WITH",
            ),
            (
                "WITH n AS (SELECT id FROM t) SELECT * FROM n FOR UPDATE",
                "FOR UPDATE of a WITH query's rows",
            ),
        ] {
            let error = parse(statement).unwrap_err();
            assert_eq!(error.code, "0A000", "{statement}");
            let said = format!("{what} is not supported by the simulation, in \"{statement}\"");
            assert!(error.message.starts_with(&said), "{}", error.message);
        }
        // A `WITH` name reads as its table in FROM only while its
        // statement is read.
        let Ok(Plan::Update(update)) =
            parse("WITH n AS (SELECT id FROM t) UPDATE t SET a = 1 FROM n WHERE t.id = n.id")
        else {
            panic!("an update")
        };
        assert_eq!(update.with[0].name, "n");
        assert_eq!(update.from[0].table, Cte::table("n"));
        assert_eq!(
            update.filter,
            parse("SELECT 1 FROM t, n WHERE t.id = n.id")
                .ok()
                .and_then(|plan| match plan {
                    Plan::Select(select) => select.filter,
                    _ => None,
                })
        );
        // A data-modifying `WITH` query: its write, read by its name; a
        // trace names a SELECT from it by the table it writes.
        let get_or_create = parse(
            "WITH ins AS (INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING RETURNING id) \
             SELECT id FROM ins UNION ALL SELECT id FROM users WHERE email = $1",
        )
        .unwrap();
        // A statement's UNION is a SELECT from it: its queries come after.
        let [ins, branch, _union] = get_or_create.with() else {
            panic!("the insert, then the union's queries: {get_or_create:?}")
        };
        assert!(
            matches!(ins.write.as_deref(), Some(Plan::Insert(insert)) if insert.table == "users")
        );
        assert_eq!(
            (branch.write.as_ref(), branch.select.table.as_deref()),
            (None, Some("users"))
        );
        assert_eq!(get_or_create.reached(), Some("users"));
        assert_eq!(crate::sql::params(&get_or_create), 1);
        // Several inserts into one table, and a write after them, run.
        for statement in [
            "WITH a AS (INSERT INTO t (a) VALUES (1) RETURNING a), b AS (INSERT INTO t (a) VALUES (2) RETURNING a) SELECT * FROM a, b",
            "WITH gone AS (DELETE FROM t RETURNING *) INSERT INTO t SELECT * FROM gone",
            "WITH d AS (DELETE FROM t WHERE a = 1) SELECT 1",
        ] {
            assert!(parse(statement).is_ok(), "{statement}");
        }
        // One without RETURNING runs, but no FROM reads it.
        let error = parse("WITH d AS (DELETE FROM t) SELECT * FROM d").unwrap_err();
        assert_eq!(
            (error.code.as_ref(), error.message.as_str()),
            ("0A000", "WITH query \"d\" does not have a RETURNING clause")
        );
        // A trace names a SELECT from a `WITH` query by the table it reads.
        let from_with =
            parse("WITH a AS (SELECT id FROM t), b AS (SELECT id FROM a) SELECT * FROM b");
        let from_with = from_with.unwrap();
        assert_eq!(from_with.table(), Some(Cte::table("b").as_str()));
        assert_eq!(from_with.reached(), Some("t"));
        let Ok(Plan::Select(select)) = parse("SELECT * FROM n") else {
            panic!("a select")
        };
        assert_eq!(select.table.as_deref(), Some("n"));
        let error = parse("SELEC 1").unwrap_err();
        assert_eq!(error.code, "42601");
        assert!(error.message.contains("SELEC 1"), "{}", error.message);
    }

    #[test]
    fn statements_the_model_does_not_parse_are_named_by_their_first_words() {
        let error = parse("grant select on t to bob").unwrap_err();
        assert_eq!(error.code, "0A000");
        assert!(
            error.message.starts_with(
                "GRANT SELECT is not supported by the simulation, in \"grant select on t to bob\""
            ),
            "{}",
            error.message
        );
        // A keyword that starts no statement of PostgreSQL's is a syntax
        // error, as in PostgreSQL; so is a statement that goes on past its end.
        assert_eq!(parse("where a = 1").unwrap_err().code, "42601");
        // FOR NO KEY UPDATE locks as FOR UPDATE does here, and errors name
        // it as written; FOR KEY SHARE is valid SQL that does not run.
        let Plan::Select(select) =
            parse("SELECT id FROM t WHERE id = 1 FOR  no key\nUPDATE NOWAIT")
                .expect("FOR NO KEY UPDATE")
        else {
            panic!("a SELECT");
        };
        assert!(select.for_update && select.nowait && !select.for_share);
        let error = parse("SELECT DISTINCT id FROM t FOR NO KEY UPDATE").unwrap_err();
        assert_eq!(
            error.message,
            "FOR NO KEY UPDATE is not allowed with DISTINCT clause"
        );
        // A column named `no` and a string are left as they are.
        assert!(parse("SELECT 'FOR NO KEY UPDATE', no FROM t").is_ok());
        let error = parse("SELECT id FROM t FOR KEY SHARE SKIP LOCKED").unwrap_err();
        assert!(error.message.starts_with("FOR KEY SHARE is not supported"));
        let error = parse("select 1 end").unwrap_err();
        assert_eq!(error.code, "42601");
        assert!(
            error
                .message
                .starts_with("Expected: end of statement, found: end"),
            "{}",
            error.message
        );
        assert!(parse("select 1; select 2")
            .unwrap_err()
            .message
            .starts_with("more than one statement in one query"));
        assert_eq!(
            parse(" ;; -- nothing").unwrap_err().message,
            "the query is empty"
        );
        // Only `SET TRANSACTION` sets the next transaction's level.
        assert_eq!(
            parse("set transaction isolation level repeatable read"),
            Ok(Plan::SetIsolation(Isolation::RepeatableRead))
        );
        // SET SESSION CHARACTERISTICS sets the session's default.
        assert_eq!(
            parse("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE"),
            Ok(Plan::Set {
                name: "default_transaction_isolation".into(),
                value: Some("serializable".into()),
                ms: 0,
                local: false,
            })
        );
        assert_eq!(parse("end"), Ok(Plan::Commit));
        assert_eq!(parse("abort"), Ok(Plan::Rollback));
        // A parenthesized query parses, as a query the model does not run.
        assert!(parse("(select 1)")
            .unwrap_err()
            .message
            .starts_with("a query that is not one SELECT"));
    }

    #[test]
    fn a_schema_dumps_alter_table_reads_into_its_tables() {
        let text = "SET statement_timeout = 0;\n\
                    \\restrict abc\n\
                    SELECT pg_catalog.set_config('search_path', '', false);\n\
                    CREATE EXTENSION IF NOT EXISTS pgcrypto;\n\
                    CREATE TABLE public.a (id integer NOT NULL, n int);\n\
                    CREATE SEQUENCE public.a_id_seq START WITH 1;\n\
                    ALTER TABLE public.a_id_seq OWNER TO app;\n\
                    ALTER SEQUENCE public.a_id_seq OWNED BY public.a.id;\n\
                    ALTER TABLE ONLY public.a ALTER COLUMN id SET DEFAULT nextval('public.a_id_seq'::regclass);\n\
                    ALTER TABLE ONLY public.a ADD CONSTRAINT a_pkey PRIMARY KEY (id), ALTER COLUMN n SET NOT NULL;\n\
                    CREATE TABLE b (a_id int);\n\
                    ALTER TABLE ONLY b ADD CONSTRAINT b_a FOREIGN KEY (a_id) REFERENCES a(id);\n\
                    COMMENT ON TABLE b IS 'b';";
        let plan = schema(text);
        assert_eq!(plan.error, None);
        let [SchemaStep::Create(a), SchemaStep::Create(b), SchemaStep::ForeignKey { table, key }] =
            plan.steps.as_slice()
        else {
            panic!("two tables, then the foreign key: {:?}", plan.steps)
        };
        assert_eq!(
            (a.columns[0].default.clone(), a.columns[0].not_null),
            (Some(Default::Serial), true)
        );
        assert!(a.columns[1].not_null);
        assert_eq!(
            (a.keys[0].name.as_str(), a.keys[0].primary),
            ("a_pkey", true)
        );
        assert_eq!(
            (b.name.as_str(), table.as_str(), key.name.as_str()),
            ("b", "b", "b_a")
        );
        // An ALTER of another kind, or of a table the schema has not made,
        // stops the schema and says why; so does setval, which would
        // change what the serial gives.
        for (text, code) in [
            (
                "CREATE TABLE a (id int); ALTER TABLE a ADD COLUMN n int",
                "0A000",
            ),
            (
                "CREATE TABLE a (id int); ALTER TABLE c ADD CONSTRAINT c_pkey PRIMARY KEY (id)",
                "42P01",
            ),
            (
                "CREATE TABLE a (id int); ALTER TABLE a ALTER COLUMN nope SET NOT NULL",
                "42703",
            ),
            (
                "CREATE TABLE a (id serial); SELECT pg_catalog.setval('a_id_seq', 5, true)",
                "0A000",
            ),
        ] {
            let error = schema(text).error.expect("an error");
            assert_eq!(error.code, code, "{text}: {}", error.message);
        }
    }

    #[test]
    fn a_schema_quotes_each_statement_as_written() {
        let text = "create table t (a text primary key);\n\
                    insert into t (a)\n  values ('é');\n\
                    -- a comment\n\
                    INSERT INTO t (a) VALUES ('ü') ;\n\
                    create view v as select a from t;\n\
                    insert into t (a) values ('never')";
        let plan = schema(text);
        let shown: Vec<&str> = plan
            .steps
            .iter()
            .filter_map(|step| match step {
                SchemaStep::Seed { shown, .. } => Some(shown.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            shown,
            [
                "insert into t (a)\n  values ('é')",
                "INSERT INTO t (a) VALUES ('ü')"
            ]
        );
        assert_eq!(plan.steps.len(), 3);
        let error = plan.error.expect("the view stops the schema");
        assert!(
            error
                .message
                .contains("in \"create view v as select a from t\""),
            "{}",
            error.message
        );
        // A table's modifiers are PostgreSQL's; what they mean is not modelled.
        for text in [
            "create temp table t (a int)",
            "CREATE GLOBAL TEMPORARY TABLE t (a int)",
            "create unlogged table if not exists t (a int)",
        ] {
            let plan = schema(text);
            assert!(plan.error.is_none(), "{text}: {:?}", plan.error);
            assert!(matches!(plan.steps[..], [SchemaStep::Create(_)]), "{text}");
        }
        // A syntax error anywhere stops the whole schema before any step,
        // as PostgreSQL parses a script's statements before it runs one.
        let plan = schema("create table t (a int); grant all on t to u; insert into t values (");
        assert!(plan.steps.is_empty());
        assert_eq!(plan.error.map(|e| e.code).as_deref(), Some("42601"));
    }
}
