// <js-editor>: a small JavaScript code editor built from CodeMirror 6.
//
// Bundled by scripts/build-editor.sh into web/editor/dist/, whose entry
// load.js (./load.js) evaluates CodeMirror's packages one task at a time,
// then this module. The page talks to it only through attributes,
// properties and DOM events:
//
//   value     property and attribute. Setting it replaces the document only
//             if the text differs from the current one, so re-rendering the
//             same value keeps the cursor and the undo history. Reading the
//             property gives the current text. A replacement fires no
//             code-change, cancels a pending one and starts a fresh undo
//             history (undo cannot bring back the old text); the cursor
//             keeps its offset, clamped to the new length.
//   error     attribute: absent or empty for none, else "LINE:COLUMN:MESSAGE"
//             (1-based; MESSAGE may contain colons). The token at that spot is
//             underlined and MESSAGE is shown in a box under the line. Text
//             that does not match the pattern is shown whole under line 1.
//   readonly  boolean attribute: the text can be selected but not edited.
//   view      the CodeMirror EditorView (tests); null until it is built, in
//             the two tasks after the one that made the element (the text
//             shows plain until then): see `_build`.
//   code-change  CustomEvent (bubbles, composed), detail { code }, fired
//             400 ms after the last edit, or at once when the editor loses
//             focus with an edit still pending. Never fired for `value`.
//
// Styling and the Content Security Policy: the editor lives in a shadow root.
// CodeMirror's style-mod then installs its rules as a constructable
// stylesheet (shadowRoot.adoptedStyleSheets) instead of a <style> element,
// and `style-src 'self'` does not block constructable stylesheets (checked in
// headless Chromium by e2e/editor.mjs). Colours come from CSS custom
// properties, which inherit into the shadow root: --editor-* first, then the
// app's own (--code-bg, --text, --muted, --border, --accent, --error-*,
// --mono), then built-in light and dark defaults that follow
// prefers-color-scheme.

import { Compartment, EditorState, StateEffect, StateField, Transaction } from './stages/state.js';
import { Decoration, EditorView, WidgetType, keymap, lineNumbers, highlightActiveLineGutter } from './stages/view.js';
import { defaultKeymap, history, historyKeymap, indentWithTab } from './stages/commands.js';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from './stages/language.js';
import { javascriptLanguage } from './stages/javascript.js';
import { tags as t } from './stages/highlight.js';
import { completion } from './complete.js';

const DEBOUNCE_MS = 400;

/** The host's sheet: the custom properties the theme reads, light and dark. */
const HOST_CSS = `
:host {
  display: block;
  min-height: 4em;
  border: 1px solid var(--je-border);
  border-radius: 4px;
  overflow: hidden;
  background: var(--je-bg);
  --je-bg: var(--editor-bg, var(--code-bg, #f8f9fa));
  --je-fg: var(--editor-fg, var(--text, #1d1f23));
  --je-gutter-bg: var(--editor-gutter-bg, var(--je-bg));
  --je-gutter-fg: var(--editor-gutter-fg, var(--muted, #6b7280));
  --je-border: var(--editor-border, var(--border, #d0d4da));
  --je-accent: var(--editor-accent, var(--accent, #2b59c3));
  --je-active-line: var(--editor-active-line, rgba(0, 0, 0, 0.04));
  --je-bracket: var(--editor-bracket, rgba(43, 89, 195, 0.18));
  --je-touched: var(--editor-touched, rgba(43, 89, 195, 0.10));
  --je-font: var(--editor-font, var(--mono, "Liberation Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace));
  --je-error: var(--editor-error, var(--violation, #d8342c));
  --je-error-bg: var(--editor-error-bg, var(--error-bg, #fdecec));
  --je-error-fg: var(--editor-error-fg, var(--error-text, #8a1c1c));
  --je-error-border: var(--editor-error-border, var(--error-border, #e5a3a3));
  --je-keyword: var(--editor-keyword, #8e24aa);
  --je-string: var(--editor-string, #2e7d32);
  --je-number: var(--editor-number, #b45309);
  --je-comment: var(--editor-comment, #5f6673);
  --je-function: var(--editor-function, #1d4ed8);
  --je-property: var(--editor-property, #0f5f78);
  --je-definition: var(--editor-definition, #1d1f23);
  --je-operator: var(--editor-operator, #4b5563);
  --je-regexp: var(--editor-regexp, #c2410c);
  --je-atom: var(--editor-atom, #b91c1c);
}
.je-plain {
  margin: 0;
  padding: 4px 2px 4px 3.4em;
  font-family: var(--je-font);
  line-height: 1.5;
  color: var(--je-fg);
  white-space: pre;
  overflow: hidden;
}
@media (prefers-color-scheme: dark) {
  :host {
    --je-bg: var(--editor-bg, var(--code-bg, #22262c));
    --je-fg: var(--editor-fg, var(--text, #e6e8eb));
    --je-gutter-fg: var(--editor-gutter-fg, var(--muted, #9aa1ac));
    --je-border: var(--editor-border, var(--border, #3a3f47));
    --je-accent: var(--editor-accent, var(--accent, #8fb0ff));
    --je-active-line: var(--editor-active-line, rgba(255, 255, 255, 0.05));
    --je-bracket: var(--editor-bracket, rgba(143, 176, 255, 0.28));
    --je-touched: var(--editor-touched, rgba(143, 176, 255, 0.14));
    --je-error: var(--editor-error, var(--violation, #ff6b63));
    --je-error-bg: var(--editor-error-bg, var(--error-bg, #3a1d1f));
    --je-error-fg: var(--editor-error-fg, var(--error-text, #ffc9c9));
    --je-error-border: var(--editor-error-border, var(--error-border, #7a3a3e));
    --je-keyword: var(--editor-keyword, #d291e4);
    --je-string: var(--editor-string, #98c379);
    --je-number: var(--editor-number, #e5a85c);
    --je-comment: var(--editor-comment, #8b929c);
    --je-function: var(--editor-function, #7fb4ff);
    --je-property: var(--editor-property, #7dcfe0);
    --je-definition: var(--editor-definition, #e6e8eb);
    --je-operator: var(--editor-operator, #b8bec7);
    --je-regexp: var(--editor-regexp, #f59e68);
    --je-atom: var(--editor-atom, #ff8a80);
  }
}
`;

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--je-fg)', backgroundColor: 'var(--je-bg)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--je-font)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--je-fg)' },
  '.cm-cursor': { borderLeftColor: 'var(--je-fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--je-gutter-bg)',
    color: 'var(--je-gutter-fg)',
    borderRight: '1px solid var(--je-border)',
  },
  '.cm-activeLineGutter': { backgroundColor: 'var(--je-active-line)', color: 'var(--je-fg)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--je-bracket)', outline: '1px solid var(--je-accent)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--je-bracket)' },
  '.je-touched': { backgroundColor: 'var(--je-touched)' },
  '.je-awaited': { boxShadow: 'inset 3px 0 var(--je-accent)' },
  '.je-cursors': { marginLeft: '0.6em' },
  '.je-who, .je-more': {
    fontSize: '0.85em', borderRadius: '8px', padding: '0 0.35em', marginRight: '0.2em',
    backgroundColor: 'var(--je-accent)', color: 'var(--je-bg)',
  },
  '.je-who.je-involved': { backgroundColor: 'var(--je-error)' },
  '.je-more': { backgroundColor: 'transparent', color: 'var(--je-gutter-fg)' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'var(--je-error-bg)', outline: '1px solid var(--je-error)' },
  '.cm-js-error-line': { backgroundColor: 'var(--je-error-bg)' },
  '.cm-js-error': {
    textDecoration: 'underline wavy var(--je-error)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
  // The completion popup (and any tooltip): the editor's own colours, so it
  // reads in light and dark; the chosen option in the accent colour.
  '.cm-tooltip': {
    backgroundColor: 'var(--je-bg)',
    color: 'var(--je-fg)',
    border: '1px solid var(--je-border)',
    borderRadius: '4px',
    boxShadow: '0 2px 8px rgba(0, 0, 0, 0.18)',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--je-font)', maxHeight: '14em' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li': { padding: '1px 6px' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--je-accent)',
    color: 'var(--je-bg)',
  },
  '.cm-completionDetail': { color: 'var(--je-gutter-fg)', marginLeft: '1em' },
  'li[aria-selected] .cm-completionDetail': { color: 'inherit', opacity: '0.85' },
  '.cm-completionMatchedText': { textDecoration: 'none', fontWeight: 'bold' },
  '.cm-js-error-msg': {
    margin: '2px 0 4px',
    padding: '2px 8px',
    borderLeft: '3px solid var(--je-error)',
    backgroundColor: 'var(--je-error-bg)',
    color: 'var(--je-error-fg)',
    fontFamily: 'var(--je-font)',
    whiteSpace: 'pre-wrap',
  },
});

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.definitionKeyword, t.operatorKeyword], color: 'var(--je-keyword)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--je-string)' },
  { tag: t.regexp, color: 'var(--je-regexp)' },
  { tag: t.number, color: 'var(--je-number)' },
  { tag: [t.bool, t.null, t.atom, t.self], color: 'var(--je-atom)' },
  { tag: [t.lineComment, t.blockComment, t.comment], color: 'var(--je-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--je-function)' },
  { tag: t.propertyName, color: 'var(--je-property)' },
  { tag: t.definition(t.variableName), color: 'var(--je-definition)', fontWeight: 'bold' },
  { tag: [t.operator, t.punctuation, t.bracket], color: 'var(--je-operator)' },
  { tag: t.invalid, color: 'var(--je-error)' },
]);

// --- the error: an underline on the token and a message box under its line ---

class MessageWidget extends WidgetType {
  constructor(text) {
    super();
    this.text = text;
  }
  eq(other) {
    return other.text === this.text;
  }
  toDOM() {
    const box = document.createElement('div');
    box.className = 'cm-js-error-msg';
    box.setAttribute('role', 'alert');
    box.textContent = this.text;
    return box;
  }
  ignoreEvent() {
    return false;
  }
}

/** "LINE:COLUMN:MESSAGE" as { line, col, message }; null for none. */
function parseError(text) {
  if (text == null || text === '') return null;
  const m = /^(\d+):(\d+):([\s\S]*)$/.exec(text);
  if (!m) return { line: 1, col: 0, message: text };
  return { line: Number(m[1]), col: Number(m[2]), message: m[3] };
}

/** The decorations for `spec` in `doc`. Line and column are clamped to the
 * document; col 0 (unparseable error) underlines nothing. */
function errorDecorations(doc, spec) {
  if (!spec) return Decoration.none;
  const line = doc.line(Math.min(Math.max(spec.line, 1), doc.lines));
  const ranges = [Decoration.line({ class: 'cm-js-error-line' }).range(line.from)];
  if (spec.col > 0 && line.length > 0) {
    let from = line.from + Math.min(spec.col - 1, line.length);
    if (from === line.to) from -= 1; // past the end: mark the last character
    let to = from;
    const text = line.text;
    const word = /[\w$]/;
    while (to < line.to && word.test(text[to - line.from])) to += 1;
    if (to === from) to = from + 1; // not in a word: mark one character
    ranges.push(Decoration.mark({ class: 'cm-js-error' }).range(from, to));
  }
  ranges.push(Decoration.widget({ widget: new MessageWidget(spec.message), block: true, side: 1 }).range(line.to));
  return Decoration.set(ranges, true);
}

const setError = StateEffect.define();

const errorField = StateField.define({
  create: () => ({ spec: null, deco: Decoration.none }),
  update(value, tr) {
    let { spec, deco } = value;
    // An edit moves the error along with the text it was on.
    if (tr.docChanged) deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setError)) {
        spec = e.value;
        deco = errorDecorations(tr.state.doc, spec);
      }
    }
    return deco === value.deco && spec === value.spec ? value : { spec, deco };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

// --- the run's marks: each request's cursor on the line it awaits, and the
// lines the last step ran through (the page's code pane) ---

class CursorsWidget extends WidgetType {
  constructor(mark) {
    super();
    this.mark = mark;
  }
  eq(other) {
    return JSON.stringify(other.mark) === JSON.stringify(this.mark);
  }
  toDOM() {
    const box = document.createElement('span');
    box.className = 'je-cursors';
    box.title = `${this.mark.count} request(s) await this line`;
    for (const [request, involved] of this.mark.who) {
      const who = document.createElement('span');
      who.className = involved ? 'je-who je-involved' : 'je-who';
      who.textContent = `#${request}`;
      box.append(who);
    }
    if (this.mark.count > this.mark.who.length) {
      const more = document.createElement('span');
      more.className = 'je-more';
      more.textContent = `+${this.mark.count - this.mark.who.length}`;
      box.append(more);
    }
    return box;
  }
}

/** The `marks` attribute: [{ line, touched, count, who: [[request, involved]] }]. */
function parseMarks(text) {
  try {
    const marks = JSON.parse(text ?? '[]');
    return Array.isArray(marks) ? marks : [];
  } catch {
    return [];
  }
}

/** Line classes for the touched and awaited lines, badges at their ends. */
function markDecorations(doc, marks) {
  const ranges = [];
  for (const mark of marks) {
    if (!(mark.line >= 1 && mark.line <= doc.lines)) continue;
    const line = doc.line(mark.line);
    const classes = [mark.touched ? 'je-touched' : '', mark.count > 0 ? 'je-awaited' : ''].join(' ').trim();
    if (classes) ranges.push(Decoration.line({ class: classes }).range(line.from));
    if (mark.count > 0) ranges.push(Decoration.widget({ widget: new CursorsWidget(mark), side: 1 }).range(line.to));
  }
  return Decoration.set(ranges, true);
}

const setMarks = StateEffect.define();

const marksField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    // An edit moves the marks with their lines until the next run's arrive.
    if (tr.docChanged) deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setMarks)) deco = markDecorations(tr.state.doc, e.value);
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// --- the element ---

class JsEditor extends HTMLElement {
  static get observedAttributes() {
    return ['value', 'error', 'readonly', 'marks'];
  }

  constructor() {
    super();
    this._timer = null;
    this._readOnly = new Compartment();
    this._history = new Compartment();
    // Until the editor is built (`_build`), the text shows plain and
    // `value` reads and writes `_text`.
    this.view = null;
    this._text = '';
    // A new document set on the built editor, applied in a task of its own
    // (`_apply`); `value` reads it until then.
    this._pending = null;
    this._applying = null;
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(HOST_CSS);
    root.adoptedStyleSheets = [sheet];
    this._plain = document.createElement('pre');
    this._plain.className = 'je-plain';
    root.append(this._plain);
    // A `value` set on the element before this script defined it is an own
    // property that hides the setter: take it out and apply it.
    if (Object.prototype.hasOwnProperty.call(this, 'value')) {
      const v = this.value;
      delete this.value;
      this.value = v;
    }
    setTimeout(() => this._build(), 0);
  }

  /** Builds the editor in two tasks of its own, after the one that made the
   * element (a page's first draw). CodeMirror's first view costs tens of
   * milliseconds of first-time compiling, and its first document (parse,
   * highlight, DOM) as much again: together with the page's own start,
   * one task would be long enough to freeze the page. */
  _build() {
    const view = new EditorView({ root: this.shadowRoot, state: this._state('') });
    setTimeout(() => {
      view.setState(this._state(this._text));
      this._plain.replaceWith(view.dom);
      this._plain = null;
      this.view = view;
    }, 0);
  }

  /** A fresh state for `doc`: no history, the current readonly and error;
   * the cursor at `anchor`. */
  _state(doc, anchor = 0) {
    const readOnly = this.hasAttribute('readonly');
    const state = EditorState.create({
      doc,
      selection: { anchor },
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        this._history.of(history()),
        indentOnInput(),
        bracketMatching(),
        javascriptLanguage,
        syntaxHighlighting(highlight),
        completion,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        errorField,
        marksField,
        theme,
        this._readOnly.of(readOnlyExtensions(readOnly)),
        // tabindex: axe counts the scroller's content as focusable (it is, as
        // contenteditable), so the scroll region is reachable by keyboard.
        EditorView.contentAttributes.of({ 'aria-label': 'JavaScript code', tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          // Not the text set from outside (`_apply`): only the person's edits.
          const set = update.transactions.some((tr) => tr.annotation(Transaction.remote));
          if (update.docChanged && !set) this._schedule();
        }),
        EditorView.domEventHandlers({
          blur: () => {
            this._flush();
          },
        }),
      ],
    });
    return state.update({ effects: this._attributeEffects() }).state;
  }

  /** The `error` and `marks` attributes as they are now, as effects. */
  _attributeEffects() {
    return [setError.of(parseError(this.getAttribute('error'))), setMarks.of(parseMarks(this.getAttribute('marks')))];
  }

  get value() {
    if (this._pending !== null) return this._pending;
    return this.view ? this.view.state.doc.toString() : this._text;
  }

  set value(v) {
    this._setText(v, false);
  }

  /** Sets the text: at once, or (`later`, for the `value` attribute) in a
   * task of its own, when the editor is built. The attribute changes in
   * the page's draw of another script, and a new document (its parse,
   * highlighting and DOM) is tens of milliseconds that would make that
   * task long; `value` reads the pending text until then. */
  _setText(v, later) {
    const text = v == null ? '' : String(v);
    if (!this.view) {
      this._text = text;
      this._plain.textContent = text;
      return;
    }
    if (text === this.value) return;
    this._cancel();
    this._pending = text;
    if (!later) this._apply();
    else if (this._applying === null) this._applying = setTimeout(() => this._apply(true), 0);
  }

  /** The pending document, with the current `error`, `marks` and
   * `readonly`, as a fresh state: not an edit, so the history goes and
   * undo cannot bring the old text back; the cursor stays where it was, as
   * far as the text goes. From the `value` attribute (`later`) the state
   * is made in one task and the view takes it in the next: as one
   * transaction on the view, a new document (its parse, highlighting and
   * DOM) took 22 to 27 ms of first-time work, and twice that on a busy
   * machine, in the task of a page's switch to another script. */
  _apply(later = false) {
    clearTimeout(this._applying);
    this._applying = null;
    const text = this._pending;
    if (text === null) return;
    if (text === this.view.state.doc.toString()) {
      this._pending = null;
      return;
    }
    const state = this._state(text, Math.min(this.view.state.selection.main.head, text.length));
    const take = () => {
      this._applying = null;
      // A newer text came meanwhile: that one goes in instead.
      if (this._pending !== text) {
        this._apply(later);
        return;
      }
      this._pending = null;
      this.view.setState(state);
      // What changed while the state waited.
      this.view.dispatch({
        effects: [
          ...this._attributeEffects(),
          this._readOnly.reconfigure(readOnlyExtensions(this.hasAttribute('readonly'))),
        ],
      });
    };
    if (later) this._applying = setTimeout(take, 0);
    else take();
  }

  attributeChangedCallback(name, _old, now) {
    if (name === 'value') {
      if (now !== null) this._setText(now, true);
    } else if (!this.view || this._pending !== null) {
      // The editor, once built or given its pending document, reads
      // `error`, `marks` and `readonly` then.
    } else if (name === 'error') {
      this.view.dispatch({ effects: setError.of(parseError(now)) });
    } else if (name === 'marks') {
      this.view.dispatch({ effects: setMarks.of(parseMarks(now)) });
    } else if (name === 'readonly') {
      this.view.dispatch({ effects: this._readOnly.reconfigure(readOnlyExtensions(now !== null)) });
    }
  }

  _schedule() {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => this._flush(), DEBOUNCE_MS);
  }

  _cancel() {
    clearTimeout(this._timer);
    this._timer = null;
  }

  _flush() {
    if (this._timer === null) return;
    this._cancel();
    this.dispatchEvent(
      new CustomEvent('code-change', { bubbles: true, composed: true, detail: { code: this.value } }),
    );
  }
}

function readOnlyExtensions(on) {
  return on ? [EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-readonly': 'true' })] : [];
}

if (!customElements.get('js-editor')) customElements.define('js-editor', JsEditor);

export { JsEditor };
