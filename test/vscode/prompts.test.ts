// In-host: each host/ui/request kind answered through real VS Code quick input.
import * as assert from 'node:assert/strict';
import { promptFields, type FormField, type PromptRequest } from '../../src/protocol';
import { VsCodePrompts } from '../../src/vscode/prompts';
import { pressUntil } from './press';

function request(kind: FormField['kind'], fields: FormField[], message = 'Question?'): PromptRequest {
  return {
    sessionKey: 'file:///ws',
    folderName: 'ws',
    pluginId: 'demo',
    generation: 1,
    surfaceId: 'q',
    kind,
    payload: { title: 'Demo', message, fields },
  };
}

describe('prompts: host/ui/request in native VS Code UI', function () {
  this.timeout(30_000);
  const prompts = new VsCodePrompts(
    () => undefined,
    () => false,
  );
  const accept = 'workbench.action.acceptSelectedQuickOpenItem';

  it('asks an empty-fields request as one question keyed "value"', () => {
    const q = promptFields(request('input', []));
    assert.deepEqual(q, [{ key: 'value', kind: 'input', label: 'Question?' }]);
  });

  it('select → QuickPick, the default pre-selected', async () => {
    const a = await pressUntil(
      accept,
      prompts.prompt(
        request('select', [{ key: 'color', kind: 'select', options: ['red', 'green', 'blue'], default: 'green' }]),
        new AbortController().signal,
      ),
    );
    assert.deepEqual(a, { cancelled: false, values: { color: 'green' } });
  });

  it('multiselect → QuickPick with canPickMany, defaults checked', async () => {
    const a = await pressUntil(
      accept,
      prompts.prompt(
        request('multiselect', [{ key: 'tags', kind: 'multiselect', options: ['a', 'b', 'c'], default: ['a', 'c'] }]),
        new AbortController().signal,
      ),
    );
    assert.deepEqual(a, { cancelled: false, values: { tags: ['a', 'c'] } });
  });

  it('input → InputBox prefilled with the default', async () => {
    const a = await pressUntil(
      accept,
      prompts.prompt(request('input', [{ key: 'name', kind: 'input', default: 'Ada' }]), new AbortController().signal),
    );
    assert.deepEqual(a, { cancelled: false, values: { name: 'Ada' } });
  });

  it('dismissal answers {cancelled:true}', async () => {
    const a = await pressUntil(
      'workbench.action.closeQuickOpen',
      prompts.prompt(request('select', [{ key: 'x', kind: 'select', options: ['1'] }]), new AbortController().signal),
    );
    assert.deepEqual(a, { cancelled: true });
  });

  it('an aborted request closes the question and answers cancelled', async () => {
    const ac = new AbortController();
    const pending = prompts.prompt(request('input', [{ key: 'x', kind: 'input' }]), ac.signal);
    setTimeout(() => ac.abort(), 200);
    assert.deepEqual(await pending, { cancelled: true });
  });

  it('several fields without the Surfaces view → one native step per field', async () => {
    const req = request('input', [
      { key: 'name', kind: 'input', default: 'Ada' },
      { key: 'lang', kind: 'select', options: ['ts', 'rust'], default: 'rust' },
    ]);
    const a = await pressUntil(accept, prompts.prompt(req, new AbortController().signal), { times: 2 });
    assert.deepEqual(a, { cancelled: false, values: { name: 'Ada', lang: 'rust' } });
  });

  it('several fields with the Surfaces view visible → the view form answers', async () => {
    const viaView = new VsCodePrompts(
      () => ({ isVisible: () => true, showPrompt: async () => ({ cancelled: false, values: { from: 'view' } }) }),
      () => false,
    );
    const a = await viaView.prompt(
      request('input', [
        { key: 'a', kind: 'input' },
        { key: 'b', kind: 'input' },
      ]),
      new AbortController().signal,
    );
    assert.deepEqual(a, { cancelled: false, values: { from: 'view' } });
  });
});
