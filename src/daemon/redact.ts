// Masks secrets in command lines and screen text before they are logged, stored or sent anywhere: values of
// secret-named flags, env assignments and headers, bearer tokens, URL passwords, and strings shaped like API keys.
// Masking errs on the side of hiding a harmless value over showing a key, but ordinary words, paths, hashes and
// UUIDs are left alone: a log nobody can read helps nobody.

export const MASK = '***';

/** Command lines are cut to this many characters by default: enough to recognise the command, not a script. */
export const COMMAND_MAX = 50;

/**
 * A bare token this long or longer may be a key without a known prefix. Shorter random-looking strings are
 * mostly identifiers and short hashes; keys are 32+ characters almost everywhere.
 */
const OPAQUE_MIN_LEN = 32;
/**
 * ...and only when its characters are this varied (Shannon entropy, bits per character): random base62/base64
 * runs score 4.5+, long camelCase identifiers and words about 3.5-4, so names are not mistaken for keys.
 */
const OPAQUE_MIN_ENTROPY = 4.2;
/** A bearer/basic credential this long is masked even without a digit ("Bearer tokens" in prose is not one). */
const BEARER_PROSE_MAX = 20;

/** Words that name a secret, as one segment of a flag, variable or header name (`--api-key`, `GITHUB_TOKEN`). */
const SECRET_WORD =
  /^(?:\w*(?:token|secret|password|passwd|credential)s?|(?:api|access|secret|private|client|auth|session|master|signing|encryption)?keys?|pwd|auth|apikey)$/i;
/** A name whose last segment is one of these is about a secret, not the secret (`--key-file`, `KEY_ID`). */
const NOT_A_SECRET_SUFFIX = /^(?:file|path|dir|name|type|size|len|length|format|id|url|count|mode)$/i;
/** Names that contain a secret word but are well-known non-secrets. */
const NOT_A_SECRET_NAME = new Set(['pwd', 'oldpwd']);
/**
 * In "name: value" form (headers, YAML, JSON, prose) a lone generic word is too common in ordinary text
 * ("unexpected token: )", "primary key: id"); there the name needs two segments or a word that is only ever a secret.
 */
const STRONG_LONE_WORD = /^(?:password|passwd|secret|secrets|apikey|credentials?|pwd)$/i;

/** A value: quoted, or a run up to whitespace, a quote or a separator of the surrounding syntax. */
const VALUE = String.raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s"'&;,]+)`;

/** `--token=x`, `--token x`, `-token x` (the value of a spaced flag never starts with "-": that is the next flag). */
const FLAG_RE = new RegExp(String.raw`(?<![\w.-])(--?)([A-Za-z][\w.-]*)(=|\s+(?=[^\s-]))(${VALUE})`, 'g');
/** `TOKEN=x`, `export DB_PASSWORD='x y'`, `?api_key=x&` in a URL. */
const ASSIGN_RE = new RegExp(String.raw`(?<![\w.-])([A-Za-z_][\w]*)=(${VALUE})`, 'g');
/** `aws_secret_access_key = x`, `api_key =x` (config files, code, `aws configure list`): spaces around the "="; never
 * "==" (a comparison). Judged as the colon form is: a lone generic word ("key = 3") is not a secret's name. */
const SPACED_ASSIGN_RE = new RegExp(String.raw`(?<![\w.-])([A-Za-z_][\w.-]*)(\s+=(?!=)\s*|=(?!=)\s+)(${VALUE})`, 'g');
/** `X-Api-Key: x`, `"client_secret": "x"`, `password: x`. */
const COLON_RE = new RegExp(String.raw`(?<![\w.-])(["']?)([A-Za-z][\w.-]*)\1(\s*:\s*)(?!//)(${VALUE})`, 'g');
/** `Authorization: [scheme] x`: whatever follows the header name is a credential. */
const AUTH_HEADER_RE = new RegExp(String.raw`\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Digest)\s+)?)([^\s"',;]+)`, 'gi');
/** A bearer credential outside a header (`--header Bearer x`, a pasted `Bearer x`). */
const BEARER_RE = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9._~+/=-]{6,})/g;
/** `https://user:pass@host`: the whole userinfo goes (a user name next to a password is often a key id). */
const USERINFO_RE = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/@:]*:[^\s/@]*@/gi;

/**
 * Key bodies are matched up to this many characters: longer than any real key (JWTs aside, which are matched per
 * part), and it keeps each attempt bounded, so a hostile line of "sk-sk-sk-…" costs linear time, not quadratic.
 */
const KEY_MAX = 256;
const K = KEY_MAX;

/** Known key formats, prefix kept so a reader still sees which kind of key was there. */
const KEY_SHAPES: Array<[RegExp, string]> = [
  // OpenAI, Anthropic (sk-ant-…), sk-proj-…: a digit is required so "sk-learn-compatible-estimator" stays
  [new RegExp(String.raw`\bsk-(?=[A-Za-z_-]{0,${K}}\d)[A-Za-z0-9_-]{20,${K}}`, 'g'), 'sk-'],
  [new RegExp(String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{20,${K}}|github_pat_[A-Za-z0-9_]{20,${K}})`, 'g'), 'gh_'], // GitHub
  [new RegExp(String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,${K}}`, 'g'), 'xox-'], // Slack
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, 'AKIA'], // AWS access key id
  [new RegExp(String.raw`\bAIza[0-9A-Za-z_-]{30,${K}}`, 'g'), 'AIza'], // Google API key
  [new RegExp(String.raw`\bglpat-[A-Za-z0-9_-]{20,${K}}`, 'g'), 'glpat-'], // GitLab
  [new RegExp(String.raw`\bnpm_[A-Za-z0-9]{30,${K}}`, 'g'), 'npm_'], // npm
  [new RegExp(String.raw`\beyJ[A-Za-z0-9_-]{8,${4 * K}}\.[A-Za-z0-9_-]{8,${4 * K}}\.[A-Za-z0-9_-]{8,${K}}`, 'g'), 'eyJ'], // JWT
];
/** An AWS secret access key's shape: 40 characters of base64 with "/" or "+" in it (OPAQUE_RE leaves those out,
 * so a path is never one run there); masked when as varied as a key (looksOpaque). */
const AWS_SECRET_RE = /(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9+]*[/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** A long run of key-alphabet characters (no "/" or ".", so paths and file names are never one run). */
const OPAQUE_RE = new RegExp(String.raw`(?<![\w+=-])[A-Za-z0-9_+=-]{${OPAQUE_MIN_LEN},}(?![\w+=-])`, 'g');

/** curl/wget style `-u user:password`, `--user user:password`: the part after the colon is the password. */
const USER_FLAG = /^(?:u|user|proxy-user)$/;

const MYSQL_LIKE = /^(?:\S*\/)?(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)$/;
/** mysql's attached password (`-pSECRET`); `-p SECRET` with a space is a prompt and a database name. */
const MYSQL_PASSWORD_RE = /(?<=\s)-p(?=\S)(\S+)/g;

/** One masking pass: every match of `re` (global) becomes what `to` makes of it (the same text: left alone). */
export type RedactStep = readonly [re: RegExp, to: (match: string, ...groups: string[]) => string];

/** The passes of redactText, in order: each sees what the passes before it left (a masked value is not masked
 * again). Shared with redact-lines.ts, which follows which characters each pass hid. */
export const REDACT_STEPS: readonly RedactStep[] = [
  [USERINFO_RE, (_m, scheme) => `${scheme}${MASK}@`],
  [AUTH_HEADER_RE, (_m, head) => `${head}${MASK}`],
  [BEARER_RE, (m, scheme, sp, cred) => (/\d/.test(cred!) || cred!.length >= BEARER_PROSE_MAX ? `${scheme}${sp}${MASK}` : m)],
  [
    FLAG_RE,
    (m, dashes, name, sep, value) => {
      if (USER_FLAG.test(name!) && /:(?!\d+$)/.test(value!)) return `${dashes}${name}${sep}${value!.slice(0, value!.indexOf(':') + 1)}${MASK}`;
      return isSecretName(name!, false) && !isMasked(value!) && !looksLikePath(value!) ? `${dashes}${name}${sep}${MASK}` : m;
    },
  ],
  [ASSIGN_RE, (m, name, value) => (isSecretName(name!, false) && !isMasked(value!) && !looksLikePath(value!) ? `${name}=${MASK}` : m)],
  [SPACED_ASSIGN_RE, (m, name, sep, value) => (isSecretName(name!, true) && !isMasked(value!) && !looksLikePath(value!) ? `${name}${sep}${MASK}` : m)],
  [COLON_RE, (m, q, name, sep, value) => (isSecretName(name!, true) && !isMasked(value!) ? `${q}${name}${q}${sep}${q ? `"${MASK}"` : MASK}` : m)],
  ...KEY_SHAPES.map(([re, prefix]): RedactStep => [re, () => `${prefix}${MASK}`]),
  [AWS_SECRET_RE, (m) => (looksOpaque(m.replace(/[/+]/g, '')) ? MASK : m)],
  [OPAQUE_RE, (m) => (looksOpaque(m) ? MASK : m)],
];

/** Mask secrets in free text (a screen line, an error message); nothing is cut. */
export function redactText(s: string): string {
  if (!s) return s;
  let out = s;
  for (const [re, to] of REDACT_STEPS) out = out.replace(re, to as (m: string, ...rest: unknown[]) => string);
  return out;
}

/**
 * A command line fit for a log or a pane record: secrets masked, on one line, cut to `max` characters with "…".
 * Masking happens before the cut, so a cut never leaves half a secret showing.
 */
export function redactCommand(cmd: string, max = COMMAND_MAX): string {
  let out = cmd.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  if (MYSQL_LIKE.test(out.trimStart().split(/\s+/)[0] ?? '')) out = out.replace(MYSQL_PASSWORD_RE, `-p${MASK}`);
  out = redactText(out);
  return cut(out, max);
}

/** Cut to at most `max` characters (code points, never half a surrogate pair), ending in "…" when cut. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const chars = Array.from(s);
  if (chars.length <= max) return s;
  return max <= 0 ? '' : chars.slice(0, max - 1).join('') + '…';
}

/** Whether a flag, variable or header name names a secret. `colonForm`: the stricter "name: value" rule. */
export function isSecretName(name: string, colonForm: boolean): boolean {
  if (NOT_A_SECRET_NAME.has(name.toLowerCase())) return false;
  // GITHUB_TOKEN, api-key, x.api.key, accessToken → segments
  const segments = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[-_.]+/)
    .filter(Boolean);
  if (segments.length === 0) return false;
  const last = segments[segments.length - 1]!;
  if (segments.length > 1 && NOT_A_SECRET_SUFFIX.test(last)) return false;
  if (!segments.some((s) => SECRET_WORD.test(s))) return false;
  if (colonForm && segments.length === 1) return STRONG_LONE_WORD.test(last);
  return true;
}

/** A file holding a secret is named, not the secret (`--key ./server.pem`, `SSH_KEY=~/.ssh/id_ed25519`). */
function looksLikePath(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  return /^(?:~|\.{1,2})?\//.test(v) || /^[\w-]+\.(?:pem|key|crt|cer|json|txt|env|pub|p12|pfx|asc|gpg|ya?ml|toml|ini|conf)$/i.test(v);
}

function isMasked(value: string): boolean {
  return value.replace(/^["']|["']$/g, '') === MASK;
}

/** Long, mixed-alphabet and varied: random, not a word, a hash (hex) or a UUID. */
function looksOpaque(s: string): boolean {
  if (/^[0-9a-fA-F-]+$/.test(s)) return false; // git/sha hashes, UUIDs: everyday output, not keys
  if (!/[0-9]/.test(s) || !/[a-z]/.test(s) || !/[A-Z]/.test(s)) return false;
  return entropy(s) >= OPAQUE_MIN_ENTROPY;
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
