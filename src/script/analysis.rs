//! Explore's proof that a script keeps no module state
//! (`crate::analysis`): linked natively; in the page's script worker, the
//! `analysis` module (`super::modules`), which web/modules.js loads into
//! the worker.

use super::error::ScriptError;
#[cfg(not(feature = "analysis"))]
use super::modules::{not_loaded, Module};

/// Why `code` may keep module state, or `None` when it provably keeps
/// none (`crate::analysis::module_state`); an error only if the page has
/// not loaded the analysis.
pub fn module_state(
    code: &str,
    single_flight: bool,
    globals: &[String],
    added: &[String],
) -> Result<Option<String>, ScriptError> {
    #[cfg(feature = "analysis")]
    return Ok(crate::analysis::module_state(
        code,
        single_flight,
        globals,
        added,
    ));
    #[cfg(not(feature = "analysis"))]
    {
        let question = crate::analysis::Question {
            code: code.to_string(),
            single_flight,
            globals: globals.to_vec(),
            added: added.to_vec(),
        };
        module::ask(&crate::boundary::encode(&question))
            .and_then(|answer| crate::boundary::decode(&answer))
            .ok_or_else(|| not_loaded(Module::Analysis))
    }
}

/// The page's script worker: the analysis's own wasm module, through
/// `web/modules.js` (`interleaveModules.moduleState` answers `null` until
/// the module is loaded).
#[cfg(not(feature = "analysis"))]
mod module {
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = moduleState)]
        fn module_state(question: &[u8]) -> Result<Option<Vec<u8>>, wasm_bindgen::JsValue>;
    }

    #[cfg(target_arch = "wasm32")]
    pub fn ask(question: &[u8]) -> Option<Vec<u8>> {
        module_state(question).ok()?
    }

    /// Natively the analysis is linked whenever scripts are.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn ask(_: &[u8]) -> Option<Vec<u8>> {
        None
    }
}
