//! The code pane's text: lines of JavaScript, each awaited line with the
//! `Site` its trace events name, so a request's cursor can sit on it. The
//! scenarios write their bodies (`scenario::listing`), each lock strategy
//! its own lock's code, in its own file.

use crate::sim::Site;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Listing {
    lines: Vec<(String, Site)>,
}

impl Listing {
    /// A script's own lines: its trace events carry their line, so no
    /// line needs a site.
    pub fn of_script(code: &str) -> Listing {
        Listing {
            lines: code
                .lines()
                .map(|line| (line.to_string(), Site::None))
                .collect(),
        }
    }

    /// The lines, 1-based line numbers being index + 1.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(|(text, _)| text.as_str())
    }

    /// The code of a 1-based line, trimmed.
    pub fn text_of(&self, line: usize) -> Option<&str> {
        let index = line.checked_sub(1)?;
        self.lines.get(index).map(|(text, _)| text.trim())
    }

    /// The 1-based line of an await site, if this listing has it.
    pub fn line_of(&self, site: Site) -> Option<usize> {
        if site == Site::None {
            return None;
        }
        self.lines
            .iter()
            .position(|&(_, s)| s == site)
            .map(|i| i + 1)
    }

    /// Adds a line no trace event names.
    pub fn line(&mut self, text: &str) {
        self.lines.push((text.to_string(), Site::None));
    }

    /// Adds an awaited line: trace events at `site` point at it.
    pub fn at(&mut self, site: Site, text: &str) {
        self.lines.push((text.to_string(), site));
    }
}
