// Credential redaction for everything sidecar-sourced (stderr, peer error messages, labels, the
// initialize result, stream errors) before it reaches logs or UI. One table of rules, each named
// so the tests hold one case per row. Patterns favour catching secrets over preserving every byte
// of diagnostics, but ordinary prose must come through unchanged.

export const REDACTED = '[REDACTED]';

// Names that introduce a secret in `name=value`, `"name": "value"`, `--name value` forms. A name may
// carry a separated prefix (OPENAI_API_KEY, x-api-key, db.password) but must end on a whole word,
// so "monkey=" or "keyboard=" are left alone.
const SECRET_WORD =
  '(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?access)?(?:[_-]?key)?|client[_-]?secret|' +
  'private[_-]?key(?:[_-]?id)?|(?:access|refresh|auth|id|session|bearer)?[_-]?token|password|passwd|pwd|passphrase|key|credentials?)';
const NAME = `(?:[A-Za-z0-9]+[_.-])*${SECRET_WORD}`;
// Bare "key"/"token" followed by a colon is common prose ("key: the idea"), so the unquoted colon
// form only accepts names that are unmistakably secrets.
const STRONG_NAME =
  '(?:[A-Za-z0-9]+[_.-])*(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?key)?|client[_-]?secret|' +
  'private[_-]?key|(?:access|refresh|auth|session|bearer)[_-]?token|password|passwd|pwd|passphrase)';
const VALUE = `(?:\\[REDACTED\\]|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'|[^\\s"'&,;)}\\]]+)`;
// Words that introduce a secret in prose ("api key: X", "token X", "secret is X"); spaces allowed.
const PROSE_WORD =
  '(?:(?:api|access|secret|private|auth|client)[ _-]?key|apikey|(?:access|auth|api|bearer|refresh|session)?[ _-]?token|' +
  'secret|password|passwd|passphrase|credentials?)';
// An opaque token: 16+ token characters that contain a digit or mix upper and lower case, so a
// long ordinary word ("configurationfile") is not taken for one (checked in code: the rule's
// regex is case-insensitive for the word before it).
const OPAQUE = '[A-Za-z0-9._~+/-]{16,}={0,2}';
const isOpaque = (v: string): boolean => /[0-9]/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v));

type Replace = string | ((substring: string, ...groups: string[]) => string);

export interface RedactionRule {
  /** Stable name; the unit tests hold one case per rule. */
  readonly name: string;
  readonly re: RegExp;
  readonly replace: Replace;
}

const vendor = (name: string, re: RegExp): RedactionRule => ({ name, re, replace: REDACTED });

/** Applied in order; earlier rules see the raw text, later ones the partly redacted text. */
export const REDACTION_RULES: readonly RedactionRule[] = [
  // PEM private keys, including a block cut off by a truncated stderr ring.
  {
    name: 'pem-private-key',
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  // Tokens recognisable by their vendor prefix, wherever they appear.
  vendor('openai-anthropic', /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g),
  vendor('stripe', /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}/g),
  vendor('github-token', /\bgh[pousr]_[A-Za-z0-9]{20,}/g),
  vendor('github-pat', /\bgithub_pat_[A-Za-z0-9_]{20,}/g),
  vendor('gitlab-pat', /\bglpat-[A-Za-z0-9_-]{20,}/g),
  vendor('npm-token', /\bnpm_[A-Za-z0-9]{30,}/g),
  vendor('huggingface', /\bhf_[A-Za-z0-9]{30,}/g),
  vendor('slack', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g),
  vendor('sendgrid', /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g),
  vendor('databricks', /\bdapi[0-9a-f]{32}(?:-[0-9]+)?/g),
  vendor('aws-access-key-id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g),
  vendor('google-api-key', /\bAIza[0-9A-Za-z_-]{35}/g),
  vendor('jwt', /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g),
  // The vendor classes of secretlint's recommended preset that the table did not yet have.
  vendor('slack-webhook', /\bhooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g),
  vendor('onepassword', /\bops_eyJ[A-Za-z0-9+/=_-]{16,}/g),
  vendor('figma', /\bfig[dh]_[A-Za-z0-9_-]{20,}/g),
  vendor('grafana', /\bgl(?:c|sa)_[A-Za-z0-9_=+/-]{20,}/g),
  vendor('groq', /\bgsk_[A-Za-z0-9]{20,}/g),
  vendor('hashicorp-vault', /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g),
  vendor('linear', /\blin_(?:api|oauth)_[A-Za-z0-9]{20,}/g),
  vendor('notion', /\bntn_[A-Za-z0-9]{20,}/g),
  vendor('shopify', /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{20,}/g),
  // Connection strings (ADO.NET, ODBC, Azure storage/Service Bus/Event Hubs, SAS): the secret
  // members by name, with ODBC's braced `{...}` values whole (`}}` is a brace inside). `SharedAccessKeyName` is a name,
  // not a secret: the lookahead wants `=` right after the secret word.
  {
    name: 'connection-string-secret',
    re: new RegExp(
      `(?<![A-Za-z0-9])((?:Account|SharedAccess|Primary|Secondary|Storage|Client|Master|Access|Api|Auth)?(?:Key|Secret|Signature|Token)|Password|Passwd|Pwd|User[ _]?Password|sig)(\\s*=\\s*)(\\{(?:[^}\\n]|\\}\\})*\\}|${VALUE})`,
      'gi',
    ),
    replace: (_m, name, sep, value: string) => `${name}${sep}${value[0] === '{' ? `{${REDACTED}}` : quoteLike(value)}`,
  },
  // Oracle's thin form: jdbc:oracle:thin:user/password@host
  {
    name: 'jdbc-oracle-credentials',
    re: /\b(jdbc:oracle:[a-z0-9]+:[^\s/:@]+\/)([^\s@]+)@/gi,
    replace: (_m, pre) => `${pre}${REDACTED}@`,
  },
  // Credentials embedded in URLs: scheme://user:secret@host
  {
    name: 'url-credentials',
    // The password runs to the last `@` before the host (a password may hold an `@`); the user may be empty.
    re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)([^\s/]*[^\s/@])@(?=[^\s@/])/gi,
    replace: (_m, pre) => `${pre}${REDACTED}@`,
  },
  // Authorization headers and bare bearer tokens.
  {
    name: 'authorization-header',
    re: /\b(authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|digest)\s+)?([^\s"',;]+)/gi,
    replace: (_m, pre, scheme) => `${pre}${scheme ? `${scheme} ` : ''}${REDACTED}`,
  },
  {
    name: 'bearer',
    re: /\b(bearer)\s+(?!\[REDACTED\])[A-Za-z0-9\-._~+/]{8,}=*/gi,
    replace: (_m, word) => `${word} ${REDACTED}`,
  },
  // Cookie headers: the whole value (every pair, attributes included) to the end of the line.
  {
    name: 'cookie-header',
    re: /\b((?:set-)?cookie)(["']?\s*:\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\r\n]+)/gi,
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // Environment pairs whose name ends in a secret word: DB_PASS=x, SMTP_PASSWORD=x, APP_SECRET=x.
  {
    name: 'env-secret-pair',
    re: new RegExp(
      `\\b([A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_(?:PASS|PASSWORD|PASSWD|PWD|SECRET|TOKEN|KEY))(\\s*=\\s*)(${VALUE})`,
      'gi',
    ),
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // JSON form: "api_key": "value"  (also single-quoted keys and non-string values)
  {
    name: 'json-member',
    re: new RegExp(
      `(["'])(${NAME})\\1(\\s*:\\s*)(\\[REDACTED\\]|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'|[^\\s,}\\]]+)`,
      'gi',
    ),
    replace: (_m, q, name, sep, value: string) => `${q}${name}${q}${sep}${quoteLike(value)}`,
  },
  // Command-line form: --password x, --api-key=x, -token x
  {
    name: 'cli-flag',
    re: new RegExp(`(^|\\s)(--?${NAME})(=|\\s+)(${VALUE})`, 'gim'),
    replace: (_m, lead, flag, sep, value: string) => `${lead}${flag}${sep}${quoteLike(value)}`,
  },
  // name=value pairs (query strings, env dumps, config lines).
  {
    name: 'name-equals-value',
    re: new RegExp(`\\b(${NAME})(\\s*=\\s*)(${VALUE})`, 'gi'),
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // Header / YAML form for unmistakable names: "X-Api-Key: value", "password: hunter2".
  {
    name: 'strong-name-colon',
    re: new RegExp(`\\b(${STRONG_NAME})(\\s*:\\s*)(${VALUE})`, 'gi'),
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // A long opaque value after any key-like name in k=v;k=v text (MyServiceKey=..., x_auth_sig=...):
  // the name contains a secret word anywhere, the value is 16+ token characters with a digit or
  // mixed case. Names ending in Name/Id/Type/Version are labels (SharedAccessKeyName=...).
  {
    name: 'key-like-opaque-value',
    re: new RegExp(
      `(?<![A-Za-z0-9])([A-Za-z][A-Za-z0-9_.-]*?(?:key|secret|token|signature|sig|password|passwd|pwd|credential|auth)[A-Za-z0-9_.-]*)(\\s*=\\s*)(${OPAQUE})`,
      'gi',
    ),
    replace: (m, name: string, sep, value: string) =>
      isOpaque(value) && !/(?:name|id|type|version)$/i.test(name) ? `${name}${sep}${REDACTED}` : m,
  },
  // Prose: "api key: relaykey1234567890", "token abcdef0123456789ab", "secret is QUJD…".
  {
    name: 'prose-opaque-token',
    re: new RegExp(`\\b(${PROSE_WORD})(\\s*[:=]\\s*|\\s+(?:is\\s+|was\\s+|of\\s+)?)(${OPAQUE})`, 'gi'),
    replace: (m, name, sep, value: string) => (isOpaque(value) ? `${name}${sep}${REDACTED}` : m),
  },
];

/** Keeps the quoting of a redacted value so JSON-ish text stays readable. */
function quoteLike(value: string): string {
  if (value === REDACTED || value === `"${REDACTED}"` || value === `'${REDACTED}'`) return value;
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value[value.length - 1] === q) {
    return value.length === 2 ? value : `${q}${REDACTED}${q}`; // keep empty strings empty
  }
  return REDACTED;
}

// Cheap pre-check: text without any of these fragments cannot match a rule, so the common case
// (plain log lines) skips every regex.
const TRIGGER =
  /key|token|secret|pass|pwd|auth|bearer|cookie|credential|sig|sk-|[rsp]k_|gh[pousr]_|github_pat|glpat-|npm_|hf_|SG\.|dapi|xox|AKIA|ASIA|AIza|eyJ|PRIVATE|:\/\/[^\s]*@|hooks\.slack|ops_|fig[dh]_|gl(?:c|sa)_|gsk_|hv[sbr]\.|lin_|ntn_|shp(?:at|ca|pa|ss)_|jdbc:oracle/i;

/** Replaces credentials in `text` with `[REDACTED]`. */
export function redact(text: string): string {
  if (!text || !TRIGGER.test(text)) return text;
  let out = text;
  for (const rule of REDACTION_RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, rule.replace as (substring: string, ...args: string[]) => string);
  }
  return out;
}

/** Redacts every string inside a JSON value (object keys are left alone). Returns a copy. */
export function redactDeep<T>(value: T): T {
  return deep(value) as T;
}

function deep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(deep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = deep(v);
    return out;
  }
  return value;
}
