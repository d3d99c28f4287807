// Credential redaction: every secret shape we promise to catch, and prose left alone.
import { strict as assert } from 'node:assert';
import { redact, redactDeep, REDACTED } from '../../src/host/redact';

const secretCases: [string, string, string][] = [
  // [description, input, secret that must disappear]
  ['OpenAI key', 'using sk-proj-abcdefghijklmnop1234567890 now', 'sk-proj-abcdefghijklmnop1234567890'],
  ['Anthropic key', 'key sk-ant-api03-AbCdEf0123456789_xyz-QRS', 'sk-ant-api03-AbCdEf0123456789_xyz-QRS'],
  ['plain sk- key', 'failed: sk-1234567890abcdefghij', 'sk-1234567890abcdefghij'],
  ['GitHub classic token', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
  ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
  ['Slack bot token', 'slack xoxb-1234567890-abcdefghij', 'xoxb-1234567890-abcdefghij'],
  ['Slack user token', 'xoxp-99999999999-ABCDEF', 'xoxp-99999999999-ABCDEF'],
  ['AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE ok', 'AKIAIOSFODNN7EXAMPLE'],
  ['Google API key', 'AIzaSyA-1234567890abcdefghijklmnopqrstu', 'AIzaSyA-1234567890abcdefghijklmnopqrstu'],
  ['JWT', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', 'eyJhbGciOiJIUzI1NiJ9'],
  ['Authorization header', 'Authorization: Bearer abc.def-ghi_jkl', 'abc.def-ghi_jkl'],
  ['Authorization basic', 'authorization=Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz'],
  ['bare Bearer', 'sent Bearer 0123456789abcdef0123', '0123456789abcdef0123'],
  ['key=', 'url?key=hunter22&x=1', 'hunter22'],
  ['api_key=', 'api_key=s3cr3tvalue', 's3cr3tvalue'],
  ['apikey=', 'apikey = abcdef', 'abcdef'],
  ['token=', 'token=tok_12345', 'tok_12345'],
  ['secret=', 'secret=shhh', 'shhh'],
  ['password=', 'password=correcthorse', 'correcthorse'],
  ['passwd=', 'passwd=letmein', 'letmein'],
  ['env-style prefixed name', 'OPENAI_API_KEY=whatever123', 'whatever123'],
  ['quoted value', 'password="two words"', 'two words'],
  ['JSON api_key', '{"api_key": "abc123def"}', 'abc123def'],
  ['JSON token', '{"token":"t0k3n","n":1}', 't0k3n'],
  ['JSON password number', '{"password": 123456}', '123456'],
  ['CLI --password x', 'run --password hunter2 --verbose', 'hunter2'],
  ['CLI --api-key=x', 'run --api-key=abcdef', 'abcdef'],
  ['CLI --token x', 'cmd --token qwerty', 'qwerty'],
  ['header X-Api-Key', 'X-Api-Key: 0011aabbcc', '0011aabbcc'],
  ['yaml password', 'password: hunter2', 'hunter2'],
  ['long hex after key word', 'the api key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b'],
  ['base64 after secret is', 'secret is QUJDREVGR0hJSktMTU5PUFFSU1RVVldY1234', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY1234'],
  ['URL credentials', 'https://user:pa55word@example.com/x', 'pa55word'],
  [
    'PEM private key',
    'a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nb',
    'MIIEpAIBAAKCAQEA',
  ],
  ['PEM key cut off', 'tail -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq', 'MIIEvQIBADANBgkq'],
  ['EC PEM', '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkey\n-----END EC PRIVATE KEY-----', 'MHcCAQEEIBkey'],
];

const ordinary = [
  'The quick brown fox jumps over the lazy dog.',
  'Compiled 42 files in 1.3s; 0 errors.',
  'The key idea: keep it simple.',
  'monkey=banana keyboard=qwerty',
  'Press any key to continue',
  'token counts: 120 input, 30 output tokens',
  'password reset emails are sent hourly',
  'Visit https://example.com/docs?page=2 for details',
  'desk-lamp sk- is not a key prefix here',
  'authorization failed for user',
  '{"name":"demo","version":"1.0.0","protocolVersion":"1"}',
  'C:\\Users\\me\\project\\src\\index.ts:10:5',
  'ünïcödé text 🙂 stays intact',
  '',
];

describe('redact', () => {
  for (const [name, input, secret] of secretCases) {
    it(`redacts ${name}`, () => {
      const out = redact(input);
      assert.ok(!out.includes(secret), `${JSON.stringify(out)} still contains ${secret}`);
      assert.ok(out.includes(REDACTED), out);
    });
  }

  for (const text of ordinary) {
    it(`leaves ordinary text untouched: ${JSON.stringify(text).slice(0, 50)}`, () => {
      assert.equal(redact(text), text);
    });
  }

  it('keeps the name and surrounding text readable', () => {
    assert.equal(redact('api_key=abc123 rest'), `api_key=${REDACTED} rest`);
    assert.equal(redact('{"api_key": "abc"}'), `{"api_key": "${REDACTED}"}`);
    assert.equal(redact('Authorization: Bearer abcdefghijk'), `Authorization: Bearer ${REDACTED}`);
    assert.equal(redact('--password hunter2 --x'), `--password ${REDACTED} --x`);
  });

  it('is idempotent', () => {
    for (const [, input] of secretCases) assert.equal(redact(redact(input)), redact(input));
  });

  it('redacts several secrets in one text', () => {
    const out = redact('a sk-ant-0123456789abcdefghij b password=x c ghp_0123456789abcdefghijABCDEF');
    assert.equal(out, `a ${REDACTED} b password=${REDACTED} c ${REDACTED}`);
  });
});

describe('redactDeep', () => {
  it('redacts every string in a JSON value but not object keys', () => {
    const input = {
      api_key: 'plain',
      note: 'token=abc',
      list: ['sk-0123456789abcdefghijk', 1, true, null, { deep: 'password: hunter2' }],
      n: 3,
    };
    const out = redactDeep(input);
    assert.deepEqual(out, {
      api_key: 'plain',
      note: `token=${REDACTED}`,
      list: [REDACTED, 1, true, null, { deep: `password: ${REDACTED}` }],
      n: 3,
    });
    assert.equal(input.note, 'token=abc', 'input is not mutated');
  });

  it('passes primitives through', () => {
    assert.equal(redactDeep(5), 5);
    assert.equal(redactDeep(null), null);
    assert.equal(redactDeep('xoxb-1234567890-abcdef'), REDACTED);
  });
});
