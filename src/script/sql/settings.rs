//! A session's run-time parameters (`SET`, `SET LOCAL`, `RESET`, `SHOW`),
//! as PostgreSQL 15 keeps them: a session's value lasts past its
//! transaction if that commits and goes back if it aborts; a `LOCAL` one
//! lasts until its transaction ends. Three change what the model does:
//! `lock_timeout` and `statement_timeout` cancel a statement that waits
//! for a lock that long, and `default_transaction_isolation` is the level
//! of a transaction that names none (docs/sql.md). The others are kept, shown and
//! otherwise change nothing here. Names and values come checked and as
//! `SHOW` prints them, from the parse (`crate::sql::parameters`).

use super::parse::{Isolation, SqlError};

/// Parameters by name, each with its text and its milliseconds (a few
/// at most: a list keeps the script worker's wasm smaller than a map).
type Values = Vec<(String, String, u64)>;

fn get<'a>(values: &'a Values, name: &str) -> Option<&'a (String, String, u64)> {
    values.iter().find(|(n, ..)| n == name)
}

fn put(values: &mut Values, name: &str, value: Option<(String, u64)>) {
    values.retain(|(n, ..)| n != name);
    if let Some((text, ms)) = value {
        values.push((name.to_string(), text, ms));
    }
}

/// One session's parameters.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Values set for the session.
    session: Values,
    /// The session's values before its open transaction first changed
    /// them (restored if it aborts).
    before: Option<Values>,
    /// `SET LOCAL` values of the open transaction.
    local: Values,
    /// The custom parameters (`app.tenant`) the session ever set: each
    /// reads as an empty text when nothing sets it, as PostgreSQL's
    /// placeholders do, even after the `LOCAL` value or the transaction
    /// that made it ended.
    placeholders: Vec<String>,
}

impl Settings {
    /// `SET [LOCAL] name = value` (`None`: back to the default, which a
    /// `LOCAL` one names), with its milliseconds; `in_txn`: inside a
    /// transaction block. `SET LOCAL` outside one sets nothing (PostgreSQL
    /// warns).
    pub fn set(&mut self, name: &str, value: Option<(String, u64)>, local: bool, in_txn: bool) {
        if name.contains('.') && !self.placeholders.iter().any(|n| n == name) {
            self.placeholders.push(name.to_string());
        }
        if local && !in_txn {
            return;
        }
        if in_txn && !local && self.before.is_none() {
            self.before = Some(self.session.clone());
        }
        match local {
            true => put(&mut self.local, name, value),
            false => {
                put(&mut self.session, name, value);
                // A session value set in the block outlives its SET LOCAL.
                put(&mut self.local, name, None);
            }
        }
    }

    /// A parameter's value now: its `LOCAL` one, else the session's.
    fn current(&self, name: &str) -> Option<&(String, String, u64)> {
        get(&self.local, name).or_else(|| get(&self.session, name))
    }

    /// `RESET ALL`.
    pub fn reset_all(&mut self, in_txn: bool) {
        if in_txn && self.before.is_none() {
            self.before = Some(self.session.clone());
        }
        self.session.clear();
        self.local.clear();
    }

    /// `SHOW name` and `current_setting(name)`: its value now (`open`:
    /// the isolation of the session's open transaction), else its
    /// `default` (`None`: a custom parameter, which PostgreSQL does not
    /// know until the session sets it).
    pub fn show(
        &self,
        name: &str,
        default: Option<&String>,
        open: Option<Isolation>,
    ) -> Result<String, SqlError> {
        let set = self.current(name);
        if name == "transaction_isolation" {
            // Outside a block, the default's own name.
            return Ok(
                match (open, self.current("default_transaction_isolation")) {
                    (None, Some((_, text, _))) => text,
                    (None, None) | (Some(Isolation::ReadCommitted), _) => "read committed",
                    (Some(Isolation::RepeatableRead), _) => "repeatable read",
                    (Some(Isolation::Serializable), _) => "serializable",
                }
                .to_string(),
            );
        }
        let placeholder = self.placeholders.iter().any(|n| n == name);
        set.map(|(_, text, _)| text)
            .or(default)
            .cloned()
            .or(placeholder.then(String::new))
            .ok_or_else(|| {
                SqlError::new(
                    "42704",
                    format!("unrecognized configuration parameter \"{name}\""),
                )
            })
    }

    /// `default_transaction_isolation`: the level of a BEGIN that names
    /// none and of a statement outside a block (READ UNCOMMITTED runs as
    /// READ COMMITTED, as on PostgreSQL).
    pub fn default_isolation(&self) -> Isolation {
        match self
            .current("default_transaction_isolation")
            .map(|(_, text, _)| text.as_str())
        {
            Some("serializable") => Isolation::Serializable,
            Some("repeatable read") => Isolation::RepeatableRead,
            _ => Isolation::ReadCommitted,
        }
    }

    /// A time parameter's milliseconds (0: none, its default).
    pub fn millis(&self, name: &str) -> u64 {
        self.current(name).map_or(0, |&(_, _, ms)| ms)
    }

    /// The session's transaction ended: its `LOCAL` values go, and if it
    /// aborted, so do the session values it set.
    pub fn end_transaction(&mut self, commit: bool) {
        self.local.clear();
        if let Some(before) = self.before.take() {
            if !commit {
                self.session = before;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str, ms: u64) -> Option<(String, u64)> {
        Some((text.to_string(), ms))
    }

    #[test]
    fn a_session_value_goes_back_when_its_transaction_aborts() {
        let mut settings = Settings::default();
        settings.set("lock_timeout", ms("1s", 1_000), false, false);
        settings.set("lock_timeout", ms("5s", 5_000), false, true);
        settings.set("statement_timeout", ms("9s", 9_000), true, true);
        assert_eq!(settings.millis("statement_timeout"), 9_000);
        settings.end_transaction(false);
        assert_eq!(settings.show("lock_timeout", None, None).unwrap(), "1s");
        assert_eq!(settings.millis("statement_timeout"), 0);
        settings.set("lock_timeout", ms("5s", 5_000), false, true);
        settings.end_transaction(true);
        assert_eq!(settings.millis("lock_timeout"), 5_000);
        // SET LOCAL outside a block sets nothing.
        settings.set("lock_timeout", ms("7s", 7_000), true, false);
        assert_eq!(settings.millis("lock_timeout"), 5_000);
        assert_eq!(
            &*settings.show("app.x", None, None).unwrap_err().code,
            "42704"
        );
        // A custom parameter once set reads as empty when nothing sets it.
        settings.set("app.x", Some(("7".into(), 0)), true, true);
        assert_eq!(settings.show("app.x", None, None).unwrap(), "7");
        settings.end_transaction(false);
        assert_eq!(settings.show("app.x", None, None).unwrap(), "");
    }
}
