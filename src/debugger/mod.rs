//! The step debugger's model, with no web dependency: a recorded run, its
//! timeline and violations, the live position in it, and the comparison of
//! strategies. The Yew app only draws these.

pub mod compare;
pub mod export;
pub mod measured;
pub mod narrate;
pub mod program;
pub mod recording;
pub mod search;
pub mod session;
pub mod shared_lanes;
pub mod timeline;
pub mod violations;

pub use compare::{Compare, CompareRow};
pub use program::{Program, ScriptProgram};
pub use recording::{Recorder, Recording, RunView};
pub use search::SearchJob;
pub use session::{LineCursor, RequestState, Session};
pub use shared_lanes::SharedLane;
pub use timeline::{Grouping, Lane, Span, SpanKind, Timeline};
pub use violations::{Violation, ViolationKind};
