// What the editor takes from CodeMirror's language support, highlighting
// and commands: the second of the editor's load stages (load.js).
export { tags } from '@lezer/highlight';
export {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  syntaxHighlighting,
  syntaxTree,
} from '@codemirror/language';
export { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
