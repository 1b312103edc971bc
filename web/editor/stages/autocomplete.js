// What the editor takes from CodeMirror's completion: the sixth of the
// editor's load stages (load.js).
export { autocompletion } from '@codemirror/autocomplete';
