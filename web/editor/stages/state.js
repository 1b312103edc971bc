// What the editor takes from CodeMirror's state: the first of the editor's
// load stages (load.js).
export { Compartment, EditorState, StateEffect, StateField, Transaction } from '@codemirror/state';
