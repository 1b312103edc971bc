// What the editor takes from CodeMirror's view: the second of the editor's
// load stages (element.js's loadCodeMirror).
export {
  Decoration,
  EditorView,
  WidgetType,
  keymap,
  lineNumbers,
  highlightActiveLineGutter,
  runScopeHandlers,
} from '@codemirror/view';
