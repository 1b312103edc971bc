// What the editor takes from CodeMirror's state and view: the first of the
// editor's load stages (load.js).
export { Compartment, EditorState, StateEffect, StateField, Transaction } from '@codemirror/state';
export {
  Decoration,
  EditorView,
  WidgetType,
  keymap,
  lineNumbers,
  highlightActiveLineGutter,
} from '@codemirror/view';
