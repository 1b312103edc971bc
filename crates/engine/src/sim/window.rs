//! A table by request number that holds only the span of requests with an
//! entry. Requests arrive in order and most end soon after, so a long run
//! spaced by a gap keeps a short window where a table of every request
//! would touch (and a one-shot CLI run fault in) a slot per request; a
//! burst, whose requests are all under way at once, keeps them all.

use std::collections::VecDeque;

pub struct Window<T> {
    /// The request `slots[0]` stands for.
    first: usize,
    /// From the first request with an entry to the last.
    slots: VecDeque<Option<T>>,
}

impl<T> Default for Window<T> {
    fn default() -> Self {
        Window::with_capacity(0)
    }
}

impl<T> Window<T> {
    /// Room for `requests` entries at once (a burst's arrivals), so a
    /// burst's window does not grow by doubling and copying.
    pub fn with_capacity(requests: usize) -> Window<T> {
        Window {
            first: 0,
            slots: VecDeque::with_capacity(requests),
        }
    }

    /// Room for `requests` entries at once.
    pub fn reserve(&mut self, requests: usize) {
        self.slots
            .reserve(requests.saturating_sub(self.slots.len()));
    }

    /// Sets `request`'s entry.
    pub fn insert(&mut self, request: usize, value: T) {
        if self.slots.is_empty() {
            self.first = request;
        }
        while request < self.first {
            self.slots.push_front(None);
            self.first -= 1;
        }
        let at = request - self.first;
        if at >= self.slots.len() {
            self.slots.resize_with(at + 1, || None);
        }
        self.slots[at] = Some(value);
    }

    #[inline(always)]
    pub fn get(&self, request: usize) -> Option<&T> {
        let at = request.checked_sub(self.first)?;
        self.slots.get(at)?.as_ref()
    }

    #[inline(always)]
    pub fn get_mut(&mut self, request: usize) -> Option<&mut T> {
        let at = request.checked_sub(self.first)?;
        self.slots.get_mut(at)?.as_mut()
    }

    /// Takes `request`'s entry out, and the window closes up behind it.
    pub fn remove(&mut self, request: usize) -> Option<T> {
        let at = request.checked_sub(self.first)?;
        let value = self.slots.get_mut(at)?.take();
        while self.slots.front().is_some_and(Option::is_none) {
            self.slots.pop_front();
            self.first += 1;
        }
        while self.slots.back().is_some_and(Option::is_none) {
            self.slots.pop_back();
        }
        value
    }

    /// How many requests have an entry.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|slot| slot.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_window_spans_only_the_requests_with_an_entry() {
        let mut window = Window::default();
        window.insert(7, 'a');
        window.insert(9, 'b');
        window.insert(5, 'c');
        assert_eq!((window.first, window.slots.len()), (5, 5));
        assert_eq!(window.remove(5), Some('c'));
        assert_eq!((window.first, window.slots.len()), (7, 3));
        assert_eq!(window.remove(9), Some('b'));
        assert_eq!((window.first, window.slots.len()), (7, 1));
        assert_eq!(
            (window.get(7), window.get(6), window.get(8)),
            (Some(&'a'), None, None)
        );
        assert_eq!(window.remove(7), Some('a'));
        assert!(window.is_empty());
        assert_eq!(window.remove(7), None);
    }

    proptest! {
        #[test]
        fn a_window_reads_as_a_map(
            ops in prop::collection::vec((0usize..3, 0usize..40, any::<u8>()), 0..200),
        ) {
            let mut window = Window::default();
            let mut map = BTreeMap::new();
            for (op, request, value) in ops {
                match op {
                    0 => {
                        window.insert(request, value);
                        map.insert(request, value);
                    }
                    1 => prop_assert_eq!(window.remove(request), map.remove(&request)),
                    _ => {
                        if let Some(entry) = window.get_mut(request) {
                            *entry = value;
                        }
                        if let Some(entry) = map.get_mut(&request) {
                            *entry = value;
                        }
                    }
                }
                prop_assert_eq!(window.len(), map.len());
                for request in 0..42 {
                    prop_assert_eq!(window.get(request), map.get(&request));
                }
                // It spans exactly the requests from the first entry to the last.
                let span = map.keys().next().zip(map.keys().last());
                prop_assert_eq!(window.slots.len(), span.map_or(0, |(a, b)| b - a + 1));
            }
        }
    }
}
