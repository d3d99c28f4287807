// Credential redaction for everything sidecar-sourced (stderr tails, peer error messages, labels,
// stream errors) before it reaches logs or UI. Patterns favour catching secrets over preserving
// every byte of diagnostics, but ordinary prose must come through unchanged.

export const REDACTED = '[REDACTED]';

// Names that introduce a secret in `name=value`, `"name": "value"`, `--name value` forms. A name may
// carry a separated prefix (OPENAI_API_KEY, x-api-key, db.password) but must end on a whole word,
// so "monkey=" or "keyboard=" are left alone.
const SECRET_WORD =
  '(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?access)?(?:[_-]?key)?|client[_-]?secret|' +
  'private[_-]?key|(?:access|refresh|auth|id|session|bearer)?[_-]?token|password|passwd|pwd|passphrase|key|credentials?)';
const NAME = `(?:[A-Za-z0-9]+[_.-])*${SECRET_WORD}`;
// Bare "key"/"token" followed by a colon is common prose ("key: the idea"), so the unquoted colon
// form only accepts names that are unmistakably secrets.
const STRONG_NAME =
  '(?:[A-Za-z0-9]+[_.-])*(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?key)?|client[_-]?secret|' +
  'private[_-]?key|(?:access|refresh|auth|session|bearer)[_-]?token|password|passwd|pwd|passphrase)';
const VALUE = `(?:\\[REDACTED\\]|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'|[^\\s"'&,;)}\\]]+)`;

interface Rule {
  re: RegExp;
  replace: string | ((substring: string, ...groups: string[]) => string);
}

const RULES: Rule[] = [
  // PEM private keys, including a block cut off by a truncated stderr ring.
  {
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  // Tokens recognisable by their vendor prefix, wherever they appear.
  { re: /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, replace: REDACTED },
  { re: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}/g, replace: REDACTED },
  { re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replace: REDACTED },
  { re: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replace: REDACTED },
  { re: /\bxox[bpasr]-[A-Za-z0-9-]{10,}/g, replace: REDACTED },
  { re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED },
  { re: /\bAIza[0-9A-Za-z_-]{35}/g, replace: REDACTED },
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  // Credentials embedded in URLs: scheme://user:secret@host
  { re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)@/gi, replace: (_m, pre) => `${pre}${REDACTED}@` },
  // Authorization headers and bare bearer tokens.
  {
    re: /\b(authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|digest)\s+)?([^\s"',;]+)/gi,
    replace: (_m, pre, scheme) => `${pre}${scheme ? `${scheme} ` : ''}${REDACTED}`,
  },
  { re: /\b(bearer)\s+(?!\[REDACTED\])[A-Za-z0-9\-._~+/]{8,}=*/gi, replace: (_m, word) => `${word} ${REDACTED}` },
  // JSON form: "api_key": "value"  (also single-quoted keys and non-string values)
  {
    re: new RegExp(`(["'])(${NAME})\\1(\\s*:\\s*)(\\[REDACTED\\]|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'|[^\\s,}\\]]+)`, 'gi'),
    replace: (_m, q, name, sep, value: string) => `${q}${name}${q}${sep}${quoteLike(value)}`,
  },
  // Command-line form: --password x, --api-key=x, -token x
  {
    re: new RegExp(`(^|\\s)(--?${NAME})(=|\\s+)(${VALUE})`, 'gim'),
    replace: (_m, lead, flag, sep, value: string) => `${lead}${flag}${sep}${quoteLike(value)}`,
  },
  // name=value pairs (query strings, env dumps, config lines).
  {
    re: new RegExp(`\\b(${NAME})(\\s*=\\s*)(${VALUE})`, 'gi'),
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // Header / YAML form for unmistakable names: "X-Api-Key: value", "password: hunter2".
  {
    re: new RegExp(`\\b(${STRONG_NAME})(\\s*:\\s*)(${VALUE})`, 'gi'),
    replace: (_m, name, sep, value: string) => `${name}${sep}${quoteLike(value)}`,
  },
  // A long hex/base64 run right after a key-like word: "api key 9f8e7d…", "token is QUJD…".
  {
    re: new RegExp(`\\b(${NAME})(\\s+(?:is\\s+|of\\s+)?)(?=[A-Za-z+/_-]*[0-9])([A-Za-z0-9+/_-]{20,}={0,2})`, 'gi'),
    replace: (_m, name, sep) => `${name}${sep}${REDACTED}`,
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
const TRIGGER = /key|token|secret|pass|pwd|auth|bearer|sk-|[rsp]k_|gh[pousr]_|github_pat|xox|AKIA|ASIA|AIza|eyJ|PRIVATE|credential|:\/\/[^\s]*@/i;

/** Replaces credentials in `text` with `[REDACTED]`. */
export function redact(text: string): string {
  if (!text || !TRIGGER.test(text)) return text;
  let out = text;
  for (const rule of RULES) {
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
