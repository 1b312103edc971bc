// What the editor takes from CodeMirror's state: the first of the editor's
// load stages (element.js's loadCodeMirror).
export { Compartment, EditorState, StateEffect, StateField, Transaction } from '@codemirror/state';
