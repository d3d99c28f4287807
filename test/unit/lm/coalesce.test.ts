// The part sink that joins the text chunks of a short window (src/vscode/lm/coalesce.ts).
import { strict as assert } from 'node:assert';
import { COALESCE_MS, CoalescingSink } from '../../../src/vscode/lm/coalesce';
import type { PartSink } from '../../../src/vscode/lm/respond';

function recorder(): { out: PartSink; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    out: {
      text: (v) => seen.push(`text:${v}`),
      thinking: (v) => seen.push(`thinking:${v}`),
      toolCall: (id, name, input) => seen.push(`call:${id}:${name}:${JSON.stringify(input)}`),
    },
  };
}
const nextTurn = () => new Promise<void>((r) => setImmediate(r));
const afterWindow = () => new Promise<void>((r) => setTimeout(r, COALESCE_MS + 20));

describe('vscode/lm: coalescing text parts', () => {
  it('joins the text chunks of the window into one part, in order, and reports it when the window closes', async () => {
    const { out, seen } = recorder();
    const sink = new CoalescingSink(out);
    sink.text('a');
    await nextTurn();
    sink.text('b');
    sink.text('c');
    assert.deepEqual(seen, [], 'nothing reported inside the window');
    await afterWindow();
    assert.deepEqual(seen, ['text:abc']);
    sink.text('d');
    await afterWindow();
    assert.deepEqual(seen, ['text:abc', 'text:d']);
  });

  it('flushes pending text before a tool call or thinking part, keeping their order', () => {
    const { out, seen } = recorder();
    const sink = new CoalescingSink(out);
    sink.text('Calling ');
    sink.text('lookup.');
    sink.toolCall('c1', 'lookup', { q: 1 });
    sink.thinking('hmm');
    sink.text('done');
    sink.flush();
    assert.deepEqual(seen, ['text:Calling lookup.', 'call:c1:lookup:{"q":1}', 'thinking:hmm', 'text:done']);
  });

  it('after discard (a cancel) reports nothing more, not even text already pending', async () => {
    const { out, seen } = recorder();
    const sink = new CoalescingSink(out);
    sink.text('x');
    sink.discard();
    sink.text('y');
    sink.toolCall('c', 'n', {});
    sink.flush();
    await afterWindow();
    assert.deepEqual(seen, []);
  });
});
