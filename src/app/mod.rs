//! The browser app: the step debugger over the engine's traces.
//!
//! `start` mounts [`App`] into `<main id="app">`. The state lives in one
//! `Reducible` ([`state::Debugger`]); the components only draw it and send
//! actions. The page reads `location.hash` when it mounts and on every
//! `hashchange`, and writes the canonical fragment back after each edit, so
//! the address bar is always the shareable link.

mod code;
mod event_loop;
mod explore;
mod panel;
#[cfg(scripts)]
mod script_panel;
pub mod state;
mod timeline;
mod transport;
mod view;
mod what_happened;
mod yielding;

pub use crate::debugger::narrate::format_ms;
pub use state::{Action, Busy, Debugger};
pub use view::{
    CompareTable, ErrorBanner, ExampleLinks, MetricsTable, MetricsTableProps, EXAMPLES,
};

use std::rc::Rc;

use crate::debugger::measured::Measured;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use code::CodePane;
use event_loop::LoopPane;
use explore::ExplorePanel;
use panel::ScenarioPanel;
use state::{now_ms, StepView, CHUNK_MS, SPEEDS};
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

/// Takes the app down (its listeners, timers and DOM), for web/boot.js to
/// hand the page to the script edition without a reload.
pub fn stop() {
    MOUNT.with(|pending| pending.take());
    if let Some(app) = APP.with(|running| running.take()) {
        app.destroy();
    }
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
    let state = use_reducer(|| Debugger::load(&current_hash()));
    // Reports of `interleave real` pasted into the compare table.
    let measured = use_state(|| (Rc::new(Vec::<Measured>::new()), None::<String>));
    // The link last copied, with the fragment it was copied for.
    let shared_link = use_state(|| None::<(String, String)>);

    // Chunked work: one time-boxed chunk per browser task until done.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((state.version, state.has_work()), move |&(_, has_work)| {
            let next = has_work.then(|| {
                yielding::NextTask::new(move || {
                    dispatcher.dispatch(Action::Work {
                        deadline: now_ms() + CHUNK_MS,
                    })
                })
            });
            move || drop(next)
        });
    }
    // A run that needs a module of the script edition waits for it.
    #[cfg(scripts)]
    {
        let dispatcher = state.dispatcher();
        let fetching = match state.busy {
            Busy::Fetching(name, _) => Some(name),
            _ => None,
        };
        use_effect_with((state.version, fetching), move |&(_, fetching)| {
            if let Some(name) = fetching {
                wasm_bindgen_futures::spawn_local(async move {
                    dispatcher.dispatch(Action::ModuleLoaded(load(name).await));
                });
            }
        });
    }
    // Play: one step per tick at the chosen speed.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
            let interval = playing.then(|| {
                let period = 1000 / SPEEDS[speed];
                Interval::new(period, move || dispatcher.dispatch(Action::Tick))
            });
            move || drop(interval)
        });
    }
    // The address bar follows the scenario: after a fragment with bad keys
    // it holds the canonical fragment of what runs (the banner names the
    // keys that fell back to their defaults).
    use_effect_with(state.fragment.clone(), |fragment| show_fragment(fragment));
    // `hashchange` (links, back button) and the keyboard.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("the app runs in a window");
            let on_hash = {
                let dispatcher = dispatcher.clone();
                EventListener::new(&window, "hashchange", move |_| {
                    dispatcher.dispatch(Action::Load(current_hash()))
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
                    let action = match event.key().as_str() {
                        " " => Action::TogglePlay,
                        "ArrowRight" => Action::Step,
                        "ArrowLeft" => Action::Back,
                        _ => return,
                    };
                    event.prevent_default();
                    dispatcher.dispatch(action);
                });
            // A button pressed with the space bar clicks on keyup: the space
            // bar already played or paused on keydown.
            let on_key_up =
                EventListener::new_with_options(&window, "keyup", options, move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if event.key() == " " && target_tag(event).as_deref() == Some("BUTTON") {
                        event.prevent_default();
                    }
                });
            move || drop((on_hash, on_key, on_key_up))
        });
    }

    let send = |action: fn() -> Action| {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(action()))
    };
    let on_set = {
        let dispatcher = state.dispatcher();
        Callback::from(move |(key, value): (String, String)| {
            if key == "scenario" && value == "script" {
                // A navigation: the edition without the engine hands the
                // page to the one that has it (web/boot.js).
                open_fragment(SCRIPT_START);
                return;
            }
            dispatcher.dispatch(Action::SetParam(key, value))
        })
    };
    let on_pick = {
        let dispatcher = state.dispatcher();
        Callback::from(move |strategy: crate::config::StrategyKind| {
            dispatcher.dispatch(Action::SetParam("strategy".into(), strategy.name().into()))
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
        let dispatcher = state.dispatcher();
        Callback::from(move |speed| dispatcher.dispatch(Action::SetSpeed(speed)))
    };
    let on_group = {
        let dispatcher = state.dispatcher();
        Callback::from(move |grouping| dispatcher.dispatch(Action::SetGrouping(grouping)))
    };
    let on_share = |command: bool| {
        let shared_link = shared_link.clone();
        let fragment = state.fragment.clone();
        Callback::from(move |_: MouseEvent| {
            show_fragment(&fragment);
            // The command replays this run on real servers (docs/real.md).
            let command = command.then(|| ["interleave real '", &fragment, "'"].concat());
            shared_link.set(copy(command).map(|text| (fragment.clone(), text)));
        })
    };
    let on_choose = {
        let dispatcher = state.dispatcher();
        Callback::from(move |index| dispatcher.dispatch(Action::Choose(index)))
    };
    let on_start_search = {
        let dispatcher = state.dispatcher();
        Callback::from(move |(options, every_strategy)| {
            dispatcher.dispatch(Action::Explore {
                options,
                every_strategy,
            })
        })
    };
    let on_open = {
        let dispatcher = state.dispatcher();
        Callback::from(move |(fragment, position, violated)| {
            dispatcher.dispatch(Action::OpenCounterexample {
                fragment,
                position,
                violated,
            })
        })
    };
    let on_cancel = {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(Action::Cancel))
    };

    let recording = state.recording();
    let ready = state.session().is_some() && state.busy == Busy::Idle;
    let StepView {
        cursors,
        touched,
        ran,
        events,
        events_total,
        pending,
        queued,
    } = state.step_view();
    let metrics = state.metrics();
    // The requests of the story told: the one this step caused, else the
    // run's first.
    let here = state.story_here();
    let involved: Rc<Vec<u32>> = Rc::new(
        here.as_ref()
            .or_else(|| state.explanation.as_ref().and_then(|e| e.story.as_ref()))
            .map(|story| story.requests.clone())
            .unwrap_or_default(),
    );
    let steps = recording.as_ref().map_or(0, |r| r.steps);
    let keys = recording
        .as_ref()
        .map_or(crate::sim::KeyNames::Story(state.config.scenario), |r| {
            r.keys.clone()
        });
    let has_violation = recording.as_ref().is_some_and(|r| !r.violations.is_empty());
    // A module's download (the script edition's) has no requests to count.
    #[cfg(scripts)]
    let counts_requests = !matches!(state.busy, Busy::Fetching(..));
    #[cfg(not(scripts))]
    let counts_requests = true;

    html! {
        <div class="page">
            <header class="masthead">
                <div>
                    <h1>{ "Interleave" }</h1>
                    <p class="tagline">{ "Why single-threaded async code still races. Step through every interleaving." }</p>
                </div>
                <div class="share">
                    <button data-testid="btn-share" onclick={on_share(false)}>{ "Share link" }</button>
                    <button data-testid="btn-real" onclick={on_share(true)}>{ "Copy real-server command" }</button>
                    if let Some((_, link)) = shared_link.as_ref().filter(|(f, _)| *f == state.fragment) {
                        <span class="copied" role="status">{ "copied: " }<code>{ link.clone() }</code></span>
                    }
                </div>
            </header>
            <ErrorBanner errors={state.errors.clone()} />
            if state.needs_engine {
                <p class="notice" role="status" data-testid="engine-needed">{ "Loading the JavaScript engine…" }</p>
            }
            if let Some(notice) = &state.notice {
                <p class="notice" role="status" data-testid="run-notice">{ notice }</p>
            }
            if state.busy != Busy::Idle {
                <div class="progress" role="status" data-testid="progress">
                    <span>{ match state.busy {
                        Busy::Recording => "recording the run…".into(),
                        Busy::Counting => "running (metrics only)…".into(),
                        #[cfg(scripts)]
                        Busy::Loading => "loading the script…".into(),
                        #[cfg(scripts)]
                        Busy::Fetching(_, what) => format!("loading {what}…").into(),
                        _ => std::borrow::Cow::Borrowed("running to the end…"),
                    } }</span>
                    if counts_requests {
                        <progress max={state.progress.1.max(1).to_string()} value={state.progress.0.to_string()} />
                        <span>{ format!("{} / {} requests", state.progress.0, state.progress.1) }</span>
                    }
                    <button data-testid="btn-cancel" onclick={on_cancel}>{ "cancel" }</button>
                </div>
            }
            <div class={classes!("workbench", state.program.is_script().then_some("with-script"))}>
                <aside class="sidebar">
                    { script_panel(&state) }
                    <ScenarioPanel config={state.config.clone()} error={state.param_error.clone()}
                        script={state.program.is_script()} {on_set} />
                    <ExampleLinks current={state.fragment.clone()} />
                </aside>
                <div class="main">
                    <Transport position={state.position()} {steps} now={state.now()}
                        playing={state.playing} speed={state.speed} {ready} at_end={state.at_end()}
                        {has_violation} metrics_only={state.is_metrics_only()} events={metrics.events}
                        on_step={send(|| Action::Step)} on_back={send(|| Action::Back)}
                        on_play={send(|| Action::TogglePlay)} on_run={send(|| Action::RunToEnd)}
                        on_reset={send(|| Action::Reset)} on_violation={send(|| Action::JumpToViolation)}
                        {on_speed} />
                    <MetricsTable metrics={metrics} headline={state.headline()} />
                    if state.drawn >= 1 {
                    <div class="timeline-row">
                        if let Some(recording) = recording.clone() {
                            <Timeline {recording} position={state.position()} now={state.now()}
                                grouping={state.grouping} {on_group} highlight={involved.clone()} />
                        }
                        if recording.is_some() {
                            <WhatHappened explanation={state.explanation.clone()} here={here}
                                position={state.position()} on_jump={send(|| Action::JumpToViolation)} />
                        }
                    </div>
                    <div class="split">
                        <CodePane listing={state.listing.clone()} {cursors} {touched} highlight={involved} />
                        <LoopPane keys={keys} {ran} {events} {events_total} {pending} {queued}
                            manual={state.manual_view()} on_manual={send(|| Action::ToggleManual)}
                            {on_choose} on_undo={send(|| Action::Undo)} />
                    </div>
                    }
                    if state.drawn >= 2 {
                    <ExplorePanel key={if state.program.is_script() { "script" } else { state.config.scenario.name() }}
                        scenario={state.config.scenario} script={state.program.is_script()}
                        view={state.search_view.clone()} on_start={on_start_search}
                        on_cancel={send(|| Action::CancelSearch)} {on_open} />
                    <CompareTable rows={state.compare_rows.clone()} running={state.comparing()}
                        current={state.config.strategy}
                        scenario={state.config.scenario} keys={state.config.keys} {on_pick}
                        measured={measured.0.clone()} measured_error={measured.1.clone()} {on_measured} />
                    }
                </div>
            </div>
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

/// The script panel, when a script runs (the script edition only).
#[cfg(scripts)]
fn script_panel(state: &UseReducerHandle<Debugger>) -> Html {
    let crate::debugger::Program::Script(script) = &state.program else {
        return Html::default();
    };
    let on_code = {
        let dispatcher = state.dispatcher();
        Callback::from(move |code| dispatcher.dispatch(Action::SetCode(code)))
    };
    let on_schema = {
        let dispatcher = state.dispatcher();
        Callback::from(move |sql| dispatcher.dispatch(Action::SetSchema(sql)))
    };
    let on_example = {
        let config = state.config.clone();
        Callback::from(move |name: String| {
            let program = crate::debugger::Program::Script(std::rc::Rc::new(
                crate::debugger::ScriptProgram {
                    code: String::new(),
                    schema: None,
                    source_piece: format!("example={name}"),
                    route: None,
                },
            ));
            open_fragment(&program.fragment(&config));
        })
    };
    html! {
        <script_panel::ScriptPanel code={AttrValue::from(script.code.clone())}
            source_piece={AttrValue::from(script.source_piece.clone())}
            schema={script.schema.clone().map(AttrValue::from)}
            problem={state.script_problem.clone()} shows_run={state.session().is_some()}
            {on_code} {on_schema} {on_example} />
    }
}

#[cfg(not(scripts))]
fn script_panel(_: &UseReducerHandle<Debugger>) -> Html {
    Html::default()
}

#[cfg(scripts)]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// web/boot.js: loads a module of the script edition (once).
    #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = load)]
    fn load_module(name: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
}

/// Loads a module of the script edition; why not, if it fails.
#[cfg(scripts)]
async fn load(name: &str) -> Result<(), String> {
    let describe = |error: wasm_bindgen::JsValue| match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error.as_string().unwrap_or_else(|| "unknown error".into()),
    };
    let promise = load_module(name).map_err(describe)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(describe)
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

/// Keys typed into a form field are not shortcuts. The space bar on a
/// focused button plays or pauses too (Enter still presses the button).
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

fn target_tag(event: &web_sys::KeyboardEvent) -> Option<String> {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .map(|element| element.tag_name())
}
