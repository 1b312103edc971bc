//! Running a callback in the browser's next task, without the 4 ms clamp
//! that nested `setTimeout(0)` calls get: a message posted to our own
//! `MessageChannel` (the scheduler.postTask trick). Long work yields this
//! way between chunks, so a chunk loses almost no time to yielding.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::MessageChannel;

/// A pending callback; dropping it cancels the callback.
pub struct NextTask {
    cancelled: Rc<Cell<bool>>,
    // Kept alive until the message arrives (or the handle is dropped).
    _channel: Option<(MessageChannel, Closure<dyn FnMut()>)>,
}

impl NextTask {
    pub fn new(callback: impl FnOnce() + 'static) -> NextTask {
        let cancelled = Rc::new(Cell::new(false));
        let flag = cancelled.clone();
        let mut callback = Some(callback);
        let handler = Closure::<dyn FnMut()>::new(move || {
            if let (false, Some(callback)) = (flag.get(), callback.take()) {
                callback();
            }
        });
        let channel = MessageChannel::new().ok().inspect(|channel| {
            channel
                .port1()
                .set_onmessage(Some(handler.as_ref().unchecked_ref()));
            let _ = channel.port2().post_message(&wasm_bindgen::JsValue::NULL);
        });
        NextTask {
            cancelled,
            _channel: channel.map(|channel| (channel, handler)),
        }
    }
}

impl Drop for NextTask {
    fn drop(&mut self) {
        self.cancelled.set(true);
        if let Some((channel, _)) = &self._channel {
            channel.port1().set_onmessage(None);
        }
    }
}
