//! Explore's proof that a script keeps no module state ([`boa`], on
//! `boa_parser`'s syntax tree), behind one seam: natively (feature
//! `analysis`, part of `script`) the parser is linked; the page's script
//! worker leaves it out and calls the `interleave-analysis` wasm module
//! (`src/bin/interleave-analysis.rs`), which `web/modules.js` loads into
//! the worker, through `interleaveModules.moduleState`, with questions
//! and answers as `crate::boundary` words them.

use serde::{Deserialize, Serialize};

#[cfg(feature = "analysis")]
mod boa;
#[cfg(feature = "analysis")]
pub use boa::module_state;

/// What [`module_state`] is asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub code: String,
    pub single_flight: bool,
    /// The realm's global names before the script runs.
    pub globals: Vec<String>,
    /// The globals the script's top level added.
    pub added: Vec<String>,
}

/// Why the script may keep module state; `None`: it provably keeps none.
pub type Answer = Option<String>;

/// The module's answer to a question, both in `crate::boundary`'s bytes
/// (`None` for a question that is not one).
#[cfg(feature = "analysis")]
pub fn answer(question: &[u8]) -> Option<Vec<u8>> {
    use crate::boundary::{decode, encode};
    let question: Question = decode(question)?;
    let answer: Answer = module_state(
        &question.code,
        question.single_flight,
        &question.globals,
        &question.added,
    );
    Some(encode(&answer))
}

#[cfg(all(test, feature = "analysis"))]
mod tests {
    use super::*;
    use crate::boundary::{decode, encode};

    #[test]
    fn a_question_and_its_answer_cross_the_module_boundary() {
        let question = Question {
            code: "let n = 0;\nasync function handle(req) { n += 1; }".to_string(),
            single_flight: false,
            globals: vec!["db".to_string()],
            added: vec!["handle".to_string()],
        };
        assert_eq!(
            decode::<Question>(&encode(&question)),
            Some(question.clone())
        );
        let answer: Answer = decode(&super::answer(&encode(&question)).unwrap()).unwrap();
        let direct = module_state(
            &question.code,
            question.single_flight,
            &question.globals,
            &question.added,
        );
        assert!(answer.is_some());
        assert_eq!(answer, direct);
        assert_eq!(super::answer(b""), None);
    }
}
