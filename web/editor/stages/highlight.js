// What the editor takes from Lezer's highlighting tags: the third of the
// editor's load stages (element.js's loadCodeMirror).
export { tags } from '@lezer/highlight';
