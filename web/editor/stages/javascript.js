// What the editor takes from CodeMirror's JavaScript language (its Lezer
// parser): the last of the editor's load stages (element.js's loadCodeMirror).
export { completionPath, javascriptLanguage, localCompletionSource } from '@codemirror/lang-javascript';
