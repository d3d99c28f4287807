// The authoring aids as their own bundle (dist/authoring.js): the manifest findings (decoder and
// `reasonix-host check`) in the Problems panel with their quick fixes. The extension loads it on
// the first save of a reasonix-plugin.json (src/vscode/author/register.ts), so activation carries
// only that listener.
export { ManifestDiagnostics } from './vscode/author/manifestDiagnostics';
