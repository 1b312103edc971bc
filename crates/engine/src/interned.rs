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
    intern_bytes(text.as_bytes()).expect("a str is UTF-8")
}

/// The one `&'static str` with these bytes, if they are UTF-8: a known
/// text is found without checking them again (a 20,000-request run's
/// lanes read a label per span, from a few dozen texts).
fn intern_bytes(bytes: &[u8]) -> Option<&'static str> {
    TEXTS.with(|texts| {
        let mut texts = texts.borrow_mut();
        if let Some(&known) = texts.iter().find(|&&known| known.as_bytes() == bytes) {
            return Some(known);
        }
        let text = std::str::from_utf8(bytes).ok()?;
        let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
        texts.push(leaked);
        Some(leaked)
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
/// The text is read as bytes (postcard writes a string as its bytes), so
/// a known one is not checked for UTF-8 again; an unknown one is.
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
        fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<&'static str, E> {
            intern_bytes(bytes).ok_or_else(|| E::custom("a string that is not UTF-8"))
        }
    }
    deserializer.deserialize_bytes(Text)
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

    // Native only: the formats are the engine's dev-dependencies there.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_text_reads_back_interned_from_postcard_and_json() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Labelled {
            #[serde(deserialize_with = "static_str")]
            label: Name,
        }
        let bytes = postcard::to_allocvec(&Labelled { label: "cache.get" }).unwrap();
        let read: Labelled = postcard::from_bytes(&bytes).unwrap();
        assert!(std::ptr::eq(read.label, intern("cache.get")));
        let json: Labelled = serde_json::from_str(r#"{"label":"db.select"}"#).unwrap();
        assert!(std::ptr::eq(json.label, intern("db.select")));
        // Bytes that are not UTF-8 are an error, not a text.
        let mut bad = postcard::to_allocvec(&Labelled { label: "ab" }).unwrap();
        bad[1] = 0xff;
        assert!(postcard::from_bytes::<Labelled>(&bad).is_err());
    }
}
