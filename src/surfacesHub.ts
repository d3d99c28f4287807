// The Surfaces webview's host side as its own bundle (dist/surfaces-hub.js): the hub that turns the
// surface store into the view's snapshot and deltas and checks every message the view posts. The
// extension requires it when a Surfaces view or panel first opens, or an extension's form prompt
// first needs one (src/vscode/surfaces/register.ts), so activation carries only the registrations.
export { SurfacesHub } from './vscode/surfaces/hub';
export { surfacesStrings } from './vscode/surfaces/viewStrings';
