// What the editor takes from CodeMirror's completion: the sixth of the
// editor's load stages (element.js's loadCodeMirror).
export { autocompletion } from '@codemirror/autocomplete';
