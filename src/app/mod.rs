//! The browser app: the step debugger over the engine's traces.
//!
//! `start` mounts [`App`] into `<main id="app">`. The state lives in the
//! model ([`crate::model`]), behind a [`Link`]; the components draw its
//! [`Frame`]s and send
//! actions. The page reads `location.hash` when it mounts and on every
//! `hashchange`, and writes the canonical fragment back after each edit, so
//! the address bar is always the shareable link.

mod code;
mod event_loop;
mod explore;
#[cfg(not(feature = "worker"))]
mod link;
mod panel;
#[cfg(feature = "worker")]
mod remote;
#[cfg(feature = "worker")]
use remote as link;
mod script_panel;
mod timeline;
mod transport;
mod view;
mod what_happened;
mod yielding;

pub use crate::debugger::narrate::format_ms;
pub use crate::model::{Action, Busy, Debugger, Frame};
pub use link::Link;
pub use view::{CompareTable, ErrorBanner, ExampleLinks, MetricsTable, MetricsTableProps};

use std::rc::Rc;

use crate::debugger::measured::Measured;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model::{Export, SPEEDS};
use code::CodePane;
use event_loop::LoopPane;
use explore::ExplorePanel;
use panel::ScenarioPanel;
use timeline::Timeline;
use transport::Transport;
use what_happened::WhatHappened;

/// The id of the element the app renders into (see `index.html`).
pub const ROOT_ID: &str = "app";

/// Renders [`App`] into `<main id="app">`, creating it if the page lacks
/// it, in the browser's next task.
pub fn start() {
    std::panic::set_hook(Box::new(|info| show_panic(&info.to_string())));
    let document = document();
    let root = document.get_element_by_id(ROOT_ID).unwrap_or_else(|| {
        let main = document
            .create_element("main")
            .expect("a document can create elements");
        main.set_id(ROOT_ID);
        document
            .body()
            .expect("the page has a body")
            .append_child(&main)
            .expect("the body takes a child");
        main
    });
    // In the next task: this one has started the wasm, long enough (a
    // fresh page's first draw then stays under about 60 ms here).
    let mount = yielding::NextTask::new(move || {
        let app = yew::Renderer::<App>::with_root(root).render();
        APP.with(|running| running.replace(Some(app)));
    });
    MOUNT.with(|pending| pending.replace(Some(mount)));
}

thread_local! {
    /// The mount, kept until it has run (dropping it cancels it).
    static MOUNT: std::cell::RefCell<Option<yielding::NextTask>> = const { std::cell::RefCell::new(None) };
    /// The app, once mounted.
    static APP: std::cell::RefCell<Option<yew::AppHandle<App>>> = const { std::cell::RefCell::new(None) };
}

/// The id of the banner a panic leaves on the page.
pub const PANIC_ID: &str = "panic-banner";

/// Shows a panic (a bug: it should never happen) as an error on the page
/// instead of leaving a dead page: what broke, and a way to start again.
/// Written with DOM calls and text nodes only, as the app can no longer run.
pub fn show_panic(message: &str) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    let banner = match document.get_element_by_id(PANIC_ID) {
        Some(banner) => banner,
        None => {
            let Ok(banner) = document.create_element("div") else {
                return;
            };
            banner.set_id(PANIC_ID);
            let _ = banner.set_attribute("role", "alert");
            let _ = banner.set_attribute("class", "error-banner panic");
            let _ = banner.set_attribute("data-testid", "error-banner");
            let _ = body.insert_before(&banner, body.first_child().as_ref());
            banner
        }
    };
    banner.set_text_content(Some(&format!(
        "Interleave hit an internal error and stopped: {message}. \
         Reload the page to start again; please report the link in the address bar."
    )));
}

/// The page's current fragment, with its `#`; empty when there is none.
pub fn current_hash() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// The fragment a `hashchange` navigated to (with its `#`), from the
/// event itself: by the time it is dispatched, a frame of the last
/// scenario may have written its own fragment over the address
/// ([`show_fragment`]), and the address would load that one again.
fn navigated_to(event: &web_sys::Event) -> String {
    match event.dyn_ref::<web_sys::HashChangeEvent>() {
        Some(change) => {
            let url = change.new_url();
            url.find('#')
                .map(|at| url[at..].to_string())
                .unwrap_or_default()
        }
        None => current_hash(),
    }
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|window| window.document())
        .expect("the app runs in a page")
}

/// Puts the canonical fragment in the address bar without a new history
/// entry (and without a `hashchange`).
fn show_fragment(fragment: &str) {
    let wanted = format!("#{fragment}");
    if current_hash() == wanted {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|window| window.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&wanted));
    }
}

/// Keeps the address as a history entry of its own before the page moves
/// to another scenario, whose frame then replaces the copy
/// ([`show_fragment`]): Back brings the last scenario back (a script with
/// its code). The address itself changes only with the model's frame, so a
/// late frame of the last scenario never pushes it again.
fn keep_in_history() {
    if let Some(history) = web_sys::window().and_then(|window| window.history().ok()) {
        let _ =
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&current_hash()));
    }
}

/// Copies `text` (the page's address if `None`), if the browser lets us;
/// the text either way, shown beside the button.
fn copy(text: Option<String>) -> Option<String> {
    let window = web_sys::window()?;
    let text = match text {
        Some(text) => text,
        None => window.location().href().ok()?,
    };
    let promise = window.navigator().clipboard().write_text(&text);
    // A refused copy (no permission) is fine: the text is shown anyway.
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
    Some(text)
}

#[component]
pub fn App() -> Html {
    let link = use_memo((), |_| Link::open(&current_hash()));
    // None until the model's first frame (from its worker) arrives.
    let frame_state = use_state(|| link.frame());
    // Reports of `interleave real` pasted into the compare table.
    let measured = use_state(|| (Rc::new(Vec::<Measured>::new()), None::<String>));
    // The link last copied, with the fragment it was copied for.
    let shared_link = use_state(|| None::<(String, String)>);
    // The last script shown: "script" in the scenario list opens it again.
    let last_script = use_mut_ref(|| None::<String>);

    // The model's frames, from the first draw on (its work starts then),
    // and the files asked for.
    {
        let link = link.clone();
        let setter = frame_state.setter();
        use_effect_with((), move |_| {
            link.listen(
                Callback::from(move |next| setter.set(Some(next))),
                Callback::from(|file: crate::model::File| {
                    download(file.name, file.mime, &file.text)
                }),
            );
            move || link.close()
        });
    }
    let waiting = frame_state.is_none();
    let frame = (*frame_state).clone().unwrap_or_default();
    // The stages of the first draw, one a task on this page too: frames
    // that come while the page is busy (a cold first layout) would
    // otherwise draw every stage at once, in one long task.
    let shown = use_state(|| 0u8);
    let drawn = frame.drawn.min(*shown);
    {
        let shown = shown.clone();
        use_effect_with((*shown, frame.drawn), move |&(now, target)| {
            let next = match now.cmp(&target) {
                std::cmp::Ordering::Less => Some(now + 1),
                std::cmp::Ordering::Greater => Some(target),
                std::cmp::Ordering::Equal => None,
            };
            let task = next.map(|next| yielding::NextTask::new(move || shown.set(next)));
            move || drop(task)
        });
    }
    // Play: one step per tick at the chosen speed.
    {
        let link = link.clone();
        use_effect_with((frame.playing, frame.speed), move |&(playing, speed)| {
            let interval = playing.then(|| {
                let period = 1000 / SPEEDS[speed];
                Interval::new(period, move || link.send(Action::Tick))
            });
            move || drop(interval)
        });
    }
    // The address bar follows the scenario: after a fragment with bad keys
    // it holds the canonical fragment of what runs (the banner names the
    // keys that fell back to their defaults).
    // (None while the first frame has not come: the address stays as it is.)
    // `<html data-fragment>` says which fragment's model is on screen (the
    // model answers from a worker, so after a `hashchange` the last one
    // stays for a moment).
    let is_script = frame.is_script();
    let script_memory = last_script.clone();
    use_effect_with(
        (frame.fragment.clone(), frame.version),
        move |(fragment, _)| {
            if !fragment.is_empty() {
                if is_script {
                    *script_memory.borrow_mut() = Some(fragment.clone());
                }
                show_fragment(fragment);
                if let Some(root) = document().document_element() {
                    let _ = root.set_attribute("data-fragment", fragment);
                }
            }
        },
    );
    // `hashchange` (links, back button) and the keyboard.
    {
        let link = link.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("the app runs in a window");
            let on_hash = {
                let link = link.clone();
                EventListener::new(&window, "hashchange", move |event| {
                    link.send(Action::Load(navigated_to(event)))
                })
            };
            let options = EventListenerOptions::enable_prevent_default();
            let on_key =
                EventListener::new_with_options(&window, "keydown", options, move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if typing(event) || event.alt_key() || event.ctrl_key() || event.meta_key() {
                        return;
                    }
                    // A focused control keeps Space (WAI-ARIA): a button
                    // or a summary acts on it; only the arrows step there.
                    let key = event.key();
                    let action = match key.as_str() {
                        " " if on_control(event) => return,
                        " " => Action::TogglePlay,
                        "ArrowRight" => Action::Step,
                        "ArrowLeft" => Action::Back,
                        _ => return,
                    };
                    event.prevent_default();
                    link.send(action);
                });
            move || drop((on_hash, on_key))
        });
    }

    let send = |action: fn() -> Action| {
        let link = link.clone();
        Callback::from(move |()| link.send(action()))
    };
    let on_set = {
        let link = link.clone();
        Callback::from(move |(key, value): (String, String)| {
            if key == "scenario" && value == "script" {
                // A navigation, which starts the script worker if the page
                // has not yet (remote.rs): to the last script shown, with
                // its code, else the first example.
                let last = last_script.borrow().clone();
                open_fragment(last.as_deref().unwrap_or(SCRIPT_START));
                return;
            }
            if key == "scenario" {
                keep_in_history();
            }
            link.send(Action::SetParam(key, value))
        })
    };
    let on_pick = {
        let link = link.clone();
        Callback::from(move |strategy: crate::config::StrategyKind| {
            link.send(Action::SetParam("strategy".into(), strategy.name().into()))
        })
    };
    let on_measured = {
        let measured = measured.clone();
        Callback::from(move |text: String| {
            let (mut reports, _) = (*measured).clone();
            match read_reports(&text) {
                Ok(read) => {
                    Rc::make_mut(&mut reports).extend(read);
                    measured.set((reports, None));
                }
                Err(error) => measured.set((reports, Some(error))),
            }
        })
    };
    let on_speed = {
        let link = link.clone();
        Callback::from(move |speed| link.send(Action::SetSpeed(speed)))
    };
    let on_group = {
        let link = link.clone();
        Callback::from(move |grouping| link.send(Action::SetGrouping(grouping)))
    };
    let on_share = |command: bool| {
        let shared_link = shared_link.clone();
        let fragment = frame.fragment.clone();
        Callback::from(move |_: MouseEvent| {
            show_fragment(&fragment);
            // The command replays this run on real servers (docs/real.md).
            let command = command.then(|| ["interleave real '", &fragment, "'"].concat());
            shared_link.set(copy(command).map(|text| (fragment.clone(), text)));
        })
    };
    let on_choose = {
        let link = link.clone();
        let made = frame.manual.as_ref().map_or(0, |manual| manual.0.made);
        Callback::from(move |index| link.send(Action::Choose { index, made }))
    };
    let on_start_search = {
        let link = link.clone();
        Callback::from(move |(options, every_strategy)| {
            link.send(Action::Explore {
                options,
                every_strategy,
            })
        })
    };
    let on_open = {
        let link = link.clone();
        Callback::from(move |(fragment, position, violated)| {
            link.send(Action::OpenCounterexample {
                fragment,
                position,
                violated,
            })
        })
    };
    let on_cancel = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| link.send(Action::Cancel))
    };

    let on_export = {
        let link = link.clone();
        Callback::from(move |what: Export| link.export(what))
    };

    let run = frame.run.clone();
    let step = frame.step.clone();
    let metrics = frame.metrics.clone();
    let involved: Rc<Vec<u32>> = Rc::new(frame.involved());
    let steps = run.as_ref().map_or(0, |r| r.steps);
    let keys = run
        .as_ref()
        .map_or(crate::sim::KeyNames::Story(frame.config.scenario), |r| {
            r.keys.clone()
        });
    let has_violation = frame.has_violation();
    let ready = frame.ready;
    // Loading a script, recording its run or fetching a module for it:
    // manual mode and explore wait (model.rs ignores them meanwhile).
    // So do they for a script with no run to show (refused, or its load
    // failed).
    let preparing = matches!(
        frame.busy,
        Busy::Loading | Busy::Recording | Busy::Fetching(..)
    ) || (frame.run.is_none()
        && frame.script.as_ref().is_some_and(|s| s.problem.is_some()));
    // A module's download (the script worker's) has no requests to count.
    let counts_requests = !matches!(frame.busy, Busy::Fetching(..));

    if waiting {
        let (text, id) = match link.loads_engine() {
            true => ("Loading the JavaScript engine…", "engine-loading"),
            false => ("Starting the debugger…", "starting"),
        };
        return html! {
            <div class="page">
                <header class="masthead">{ title() }</header>
                <p class="notice" role="status" data-testid={id}>{ text }</p>
            </div>
        };
    }

    // The step, announced to a screen reader when it changes (not while
    // playing: a step every tenth of a second would drown the rest).
    let announced = match (frame.playing, &step) {
        (true, _) => "Playing.".to_string(),
        (false, _) if !ready => String::new(),
        (false, step) => announcement(frame.position, steps, frame.now, step.ran.as_deref()),
    };

    html! {
        <div class="page">
            <a class="skip-link" href="#run-controls" onclick={skip_to_controls}>{ "Skip to the run controls" }</a>
            <p class="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="step-announcer">{ announced }</p>
            <header class="masthead">
                { title() }
                <div class="share">
                    <button data-testid="btn-share" onclick={on_share(false)}>{ "Share link" }</button>
                    <button data-testid="btn-real" onclick={on_share(true)}>{ "Copy real-server command" }</button>
                    if let Some((_, link)) = shared_link.as_ref().filter(|(f, _)| *f == frame.fragment) {
                        <span class="copied" role="status">{ "copied: " }<code>{ link.clone() }</code></span>
                    }
                </div>
            </header>
            <ErrorBanner errors={frame.errors.clone()} />
            if frame.needs_engine {
                <p class="notice" role="status" data-testid="engine-needed">{ "Loading the JavaScript engine…" }</p>
            }
            if let Some(notice) = &frame.notice {
                <p class="notice" role="status" data-testid="run-notice">{ notice }</p>
            }
            if frame.busy != Busy::Idle {
                <div class="progress" role="status" data-testid="progress">
                    <span>{ match frame.busy {
                        Busy::Recording => "recording the run…".into(),
                        Busy::Counting => "running (metrics only)…".into(),
                        Busy::Loading => "loading the script…".into(),
                        Busy::Fetching(_, what) => format!("loading {what}…").into(),
                        _ => std::borrow::Cow::Borrowed("running to the end…"),
                    } }</span>
                    if counts_requests {
                        <progress max={frame.progress.1.max(1).to_string()} value={frame.progress.0.to_string()} />
                        <span>{ format!("{} / {} requests", frame.progress.0, frame.progress.1) }</span>
                    }
                    <button data-testid="btn-cancel" onclick={on_cancel}>{ "cancel" }</button>
                </div>
            }
            <div class="workbench">
                <aside class="sidebar">
                    { script_panel(&frame, &link) }
                    if drawn >= stage::SCENARIO {
                        <ScenarioPanel config={frame.config.clone()} error={frame.param_error.clone()}
                            script={frame.is_script()} {on_set} />
                        <ExampleLinks current={frame.fragment.clone()} />
                    }
                </aside>
                <div class="main">
                    <Transport position={frame.position} {steps} now={frame.now}
                        playing={frame.playing} speed={frame.speed} {ready} at_end={frame.at_end}
                        {has_violation} metrics_only={frame.metrics_only} events={metrics.events}
                        on_step={send(|| Action::Step)} on_back={send(|| Action::Back)}
                        on_play={send(|| Action::TogglePlay)} on_run={send(|| Action::RunToEnd)}
                        on_reset={send(|| Action::Reset)} on_violation={send(|| Action::JumpToViolation)}
                        {on_speed} />
                    if drawn >= stage::COUNTERS {
                        <MetricsTable metrics={metrics} headline={frame.headline.clone()}
                            script={frame.is_script()} />
                    }
                    if drawn >= stage::TIMELINE {
                    <div class="timeline-row">
                        if let Some(run) = run.clone() {
                            <Timeline {run} position={frame.position} now={frame.now}
                                grouping={frame.grouping} {on_group} highlight={involved.clone()} {on_export} />
                        }
                        if run.is_some() {
                            <WhatHappened explanation={frame.explanation.clone()} here={frame.here.clone()}
                                position={frame.position} on_jump={send(|| Action::JumpToViolation)} />
                        }
                    </div>
                    }
                    if drawn >= stage::PANES {
                    <div class="split">
                        <CodePane listing={frame.listing.clone()} step={step.clone()} highlight={involved}
                            script={script_code(&frame, &link)} />
                        <LoopPane keys={keys} {step} metrics_only={frame.metrics_only}
                            manual={frame.manual.clone()} {preparing} on_manual={send(|| Action::ToggleManual)}
                            {on_choose} on_undo={send(|| Action::Undo)} />
                    </div>
                    }
                    if drawn >= stage::ALL {
                    <ExplorePanel key={if frame.is_script() { "script" } else { frame.config.scenario.name() }}
                        scenario={frame.config.scenario} script={frame.is_script()}
                        view={frame.search.clone()} {preparing} on_start={on_start_search}
                        on_cancel={send(|| Action::CancelSearch)} {on_open} />
                    <CompareTable rows={frame.compare_rows.clone()} running={frame.comparing}
                        current={frame.config.strategy}
                        scenario={frame.config.scenario} keys={frame.config.keys} {on_pick}
                        too_large={(!crate::debugger::compare::compares(&frame.config))
                            .then(|| frame.config.total_requests())}
                        measured={measured.0.clone()} measured_error={measured.1.clone()} {on_measured} />
                    }
                </div>
            </div>
        </div>
    }
}

/// The stages of the page's first draw (`Frame::drawn`, paced by the page
/// to one a task), each a task of its own: a first draw also compiles the
/// code that draws (the browser compiles the page's wasm one function at a
/// time, when it first runs), so the page's start is drawn a part at a
/// time. Stage 0 is the masthead, the script's panel and the transport.
mod stage {
    /// The counters.
    pub const COUNTERS: u8 = 1;
    /// The scenario's keys and the story links.
    pub const SCENARIO: u8 = 2;
    /// The timeline and "What happened".
    pub const TIMELINE: u8 = 3;
    /// The code and event-loop panes.
    pub const PANES: u8 = 4;
    /// Explore and the compare table.
    pub const ALL: u8 = crate::model::DRAWN;
    const _: () =
        assert!(COUNTERS < SCENARIO && SCENARIO < TIMELINE && TIMELINE < PANES && PANES < ALL);
}

/// What the announcer says after a step: "Step 3 of 12, at 20 ms: …".
fn announcement(position: u32, steps: u32, now: u64, ran: Option<&str>) -> String {
    let at = crate::debugger::narrate::format_ms(now);
    match ran {
        Some(ran) if position > 0 => format!("Step {position} of {steps}, at {at} ms: {ran}"),
        _ => format!("Step {position} of {steps}, at {at} ms."),
    }
}

/// The skip link moves focus to the transport's first enabled button,
/// without touching the address (its fragment is the scenario).
fn skip_to_controls(event: MouseEvent) {
    event.prevent_default();
    let target = document()
        .query_selector("#run-controls button:not([disabled])")
        .ok()
        .flatten()
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = target {
        let _ = button.focus();
    }
}

/// The masthead's title and tagline.
fn title() -> Html {
    html! {
        <div>
            <h1>{ "Interleave" }</h1>
            <p class="tagline">{ "Why single-threaded async code still races. Step through every interleaving." }</p>
        </div>
    }
}

/// Where "script" in the scenario list goes: the first shipped example.
const SCRIPT_START: &str = "v=1&scenario=script&example=ticket";

/// Navigates to `fragment` (a `hashchange`, unlike [`show_fragment`]).
fn open_fragment(fragment: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_hash(fragment);
    }
}

/// The script panel, when a script runs.
fn script_panel(frame: &Frame, link: &Link) -> Html {
    let Some(script) = &frame.script else {
        return Html::default();
    };
    let on_schema = {
        let link = link.clone();
        Callback::from(move |sql| link.send(Action::SetSchema(sql)))
    };
    let on_example = {
        let config = frame.config.clone();
        Callback::from(move |name: String| {
            open_fragment(&crate::script_links::script_fragment(
                &config,
                &format!("example={name}"),
            ));
        })
    };
    html! {
        <script_panel::ScriptPanel code={AttrValue::from(script.code.clone())}
            source_piece={AttrValue::from(script.source_piece.clone())}
            schema={script.schema.clone().map(AttrValue::from)}
            problem={script.problem.clone()} shows_run={frame.run.is_some()}
            {on_schema} {on_example} />
    }
}

/// A script's code for the code pane, which edits it.
fn script_code(frame: &Frame, link: &Link) -> Option<code::ScriptCode> {
    let script = frame.script.as_ref()?;
    let link = link.clone();
    Some(code::ScriptCode {
        code: AttrValue::from(script.code.clone()),
        problem: script.problem.clone(),
        on_code: Callback::from(move |code| link.send(Action::SetCode(code))),
    })
}

/// Saves `text` as a file: a Blob URL clicked through a temporary link.
fn download(name: &str, mime: &str, text: &str) {
    let document = document();
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(link) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Reads `interleave real` reports with the browser's JSON parser: one
/// object, an array of them, or one per line.
fn read_reports(text: &str) -> Result<Vec<Measured>, String> {
    let parse = |text: &str| js_sys::JSON::parse(text).ok();
    let values: Vec<wasm_bindgen::JsValue> = match parse(text) {
        Some(value) if js_sys::Array::is_array(&value) => js_sys::Array::from(&value).to_vec(),
        Some(value) => vec![value],
        None => text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                parse(line).ok_or_else(|| {
                    format!("not JSON: {}", line.chars().take(60).collect::<String>())
                })
            })
            .collect::<Result<_, _>>()?,
    };
    values.iter().map(report).collect()
}

/// One report's fields, or what is missing.
fn report(value: &wasm_bindgen::JsValue) -> Result<Measured, String> {
    let get = |object: &wasm_bindgen::JsValue, key: &str| {
        js_sys::Reflect::get(object, &wasm_bindgen::JsValue::from_str(key)).unwrap_or_default()
    };
    let fragment = get(value, "fragment")
        .as_string()
        .ok_or("a report of interleave real has a \"fragment\"")?;
    let ticket = fragment.contains("scenario=ticket");
    let trials = js_sys::Array::from(&get(value, "trials"));
    let headline = trials
        .iter()
        .map(|trial| {
            let metrics = get(&trial, "metrics");
            let name = if ticket {
                "duplicate_tickets"
            } else {
                "db_reads"
            };
            get(&metrics, name).as_f64().unwrap_or(0.0) as u64
        })
        .collect();
    let violating = trials
        .iter()
        .filter(|trial| get(trial, "violates").as_bool() == Some(true))
        .count() as u32;
    let status = get(&get(value, "summary"), "status")
        .as_string()
        .unwrap_or_else(|| "no verdict".to_string());
    Ok(Measured::new(&fragment, headline, violating, &status))
}

/// Keys typed into a form field are not shortcuts.
fn typing(event: &web_sys::KeyboardEvent) -> bool {
    let editable = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|element| element.is_content_editable());
    editable
        || matches!(
            target_tag(event).as_deref(),
            Some("INPUT" | "SELECT" | "TEXTAREA" | "JS-EDITOR")
        )
}

/// Whether the key goes to a focused control that Space acts on: a
/// button, a link, a summary or anything in the lanes' scroll region.
fn on_control(event: &web_sys::KeyboardEvent) -> bool {
    matches!(
        target_tag(event).as_deref(),
        Some("BUTTON" | "A" | "SUMMARY")
    ) || event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|element| element.get_attribute("role").as_deref() == Some("region"))
}

fn target_tag(event: &web_sys::KeyboardEvent) -> Option<String> {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .map(|element| element.tag_name())
}
