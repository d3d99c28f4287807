// Preview View… (issue 42), the engine part: a view payload from a file goes through the host's
// own strict view decoder; a refusal is the decoder's sentence placed on the member it is about.
import { strict as assert } from 'node:assert';
import { previewView } from '../../../src/host/authoring';

const VIEW = {
  slot: 'summary',
  body: [
    { kind: 'text', value: 'Indexed', tone: 'strong' },
    {
      kind: 'row',
      children: [
        { kind: 'kv', key: 'files', value: '12' },
        { kind: 'meter', progress: 0.5 },
      ],
    },
  ],
};

function at(text: string, r: ReturnType<typeof previewView>): string {
  assert.equal(r.ok, false);
  if (r.ok) return '';
  return text.slice(r.finding.offset, r.finding.offset + r.finding.length);
}

describe('authoring: Preview View… (the payload)', () => {
  it('a valid payload decodes as the host would draw it, redacted', () => {
    const r = previewView(JSON.stringify({ body: [{ kind: 'text', value: 'token=supersecret42 ok' }] }));
    assert.ok(r.ok);
    assert.equal(r.payload.body[0].kind, 'text');
    assert.doesNotMatch(JSON.stringify(r.payload), /supersecret42/);
    const full = previewView(JSON.stringify(VIEW, null, 2));
    assert.ok(full.ok);
    assert.equal(full.payload.slot, 'summary');
    assert.equal(full.payload.body[1].children?.[1].progress, 0.5);
  });

  it('a whole publish of kind view previews its payload and keeps its surface id; another kind is named', () => {
    const r = previewView(
      JSON.stringify({ surfaceId: 's1', sessionId: 'x', generation: 1, kind: 'view', payload: VIEW }),
    );
    assert.ok(r.ok);
    assert.equal(r.surfaceId, 's1');
    const card = JSON.stringify({ surfaceId: 's1', kind: 'card', payload: {} }, null, 2);
    const c = previewView(card);
    assert.equal(at(card, c), '"kind": "card"');
    assert.match(!c.ok ? c.finding.message : '', /this publish is of kind "card": only a "view" previews here/);
  });

  it('a refused node is marked at that node, with the decoder’s sentence', () => {
    const bad = structuredClone(VIEW) as { body: Record<string, unknown>[] };
    bad.body[1] = { kind: 'row', children: [{ kind: 'text', value: 'x', children: [{ kind: 'divider' }] }] };
    const text = JSON.stringify(bad, null, 2);
    const r = previewView(text);
    assert.match(!r.ok ? r.finding.message : '', /^body\[1\]\.children\[0\]: a text node takes no children$/);
    assert.deepEqual(!r.ok && r.finding.path, ['body', 1, 'children', 0]);
    assert.match(at(text, r), /^\{\s*"kind": "text",[\s\S]*\}$/);
    const wrapped = JSON.stringify({ surfaceId: 's', kind: 'view', payload: bad });
    const w = previewView(wrapped);
    assert.deepEqual(!w.ok && w.finding.path, ['payload', 'body', 1, 'children', 0]);
  });

  it('an unknown member is marked on its key; a bad value on its member; a missing body on the payload', () => {
    const unknown = '{"body":[{"kind":"text","value":"a","colour":"red"}]}';
    const u = previewView(unknown);
    assert.match(!u.ok ? u.finding.message : '', /^body\[0\]: unknown member 'colour'/);
    assert.equal(at(unknown, u), '"colour":"red"');
    const badLabel = '{"body":[{"kind":"button","actionId":"go","label":7}]}';
    const b = previewView(badLabel);
    assert.match(!b.ok ? b.finding.message : '', /^body\[0\]\.label must be a string$/);
    assert.equal(at(badLabel, b), '"label":7');
    const empty = '{"slot":"s"}';
    const e = previewView(empty);
    assert.match(!e.ok ? e.finding.message : '', /^body must be a non-empty array of nodes$/);
    assert.equal(at(empty, e), empty);
  });

  it('a file that is not JSON says so where it stops being JSON', () => {
    const text = '{"body": [ {"kind": "text",, } ]}';
    const r = previewView(text);
    assert.match(!r.ok ? r.finding.message : '', /^not JSON: /);
    assert.equal(!r.ok && r.finding.offset, text.indexOf(',,') + 1);
  });
});
