//! The schema as SQL (`--schema FILE.sql`, `schema=`): CREATE TABLE with
//! columns, types, defaults, PRIMARY KEY and UNIQUE; CREATE UNIQUE INDEX;
//! INSERT for seed rows; and `-- expect unique: TABLE (COLUMNS)` comments
//! for a uniqueness the code expects but the schema does not declare
//! (counted as `duplicate_tickets`, never enforced).

use sqlparser::ast::{ColumnOption, Statement, TableConstraint};

pub use super::parse::Type;
use super::parse::{self, column_type, object_name, quote, Plan, SqlError};
use super::store::Database;
pub use super::table::{Column, Default, Key, TableSchema};

fn ident_columns(columns: &[sqlparser::ast::IndexColumn]) -> Vec<String> {
    columns
        .iter()
        .map(|c| match &c.column.expr {
            sqlparser::ast::Expr::Identifier(name) => fold(name),
            other => other.to_string(),
        })
        .collect()
}

fn fold(ident: &sqlparser::ast::Ident) -> String {
    if ident.quote_style.is_some() {
        ident.value.clone()
    } else {
        ident.value.to_lowercase()
    }
}

/// Loads a schema into a database; the error names the statement.
pub fn load(text: &str, db: &mut Database) -> Result<(), SqlError> {
    let statements = parse::parse_all(text)?;
    for statement in statements {
        let shown = statement.to_string();
        match statement {
            Statement::CreateTable(create) => {
                let name = object_name(&create.name);
                if create.query.is_some() {
                    return Err(SqlError::unsupported(&shown, "CREATE TABLE … AS"));
                }
                let mut columns = Vec::new();
                let mut keys = Vec::new();
                for def in &create.columns {
                    let column_name = fold(&def.name);
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
                                        .map_or(format!("{name}_pkey"), fold),
                                    columns: vec![column_name.clone()],
                                });
                            }
                            ColumnOption::Unique(_) => keys.push(Key {
                                name: option
                                    .name
                                    .as_ref()
                                    .map_or(format!("{name}_{column_name}_key"), fold),
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
                                name: pk.name.as_ref().map_or(format!("{name}_pkey"), fold),
                                columns: cols,
                            });
                        }
                        TableConstraint::Unique(unique) => {
                            let cols = ident_columns(&unique.columns);
                            keys.push(Key {
                                name: unique
                                    .name
                                    .as_ref()
                                    .map_or(format!("{name}_{}_key", cols.join("_")), fold),
                                columns: cols,
                            });
                        }
                        _ => {}
                    }
                }
                let schema = TableSchema {
                    name: name.clone(),
                    columns,
                    keys,
                    expect_unique: Vec::new(),
                };
                for key in &schema.keys {
                    for column in &key.columns {
                        if !schema.columns.iter().any(|c| &c.name == column) {
                            return Err(SqlError::new(
                                "42703",
                                format!("column \"{column}\" named in key does not exist, in \"{}\"", quote(&shown)),
                            ));
                        }
                    }
                }
                db.create(schema)?;
            }
            Statement::CreateIndex(index) => {
                if !index.unique {
                    continue;
                }
                let table = object_name(&index.table_name);
                let columns = ident_columns(&index.columns);
                let name = index
                    .name
                    .as_ref()
                    .map_or(format!("{table}_{}_idx", columns.join("_")), object_name);
                db.add_key(&table, Key { name, columns }, true)?;
            }
            Statement::Insert(_) => {
                let Plan::Insert(insert) = parse::parse(&shown)? else {
                    unreachable!("an insert")
                };
                db.seed(&insert).map_err(|mut error| {
                    error.message = format!("{}, in \"{}\"", error.message, quote(&shown));
                    error
                })?;
            }
            Statement::Drop { if_exists: true, .. } => {}
            _ => {
                return Err(SqlError::unsupported(
                    &shown,
                    "this statement in a schema (it may hold CREATE TABLE, CREATE UNIQUE INDEX, INSERT and DROP TABLE IF EXISTS)",
                ))
            }
        }
    }
    for line in text.lines() {
        if let Some((table, columns)) = expected(line) {
            db.add_key(
                &table,
                Key {
                    name: String::new(),
                    columns,
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

fn default(shown: &str, expr: &sqlparser::ast::Expr) -> Result<Default, SqlError> {
    if let sqlparser::ast::Expr::Function(function) = expr {
        match object_name(&function.name).as_str() {
            "nextval" => return Ok(Default::Serial),
            "gen_random_uuid" | "uuid_generate_v4" => return Ok(Default::Uuid),
            _ => {}
        }
    }
    parse::expression(shown, expr.clone()).map(Default::Expr)
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
}
