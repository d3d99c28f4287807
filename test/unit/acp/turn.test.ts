// A @reasonix chat turn as the parts the chat face draws, from a real Reasonix 1.38.11 turn answered
// by the showcase's echo model (offline), and from the update kinds 1.38.11 did not send here
// (thoughts, plans) as ACP defines them.
import { strict as assert } from 'node:assert';
import { ReasonixAcpClient, TurnRenderer, planMarkdown, type TurnPart } from '../../../src/host/acp';
import { SurfaceStore } from '../../../src/host/ui';
import {
  realReasonixBinary,
  scratchReasonix,
  installShowcaseForReasonix,
  SHOWCASE_MODEL,
  type ScratchReasonix,
} from '../../support/reasonix';

describe('a @reasonix chat turn as parts', function () {
  this.timeout(60000);

  it('a real turn: the echo model answers as Markdown, its tool call as progress, no surface text', async () => {
    const s: ScratchReasonix = scratchReasonix();
    const client = new ReasonixAcpClient({
      bin: realReasonixBinary(),
      args: ['--model', SHOWCASE_MODEL],
      cwd: s.workspace,
      env: s.env,
    });
    try {
      await installShowcaseForReasonix(s);
      const session = await client.openSession({
        cwd: s.workspace,
        folderName: 'w',
        store: new SurfaceStore(),
        frontEnd: { notify: () => {}, prompt: async () => ({ cancelled: true }) },
      });
      const renderer = new TurnRenderer();
      const parts: TurnPart[] = [];
      session.onDidUpdate((u) => parts.push(...renderer.onUpdate(u)));
      const turn = await session.prompt('/showcase:pick-theme');
      assert.equal(turn.stopReason, 'end_turn');
      const md = parts
        .filter((p) => p.kind === 'markdown')
        .map((p) => (p as { value: string }).value)
        .join('');
      assert.match(md, /Echo:/);
      assert.doesNotMatch(md, /Everything on this card/);
      const progress = parts.filter((p) => p.kind === 'progress').map((p) => (p as { value: string }).value);
      assert.ok(
        progress.some((p) => /^ask \((pending|failed|completed)\)$/.test(p)),
        progress.join('|'),
      );
    } finally {
      await client.dispose();
      s.remove();
    }
  });

  it('thoughts collapse to one progress line, a plan is a checklist, secrets are redacted', () => {
    const r = new TurnRenderer();
    const thought = { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } };
    assert.deepEqual(r.onUpdate(thought), [{ kind: 'progress', value: 'Thinking…' }]);
    assert.deepEqual(r.onUpdate(thought), []);
    const md = r.onUpdate({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'key api_key=sk-live-abcdef0123456789XYZ' },
    });
    assert.doesNotMatch(JSON.stringify(md), /sk-live/);
    const [plan] = r.onUpdate({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read', status: 'completed', priority: 'high' },
        { content: 'write', status: 'in_progress', priority: 'high' },
        { content: 'test', status: 'pending', priority: 'low' },
      ],
    });
    assert.equal(plan.kind, 'plan');
    assert.equal(
      planMarkdown((plan as { entries: { content: string; status: string }[] }).entries),
      '- [x] read\n- [ ] write …\n- [ ] test',
    );
  });
});
