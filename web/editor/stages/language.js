// What the editor takes from CodeMirror's language support: the fourth of
// the editor's load stages (element.js's loadCodeMirror).
export {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  syntaxHighlighting,
  syntaxTree,
} from '@codemirror/language';
