//! `&'static str`s read back from a serialized value (a worker sends the
//! page its frames: src/model/wire.rs). The names such fields hold come
//! from a small fixed set (counter names, span labels, module names), so
//! each distinct text is leaked once and shared from then on.

use std::cell::RefCell;

use serde::{Deserialize, Deserializer};

/// A `&'static str` field read back through [`static_str`] (the alias
/// keeps serde from taking the field for text borrowed from the input).
pub type Name = &'static str;
/// A `&'static [&'static str]` field read back through [`static_strs`].
pub type Names = &'static [&'static str];

thread_local! {
    static TEXTS: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    static LISTS: RefCell<Vec<&'static [&'static str]>> = const { RefCell::new(Vec::new()) };
}

/// The one `&'static str` with this text.
pub fn intern(text: &str) -> &'static str {
    TEXTS.with(|texts| {
        let mut texts = texts.borrow_mut();
        if let Some(&known) = texts.iter().find(|&&known| known == text) {
            return known;
        }
        let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
        texts.push(leaked);
        leaked
    })
}

/// The one `&'static [&'static str]` with these texts.
pub fn intern_list(list: &[String]) -> &'static [&'static str] {
    let texts: Vec<&'static str> = list.iter().map(|text| intern(text)).collect();
    LISTS.with(|lists| {
        let mut lists = lists.borrow_mut();
        if let Some(&known) = lists.iter().find(|&&known| known == texts.as_slice()) {
            return known;
        }
        let leaked: &'static [&'static str] = Box::leak(texts.into_boxed_slice());
        lists.push(leaked);
        leaked
    })
}

/// `#[serde(deserialize_with = "…::static_str")]` for a `&'static str`
/// (read in place where the format allows: a 20,000-request run's lanes
/// hold a label per span).
pub fn static_str<'de, D: Deserializer<'de>>(deserializer: D) -> Result<&'static str, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = &'static str;
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<&'static str, E> {
            Ok(intern(text))
        }
    }
    deserializer.deserialize_str(Text)
}

/// `#[serde(deserialize_with = "…::static_strs")]` for a
/// `&'static [&'static str]`.
pub fn static_strs<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<&'static [&'static str], D::Error> {
    let list = Vec::<String>::deserialize(deserializer)?;
    Ok(intern_list(&list))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_text_is_leaked_once() {
        let a = intern(&String::from("db_reads"));
        let b = intern(&String::from("db_reads"));
        assert!(std::ptr::eq(a, b));
        let list = [String::from("orders"), String::from("db_reads")];
        let x = intern_list(&list);
        let y = intern_list(&list);
        assert!(std::ptr::eq(x, y));
        assert_eq!(x, ["orders", "db_reads"]);
        assert!(std::ptr::eq(x[1], a));
    }
}
