// <js-editor>'s CodeMirror 6 editor: what replaces the element's plain view
// (./element.js) once the person reaches for the code, or at once with
// `eager`. Bundled by scripts/build-editor.sh into web/editor/dist/; the
// element loads CodeMirror's packages one task at a time (./stages/), then
// this module. The page talks to the element only through attributes,
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
//   view      the CodeMirror EditorView (tests); null until it is built.
//   code-change  CustomEvent (bubbles, composed), detail { code }, fired
//             400 ms after the last edit, or at once when the editor loses
//             focus with an edit still pending. Never fired for `value`.
//
// Styling and the Content Security Policy: the editor lives in a shadow root.
// CodeMirror's style-mod then installs its rules as a constructable
// stylesheet (shadowRoot.adoptedStyleSheets) instead of a <style> element,
// and `style-src 'self'` does not block constructable stylesheets (checked in
// headless Chromium by e2e/editor.mjs). Colours come from the custom
// properties of the element's sheet (./element.js).

import { Compartment, EditorState, StateEffect, StateField, Transaction } from './stages/state.js';
import {
  Decoration,
  EditorView,
  WidgetType,
  keymap,
  lineNumbers,
  highlightActiveLineGutter,
  runScopeHandlers,
} from './stages/view.js';
import { defaultKeymap, history, historyKeymap, indentWithTab } from './stages/commands.js';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from './stages/language.js';
import { javascriptLanguage } from './stages/javascript.js';
import { tags as t } from './stages/highlight.js';
import { completion } from './complete.js';
import { cursorBadges, errorRange, parseError, parseMarks } from './element.js';

const DEBOUNCE_MS = 400;

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

/** The decorations for `spec` in `doc`. Line and column are clamped to the
 * document; col 0 (unparseable error) underlines nothing. */
function errorDecorations(doc, spec) {
  if (!spec) return Decoration.none;
  const line = doc.line(Math.min(Math.max(spec.line, 1), doc.lines));
  const ranges = [Decoration.line({ class: 'cm-js-error-line' }).range(line.from)];
  const range = errorRange(line.text, spec.col);
  if (range) ranges.push(Decoration.mark({ class: 'cm-js-error' }).range(line.from + range[0], line.from + range[1]));
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
    return cursorBadges(this.mark);
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

// --- the editor, in the element's shadow root ---

/** The CodeMirror editor of a `<js-editor>` (`host`), which the element
 * hands its `value`, its attribute changes and its place once built. */
export class Editor {
  /** Builds the editor of `host` in two tasks of its own: CodeMirror's
   * first view costs tens of milliseconds of first-time compiling, and its
   * first document (parse, highlight, DOM) as much again. Resolves with the
   * editor, its view holding `text()` as it is then; the element puts the
   * view in its place. */
  static build(host, text) {
    return new Promise((done) => {
      setTimeout(() => {
        const editor = new Editor(host);
        const view = new EditorView({ root: host.shadowRoot, state: editor._state('') });
        setTimeout(() => {
          view.setState(editor._state(text()));
          editor.view = view;
          done(editor);
        }, 0);
      }, 0);
    });
  }

  /** Plays the keys typed before the editor was built (`{ key, code,
   * shiftKey }`, in order): characters go in at the caret, as typing
   * puts them; the other keys run the editor's keymap, as pressing them
   * in it does. */
  replay(keys) {
    const view = this.view;
    let text = '';
    const typeText = () => {
      if (text) view.dispatch(view.state.replaceSelection(text), { userEvent: 'input.type' });
      text = '';
    };
    for (const key of keys) {
      if (key.key.length === 1) {
        text += key.key;
        continue;
      }
      typeText();
      runScopeHandlers(view, new KeyboardEvent('keydown', key), 'editor');
    }
    typeText();
  }

  constructor(host) {
    this.host = host;
    this._timer = null;
    this._readOnly = new Compartment();
    this._history = new Compartment();
    this.view = null;
    // A new document set from outside, applied in a task of its own
    // (`_apply`); `value` reads it until then.
    this._pending = null;
    this._applying = null;
  }

  /** A fresh state for `doc`: no history, the current readonly and error;
   * the cursor at `anchor`. */
  _state(doc, anchor = 0) {
    const readOnly = this.host.hasAttribute('readonly');
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
    const host = this.host;
    return [setError.of(parseError(host.getAttribute('error'))), setMarks.of(parseMarks(host.getAttribute('marks')))];
  }

  get value() {
    if (this._pending !== null) return this._pending;
    return this.view.state.doc.toString();
  }

  /** Sets the text: at once, or (`later`, for the `value` attribute) in a
   * task of its own. The attribute changes in the page's draw of another
   * script, and a new document (its parse, highlighting and DOM) is tens
   * of milliseconds that would make that task long; `value` reads the
   * pending text until then. */
  setText(text, later) {
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
          this._readOnly.reconfigure(readOnlyExtensions(this.host.hasAttribute('readonly'))),
        ],
      });
    };
    if (later) this._applying = setTimeout(take, 0);
    else take();
  }

  /** The element's attribute `name` is now `now`. */
  attributeChanged(name, now) {
    if (name === 'value') {
      if (now !== null) this.setText(now, true);
    } else if (this._pending !== null) {
      // The pending document reads `error`, `marks` and `readonly` then.
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
    this.host.dispatchEvent(
      new CustomEvent('code-change', { bubbles: true, composed: true, detail: { code: this.value } }),
    );
  }
}

function readOnlyExtensions(on) {
  return on ? [EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-readonly': 'true' })] : [];
}
