//! The page's model in a Web Worker (web/model.js): the runs, stepping,
//! explain, explore and the compare table happen here, off the page's
//! thread; the page sends requests and draws the frames this answers
//! (`interleave::model::wire`). `scripts/build-workers.sh` builds it
//! twice: without the JavaScript engine (the stories' worker, which every
//! page starts) and with it (`interleave-script-model.rs`, the worker a
//! script starts):
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile script-release \
//!     --no-default-features --bin interleave-model
//! ```
//!
//! Natively the bin is an empty program.

#[cfg(target_arch = "wasm32")]
mod worker {
    use interleave::model::wire::Server;
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Loads the JavaScript engine's modules (the script worker's, split
    /// off by scripts/build-workers.sh), before the first [`Model`]; the
    /// error says why one did not load.
    #[cfg(feature = "engine-split")]
    #[wasm_bindgen(js_name = loadEngine)]
    pub async fn load_engine() -> Result<(), String> {
        interleave::debugger::program::engine::load().await
    }

    /// The modules (`interleaveModules.load(NAME)`) that the run of
    /// `hash` will ask for, as far as its script's text tells: web/model.js
    /// loads them beside the engine's, so the run does not wait for them.
    #[cfg(scripts)]
    #[wasm_bindgen(js_name = modulesFor)]
    pub fn modules_for(hash: &str) -> Vec<String> {
        interleave::debugger::program::modules_wanted(hash)
            .into_iter()
            .map(String::from)
            .collect()
    }

    /// The model of one page.
    #[wasm_bindgen]
    pub struct Model {
        server: Server,
        first: Vec<u8>,
    }

    #[wasm_bindgen]
    impl Model {
        /// The model of `hash`, the page's `location.hash`; with `refused`,
        /// its script is refused for that reason (the page's guard stopped
        /// it in the worker before this one: `interleave::script::guard`).
        #[wasm_bindgen(constructor)]
        pub fn new(hash: &str, refused: Option<String>) -> Model {
            #[cfg(scripts)]
            if let Some(why) = &refused {
                interleave::script::guard::refuse(hash, why);
            }
            #[cfg(not(scripts))]
            let _ = refused;
            let (server, first) = Server::open(hash);
            Model { server, first }
        }

        /// Its first frame.
        pub fn first(&mut self) -> Vec<u8> {
            std::mem::take(&mut self.first)
        }

        /// The reply to a request of the page (empty: none).
        pub fn request(&mut self, bytes: &[u8]) -> Vec<u8> {
            self.server.request(bytes)
        }

        #[wasm_bindgen(js_name = hasWork)]
        pub fn has_work(&self) -> bool {
            self.server.has_work()
        }

        /// One chunk of work until `deadline` (`Date.now()` ms): its frame,
        /// or empty bytes.
        pub fn work(&mut self, deadline: f64) -> Vec<u8> {
            self.server.work(deadline)
        }

        /// The module (`interleaveModules.load(NAME)`) the model waits for.
        pub fn fetching(&self) -> Option<String> {
            self.server.fetching().map(str::to_string)
        }

        /// The module it waited for loaded (no `error`) or did not: the
        /// frame that follows, or empty bytes.
        #[wasm_bindgen(js_name = moduleLoaded)]
        pub fn module_loaded(&mut self, error: Option<String>) -> Vec<u8> {
            self.server.module_loaded(error.map_or(Ok(()), Err))
        }
    }
}

/// A panic (a bug) goes to the page, which shows it (`{ panic }`): the
/// worker's model is gone after one, so the page must say so.
#[cfg(target_arch = "wasm32")]
pub fn main() {
    std::panic::set_hook(Box::new(|info| {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"panic".into(), &info.to_string().into());
        let scope: web_sys::DedicatedWorkerGlobalScope =
            wasm_bindgen::JsCast::unchecked_into(js_sys::global());
        let _ = scope.post_message(&message);
    }));
}

#[cfg(not(target_arch = "wasm32"))]
pub fn main() {}
