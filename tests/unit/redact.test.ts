// redact: what must be masked in command lines and screen text, and what must stay readable.
import { describe, expect, it } from 'vitest';
import { cut, isSecretName, redactCommand, redactText } from '../../src/daemon/redact.js';

// Fake credentials, assembled so no scanner mistakes this file for a leak.
const OPENAI = 'sk-' + 'proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const ANTHROPIC = 'sk-ant-' + 'api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe';
const GITHUB = 'ghp_' + 'aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2';
const GITHUB_PAT = 'github_pat_' + '11ABCDEFG0aBcDeFgHiJkL_MnOpQrStUvWxYz0123456789';
const SLACK = 'xoxb-' + '1234567890-0987654321-AbCdEfGhIjKlMnOp';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';
const JWT = 'eyJ' + 'hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const OPAQUE = 'Qm' + 'X7pL2vR9tK4wZ8nB3cF6hJ1sD5gY0aE';

describe('redactText: masked', () => {
  const cases: Array<[string, string]> = [
    [`--token=abc123`, `--token=***`],
    [`--token abc123`, `--token ***`],
    [`--api-key "two words"`, `--api-key ***`],
    [`--apiKey=xyz`, `--apiKey=***`],
    [`--client-secret s3cr3t --verbose`, `--client-secret *** --verbose`],
    [`--password='p@ss w0rd'`, `--password=***`],
    [`-passwd hunter2`, `-passwd ***`],
    [`--auth hunter2`, `--auth ***`],
    [`--credentials c`, `--credentials ***`],
    [`GITHUB_TOKEN=abc npm publish`, `GITHUB_TOKEN=*** npm publish`],
    [`export OPENAI_API_KEY=whatever`, `export OPENAI_API_KEY=***`],
    [`AWS_SECRET_ACCESS_KEY="a b c"`, `AWS_SECRET_ACCESS_KEY=***`],
    [`MYSQL_PWD=x mysql`, `MYSQL_PWD=*** mysql`],
    [`db_password=hunter2`, `db_password=***`],
    [`https://example.com/cb?access_token=abc&page=2`, `https://example.com/cb?access_token=***&page=2`],
    [`curl -H "Authorization: Bearer abc.def123" https://api`, `curl -H "Authorization: Bearer ***" https://api`],
    [`Authorization: Basic dXNlcjpwYXNz`, `Authorization: Basic ***`],
    [`Authorization: tok_123`, `Authorization: ***`],
    [`-H 'X-Api-Key: k123'`, `-H 'X-Api-Key: ***'`],
    [`{"client_secret": "abc", "name": "x"}`, `{"client_secret": "***", "name": "x"}`],
    [`password: hunter2`, `password: ***`],
    [`git clone https://user:pa55@github.com/o/r.git`, `git clone https://***@github.com/o/r.git`],
    [`postgres://admin:secret@db:5432/app`, `postgres://***@db:5432/app`],
    [`curl -u alice:wonderland https://x`, `curl -u alice:*** https://x`],
    [`key ${OPENAI} end`, `key sk-*** end`],
    [ANTHROPIC, `sk-***`],
    [`token is ${GITHUB}.`, `token is gh_***.`],
    [GITHUB_PAT, `gh_***`],
    [SLACK, `xox-***`],
    [`aws ${AWS}`, `aws AKIA***`],
    [`jwt ${JWT}`, `jwt eyJ***`],
    [`opaque ${OPAQUE} here`, `opaque *** here`],
  ];
  it.each(cases)('%s', (input, want) => {
    expect(redactText(input)).toBe(want);
  });
});

describe('redactText: left alone', () => {
  const keep = [
    'make test',
    'git commit -m "fix token refresh when the key rotates"',
    'cd /home/alice/projects/secret-santa && ls -la',
    '/usr/local/lib/node_modules/typescript/lib/tsc.js',
    'SyntaxError: Unexpected token: )',
    'Primary key: id',
    'Press any key to continue',
    '[sudo] password for alice:',
    'Password:',
    'npm install --save-dev @types/node',
    'PWD=/home/alice OLDPWD=/tmp',
    'mkdir -p build/out && ssh -p 2222 host',
    'docker run -u 1000:1000 -p 8080:80 image',
    'openssl req -key ./server.key -out req.csr',
    'SSH_KEY=~/.ssh/id_ed25519 deploy',
    '--key-file /etc/ssl/private/k.pem --auth-type basic',
    'git checkout 936d619e5b0c8d2a1f4e7b3c6d9a0e2f4b6c8d0a',
    'request 123e4567-e89b-12d3-a456-426614174000 failed',
    'pip install scikit-learn sk-learn-compatible-estimator',
    'The Bearer tokens are rotated daily',
    'ThisIsAVeryLongCamelCaseIdentifierName',
    'keyboard layout us, author alice',
    '--author "Alice Example" --no-verify',
  ];
  it.each(keep)('%s', (input) => {
    expect(redactText(input)).toBe(input);
  });
});

describe('redactCommand', () => {
  it('masks, then cuts to max characters ending in …', () => {
    const out = redactCommand(`deploy --token=${GITHUB} --region eu-west-1 --verbose --dry-run`, 30);
    expect(out).toBe('deploy --token=*** --region e…');
    expect(Array.from(out)).toHaveLength(30);
  });

  it('is left whole when short, and defaults to 50', () => {
    expect(redactCommand('claude --resume')).toBe('claude --resume');
    expect(Array.from(redactCommand('x'.repeat(80)))).toHaveLength(50);
  });

  it('never leaves half a secret showing at the cut', () => {
    const out = redactCommand(`run ${OPENAI}`, 12);
    expect(out).not.toMatch(/Ab3d/);
  });

  it('puts a command on one line without control characters', () => {
    expect(redactCommand('echo a\nb\tc\x1b[31m')).toBe('echo a b c[31m');
  });

  it("masks mysql's attached -pPASSWORD but not -p for other commands or a spaced -p", () => {
    expect(redactCommand('mysql -u root -phunter2 app')).toBe('mysql -u root -p*** app');
    expect(redactCommand('/usr/bin/mysqldump -psecret db')).toBe('/usr/bin/mysqldump -p*** db');
    expect(redactCommand('mysql -u root -p app')).toBe('mysql -u root -p app');
    expect(redactCommand('mkdir -pv build')).toBe('mkdir -pv build');
  });
});

describe('helpers', () => {
  it('isSecretName splits names and is stricter for "name: value"', () => {
    expect(isSecretName('GITHUB_TOKEN', false)).toBe(true);
    expect(isSecretName('accessToken', false)).toBe(true);
    expect(isSecretName('key', false)).toBe(true);
    expect(isSecretName('key', true)).toBe(false);
    expect(isSecretName('api-key', true)).toBe(true);
    expect(isSecretName('password', true)).toBe(true);
    expect(isSecretName('keyboard', false)).toBe(false);
    expect(isSecretName('key_file', false)).toBe(false);
    expect(isSecretName('PWD', false)).toBe(false);
  });

  it('cut counts code points and never splits a surrogate pair', () => {
    expect(cut('ab😀cd', 4)).toBe('ab😀…');
    expect(cut('abc', 3)).toBe('abc');
  });
});
