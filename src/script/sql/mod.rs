//! The simulated PostgreSQL of the `pg` module and of `--schema`
//! (docs/sql.md): SQL parsed by `sqlparser` into plans (`crate::sql`),
//! run on tables of JSON rows with transactions, row locks and
//! PostgreSQL's errors.

pub mod aggregate;
pub mod analysis;
pub mod array;
pub mod array_text;
pub mod dates;
pub mod eval;
pub mod fold;
pub mod functions;
pub mod interval;
pub mod json;
pub mod json_edit;
pub mod numeric;
pub mod parse;
pub mod schema;
pub mod settings;
pub mod sleep;
pub mod store;
pub mod strings;
pub mod table_locks;
pub mod time;
pub mod to_char;
pub mod types;
pub mod value;

pub use parse::{parse, Plan, SqlError};
pub use store::{Database, Landed, Reply};
