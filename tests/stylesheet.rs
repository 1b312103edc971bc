//! The page's stylesheet sets text sizes only from its type scale: each
//! family at each size and weight costs Chromium on Linux a synchronous
//! call to the browser process the first time a page lays it out
//! (docs/debugger.md), so a new size is a new cost on every fresh link.

const CSS: &str = include_str!("../styles/app.css");

/// Every `PROPERTY: VALUE` in the stylesheet, with its line.
fn declarations(property: &'static str) -> Vec<(usize, &'static str)> {
    CSS.lines()
        .enumerate()
        .flat_map(|(index, line)| {
            line.match_indices(property).map(move |(at, _)| {
                let value = line[at + property.len()..]
                    .split([';', '}'])
                    .next()
                    .unwrap_or("")
                    .trim();
                (index + 1, value)
            })
        })
        .collect()
}

fn sizes() -> Vec<(usize, &'static str)> {
    declarations("font-size:")
}

/// A size from the scale, or the root's own. Not one relative to its
/// parent's (`0.875em`): that is off the scale wherever the parent is.
fn on_scale(value: &str) -> bool {
    value.starts_with("var(--text-") || ["1rem", "15px"].contains(&value)
}

#[test]
fn text_sizes_come_from_the_type_scale() {
    let off_scale: Vec<String> = sizes()
        .into_iter()
        .filter(|(_, value)| !on_scale(value))
        .map(|(line, value)| format!("line {line}: font-size: {value}"))
        .collect();
    assert!(
        off_scale.is_empty(),
        "sizes off the type scale (use --text-2xs to --text-xl, or 1rem):\n{}",
        off_scale.join("\n")
    );
}

#[test]
fn the_type_scale_is_short() {
    let tokens: Vec<&str> = CSS
        .lines()
        .filter_map(|line| line.trim().strip_prefix("--text-"))
        .collect();
    assert_eq!(tokens.len(), 6, "the scale: {tokens:?}");
    // The check above reads the sizes it is meant to read.
    assert!(sizes().len() > 50);
}

#[test]
fn bold_is_one_weight() {
    let weights: Vec<String> = declarations("font-weight:")
        .into_iter()
        .filter(|(_, weight)| !["400", "600"].contains(weight))
        .map(|(line, weight)| format!("line {line}: font-weight: {weight}"))
        .collect();
    assert!(
        weights.is_empty(),
        "weights other than 400 and 600: {weights:?}"
    );
}
