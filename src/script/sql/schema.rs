//! The schema as SQL (`--schema FILE.sql`, `schema=`): CREATE TABLE with
//! columns, types, defaults, PRIMARY KEY, UNIQUE and foreign keys; CREATE
//! UNIQUE INDEX; INSERT for seed rows; and `-- expect unique: TABLE
//! (COLUMNS)` comments for a uniqueness the code expects but the schema
//! does not declare (counted as `duplicate_tickets`, never enforced). The parser reads the
//! statements into steps (`crate::sql::parse::schema`); this applies them.

pub use super::parse::Type;
use super::parse::{self, quote, SchemaStep, SqlError};
use super::store::Database;
pub use crate::sql::{Column, Default, Key, TableSchema};

/// Loads a schema into a database; the error names the statement. The
/// statements apply in order up to the first that does not parse, whose
/// error comes after those of the statements before it.
pub fn load(text: &str, db: &mut Database) -> Result<(), SqlError> {
    let plan = parse::schema(text);
    for step in plan.steps {
        match step {
            SchemaStep::Create(schema) => db.create(schema)?,
            SchemaStep::UniqueIndex { table, key } => db.add_key(&table, key, true)?,
            SchemaStep::ForeignKey { table, key } => db.add_foreign_key(&table, key)?,
            SchemaStep::Seed { insert, shown } => db.seed(&insert).map_err(|mut error| {
                error.message = format!("{}, in \"{}\"", error.message, quote(&shown));
                error
            })?,
        }
    }
    // The seed rows' commits are no request's.
    db.take_access();
    if let Some(error) = plan.error {
        return Err(error);
    }
    for (table, columns, comment) in expectations(text)? {
        db.add_key(
            &table,
            Key {
                name: String::new(),
                columns,
                primary: false,
                predicate: None,
                nulls_not_distinct: false,
            },
            false,
        )
        .map_err(|mut error| {
            error.message = format!("{} (in the comment \"{comment}\")", error.message);
            error
        })?;
    }
    Ok(())
}

/// Every `-- expect unique: orders (user_id, event_id)` comment of a
/// schema, in order: its table and columns (lowercase) and the comment
/// itself. A comment that names only columns (`-- expect unique:
/// (user_id, event_id)`, or bare, `user_id`), on a CREATE TABLE's line or
/// after it, is about that table. One that names no column, or no table
/// when no CREATE TABLE comes before it, is an error that shows the form.
pub fn expectations(schema: &str) -> Result<Vec<(String, Vec<String>, String)>, SqlError> {
    let mut found = Vec::new();
    let mut table_before: Option<String> = None;
    for line in schema.lines() {
        let code = line.split("--").next().unwrap_or(line);
        if let Some(table) = created_table(code) {
            table_before = Some(table);
        }
        let Some(at) = line.find("--") else {
            continue;
        };
        let comment = line[at..].trim();
        let Some(rest) = after_expect_unique(comment) else {
            continue;
        };
        let (table, columns) = match rest.split_once('(') {
            Some((table, columns)) => (table.trim(), columns.split(')').next().unwrap_or("")),
            None => ("", rest),
        };
        let columns: Vec<String> = columns
            .split(',')
            .map(|c| unquote(c).to_lowercase())
            .filter(|c| !c.is_empty())
            .collect();
        if columns.iter().any(|c| c.contains(char::is_whitespace)) {
            return Err(SqlError::syntax(format!(
                "the comment \"{comment}\" is not a list of columns: write \"-- expect unique: \
                 TABLE (COLUMN, …)\""
            )));
        }
        let table = match table {
            "" => table_before.clone(),
            named => Some(unquote(named).to_lowercase()),
        };
        match table {
            Some(table) if !columns.is_empty() => found.push((table, columns, comment.to_string())),
            _ => {
                return Err(SqlError::syntax(format!(
                    "the comment \"{comment}\" names no {}: write \"-- expect unique: TABLE \
                     (COLUMN, …)\", or the columns alone after the table's CREATE TABLE",
                    if columns.is_empty() {
                        "column"
                    } else {
                        "table"
                    }
                )))
            }
        }
    }
    Ok(found)
}

/// What follows `expect unique` (and its colon) in a comment, if it says so.
fn after_expect_unique(comment: &str) -> Option<&str> {
    let text = comment.trim_start_matches('-').trim();
    let head = text.get(.."expect unique".len())?;
    let rest = &text[head.len()..];
    (head.eq_ignore_ascii_case("expect unique") && !rest.starts_with(char::is_alphanumeric))
        .then(|| rest.trim_start().trim_start_matches(':').trim())
}

/// The table a line's `CREATE TABLE [IF NOT EXISTS] name` creates.
fn created_table(code: &str) -> Option<String> {
    let lower = code.to_lowercase();
    let rest = &code[lower.find("create table")? + "create table".len()..];
    let mut words = rest.split(|c: char| c.is_whitespace() || c == '(');
    let mut name = words.find(|w| !w.is_empty())?;
    if name.eq_ignore_ascii_case("if") {
        name = words.filter(|w| !w.is_empty()).nth(2)?;
    }
    let name = unquote(name.rsplit('.').next().unwrap_or(name)).to_lowercase();
    (!name.is_empty()).then_some(name)
}

fn unquote(name: &str) -> String {
    name.trim().trim_matches('"').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_uniqueness_is_a_comment() {
        let keys = |schema: &str| {
            expectations(schema).map(|found| {
                found
                    .into_iter()
                    .map(|(table, columns, _)| format!("{table} ({})", columns.join(", ")))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            keys("-- expect unique: orders (user_id, event_id)\n-- nothing to see"),
            Ok(vec!["orders (user_id, event_id)".to_string()])
        );
        // Columns alone, on the CREATE TABLE's line or after it.
        assert_eq!(
            keys(
                "CREATE TABLE orders (id serial, user_id int); -- expect unique: user_id\n\
                 CREATE TABLE IF NOT EXISTS public.\"Seats\" (\n  seat int -- Expect unique: (seat)\n);"
            ),
            Ok(vec!["orders (user_id)".to_string(), "seats (seat)".to_string()])
        );
        let error = |schema: &str| keys(schema).unwrap_err().message;
        assert_eq!(
            error("-- expect unique: user_id"),
            "the comment \"-- expect unique: user_id\" names no table: write \"-- expect \
             unique: TABLE (COLUMN, …)\", or the columns alone after the table's CREATE TABLE"
        );
        assert!(error("CREATE TABLE t (a int); -- expect unique:").contains("names no column"));
        assert!(error("CREATE TABLE t (a int); -- expect unique: a or b").contains("not a list"));
        // Prose that only mentions it is a comment.
        assert_eq!(
            keys("CREATE TABLE t (a int); -- we expect unique emails\n-- expect uniqueness"),
            Ok(vec![])
        );
    }

    #[test]
    fn every_shipped_schema_crosses_the_module_boundary_unchanged() {
        use crate::boundary::{decode, encode};
        let mut seen = 0;
        for example in crate::script::source::EXAMPLES {
            if let Some(schema) = example.schema {
                let plan = parse::schema(schema);
                assert_eq!(plan.error, None, "{}", example.name);
                assert_eq!(decode(&encode(&plan)), Some(plan));
                seen += 1;
            }
        }
        assert!(seen > 0);
    }
}
