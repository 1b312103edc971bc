// What the editor takes from CodeMirror's commands: the fifth of the
// editor's load stages (element.js's loadCodeMirror).
export { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
