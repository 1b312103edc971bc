//! The page's state: the model ([`crate::model`]), a
//! `Reducible` whose actions the components send.

use std::rc::Rc;

use yew::Reducible;

pub use crate::model::*;

impl Reducible for Debugger {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.act(action)
    }
}
