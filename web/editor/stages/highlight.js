// What the editor takes from Lezer's highlighting tags: the third of the
// editor's load stages (load.js).
export { tags } from '@lezer/highlight';
