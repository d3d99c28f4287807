// Managing Reasonix extensions through the user's Reasonix as its own bundle (dist/manage.js): the
// extension requires it on the first Install / Enable / Disable / Remove / Details / Migrate command
// (src/vscode/manage/register.ts), so activation carries only the commands' registration.
export { manageHandlers, type InstallOutcome } from './vscode/manage/commands';
