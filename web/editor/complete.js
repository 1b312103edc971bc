// Completion for <js-editor>: the script engine's built-in modules, their
// named exports, its globals, and the methods of the common client objects.
//
// Everything it offers comes from completions.json, which
// tests/editor_modules.rs checks against the engine (src/script/run.rs's
// MODULES and GLOBALS, and the prelude's objects), so the two cannot drift:
//
//   modules   each built-in module: name, detail, named exports, and `node`
//             (true: offered as `node:NAME` too, as Node's own modules are).
//   globals   each global: name, detail, and `type` (its members below) or
//             `value` (the module export it is, e.g. EventEmitter).
//   types     an object type's members, "name(arguments)" or "name".
//   makes     "module.Export.path" -> the type that calling or `new` on it
//             makes ("pg.Pool" -> "pg.Pool", "redis.createClient" -> ...).
//   returns   type -> { method: type of what its (awaited) result is }.
//
// Where: inside the string of `require('…')`, `import … from '…'`,
// `import '…'` or `import('…')`: module names. Inside `import { … } from
// 'name'` or `const { … } = require('name')`: that module's exports. After
// `name.`: the members of what `name` is (a global, a module, or a variable
// bound to `new Pool(…)`, `createClient()`, `await pool.connect()`, …, found
// in the text). Elsewhere, outside strings and comments: local names (lang-
// javascript's own source), the globals and `handle`, `req` (each once: a
// name the script defines is its own), handler skeletons and keywords.

import { autocompletion } from './stages/autocomplete.js';
import { syntaxTree } from './stages/language.js';
import { completionPath, javascriptLanguage, localCompletionSource } from './stages/javascript.js';
import data from './completions.json';

const MODULES = new Map(data.modules.map((m) => [m.name, m]));
const GLOBALS = new Map(data.globals.map((g) => [g.name, g]));

/** A module name as written (`node:events`) to the table's (`events`). */
const moduleKey = (name) => {
  const key = name.replace(/^node:/, '');
  return MODULES.has(key) ? key : null;
};

// --- module names in strings ---

const moduleOptions = data.modules.flatMap((m) => {
  const option = { label: m.name, detail: m.detail, type: 'namespace' };
  return m.node ? [option, { label: `node:${m.name}`, detail: m.detail, type: 'namespace', boost: -1 }] : [option];
});

/** Is the String node `str` the module of an import, export or require? */
function isModuleString(state, str) {
  const parent = str.parent;
  if (!parent) return false;
  if (['ImportDeclaration', 'ExportDeclaration', 'DynamicImport'].includes(parent.name)) return true;
  if (parent.name !== 'ArgList' || str.prevSibling?.name !== '(') return false;
  const callee = parent.parent?.name === 'CallExpression' ? parent.parent.firstChild : null;
  return callee?.name === 'VariableName' && state.sliceDoc(callee.from, callee.to) === 'require';
}

function moduleNames(context) {
  const str = syntaxTree(context.state).resolveInner(context.pos, -1);
  if (str.name !== 'String' || !isModuleString(context.state, str)) return null;
  const from = str.from + 1;
  if (context.pos < from) return null;
  // The name is replaced whole, wherever the cursor is in it (not what
  // follows it in an unclosed string).
  const rest = /^(?:[\w@:.-]|\/(?=\w))*/.exec(context.state.sliceDoc(context.pos, str.to))[0];
  const to = context.pos + rest.length;
  const typed = context.state.sliceDoc(from, context.pos);
  if (!/^[\w@/:.-]*$/.test(typed)) return null;
  return { from, to, options: moduleOptions, validFor: /^[\w@/:.-]*$/ };
}

// --- named exports in `import { … } from` and `const { … } = require()` ---

const exportType = (name) => (/^[A-Z][A-Z_]+$/.test(name) ? 'constant' : /^[A-Z]/.test(name) ? 'class' : 'variable');

/** The module of an `import`/`export` group or a destructuring `require`. */
function groupModule(state, group) {
  if (group.name === 'ImportGroup' || group.name === 'ExportGroup') {
    const str = group.parent?.getChild('String');
    return str ? moduleKey(state.sliceDoc(str.from + 1, str.to - 1)) : undefined;
  }
  const after = state.sliceDoc(group.to, group.to + 200);
  const m = /^\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*(['"])([^'"\n]+)\1/.exec(after);
  return m ? moduleKey(m[2]) : null;
}

function importNames(context) {
  const { state, pos } = context;
  let node = syntaxTree(state).resolveInner(pos, -1);
  let word = null;
  if (['VariableDefinition', 'VariableName', 'PropertyName'].includes(node.name)) {
    word = node;
    // After `as` (`{ Mutex as M }`) or `:` (`{ Mutex: M }`): a new name.
    if (['as', ':'].includes(node.prevSibling?.name)) return null;
    node = node.parent;
    if (node?.name === 'PatternProperty') {
      if (node.firstChild?.from !== word.from) return null;
      node = node.parent;
    }
  }
  if (!node || !['ImportGroup', 'ExportGroup', 'ObjectPattern'].includes(node.name)) return null;
  if (node.name === 'ObjectPattern' && node.parent?.name !== 'VariableDeclaration') return null;
  const module = groupModule(state, node);
  if (module === null) return null;
  const from = word ? word.from : pos;
  // The names the braces already hold, but for the one being typed.
  const text = state.sliceDoc(node.from, from) + state.sliceDoc(word ? word.to : pos, node.to);
  const taken = new Set(text.match(/[\w$]+/g));
  // `import { X` with no `from` yet: every module's exports, each naming its module.
  const sources = module === undefined ? (node.name === 'ImportGroup' ? data.modules : []) : [MODULES.get(module)];
  const options = sources.flatMap((m) =>
    m.exports.filter((e) => !taken.has(e)).map((e) => ({ label: e, detail: m.name, type: exportType(e) })),
  );
  return options.length ? { from, options, validFor: /^[\w$]*$/ } : null;
}

// --- members after `name.` ---

const escapeRe = (s) => s.replace(/[$]/g, '\\$');

/** The names the text binds to a module or to one of its exports:
 * name -> "module" or "module.Export.path". */
function moduleBindings(text) {
  const out = new Map();
  const imports = /\bimport\s+(?:([\w$]+)\s*,?\s*)?(?:\*\s*as\s+([\w$]+)\s*)?(?:\{([^}]*)\}\s*)?from\s*(['"])([^'"\n]+)\4/g;
  for (const m of text.matchAll(imports)) {
    const module = moduleKey(m[5]);
    if (!module) continue;
    if (m[1]) out.set(m[1], module);
    if (m[2]) out.set(m[2], module);
    for (const spec of (m[3] ?? '').split(',')) {
      const s = /^\s*([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(spec);
      if (s) out.set(s[2] ?? s[1], `${module}.${s[1]}`);
    }
  }
  const requires =
    /\b(?:const|let|var)\s+(?:([\w$]+)|\{([^}]*)\})\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*(['"])([^'"\n]+)\3\s*\)((?:\s*\.\s*[\w$]+)*)(?!\s*[(.\w$])/g;
  for (const m of text.matchAll(requires)) {
    const module = moduleKey(m[4]);
    if (!module) continue;
    const path = module + m[5].replace(/\s/g, '');
    if (m[1]) out.set(m[1], path);
    for (const spec of (m[2] ?? '').split(',')) {
      const s = /^\s*([\w$]+)(?:\s*:\s*([\w$]+))?\s*(?:=.*)?$/.exec(spec);
      if (s) out.set(s[2] ?? s[1], `${path}.${s[1]}`);
    }
  }
  return out;
}

/** An export name that only one module has: its module. */
const uniqueExport = new Map();
for (const m of data.modules) {
  for (const e of m.exports) uniqueExport.set(e, uniqueExport.has(e) ? null : m.name);
}

/** What the dotted expression `expr` is, as a value path ("pg.Pool"), or null. */
function valuePath(expr, env) {
  const [head, ...rest] = expr.split('.');
  let base = env.bindings.get(head);
  if (!base && !env.assigned(head)) base = GLOBALS.get(head)?.value ?? (uniqueExport.get(head) ? `${uniqueExport.get(head)}.${head}` : null);
  return base ? [base, ...rest].join('.') : null;
}

/** The last assignment to `name` before `pos` (else the first after it): the text after its `=`. */
function assignment(text, pos, name) {
  const re = new RegExp(`(?:^|[^\\w$.])${escapeRe(name)}\\s*(?::[^=;\\n]*)?=(?![=>])([^\\n;]*)`, 'g');
  let before = null;
  let after = null;
  for (const m of text.matchAll(re)) {
    if (m.index < pos) before = m[1];
    else if (after === null) after = m[1];
  }
  return before ?? after;
}

/** What `name` is at `pos`: { type } (a key of data.types), { module }, or null. */
function kindOf(name, env, depth = 0) {
  if (depth > 4) return null;
  const bound = env.bindings.get(name);
  // Bound to a module: its exports; to one of them (`Pool`): nothing to list.
  if (bound) return MODULES.has(bound) ? { module: bound } : null;
  const rhs = assignment(env.text, env.pos, name);
  if (rhs === null) {
    const type = GLOBALS.get(name)?.type;
    return type ? { type } : null;
  }
  let m = /^\s*(?:await\s+)?require\s*\(\s*(['"])([^'"\n]+)\1\s*\)\s*\(/.exec(rhs);
  if (m) {
    const made = data.makes[moduleKey(m[2])];
    return made ? { type: made } : null;
  }
  m = /^\s*(?:await\s+)?(?:new\s+)?([\w$]+(?:\s*\.\s*[\w$]+)*)\s*\(/.exec(rhs);
  if (!m) return null;
  const parts = m[1].split('.').map((p) => p.trim());
  const path = valuePath(parts.join('.'), env);
  const made = path && data.makes[path];
  if (made) return { type: made };
  if (parts.length === 2) {
    const obj = kindOf(parts[0], env, depth + 1);
    const type = obj?.type && data.returns[obj.type]?.[parts[1]];
    if (type) return { type };
  }
  return null;
}

function memberOptions(kind) {
  if (kind?.type) {
    return data.types[kind.type].map((member) => {
      const paren = member.indexOf('(');
      return paren < 0
        ? { label: member, type: 'property' }
        : { label: member.slice(0, paren), detail: member.slice(paren), type: 'method' };
    });
  }
  if (kind?.module) {
    return MODULES.get(kind.module).exports.map((e) => ({ label: e, detail: kind.module, type: exportType(e) }));
  }
  return [];
}

function members(context) {
  const path = completionPath(context);
  if (!path || path.path.length !== 1) return null;
  const text = context.state.doc.toString();
  const env = {
    text,
    pos: context.pos,
    bindings: moduleBindings(text),
    assigned: (name) => assignment(text, context.pos, name) !== null,
  };
  const options = memberOptions(kindOf(path.path[0], env));
  if (!options.length) return null;
  return { from: context.pos - path.name.length, options, validFor: /^[\w$]*$/ };
}

// --- words: the globals, the handler's scaffolding, keywords ---

/** Where no name is completed: as lang-javascript's own list. */
const NOT_A_WORD = [
  'TemplateString', 'String', 'RegExp', 'LineComment', 'BlockComment', 'VariableDefinition', 'TypeDefinition',
  'Label', 'PropertyDefinition', 'PropertyName', 'PrivatePropertyDefinition', 'PrivatePropertyName', '.', '?.',
];

/** A completion that inserts `text` and puts the cursor at its `|`. */
function template(label, detail, text) {
  const at = text.indexOf('|');
  const insert = text.replace('|', '');
  return {
    label,
    detail,
    type: 'text',
    boost: -1,
    apply(view, _completion, from, to) {
      view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + at }, userEvent: 'input.complete' });
    },
  };
}

const KEYWORDS =
  'async await break case catch class const continue default delete else export extends false finally for from function if import in instanceof let new null return static super switch this throw true try typeof undefined var while yield';

const words = [
  ...data.globals.map((g) => ({
    label: g.name,
    detail: g.detail,
    type: g.detail.startsWith('(') ? 'function' : /^[A-Z]/.test(g.name) ? 'class' : 'variable',
  })),
  { label: 'handle', detail: '(req): the request handler', type: 'function' },
  { label: 'req', detail: '{ id, user, click, key, server, at }', type: 'variable' },
  template('async function handle(req)', 'the handler', 'async function handle(req) {\n  |\n}'),
  template('export async function handle(req)', 'the handler (ES module)', 'export async function handle(req) {\n  |\n}'),
  template('module.exports = { handle }', 'the handler (CommonJS)', 'module.exports = { handle };|'),
  ...KEYWORDS.split(' ').map((k) => ({ label: k, type: 'keyword', boost: -2 })),
];

function wordSource(context) {
  const inner = syntaxTree(context.state).resolveInner(context.pos, -1);
  if (NOT_A_WORD.includes(inner.name)) return null;
  // `import { … }` and `export { … }` take a module's exports (above).
  if (['ImportGroup', 'ExportGroup'].includes(inner.name) || ['ImportGroup', 'ExportGroup'].includes(inner.parent?.name)) {
    return null;
  }
  const word = context.matchBefore(/[\w$]+$/);
  if (!word && !context.explicit) return null;
  // The names in scope (lang-javascript's own source) first; a global or
  // `handle` the script defines itself is offered once, as its own.
  const local = localCompletionSource(context)?.options ?? [];
  const defined = new Set(local.map((o) => o.label));
  const options = local.concat(words.filter((w) => !defined.has(w.label)));
  return { from: word ? word.from : context.pos, options, validFor: /^[\w$]*$/ };
}

/** The editor's completion: one extension. */
export const completion = [
  autocompletion({ icons: true }),
  javascriptLanguage.data.of({ autocomplete: moduleNames }),
  javascriptLanguage.data.of({ autocomplete: importNames }),
  javascriptLanguage.data.of({ autocomplete: members }),
  javascriptLanguage.data.of({ autocomplete: wordSource }),
];
