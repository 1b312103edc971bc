//! The browser app. For now a page that runs the scenario in the URL
//! fragment and lists its metrics; the step debugger has its own issue.
