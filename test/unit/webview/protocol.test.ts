import * as assert from 'node:assert/strict';
import {
  checkSubmission,
  defaultValue,
  initialValues,
  missingRequired,
  promptFields,
  sameFieldShape,
} from '../../../src/webviewProtocol/forms';
import { isAllowedImage, isAllowedLink } from '../../../src/webviewProtocol/links';
import { VIEW_LIMITS, decodeViewMessage } from '../../../src/webviewProtocol/validate';
import type { FormField } from '../../../src/protocol';

const ok = (raw: unknown) => {
  const r = decodeViewMessage(raw);
  assert.ok(r.ok, `expected ok: ${!r.ok ? r.message : ''}`);
  return r.value;
};
const bad = (raw: unknown, re: RegExp) => {
  const r = decodeViewMessage(raw);
  assert.ok(!r.ok, `expected refusal (${re})`);
  assert.match(r.message, re);
};

describe('webview protocol: view→host validator', () => {
  it('accepts every well-formed message', () => {
    assert.deepEqual(ok({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(ok({ type: 'manageTrust' }), { type: 'manageTrust' });
    ok({ type: 'runAction', requestId: 'a1-x', key: '["ws","p","s"]', actionId: 'do-it' });
    assert.deepEqual(
      ok({ type: 'submit', requestId: 's1', key: 'k', values: { a: true, b: 'x', c: ['1', '2'] } }).type,
      'submit',
    );
    ok({ type: 'answerPrompt', promptId: 'p1', answer: { cancelled: true } });
    ok({ type: 'answerPrompt', promptId: 'p1', answer: { cancelled: false, values: { value: 'x' } } });
    ok({ type: 'openLink', url: 'javascript:alert(1)' }); // well-formed; the scheme is checked when handled
    ok({ type: 'persist', drafts: { k: { a: 'b' } } });
    assert.deepEqual(ok({ type: 'folderOpened', sessionKey: 'ws-1' }), { type: 'folderOpened', sessionKey: 'ws-1' });
  });

  it('refuses unknown types, unknown keys and wrong shapes', () => {
    bad(null, /object/);
    bad([], /object/);
    bad('ready', /object/);
    bad({ type: 'eval', code: '1' }, /unknown message type/);
    bad({ type: 'ready', extra: 1 }, /unknown property "extra"/);
    bad({ type: 'runAction', requestId: 'a', key: 'k', actionId: 'Bad_Id' }, /actionId/);
    bad({ type: 'runAction', requestId: 'a b', key: 'k', actionId: 'x' }, /requestId/);
    bad({ type: 'runAction', requestId: 'a', key: '', actionId: 'x' }, /key must not be empty/);
    bad({ type: 'submit', requestId: 'a', key: 'k', values: { a: 1 } }, /boolean, a string or an array/);
    bad({ type: 'submit', requestId: 'a', key: 'k', values: { a: [1] } }, /must be a string/);
    bad({ type: 'answerPrompt', promptId: 'p', answer: { cancelled: 'no' } }, /cancelled must be a boolean/);
    bad({ type: 'answerPrompt', promptId: 'p', answer: { cancelled: true, values: {} } }, /unknown property/);
    bad({ type: 'openLink', url: 5 }, /url must be a string/);
    bad({ type: 'persist', drafts: { k: 'x' } }, /draft must be an object/);
    bad({ type: 'folderOpened' }, /sessionKey must be a string/);
    bad({ type: 'folderOpened', sessionKey: 'k', pluginId: 'p' }, /unknown property "pluginId"/);
    bad({ type: 'folderOpened', sessionKey: 'k'.repeat(VIEW_LIMITS.keyLength + 1) }, /longer than/);
  });

  it('refuses oversize values and prototype tricks', () => {
    bad({ type: 'openLink', url: 'https://x/' + 'a'.repeat(VIEW_LIMITS.urlLength) }, /longer than/);
    const many = Object.fromEntries(Array.from({ length: VIEW_LIMITS.fieldsPerForm + 1 }, (_, i) => [`k${i}`, 'v']));
    bad({ type: 'submit', requestId: 'a', key: 'k', values: many }, /more than/);
    bad(
      { type: 'submit', requestId: 'a', key: 'k', values: { a: 'x'.repeat(VIEW_LIMITS.stringValueLength + 1) } },
      /longer than/,
    );
    bad({ type: 'submit', requestId: 'a', key: 'k', values: JSON.parse('{"__proto__": "x"}') }, /__proto__/);
    bad({ type: 'submit', requestId: 'a', key: 'k', values: new (class X {})() }, /plain object/);
    const hostile = {
      type: 'submit',
      requestId: 'a',
      key: 'k',
      get values() {
        throw new Error('boom');
      },
    };
    bad(hostile, /malformed message: boom/);
  });

  it('accepts 2,000 fields', () => {
    const values = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, i % 2 ? 'x' : true]));
    assert.equal(
      Object.keys((ok({ type: 'submit', requestId: 'a', key: 'k', values }) as { values: object }).values).length,
      2000,
    );
  });
});

describe('webview protocol: links', () => {
  it('allows http, https and mailto only, absolute only', () => {
    for (const u of ['https://example.com', 'http://example.com/a?b#c', 'mailto:a@example.com'])
      assert.equal(isAllowedLink(u), true, u);
    for (const u of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'command:workbench.action.quit',
      'vscode://x',
      'file:///etc/passwd',
      'data:text/html,x',
      '/relative',
      '//example.com',
      'java\tscript:alert(1)',
      ' https://example.com',
      'https://',
      '',
      'x'.repeat(9000),
    ])
      assert.equal(isAllowedLink(u), false, u);
  });
  it('allows images from https only', () => {
    assert.equal(isAllowedImage('https://example.com/a.png'), true);
    for (const u of ['http://example.com/a.png', 'data:image/png;base64,AA', 'javascript:x', '/a.png'])
      assert.equal(isAllowedImage(u), false, u);
  });
});

describe('webview protocol: forms', () => {
  const fields: FormField[] = [
    { key: 'name', kind: 'input', required: true },
    { key: 'env', kind: 'select', options: ['dev', 'prod'], default: 'prod' },
    { key: 'tags', kind: 'multiselect', options: ['a', 'b'], default: ['a', 'zzz'], required: true },
    { key: 'ok', kind: 'confirm', required: true },
  ];

  it('treats an empty-field request as one question keyed value', () => {
    assert.deepEqual(promptFields({ kind: 'select', payload: { message: 'Pick', fields: [] } }), [
      { key: 'value', kind: 'select', label: 'Pick' },
    ]);
    assert.deepEqual(
      promptFields({ kind: 'confirm', payload: { title: 'Deploy', fields: [] } }),
      [{ key: 'value', kind: 'confirm' }],
      'no message: an unlabelled question, as the UI hub asks it',
    );
    assert.equal(promptFields({ kind: 'input', payload: { fields } }), fields);
  });

  it('uses defaults only when they fit the kind and options', () => {
    assert.deepEqual(initialValues(fields, undefined), { name: '', env: 'prod', tags: ['a'], ok: false });
    assert.equal(defaultValue({ key: 'x', kind: 'select', options: ['a'], default: 'nope' }), '');
    assert.equal(defaultValue({ key: 'x', kind: 'input', default: 42 }), '42');
    assert.equal(defaultValue({ key: 'x', kind: 'confirm', default: 'yes' }), false);
  });

  it('prefers a draft that still fits the field', () => {
    assert.deepEqual(initialValues(fields, { name: 'typed', env: 'gone', ok: true, stray: 'x' }), {
      name: 'typed',
      env: 'prod',
      tags: ['a'],
      ok: true,
    });
  });

  it('finds missing required fields (a confirm is never missing)', () => {
    assert.deepEqual(missingRequired(fields, { name: '  ', env: '', tags: [], ok: false }), ['name', 'tags']);
    assert.deepEqual(missingRequired(fields, { name: 'x', tags: ['b'], ok: false }), []);
  });

  it('checks a submission against the form', () => {
    const form = { fields };
    assert.equal(checkSubmission(form, { name: 'x', env: 'dev', tags: ['b'], ok: true }), undefined);
    assert.match(checkSubmission(form, { name: 'x', tags: ['b'], extra: 'y' }) ?? '', /no field "extra"/);
    assert.match(checkSubmission(form, { name: true, tags: ['b'] }) ?? '', /wrong kind/);
    assert.match(checkSubmission(form, { name: 'x', env: 'staging', tags: ['b'] }) ?? '', /wrong kind/);
    assert.match(checkSubmission(form, { env: 'dev' }) ?? '', /required field\(s\) missing: name, tags/);
  });

  it('knows when a re-published form has the same shape', () => {
    assert.equal(
      sameFieldShape(
        fields,
        fields.map((f) => ({ ...f })),
      ),
      true,
    );
    assert.equal(sameFieldShape(fields, fields.slice(1)), false);
    assert.equal(
      sameFieldShape(
        fields,
        fields.map((f) => (f.key === 'env' ? { ...f, options: ['dev'] } : f)),
      ),
      false,
    );
  });
});
