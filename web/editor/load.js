// The entry of the editor's bundle (scripts/build-editor.sh): what the
// editor takes from CodeMirror, in stages (./stages/), each a chunk of its
// own evaluated in a task of its own, in the order they depend on each
// other, and then editor.js, which defines <js-editor>. Evaluated as one
// module they held the page's thread for 50 to 120 ms at once, and in
// three stages still up to 100 ms on a busy machine.
await import('./stages/state.js');
await import('./stages/view.js');
await import('./stages/highlight.js');
await import('./stages/language.js');
await import('./stages/commands.js');
await import('./stages/autocomplete.js');
await import('./stages/javascript.js');
await import('./editor.js');
