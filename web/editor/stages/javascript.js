// What the editor takes from CodeMirror's JavaScript language (its Lezer
// parser) and completion: the third of the editor's load stages (load.js).
export { completionPath, javascriptLanguage, localCompletionSource } from '@codemirror/lang-javascript';
export { autocompletion } from '@codemirror/autocomplete';
