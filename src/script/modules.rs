//! The page's script worker leaves its largest parsers out of its own
//! wasm: each is a wasm module of its own (`src/bin/interleave-NAME.rs`,
//! built by `scripts/build-workers.sh`), which the worker (`web/model.js`,
//! through `web/modules.js`) loads on first use and then calls
//! synchronously through `interleaveModules`. Natively (and in the module
//! itself) the parser is linked. A run that needs a module the worker has
//! not loaded yet fails to load with [`not_loaded`]'s error; the worker
//! loads the module ([`waits_for`] names it) and starts the same run again.

use super::error::ScriptError;

/// A module of the page's script worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    /// swc's type stripper (`crate::typescript`), for a script that is not
    /// JavaScript.
    TypeScript,
    /// sqlparser (`crate::sql::parse`), for a script that uses the `pg`
    /// module or a schema.
    Sql,
    /// Explore's proof that a script keeps no module state
    /// (`crate::analysis`, on boa's parser), for explore and manual mode.
    Analysis,
}

impl Module {
    /// Its name in `interleave-NAME.js` and `interleaveModules.load(NAME)`.
    pub fn name(self) -> &'static str {
        match self {
            Module::TypeScript => "typescript",
            Module::Sql => "sql",
            Module::Analysis => "analysis",
        }
    }

    /// What it is, as the page says it is loading.
    pub fn what(self) -> &'static str {
        match self {
            Module::TypeScript => "TypeScript's type stripper",
            Module::Sql => "the SQL parser",
            Module::Analysis => "explore's analysis of module state",
        }
    }

    const ALL: [Module; 3] = [Module::TypeScript, Module::Sql, Module::Analysis];
}

/// Whether `module` can answer now: linked (natively, and in the wasm
/// tests), or loaded by the worker.
pub fn loaded(module: Module) -> bool {
    let linked = match module {
        Module::TypeScript => cfg!(feature = "typescript"),
        Module::Sql => cfg!(feature = "sql"),
        Module::Analysis => cfg!(feature = "analysis"),
    };
    linked || page::loaded(module.name())
}

/// web/modules.js's `interleaveModules.loaded(NAME)`.
mod page {
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = loaded)]
        fn is_loaded(name: &str) -> Result<bool, wasm_bindgen::JsValue>;
    }

    #[cfg(target_arch = "wasm32")]
    pub fn loaded(name: &str) -> bool {
        is_loaded(name).unwrap_or(false)
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn loaded(_: &str) -> bool {
        false
    }
}

/// Whether a run of `code` may parse SQL: it has a schema, or the code
/// names the `pg` or `postgres` module in quotes (`'pg'`, `"pg"`, `` `pg` ``, or
/// `node:pg` so; a mention that is no `require` or `import` only costs
/// the page a module load).
pub fn needs_sql(code: &str, schema: Option<&str>) -> bool {
    schema.is_some()
        || ['\'', '"', '`'].iter().any(|&quote| {
            ["pg", "node:pg", "postgres"]
                .iter()
                .any(|name| code.contains(&format!("{quote}{name}{quote}")))
        })
}

/// The modules a run of `code` will ask for, as far as its text tells (the
/// SQL parser: [`needs_sql`]); the worker loads them beside the engine's
/// own, so that the run does not wait for them after (`web/model.js`).
pub fn wanted(code: &str, schema: Option<&str>) -> Vec<Module> {
    match needs_sql(code, schema) {
        true => vec![Module::Sql],
        false => Vec::new(),
    }
}

/// The marker that ends a load error that only waits for a module.
fn marker(module: Module) -> String {
    format!("(the page's module `{}` is not loaded yet)", module.name())
}

/// The load error of a run that needs `module` before it is loaded.
pub fn not_loaded(module: Module) -> ScriptError {
    ScriptError::new(format!("{} is needed {}", module.what(), marker(module)))
}

/// The module a load error (as `Program::start` words it) waits for, if
/// that is all it is.
pub fn waits_for(message: &str) -> Option<Module> {
    Module::ALL
        .into_iter()
        .find(|&module| message.ends_with(&marker(module)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_error_names_the_module_it_waits_for() {
        for module in Module::ALL {
            let error = not_loaded(module).to_string();
            assert_eq!(waits_for(&error), Some(module));
        }
        assert_eq!(waits_for("`code`: SyntaxError: unexpected token"), None);
    }

    #[test]
    fn a_run_needs_sql_for_a_schema_or_a_postgresql_module() {
        assert!(needs_sql("const { Pool } = require('pg');", None));
        assert!(needs_sql("import pg from \"pg\";", None));
        assert!(needs_sql("require(`node:pg`)", None));
        assert!(needs_sql("import postgres from 'postgres';", None));
        assert!(needs_sql("export async function handle() {}", Some("")));
        assert!(!needs_sql("const pg = 'pgsql'; // pg", None));
        assert_eq!(wanted("require('pg')", None), [Module::Sql]);
        assert_eq!(wanted("export async function handle() {}", None), []);
    }
}
