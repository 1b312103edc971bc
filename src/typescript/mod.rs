//! TypeScript's types stripped, every line and column kept, by
//! `swc_ts_fast_strip` in strip-only mode (the stripper Node itself uses,
//! through its `amaro`). What a script does with it is
//! `script::typescript`; this is the stripper itself, behind one seam:
//!
//! - natively (feature `typescript`, part of `script`), `swc` is linked;
//! - the page's script worker leaves swc out (about a third of its wasm).
//!   The stripper is a wasm module of its own (`interleave-typescript`,
//!   built by `scripts/build-workers.sh`) that the page loads only
//!   when a script does not parse as JavaScript, and calls through
//!   `web/modules.js`'s `interleaveModules.stripTypes`; it answers
//!   `crate::boundary::encode`'s bytes.

use serde::{Deserialize, Serialize};

#[cfg(feature = "typescript")]
mod swc;
#[cfg(feature = "typescript")]
pub use swc::strip;

/// Why the stripper refused a script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StripError {
    /// Not TypeScript's syntax (else: TypeScript that strip-only mode
    /// refuses, such as an `enum`).
    pub syntax: bool,
    pub message: String,
    /// 1-based, in characters.
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// The script's JavaScript (its types blanked out), or why not.
pub type Stripped = Result<String, StripError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{decode, encode};

    #[test]
    fn an_answer_crosses_the_module_boundary_unchanged() {
        let answers: [Stripped; 2] = [
            Ok("const a      = 1;".to_string()),
            Err(StripError {
                syntax: false,
                message: "TypeScriptError: enum".to_string(),
                line: Some(2),
                column: Some(1),
            }),
        ];
        for answer in answers {
            assert_eq!(decode::<Stripped>(&encode(&answer)), Some(answer));
        }
        assert_eq!(decode::<Stripped>(b""), None);
    }
}
