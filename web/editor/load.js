// The entry of the editor's bundle (scripts/build-editor.sh): what the
// editor takes from CodeMirror, in three stages (./stages/), each a chunk
// of its own evaluated in a task of its own, and then editor.js, which
// defines <js-editor>. Evaluated as one module they held the page's thread
// for 50 to 120 ms at once.
await import('./stages/view.js');
await import('./stages/language.js');
await import('./stages/javascript.js');
await import('./editor.js');
