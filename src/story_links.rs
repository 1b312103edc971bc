//! The stories the page's sidebar links to.

/// A few runs worth comparing, as `(label, fragment, what to look for)`,
/// each fragment canonical (tested below): the page marks the link of the
/// run it shows by comparing the frame's fragment, with no parsing.
pub const STORIES: [(&str, &str, &str); 8] = [
    (
        "stampede · none",
        "v=1&scenario=stampede&strategy=none&requests=50",
        "every request misses the cold key at once: a DB read each, where 1 would do",
    ),
    (
        "stampede · get-set",
        "v=1&scenario=stampede&strategy=get-set&requests=50",
        "a lock in the cache, checked then set: all see it free, all enter",
    ),
    (
        "stampede · add",
        "v=1&scenario=stampede&strategy=add&requests=50",
        "an atomic add: one holder loads, the others poll until it is set",
    ),
    (
        "stampede · keyed-mutex",
        "v=1&scenario=stampede&strategy=keyed-mutex&requests=50",
        "one DB read: the others queue on the mutex, then find the value",
    ),
    (
        "stampede · single-flight",
        "v=1&scenario=stampede&strategy=single-flight&requests=50",
        "one DB read shared by every caller, no second cache read",
    ),
    (
        "ticket · none",
        "v=1&scenario=ticket&strategy=none",
        "a double click: both clicks find no order, two tickets",
    ),
    (
        "ticket · keyed-mutex",
        "v=1&scenario=ticket&strategy=keyed-mutex",
        "the second click waits for the first: one ticket",
    ),
    (
        "ticket · keyed-mutex · 2 servers",
        "v=1&scenario=ticket&strategy=keyed-mutex&servers=2",
        "a mutex per server: the clicks hit different servers, two tickets",
    ),
];

#[cfg(test)]
mod tests {
    use super::STORIES;
    use crate::config::url::{parse_fragment, to_fragment};

    #[test]
    fn every_story_link_is_canonical() {
        for (label, fragment, _) in STORIES {
            let config = parse_fragment(fragment).unwrap_or_else(|e| panic!("{label}: {e:?}"));
            assert_eq!(to_fragment(&config), fragment, "{label}");
        }
    }
}
