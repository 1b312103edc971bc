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
    if let Some(error) = plan.error {
        return Err(error);
    }
    for line in text.lines() {
        if let Some((table, columns)) = expected(line) {
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
                error.message = format!("{} (in the comment \"{}\")", error.message, line.trim());
                error
            })?;
        }
    }
    Ok(())
}

/// `-- expect unique: orders (user_id, event_id)`: the table and its
/// columns, lowercase.
pub fn expected(line: &str) -> Option<(String, Vec<String>)> {
    let rest = line.trim().strip_prefix("--")?.trim();
    let lower = rest.to_lowercase();
    let rest = &rest[lower.find("expect unique")? + "expect unique".len()..];
    let rest = rest.trim_start().trim_start_matches(':').trim();
    let (table, columns) = rest.split_once('(')?;
    let columns = columns.split(')').next()?;
    let columns: Vec<String> = columns
        .split(',')
        .map(|c| c.trim().to_lowercase())
        .filter(|c| !c.is_empty())
        .collect();
    let table = table.trim().to_lowercase();
    (!table.is_empty() && !columns.is_empty()).then_some((table, columns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_uniqueness_is_a_comment() {
        assert_eq!(
            expected("-- expect unique: orders (user_id, event_id)"),
            Some(("orders".into(), vec!["user_id".into(), "event_id".into()]))
        );
        assert_eq!(expected("-- nothing to see"), None);
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
