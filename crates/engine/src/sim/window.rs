//! A table by request number that holds only the span of requests with an
//! entry. Requests arrive in order and most end soon after, so a long run
//! spaced by a gap keeps a short window where a table of every request
//! would touch (and a one-shot CLI run fault in) a slot per request; a
//! burst, whose requests are all under way at once, keeps them all.

pub struct Window<T> {
    /// The request `slots[0]` stands for.
    base: usize,
    /// The slots before this one are empty: the window's front moves on
    /// without moving the rest, which moves down only once the empty
    /// front is at least half of `slots` (so each entry moves a bounded
    /// number of times).
    front: usize,
    /// From `base` to the last request with an entry.
    slots: Vec<Option<T>>,
    /// How many slots hold an entry.
    entries: usize,
}

/// An empty front shorter than this never moves the rest down.
const SHORT_FRONT: usize = 32;

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
            base: 0,
            front: 0,
            slots: Vec::with_capacity(requests),
            entries: 0,
        }
    }

    /// Room for `requests` entries at once.
    pub fn reserve(&mut self, requests: usize) {
        self.slots
            .reserve(requests.saturating_sub(self.slots.len()));
    }

    /// Sets `request`'s entry.
    #[inline]
    pub fn insert(&mut self, request: usize, value: T) {
        if self.entries == 0 {
            self.slots.clear();
            self.base = request;
            self.front = 0;
        }
        if request < self.base {
            // Rare: an entry before the window (a request that starts to
            // poll before an earlier one does).
            let missing = self.base - request;
            self.slots
                .splice(0..0, std::iter::repeat_with(|| None).take(missing));
            self.base = request;
            self.front += missing;
        }
        let at = request - self.base;
        if at >= self.slots.len() {
            self.slots.resize_with(at, || None);
            self.slots.push(Some(value));
            self.entries += 1;
        } else if self.slots[at].replace(value).is_none() {
            self.entries += 1;
        }
        self.front = self.front.min(at);
    }

    #[inline(always)]
    pub fn get(&self, request: usize) -> Option<&T> {
        self.slots.get(request.wrapping_sub(self.base))?.as_ref()
    }

    #[inline(always)]
    pub fn get_mut(&mut self, request: usize) -> Option<&mut T> {
        self.slots
            .get_mut(request.wrapping_sub(self.base))?
            .as_mut()
    }

    /// Takes `request`'s entry out, and the window closes up behind it.
    #[inline]
    pub fn remove(&mut self, request: usize) -> Option<T> {
        let at = request.wrapping_sub(self.base);
        let value = self.slots.get_mut(at)?.take()?;
        self.entries -= 1;
        if self.entries == 0 {
            self.slots.clear();
            self.front = 0;
            return Some(value);
        }
        while self.slots[self.front].is_none() {
            self.front += 1;
        }
        while self.slots.last().is_some_and(Option::is_none) {
            self.slots.pop();
        }
        if self.front >= SHORT_FRONT && self.front * 2 >= self.slots.len() {
            self.slots.drain(..self.front);
            self.base += self.front;
            self.front = 0;
        }
        Some(value)
    }

    /// How many requests have an entry.
    pub fn len(&self) -> usize {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
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
        assert_eq!((window.base, window.slots.len()), (5, 5));
        assert_eq!(window.remove(5), Some('c'));
        assert_eq!((window.base + window.front, window.slots.len()), (7, 5));
        assert_eq!(window.remove(9), Some('b'));
        assert_eq!((window.base + window.front, window.slots.len()), (7, 3));
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
            ops in prop::collection::vec((0usize..3, 0usize..120, any::<u8>()), 0..400),
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
                for request in 0..122 {
                    prop_assert_eq!(window.get(request), map.get(&request));
                }
                // Its live part spans exactly the requests from the first
                // entry to the last, and the empty front stays short or
                // under half of it.
                let span = map.keys().next().zip(map.keys().last());
                let live = window.slots.len() - window.front;
                prop_assert_eq!(live, span.map_or(0, |(a, b)| b - a + 1));
                prop_assert!(window.front < SHORT_FRONT || window.front * 2 < window.slots.len());
            }
        }
    }
}
