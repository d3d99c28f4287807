// In-host: a Reasonix session over ACP opened from the Extensions view, with the real Reasonix
// 1.38.11 (reasonix.path) and the showcase without tools installed by it in a scratch home
// (reasonix.home, so VS Code hosts the same extension): the session's cards in the Surfaces store
// under "<folder> · Reasonix session", VS Code's copy of the showcase stopped while the session is
// open (reasonix.sessions.hostedCopies' default), an action from reasonix.runAction answered through
// the QuickPick and its card coming back from Reasonix, reload, and close (the copy runs again).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReasonixApi } from '../../src/vscode/api';
import type { Surface } from '../../src/protocol';
import {
  realReasonixBinary,
  scratchReasonix,
  installShowcaseForReasonix,
  SHOWCASE_MODEL,
  type ScratchReasonix,
} from '../support/reasonix';
import { waitFor } from '../support/wait';
import { pressUntil } from './press';

const EXTENSION_ID = 'reasonix.reasonix-vscode-host';

describe('a Reasonix session over ACP (the real Reasonix)', function () {
  this.timeout(120_000);
  let api: ReasonixApi;
  let s: ScratchReasonix;
  let sessionKey: string;
  const cfg = () => vscode.workspace.getConfiguration('reasonix');
  const hosted = () => api.listPlugins().find((p) => p.pluginId === 'showcase');
  const card = (id: string) =>
    api.surfaces().find((x) => x.sessionKey === sessionKey && x.pluginId === 'showcase' && x.surfaceId === id) as
      (Surface & { kind: 'card' }) | undefined;
  const field = (id: string, key: string) => card(id)?.payload.fields?.find((f) => f.key === key)?.value;

  before(async () => {
    const ext = vscode.extensions.getExtension<ReasonixApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    s = scratchReasonix();
    await installShowcaseForReasonix(s);
    await cfg().update('path', realReasonixBinary(), vscode.ConfigurationTarget.Global);
    await cfg().update('home', s.reasonixHome, vscode.ConfigurationTarget.Global);
    await cfg().update('sessions.model', SHOWCASE_MODEL, vscode.ConfigurationTarget.Global);
    await waitFor(() => hosted()?.state === 'running', { timeoutMs: 30_000, what: 'VS Code hosting the showcase' });
  });

  after(async () => {
    await vscode.commands.executeCommand('reasonix.closeReasonixSession');
    await cfg().update('home', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('sessions.model', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('path', undefined, vscode.ConfigurationTarget.Global);
    s.remove();
  });

  it('opens from the Extensions view: its cards under the session, VS Code’s copy stopped', async () => {
    const key = await vscode.commands.executeCommand<string | undefined>('reasonix.openReasonixSession');
    assert.ok(key, 'a session key');
    sessionKey = key;
    const controls = await waitFor(() => card('controls'), { timeoutMs: 30_000, what: "the session's controls card" });
    assert.match(controls.folderName, /· Reasonix session$/);
    await waitFor(() => hosted()?.state === 'stopped', { timeoutMs: 20_000, what: "VS Code's copy stopped" });
  });

  it('runs /showcase:pick-theme from reasonix.runAction; its prompt is a QuickPick; the card comes back', async () => {
    await waitFor(() => field('controls', 'Actions run') !== undefined, { timeoutMs: 10_000, what: 'the card fields' });
    const before = Number(field('controls', 'Actions run'));
    const run = vscode.commands.executeCommand<{ ran: boolean; accepted: boolean }>('reasonix.runAction', {
      plugin: 'showcase',
      action: 'pick-theme',
      folder: sessionKey,
    });
    const outcome = await pressUntil('workbench.action.acceptSelectedQuickOpenItem', run, { timeoutMs: 60_000 });
    assert.equal(outcome.ran, true);
    await waitFor(() => Number(field('controls', 'Actions run')) === before + 1, {
      timeoutMs: 20_000,
      what: 'the card Reasonix sends back after the action',
    });
  });

  it('reloads the session’s extensions with _reasonix.io/session/reloadExtensions', async () => {
    const r = await vscode.commands.executeCommand<{ queued: boolean } | undefined>('reasonix.reloadReasonixSession');
    assert.ok(r, 'the reload answered');
    await waitFor(() => card('controls') && !card('controls')!.stale, {
      timeoutMs: 30_000,
      what: 'the cards after the reload',
    });
  });

  it('chooses the session’s mode through two QuickPicks (session/set_mode)', async () => {
    const ok = await pressUntil(
      'workbench.action.acceptSelectedQuickOpenItem',
      vscode.commands.executeCommand<boolean>('reasonix.configureReasonixSession'),
      { times: 2, timeoutMs: 30_000 },
    );
    assert.equal(ok, true);
  });

  it('closes: its surfaces leave the view and VS Code’s copy runs again', async () => {
    await vscode.commands.executeCommand('reasonix.closeReasonixSession');
    await waitFor(() => !api.surfaces().some((x) => x.sessionKey === sessionKey), {
      timeoutMs: 10_000,
      what: 'the surfaces gone',
    });
    await waitFor(() => hosted()?.state === 'running', { timeoutMs: 30_000, what: "VS Code's copy running again" });
  });
});
