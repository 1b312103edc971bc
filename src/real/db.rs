//! The real tables, in a schema of their own per trial (so concurrent runs
//! never see each other's rows): `orders(user_id, event_id)` with an index,
//! or a UNIQUE constraint with `db_unique`, and the writer's fencing token;
//! `users(id, fence)` for `tx=for-update` and the fencing check;
//! `products(id, version)` for the stampede. The statements each request
//! prepares on its own connection, and the final summary.

use serde::Serialize;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, Statement};

use crate::config::Config;

/// The single event every ticket request is for.
pub const EVENT: i32 = 1;

/// Opens a connection whose driver runs on the current `LocalSet`, with
/// `schema` first on its search path. Sequential scans are off so a
/// SERIALIZABLE lookup takes predicate locks on the index, as the model's
/// per-(user, event) predicate, rather than on the whole table.
pub async fn connect(url: &str, schema: Option<&str>) -> Result<Client, String> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|error| format!("cannot connect to PostgreSQL at {url}: {error}"))?;
    tokio::task::spawn_local(async move {
        let _ = connection.await;
    });
    if let Some(schema) = schema {
        client
            .batch_execute(&format!(
                "SET search_path TO {schema}; SET enable_seqscan = off"
            ))
            .await
            .map_err(|error| format!("PostgreSQL: {error}"))?;
    }
    Ok(client)
}

/// Whether backend `pid` waits for a lock now (a row another transaction
/// holds), as `pg_stat_activity` says; asked on another connection.
pub async fn waits_for_lock(client: &Client, pid: i32) -> bool {
    let row = client
        .query_opt(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .await;
    matches!(row, Ok(Some(row)) if row.get::<_, Option<String>>(0).as_deref() == Some("Lock"))
}

/// The backends that keep backend `pid` waiting for a lock (none when it
/// does not wait), as `pg_blocking_pids` says; asked on another connection.
pub async fn blocked_by(client: &Client, pid: i32) -> Vec<i32> {
    let row = client
        .query_opt("SELECT pg_blocking_pids($1)", &[&pid])
        .await;
    match row {
        Ok(Some(row)) => row.get::<_, Vec<i32>>(0),
        _ => Vec::new(),
    }
}

/// Whether backend `pid` is still there (its session not yet ended), as
/// `pg_stat_activity` says; asked on another connection.
pub async fn is_alive(client: &Client, pid: i32) -> bool {
    let row = client
        .query_opt("SELECT 1 FROM pg_stat_activity WHERE pid = $1", &[&pid])
        .await;
    matches!(row, Ok(Some(_)))
}

/// Creates the trial's schema and tables, with their starting rows.
pub async fn create(admin: &Client, schema: &str, config: &Config) -> Result<(), String> {
    let orders_key = if config.db_unique {
        "UNIQUE (user_id, event_id)".to_string()
    } else {
        String::new()
    };
    let index = if config.db_unique {
        String::new()
    } else {
        format!("CREATE INDEX ON {schema}.orders (user_id, event_id);")
    };
    let users = config.users.max(1);
    let keys = config.keys.max(1);
    let separator = if orders_key.is_empty() { "" } else { ", " };
    let fence = if config.fencing {
        fence_trigger(schema)
    } else {
        String::new()
    };
    let sql = format!(
        "DROP SCHEMA IF EXISTS {schema} CASCADE;
         CREATE SCHEMA {schema};
         CREATE TABLE {schema}.users (id int PRIMARY KEY, fence bigint NOT NULL DEFAULT 0);
         INSERT INTO {schema}.users SELECT generate_series(0, {last_user});
         CREATE TABLE {schema}.orders (id bigserial PRIMARY KEY, user_id int NOT NULL, \
             event_id int NOT NULL, fence bigint{separator}{orders_key});
         {index}
         {fence}
         CREATE TABLE {schema}.products (id int PRIMARY KEY, version bigint NOT NULL);
         INSERT INTO {schema}.products SELECT k, k + 1 FROM generate_series(0, {last_key}) AS k;
         ANALYZE {schema}.users; ANALYZE {schema}.orders; ANALYZE {schema}.products;",
        last_user = users - 1,
        last_key = keys - 1,
    );
    admin
        .batch_execute(&sql)
        .await
        .map_err(|error| format!("PostgreSQL: cannot create the tables: {error}"))
}

/// SQLSTATE of an insert the fencing check refuses.
pub const FENCED: &str = "IL001";

/// `fencing=true`: a write carries its lock's fencing token (`orders.fence`)
/// and the DB refuses one older than the newest it accepted for that user
/// (`users.fence`), as the model's DB does. A conditional UPDATE in a
/// BEFORE INSERT trigger: it takes the user's row lock, so two writers
/// are checked one after the other, and it rolls back with the insert.
fn fence_trigger(schema: &str) -> String {
    format!(
        "CREATE FUNCTION {schema}.check_fence() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.fence IS NOT NULL THEN
             UPDATE {schema}.users SET fence = NEW.fence
               WHERE id = NEW.user_id AND fence <= NEW.fence;
             IF NOT FOUND THEN
               RAISE EXCEPTION 'fencing token % is older than one already accepted', NEW.fence
                 USING ERRCODE = '{FENCED}';
             END IF;
           END IF;
           RETURN NEW;
         END $$;
         CREATE TRIGGER fence BEFORE INSERT ON {schema}.orders
           FOR EACH ROW EXECUTE PROCEDURE {schema}.check_fence();"
    )
}

pub async fn drop_schema(admin: &Client, schema: &str) {
    let _ = admin
        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .await;
}

/// Each request's prepared statements (on its own connection), and the
/// connection's backend pid.
pub struct Statements {
    /// The connection's backend (a replay watches it wait for locks).
    pub pid: i32,
    pub find_order: Statement,
    pub insert_order: Statement,
    pub lock_user: Statement,
    pub select_product: Statement,
}

impl Statements {
    pub async fn prepare(client: &Client) -> Result<Statements, String> {
        let prepare = |sql: &'static str| async move {
            client
                .prepare(sql)
                .await
                .map_err(|error| format!("PostgreSQL: cannot prepare `{sql}`: {error}"))
        };
        let pid = client
            .query_one("SELECT pg_backend_pid()", &[])
            .await
            .map_err(|error| format!("PostgreSQL: {error}"))?
            .get(0);
        Ok(Statements {
            pid,
            find_order: prepare("SELECT count(*) FROM orders WHERE user_id = $1 AND event_id = $2")
                .await?,
            insert_order: prepare(
                "INSERT INTO orders (user_id, event_id, fence) VALUES ($1, $2, $3)",
            )
            .await?,
            lock_user: prepare("SELECT 1 FROM users WHERE id = $1 FOR UPDATE").await?,
            select_product: prepare("SELECT version FROM products WHERE id = $1").await?,
        })
    }
}

/// How a statement failed, as far as the body cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbFailure {
    /// SQLSTATE 40001.
    Serialization,
    /// SQLSTATE 23505.
    UniqueViolation,
    /// The fencing trigger's [`FENCED`].
    Fenced,
    Other,
}

pub fn classify(error: &tokio_postgres::Error) -> DbFailure {
    match error.code() {
        Some(code) if *code == SqlState::T_R_SERIALIZATION_FAILURE => DbFailure::Serialization,
        Some(code) if *code == SqlState::UNIQUE_VIOLATION => DbFailure::UniqueViolation,
        Some(code) if code.code() == FENCED => DbFailure::Fenced,
        _ => DbFailure::Other,
    }
}

/// The final contents of `orders`.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct OrdersSummary {
    pub orders: u64,
    pub duplicate_tickets: u64,
    /// `[user, rows]` for every user with more than one row.
    pub users_with_duplicates: Vec<[u64; 2]>,
}

pub async fn summarize(admin: &Client, schema: &str) -> Result<OrdersSummary, String> {
    let rows = admin
        .query(
            &format!(
                "SELECT user_id, count(*) FROM {schema}.orders GROUP BY user_id ORDER BY user_id"
            ),
            &[],
        )
        .await
        .map_err(|error| format!("PostgreSQL: {error}"))?;
    let mut summary = OrdersSummary::default();
    for row in rows {
        let user: i32 = row.get(0);
        let count: i64 = row.get(1);
        let count = count as u64;
        summary.orders += count;
        if count > 1 {
            summary.duplicate_tickets += count - 1;
            summary.users_with_duplicates.push([user as u64, count]);
        }
    }
    Ok(summary)
}
