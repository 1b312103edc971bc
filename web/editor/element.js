// <js-editor>: the element, light. The entry of the editor's bundle
// (scripts/build-editor.sh): it imports nothing from CodeMirror.
//
// A new editor shows its code as a plain view of its own: line numbers,
// a light highlighting, the run's marks (the cursors, the lines the last
// step ran) and the error under its line. CodeMirror (./editor.js) loads
// and replaces it only when the person reaches for the code: a pointer
// over it starts the download, and a click or the keyboard's focus builds
// the editor and hands it the focus, at the place clicked. Loaded with
// the page, CodeMirror's chunks and first build were the long tasks of a
// script link's first second (docs/debugger.md), while the person only
// reads. The `eager` attribute builds it at once (the tests).
//
// The API is the same before and after (README.md): `value`, `error`,
// `marks`, `readonly`, `code-change` and `view` (null until CodeMirror is
// built).

/** The host's sheet: the custom properties the theme reads, light and
 * dark, and the plain view. */
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
  padding: 4px 0;
  font-family: var(--je-font);
  line-height: 1.5;
  color: var(--je-fg);
  white-space: pre;
  overflow-x: auto;
  cursor: text;
  outline: none;
}
.je-row { display: flex; }
/* As wide as CodeMirror's gutter, so the code does not move when it takes
   over: its widest number (--je-digits, set by _render), and padding. */
.je-num {
  flex: none;
  box-sizing: content-box;
  min-width: 12px;
  width: calc(var(--je-digits, 2) * 1ch);
  padding: 0 3px 0 5px;
  text-align: right;
  color: var(--je-gutter-fg);
  background: var(--je-gutter-bg);
  border-right: 1px solid var(--je-border);
  user-select: none;
}
.je-code { padding: 0 2px 0 6px; }
.je-touched { background: var(--je-touched); }
.je-awaited > .je-code { box-shadow: inset 3px 0 var(--je-accent); }
.je-cursors { margin-left: 0.6em; }
.je-who, .je-more {
  font-size: 0.85em; border-radius: 8px; padding: 0 0.35em; margin-right: 0.2em;
  background: var(--je-accent); color: var(--je-bg);
}
.je-who.je-involved { background: var(--je-error); }
.je-more { background: transparent; color: var(--je-gutter-fg); }
.je-error-line { background: var(--je-error-bg); }
.je-error-word { text-decoration: underline wavy var(--je-error); text-decoration-skip-ink: none; text-underline-offset: 3px; }
.je-msg {
  margin: 2px 0 4px calc(var(--je-digits, 2) * 1ch + 9px);
  padding: 2px 8px;
  border-left: 3px solid var(--je-error);
  background: var(--je-error-bg);
  color: var(--je-error-fg);
  white-space: pre-wrap;
}
.je-k { color: var(--je-keyword); }
.je-s { color: var(--je-string); }
.je-n { color: var(--je-number); }
.je-c { color: var(--je-comment); font-style: italic; }
.je-f { color: var(--je-function); }
.je-p { color: var(--je-property); }
.je-a { color: var(--je-atom); }
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

/** CodeMirror and the editor built on it (./editor.js), loaded once: what
 * it takes from CodeMirror in stages (./stages/), each a chunk of its own
 * evaluated in a task of its own, in the order they depend on each other
 * (as one module they held the page's thread for 50 to 120 ms at once). */
let codeMirror = null;
function loadCodeMirror() {
  codeMirror ??= (async () => {
    await import('./stages/state.js');
    await import('./stages/view.js');
    await import('./stages/highlight.js');
    await import('./stages/language.js');
    await import('./stages/commands.js');
    await import('./stages/autocomplete.js');
    await import('./stages/javascript.js');
    return (await import('./editor.js')).Editor;
  })();
  // A load that failed (the network) is tried again next time.
  codeMirror.catch(() => {
    codeMirror = null;
  });
  return codeMirror;
}

/** "LINE:COLUMN:MESSAGE" as { line, col, message }; null for none. */
export function parseError(text) {
  if (text == null || text === '') return null;
  const m = /^(\d+):(\d+):([\s\S]*)$/.exec(text);
  if (!m) return { line: 1, col: 0, message: text };
  return { line: Number(m[1]), col: Number(m[2]), message: m[3] };
}

/** The `marks` attribute: [{ line, touched, count, who: [[request, involved]] }]. */
export function parseMarks(text) {
  try {
    const marks = JSON.parse(text ?? '[]');
    return Array.isArray(marks) ? marks : [];
  } catch {
    return [];
  }
}

/** The badges of a line's cursors: each request that awaits it, and how
 * many more. */
export function cursorBadges(mark) {
  const box = document.createElement('span');
  box.className = 'je-cursors';
  box.title = `${mark.count} request(s) await this line`;
  for (const [request, involved] of mark.who ?? []) {
    const who = document.createElement('span');
    who.className = involved ? 'je-who je-involved' : 'je-who';
    who.textContent = `#${request}`;
    box.append(who);
  }
  if (mark.count > (mark.who ?? []).length) {
    const more = document.createElement('span');
    more.className = 'je-more';
    more.textContent = `+${mark.count - mark.who.length}`;
    box.append(more);
  }
  return box;
}

/** The `[from, to)` columns (0-based) an error at `col` (1-based) marks on
 * a line of `text`: the word there, or one character; none for col 0. */
export function errorRange(text, col) {
  if (!(col > 0) || text.length === 0) return null;
  let from = Math.min(col - 1, text.length);
  if (from === text.length) from -= 1;
  let to = from;
  while (to < text.length && /[\w$]/.test(text[to])) to += 1;
  if (to === from) to = from + 1;
  return [from, to];
}

const KEYWORDS = new Set(
  ('async await break case catch class const continue debugger default delete do else export extends ' +
    'finally for from function if import in instanceof let new of return static super switch throw try ' +
    'typeof var void while with yield').split(' '),
);
const ATOMS = new Set(['true', 'false', 'null', 'undefined', 'this', 'NaN', 'Infinity']);

/** The plain view's highlighting of one line: [class, text] pieces, and
 * the state the next line starts in (inside a block comment or a
 * template). A light tokenizer, not a parser: CodeMirror's own takes over
 * once it is built. */
function highlightLine(line, state) {
  const pieces = [];
  let at = 0;
  const push = (cls, end) => {
    if (end > at) pieces.push([cls, line.slice(at, end)]);
    at = end;
  };
  const close = (end) => {
    const found = line.indexOf(end, at);
    return found < 0 ? -1 : found + end.length;
  };
  if (state === 'comment' || state === 'template') {
    const end = state === 'comment' ? close('*/') : close('`');
    if (end < 0) {
      push(state === 'comment' ? 'je-c' : 'je-s', line.length);
      return [pieces, state];
    }
    push(state === 'comment' ? 'je-c' : 'je-s', end);
  }
  let previous = '';
  while (at < line.length) {
    const rest = line.slice(at);
    let m;
    if (rest.startsWith('//')) {
      push('je-c', line.length);
    } else if (rest.startsWith('/*')) {
      at += 2;
      const end = close('*/');
      at -= 2;
      if (end < 0) {
        push('je-c', line.length);
        return [pieces, 'comment'];
      }
      push('je-c', end);
    } else if (rest[0] === '`') {
      at += 1;
      const end = close('`');
      at -= 1;
      if (end < 0) {
        push('je-s', line.length);
        return [pieces, 'template'];
      }
      push('je-s', end);
    } else if ((m = /^(["'])(?:\\.|(?!\1).)*\1?/.exec(rest))) {
      push('je-s', at + m[0].length);
    } else if ((m = /^\d[\w.]*/.exec(rest))) {
      push('je-n', at + m[0].length);
    } else if ((m = /^[A-Za-z_$][\w$]*/.exec(rest))) {
      const word = m[0];
      const after = line.slice(at + word.length).trimStart();
      let cls = '';
      if (previous === '.') cls = after.startsWith('(') ? 'je-f' : 'je-p';
      else if (KEYWORDS.has(word)) cls = 'je-k';
      else if (ATOMS.has(word)) cls = 'je-a';
      else if (after.startsWith('(')) cls = 'je-f';
      push(cls, at + word.length);
    } else {
      push('', at + 1);
    }
    const last = pieces[pieces.length - 1]?.[1].trim();
    if (last) previous = last[last.length - 1];
  }
  return [pieces, null];
}

/** Puts a line's highlighted `pieces` in `code`, the columns of `range`
 * (if any) underlined as the error's. */
function fill(code, pieces, range) {
  const nodes = [];
  let at = 0;
  for (const [cls, text] of pieces) {
    const end = at + text.length;
    // The piece in up to three parts: before, in and after the range.
    const cuts = range ? [at, Math.min(Math.max(range[0], at), end), Math.min(Math.max(range[1], at), end), end] : [at, end];
    for (let i = 0; i + 1 < cuts.length; i++) {
      if (cuts[i + 1] <= cuts[i]) continue;
      const part = text.slice(cuts[i] - at, cuts[i + 1] - at);
      const underlined = range && i === 1;
      if (!cls && !underlined) {
        nodes.push(part);
        continue;
      }
      const span = document.createElement('span');
      span.className = [cls, underlined ? 'je-error-word' : ''].join(' ').trim();
      span.textContent = part;
      nodes.push(span);
    }
    at = end;
  }
  code.replaceChildren(...nodes);
}

/** The most lines the plain view draws (see `_render`). */
const PLAIN_LINES = 1000;

/** Keys besides characters that the plain view keeps for the editor. */
const EDITING_KEYS = new Set([
  'Enter', 'Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown',
  'Home', 'End', 'PageUp', 'PageDown',
]);

class JsEditor extends HTMLElement {
  static get observedAttributes() {
    return ['value', 'error', 'readonly', 'marks'];
  }

  constructor() {
    super();
    // The text while the view is plain; CodeMirror's, once built.
    this._text = '';
    this._editor = null;
    this._building = null;
    const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(HOST_CSS);
    root.adoptedStyleSheets = [sheet];
    this._plain = document.createElement('div');
    this._plain.className = 'je-plain';
    this._plain.tabIndex = 0;
    this._plain.setAttribute('role', 'textbox');
    this._plain.setAttribute('aria-multiline', 'true');
    this._plain.setAttribute('aria-label', 'JavaScript code');
    root.append(this._plain);
    this._rows = [];
    // The person reaches for the code: the pointer over it fetches
    // CodeMirror, a click or the focus builds it.
    this._plain.addEventListener('pointerover', () => loadCodeMirror().catch(() => {}), { once: true });
    this._plain.addEventListener('pointerdown', (event) => this._edit(this._placeAt(event)));
    this._plain.addEventListener('focus', () => this._edit(null));
    // What the person types before the editor is built goes in once it
    // is: characters, and the keys that edit or move the caret, as the
    // editor would have taken them (`Editor.replay`). Tab still leaves the
    // code, and shortcuts with Ctrl, Alt or Meta stay the browser's.
    this._typed = [];
    this._plain.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || this.hasAttribute('readonly')) return;
      if (event.key.length !== 1 && !EDITING_KEYS.has(event.key)) return;
      this._typed.push({ key: event.key, code: event.code, shiftKey: event.shiftKey });
      event.preventDefault();
      this._edit(null);
    });
    // A `value` set on the element before this script defined it is an own
    // property that hides the setter: take it out and apply it.
    if (Object.prototype.hasOwnProperty.call(this, 'value')) {
      const v = this.value;
      delete this.value;
      this.value = v;
    }
  }

  connectedCallback() {
    if (this.hasAttribute('eager')) this.edit();
  }

  /** The CodeMirror `EditorView`; null until it is built. */
  get view() {
    return this._editor?.view ?? null;
  }

  /** Builds CodeMirror now (it otherwise waits for the person); resolves
   * once it has replaced the plain view. */
  edit() {
    return this._edit(null);
  }

  _edit(at) {
    if (this._at === undefined || at) this._at = at;
    if (this._failed) {
      this._failed = null;
      this._decorate();
    }
    this._building ??= loadCodeMirror()
      .then((Editor) => Editor.build(this, () => this._text))
      .then((editor) => {
        const focused = this.shadowRoot.activeElement === this._plain;
        this._plain.replaceWith(editor.view.dom);
        this._plain = null;
        this._rows = [];
        this._editor = editor;
        // The focus goes where the person put it: into the code, at the
        // place clicked.
        if (focused) {
          const doc = editor.view.state.doc;
          if (this._at && this._at.line < doc.lines) {
            const line = doc.line(this._at.line + 1);
            editor.view.dispatch({ selection: { anchor: line.from + Math.min(this._at.column, line.length) } });
          }
          editor.view.focus();
          editor.replay(this._typed);
        }
        this._typed = [];
      })
      .catch((error) => {
        // Said where the person is looking; a click tries again.
        this._building = null;
        this._failed = `The code editor did not load (${error?.message ?? error}): click the code to try again.`;
        this._decorate();
      });
    return this._building;
  }

  /** Where a pointer event on the plain view is in the text: its line
   * (0-based) and column, the line's end right of its text. */
  _placeAt(event) {
    const index = this._rows.findIndex(({ row }) => row.contains(event.target));
    if (index < 0) return null;
    const { code, line } = this._rows[index];
    let column = code.contains(event.target) ? line.length : 0;
    const caret = document.caretPositionFromPoint?.(event.clientX, event.clientY, { shadowRoots: [this.shadowRoot] });
    if (caret && caret.offsetNode.nodeType === Node.TEXT_NODE && code.contains(caret.offsetNode)) {
      column = 0;
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && node !== caret.offsetNode; node = walker.nextNode()) {
        column += node.length;
      }
      column += caret.offset;
    }
    return { line: index, column };
  }

  get value() {
    return this._editor ? this._editor.value : this._text;
  }

  set value(v) {
    const text = v == null ? '' : String(v);
    if (this._editor) this._editor.setText(text, false);
    else this._setPlain(text);
  }

  attributeChangedCallback(name, _old, now) {
    if (this._editor) {
      this._editor.attributeChanged(name, now);
    } else if (name === 'value') {
      if (now !== null) this._setPlain(now);
    } else if (name === 'marks' || name === 'error') {
      this._decorate();
    } else if (name === 'readonly') {
      if (now === null) this._plain?.removeAttribute('aria-readonly');
      else this._plain?.setAttribute('aria-readonly', 'true');
    }
  }

  _setPlain(text) {
    if (text === this._text && this._rows.length) return;
    this._text = text;
    this._render();
  }

  /** The plain view of the text: a row a line, highlighted. A long text
   * shows its first `PLAIN_LINES` and builds CodeMirror at once, which
   * draws only the lines in view. */
  _render() {
    if (!this._plain) return;
    let state = null;
    const lines = this._text.split('\n');
    if (lines.length > PLAIN_LINES) {
      lines.length = PLAIN_LINES;
      this.edit();
    }
    this._rows = lines.map((line, i) => {
      const row = document.createElement('div');
      row.className = 'je-row';
      const number = document.createElement('span');
      number.className = 'je-num';
      number.textContent = String(i + 1);
      const code = document.createElement('span');
      code.className = 'je-code';
      let pieces;
      [pieces, state] = highlightLine(line, state);
      fill(code, pieces, null);
      row.append(number, code);
      return { row, code, line, pieces };
    });
    this._plain.replaceChildren(...this._rows.map((r) => r.row));
    this._plain.style.setProperty('--je-digits', String(String(this._rows.length).length));
    this._decorate();
  }

  /** The marks and the error on the plain view. */
  _decorate() {
    if (!this._plain || !this._rows.length) return;
    for (const old of this._plain.querySelectorAll('.je-cursors, .je-msg')) old.remove();
    if (this._failed) {
      const failed = document.createElement('div');
      failed.className = 'je-msg';
      failed.setAttribute('role', 'alert');
      failed.textContent = this._failed;
      this._plain.prepend(failed);
    }
    for (const { row } of this._rows) row.className = 'je-row';
    if (this._underlined) {
      fill(this._underlined.code, this._underlined.pieces, null);
      this._underlined = null;
    }
    const lines = this._rows.length;
    for (const mark of parseMarks(this.getAttribute('marks'))) {
      if (!(mark.line >= 1 && mark.line <= lines)) continue;
      const { row } = this._rows[mark.line - 1];
      if (mark.touched) row.classList.add('je-touched');
      if (mark.count > 0) {
        row.classList.add('je-awaited');
        row.append(cursorBadges(mark));
      }
    }
    const error = parseError(this.getAttribute('error'));
    if (error) {
      const marked = this._rows[Math.min(Math.max(error.line, 1), lines) - 1];
      const { row, code, line, pieces } = marked;
      row.classList.add('je-error-line');
      const range = errorRange(line, error.col);
      if (range) {
        this._underlined = marked;
        fill(code, pieces, range);
      }
      const message = document.createElement('div');
      message.className = 'je-msg';
      message.setAttribute('role', 'alert');
      message.textContent = error.message;
      row.after(message);
    }
  }
}

if (!customElements.get('js-editor')) customElements.define('js-editor', JsEditor);

export { JsEditor };
