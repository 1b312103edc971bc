//! SQL text to a plan (`crate::sql`), for the `pg` module's queries and
//! the schema: natively (feature `sql`) `crate::sql::parse` is linked; in
//! the page's script worker the parser is a wasm module loaded on first
//! use (`super::super::modules`), and a run that needs it waits for it
//! before it loads (`modules::loaded`, `ScriptRun::from_javascript`), so no
//! query of a run finds it missing.

pub use crate::sql::{
    bind, first_param, params, quote, visit_mut, Aggregate, Delete, Element, Expr, Function,
    Insert, Isolation, JsonFunction, OnConflict, Op, Plan, Projection, SchemaPlan, SchemaStep,
    Select, SqlError, TextFunction, Type, Update,
};

/// Parses one query's text into its plan (its error with the lists of
/// what runs written, [`SqlError::explained`]).
pub fn parse(text: &str) -> Result<Plan, SqlError> {
    parser::parse(text).map_err(SqlError::explained)
}

/// A schema's statements as data, up to its first error (explained).
pub fn schema(text: &str) -> SchemaPlan {
    let mut plan = parser::schema(text);
    plan.error = plan.error.map(SqlError::explained);
    plan
}

#[cfg(feature = "sql")]
use crate::sql::parse as parser;
#[cfg(not(feature = "sql"))]
use module as parser;

/// The page's script worker: the parser's own wasm module, through
/// `web/modules.js` (`interleaveModules.sqlParse` and `sqlSchema` answer
/// `null` until the module is loaded). A run sends the same few queries
/// many times, so each query's plan is kept once parsed.
#[cfg(not(feature = "sql"))]
mod module {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use crate::boundary::decode;
    use crate::script::modules::{self, Module};
    use crate::sql::{Plan, SchemaPlan, SqlError};

    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = sqlParse)]
        fn sql_parse(text: &str) -> Result<Option<Vec<u8>>, wasm_bindgen::JsValue>;
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = sqlSchema)]
        fn sql_schema(text: &str) -> Result<Option<Vec<u8>>, wasm_bindgen::JsValue>;
    }

    /// The module's answer (`None` until it is loaded).
    #[cfg(target_arch = "wasm32")]
    fn answer(text: &str, schema: bool) -> Option<Vec<u8>> {
        if schema {
            sql_schema(text).ok()?
        } else {
            sql_parse(text).ok()?
        }
    }

    /// Natively the parser is linked whenever scripts are.
    #[cfg(not(target_arch = "wasm32"))]
    fn answer(_: &str, _: bool) -> Option<Vec<u8>> {
        None
    }

    /// Plans kept by query text; dropped at this many.
    const KEPT: usize = 1024;

    thread_local! {
        static PLANS: RefCell<HashMap<String, Result<Plan, SqlError>>> =
            RefCell::new(HashMap::new());
    }

    /// Parses one query's text into its plan.
    pub fn parse(text: &str) -> Result<Plan, SqlError> {
        if let Some(plan) = PLANS.with(|plans| plans.borrow().get(text).cloned()) {
            return plan;
        }
        let Some(plan) =
            answer(text, false).and_then(|answer| decode::<Result<Plan, SqlError>>(&answer))
        else {
            return Err(not_loaded());
        };
        PLANS.with(|plans| {
            let mut plans = plans.borrow_mut();
            if plans.len() >= KEPT {
                plans.clear();
            }
            plans.insert(text.to_string(), plan.clone());
        });
        plan
    }

    /// A schema's statements as data, up to its first error.
    pub fn schema(text: &str) -> SchemaPlan {
        answer(text, true)
            .and_then(|answer| decode(&answer))
            .unwrap_or_else(|| SchemaPlan {
                steps: Vec::new(),
                error: Some(not_loaded()),
            })
    }

    /// A query's error when the page has not loaded the parser (a run
    /// that needs it waits for it, so only a script that reaches `pg` in
    /// a way `ScriptRun::from_javascript` does not see can meet it).
    fn not_loaded() -> SqlError {
        let error = modules::not_loaded(Module::Sql);
        SqlError::new("58000", error.message)
    }
}
