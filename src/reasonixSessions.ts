// Reasonix sessions over ACP as their own bundle (dist/sessions.js, with @agentclientprotocol/sdk):
// the extension requires it on the first Open / Close / Reload Reasonix Session command
// (src/vscode/reasonixSessions/register.ts).
export { disposeSessionsWindow, sessionsWindow } from './vscode/reasonixSessions/window';
