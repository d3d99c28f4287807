// Credential redaction: every secret shape we promise to catch, and prose left alone.
import { strict as assert } from 'node:assert';
import { redact, redactDeep, REDACTED, REDACTION_RULES } from '../../src/host/redact';

const secretCases: [string, string, string][] = [
  // [description, input, secret that must disappear]
  ['OpenAI key', 'using sk-proj-abcdefghijklmnop1234567890 now', 'sk-proj-abcdefghijklmnop1234567890'],
  ['Anthropic key', 'key sk-ant-api03-AbCdEf0123456789_xyz-QRS', 'sk-ant-api03-AbCdEf0123456789_xyz-QRS'],
  ['plain sk- key', 'failed: sk-1234567890abcdefghij', 'sk-1234567890abcdefghij'],
  ['GitHub classic token', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
  [
    'GitHub fine-grained token',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  ],
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
  [
    'long hex after key word',
    'the api key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
    '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
  ],
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

// One case per row of REDACTION_RULES: [rule name, input, secret that must disappear].
const ruleCases: [string, string, string][] = [
  [
    'pem-private-key',
    'x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
    'b3BlbnNzaC1rZXktdjEAAAAA',
  ],
  ['openai-anthropic', 'using sk-proj-abcdefghijklmnop1234567890 now', 'sk-proj-abcdefghijklmnop1234567890'],
  [
    'stripe',
    'charge with sk_live_4eC39HqLyjWDarjtT1zdp7dc and rk_live_51Habcdefghij',
    'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  ],
  ['github-token', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
  ['github-pat', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
  ['gitlab-pat', 'clone with glpat-xYz0123456789abcdefGH', 'glpat-xYz0123456789abcdefGH'],
  [
    'npm-token',
    '//registry.npmjs.org/:_auth npm_aBcDeF0123456789aBcDeF0123456789abcd',
    'npm_aBcDeF0123456789aBcDeF0123456789abcd',
  ],
  ['huggingface', 'HF says hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567'],
  ['slack', 'slack xoxb-1234567890-abcdefghij and xoxa-2-abcdefghijkl', 'xoxa-2-abcdefghijkl'],
  [
    'sendgrid',
    'mail SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef',
    'SG.abcdefghijklmnopqrstuv',
  ],
  ['databricks', 'workspace dapi0123456789abcdef0123456789abcdef-2', 'dapi0123456789abcdef0123456789abcdef'],
  ['aws-access-key-id', 'aws AKIAIOSFODNN7EXAMPLE ok', 'AKIAIOSFODNN7EXAMPLE'],
  ['google-api-key', 'AIzaSyA-1234567890abcdefghijklmnopqrstu', 'AIzaSyA-1234567890abcdefghijklmnopqrstu'],
  ['jwt', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', 'dozjgNryP4J3jVmNHl0w5N'],
  ['url-credentials', 'https://user:pa55word@example.com/x', 'pa55word'],
  ['authorization-header', 'Authorization: Bearer abc.def-ghi_jkl', 'abc.def-ghi_jkl'],
  ['bearer', 'sent Bearer 0123456789abcdef0123', '0123456789abcdef0123'],
  ['cookie-header', 'Cookie: session=0123456789abcdef; theme=dark', '0123456789abcdef'],
  ['env-secret-pair', 'DB_PASS=hunter2 SMTP_PASSWORD=letmein APP_SECRET=shh CI_JOB_TOKEN=abc', 'hunter2'],
  ['json-member', '{"api_key": "abc123def"}', 'abc123def'],
  ['cli-flag', 'run --password hunter2 --verbose', 'hunter2'],
  ['name-equals-value', 'url?key=hunter22&x=1', 'hunter22'],
  ['strong-name-colon', 'X-Api-Key: 0011aabbcc', '0011aabbcc'],
  ['prose-opaque-token', 'the relay api key: relaykey1234567890 was rejected', 'relaykey1234567890'],
  [
    'slack-webhook',
    'post to https://hooks.slack.com/services/T0000AAAA/B0000BBBB/XXXXxxxxXXXXxxxx1234',
    'XXXXxxxxXXXXxxxx1234',
  ],
  ['onepassword', 'op ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSJ9', 'ops_eyJzaWduSW5BZGRyZXNz'],
  ['figma', 'figma figd_AbCdEf0123456789_ghijklmnopQR', 'figd_AbCdEf0123456789_ghijklmnopQR'],
  ['grafana', 'grafana glsa_AbCdEfGhIjKlMnOpQrStUvWxYz012345_abcdef12', 'glsa_AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
  ['groq', 'groq gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'gsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  [
    'hashicorp-vault',
    'vault hvs.CAESIAbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    'hvs.CAESIAbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  ],
  ['linear', 'linear lin_api_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'lin_api_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
  ['notion', 'notion ntn_1234567890AbCdEfGhIjKlMnOpQrStUv', 'ntn_1234567890AbCdEfGhIjKlMnOpQrStUv'],
  ['shopify', 'shop shpat_0123456789abcdef0123456789abcdef', 'shpat_0123456789abcdef0123456789abcdef'],
  [
    'connection-string-secret',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=cGFzc3dvcmQxMjM0NTY3ODkw==;EndpointSuffix=core.windows.net',
    'cGFzc3dvcmQxMjM0NTY3ODkw==',
  ],
  ['jdbc-oracle-credentials', 'jdbc:oracle:thin:scott/tiger99@db.example.com:1521/ORCL', 'tiger99'],
  [
    'key-like-opaque-value',
    'Endpoint=x;MyServiceKeyValue=Zm9vYmFyYmF6cXV4MTIzNDU2;Mode=fast',
    'Zm9vYmFyYmF6cXV4MTIzNDU2',
  ],
];

// Connection strings as a class (issue 25 §1), and the classes of secretlint's recommended
// preset's fixtures written as our own cases: [description, input, secrets that must disappear].
const connectionCases: [string, string, string[]][] = [
  [
    'Azure storage',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net',
    ['Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==', 'Eby8vdM02'],
  ],
  [
    'Service Bus SharedAccessKey',
    'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=AbCdEf0123456789+/GhIjKlMnOpQrStUvWxYz01234=',
    ['AbCdEf0123456789'],
  ],
  [
    'SharedAccessSignature member',
    'BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01&sig=AbC%2BdEf0123456789xyz%3D',
    ['AbC%2BdEf0123456789xyz%3D', 'sv=2022-11-02&ss'],
  ],
  [
    'SAS URL sig=',
    'GET https://a.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2030-01-01&sp=r&sig=Zm9vYmFy%2FYmF6cXV4MTIz%3D failed',
    ['Zm9vYmFy%2FYmF6cXV4MTIz%3D'],
  ],
  [
    'ADO.NET Password=',
    'Server=tcp:db.example.com,1433;Initial Catalog=app;User ID=sa;Password=Tr0ub4dor&3;Encrypt=True',
    ['Tr0ub4dor'],
  ],
  ['ODBC Pwd= braced', 'Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd={p;a}}ss=w0rd};', ['p;a', 'ss=w0rd']],
  ['ODBC PWD= plain', 'DSN=prod;UID=app;PWD=hunter2;', ['hunter2']],
  ['JDBC sqlserver', 'jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=S3cret!pw;', ['S3cret!pw']],
  ['JDBC mysql query', 'jdbc:mysql://db:3306/app?user=app&password=s3cr3tpw&useSSL=true', ['s3cr3tpw']],
  ['JDBC oracle thin', 'jdbc:oracle:thin:scott/tiger99@db:1521/ORCL', ['tiger99']],
  ['postgres URL', 'postgresql://app:pg-pass-123@db.example.com:5432/app?sslmode=require', ['pg-pass-123']],
  [
    'mongodb+srv URL, @ in the password',
    'mongodb+srv://admin:p@ss-w0rd@cluster0.example.net/db',
    ['p@ss-w0rd', 'ss-w0rd'],
  ],
  ['mysql URL', 'mysql://root:r00tpw@127.0.0.1:3306/mysql', ['r00tpw']],
  ['redis URL, no user', 'redis://:redispass123@cache:6379/0', ['redispass123']],
  ['amqp URL', 'amqps://guest:guestpw1@mq.example.com/vhost', ['guestpw1']],
  ['basic auth URL', 'https://deploy:ZGVwbG95OnB3@example.com/repo.git', ['ZGVwbG95OnB3']],
  [
    'opaque value after a key-like name',
    'mode=prod;x_auth_sig=9f86d081884c7d659a2feaa0c55ad015;region=eu',
    ['9f86d081884c7d659a2feaa0c55ad015'],
  ],
  [
    'GCP service-account JSON',
    '{"type":"service_account","private_key_id":"0123456789abcdef0123456789abcdef01234567","private_key":"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n"}',
    ['0123456789abcdef0123456789abcdef01234567', 'MIIEvQIBADANBg'],
  ],
  ['AWS secret access key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', ['wJalrXUtnFEMI']],
  ['Anthropic api03', 'ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-AbCdEfAA', ['sk-ant-api03']],
  ['npm .npmrc', '//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', ['npm_AbCdEf']],
];

const connectionOrdinary = [
  'SharedAccessKeyName=RootManageSharedAccessKey;EntityPath=queue1',
  'DefaultEndpointsProtocol=https;AccountName=acct;EndpointSuffix=core.windows.net',
  'Server=db;Database=app;Trusted_Connection=True;',
  'design=flat signal=ok keys=3',
  'postgres://db.example.com:5432/app',
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
  'the token was configurationfile and the secret is obvious',
  'tokenizationIsGreat123 and passthrough=yes pass=3 fail=0',
  '',
];

describe('redact', () => {
  describe('one case per rule of the table', () => {
    it('covers every rule, and no case names a rule that does not exist', () => {
      assert.deepEqual([...new Set(ruleCases.map(([n]) => n))].sort(), REDACTION_RULES.map((r) => r.name).sort());
    });
    for (const [name, input, secret] of ruleCases) {
      it(`rule ${name} removes its secret`, () => {
        const out = redact(input);
        assert.ok(!out.includes(secret), `${JSON.stringify(out)} still contains ${secret}`);
        assert.ok(out.includes(REDACTED), out);
        const rule = REDACTION_RULES.find((r) => r.name === name)!;
        rule.re.lastIndex = 0;
        assert.ok(rule.re.test(input), `rule ${name} itself matches its case`);
        rule.re.lastIndex = 0;
      });
    }
  });

  it('redacts the reference prose and cookie forms in one line', () => {
    const out = redact('Cookie: session=0123456789abcdef; api key: relaykey1234567890; token abcdef0123456789ab');
    for (const secret of ['0123456789abcdef', 'relaykey1234567890', 'abcdef0123456789ab'])
      assert.ok(!out.includes(secret), out);
    assert.ok(out.startsWith('Cookie: '), out);
  });

  it('redacts prose forms without a cookie header', () => {
    assert.equal(redact('use token abcdef0123456789ab here'), `use token ${REDACTED} here`);
    assert.equal(redact('the secret is AbCdEfGhIjKlMnOpQr'), `the secret is ${REDACTED}`);
    assert.equal(redact('api key: relaykey1234567890'), `api key: ${REDACTED}`);
  });

  it('redacts every env-style secret pair', () => {
    const out = redact('DB_PASS=hunter2 SMTP_PASSWORD=letmein APP_SECRET=shh CI_JOB_TOKEN=abc');
    assert.equal(out, `DB_PASS=${REDACTED} SMTP_PASSWORD=${REDACTED} APP_SECRET=${REDACTED} CI_JOB_TOKEN=${REDACTED}`);
  });

  it('redacts a Set-Cookie header and a Stripe restricted key', () => {
    assert.equal(redact('Set-Cookie: sid=abc; Path=/; HttpOnly'), `Set-Cookie: ${REDACTED}`);
    assert.ok(!redact('rk_live_51Habcdefghij').includes('51Habcdefghij'));
  });

  for (const [name, input, secret] of secretCases) {
    it(`redacts ${name}`, () => {
      const out = redact(input);
      assert.ok(!out.includes(secret), `${JSON.stringify(out)} still contains ${secret}`);
      assert.ok(out.includes(REDACTED), out);
    });
  }

  for (const [name, input, secrets] of connectionCases) {
    it(`redacts a connection-string form: ${name}`, () => {
      const out = redact(input);
      for (const secret of secrets) assert.ok(!out.includes(secret), `${JSON.stringify(out)} still contains ${secret}`);
      assert.ok(out.includes(REDACTED), out);
      assert.equal(redact(out), out, 'idempotent');
    });
  }

  for (const text of connectionOrdinary) {
    it(`leaves a connection string without secrets untouched: ${text.slice(0, 40)}`, () => {
      assert.equal(redact(text), text);
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
