// The authoring aids as their own bundle (dist/authoring.js): restart on change for linked
// development folders, and the manifest findings (decoder and `reasonix-host check`) in the
// Problems panel with their quick fixes. The extension loads it on the first save of a
// reasonix-plugin.json or when a development folder is linked (src/vscode/author/register.ts), so
// activation carries only those two listeners.
export { AuthoringAids } from './vscode/author/aids';
