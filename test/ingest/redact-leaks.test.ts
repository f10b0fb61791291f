import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactJsonText, redactTitle } from '../../src/core/redact/redact-item.js';
import { redactValue } from '../../src/core/redact/redact-value.js';
import { redactText, type RedactionCounts } from '../../src/core/redact/redact.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { storeBytes } from '../helpers/store-files.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/** Each leak and each false positive the adversarial pass of issue 15 found, as a test of its own. */

const HF = 'hf_Zq8xW2eR4tY6uI0oP3aS5dF7gH9jK1lLmN';

describe('leaks the adversarial pass found', () => {
  it('judges a tool-call JSON field with its key: "password", "api_key", "token" whatever their shape', () => {
    const input = JSON.stringify({ command: 'psql -h db', password: 'two words here', api_key: 'abc12345', token: 'tok 123', description: 'run it' });
    const counts: RedactionCounts = {};
    const out = redactJsonText(input, counts) ?? '';
    for (const secret of ['two words here', 'abc12345', 'tok 123']) expect(out).not.toContain(secret);
    expect(JSON.parse(out)).toMatchObject({ command: 'psql -h db', description: 'run it', password: '[REDACTED:secret-field]' });
    expect(counts['secret-field']).toBe(3);
  });

  it('keeps every secret before a later curl -u or mysql -p on the same line from leaking', () => {
    const line = `HF_TOKEN=${HF} hf download m && export DB_PASSWORD=Db9xLq2w && curl -u ops:Cu9xLq2w https://x && mysql -u root -pMq9xLq2w`;
    const out = redactText(line, {});
    for (const secret of [HF, 'Db9xLq2w', 'Cu9xLq2w', 'Mq9xLq2w']) expect(out).not.toContain(secret);
    expect(out).toContain('hf download m && export DB_PASSWORD=');
  });

  it('removes passwords with spaces whole', () => {
    for (const [text, secret] of [
      ["mysql -u root -p'Zq9 Wx8 Lm7' app", 'Zq9 Wx8 Lm7'],
      ["sshpass -p 'Hq9 Bx8 Sm7' ssh ops@h", 'Hq9 Bx8 Sm7'],
      ['{"password": "Cq9 Hx8 Bm7"}', 'Cq9 Hx8 Bm7'],
      ['[pypi]\npassword = Pq9 Yx8 Rm7\n', 'Pq9 Yx8 Rm7'],
      ['Server=db;User ID=sa;Password=Sq9 Qx8 Lm7;Encrypt=True', 'Sq9 Qx8 Lm7'],
    ] as const) {
      const out = redactText(text, {});
      for (const word of secret.split(' ')) expect(out, text).not.toContain(word);
    }
  });

  it('removes a URL password holding / or @, and keeps the user and host', () => {
    const out = redactText('git clone https://ops:pa/ss@w0rd@git.example.com/team/app.git', {});
    expect(out).toBe('git clone https://ops:[REDACTED:url-password]@git.example.com/team/app.git');
  });

  it('reads through grep --color: escape codes between the name and its value', () => {
    const text = '\x1b[35m\x1b[K.env\x1b[m\x1b[K:\x1b[01;31m\x1b[KDB_PASSWORD\x1b[m\x1b[K=Gr9xLq2w\nnext';
    const out = redactText(text, {});
    expect(out).not.toContain('Gr9xLq2w');
    expect(out).toContain('DB_PASSWORD');
    expect(out.endsWith('\nnext')).toBe(true);
  });

  it('reads escaped JSON: a Secret inside kubectl last-applied-configuration', () => {
    const text = `"kubectl.kubernetes.io/last-applied-configuration": "{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"ca.crt\\":\\"Y2VydGlmaWNhdGU=\\",\\"password\\":\\"cDRzc3cwcmQ=\\"},\\"kind\\":\\"Secret\\"}"`;
    const out = redactText(text, {});
    expect(out).not.toContain('cDRzc3cwcmQ=');
    expect(out).not.toContain('Y2VydGlmaWNhdGU=');
    expect(out).toContain('\\"kind\\":\\"Secret\\"');
  });

  it('reads a Codex argv as the command line it is', () => {
    const input = JSON.stringify({ command: ['mysql', '-u', 'root', '-pMq9xLq2w', '-e', 'SHOW DATABASES'], workdir: '/w' });
    const out = JSON.parse(redactJsonText(input, {}) ?? '{}') as { command: string[] };
    expect(out.command).toEqual(['mysql', '-u', 'root', '-p[REDACTED:mysql-password]', '-e', 'SHOW DATABASES']);
    const login = JSON.parse(redactJsonText(JSON.stringify({ command: ['docker', 'login', 'r.io', '-u', 'bot', '-p', 'Dk9xLq2w'] }), {}) ?? '{}') as { command: string[] };
    expect(login.command.at(-1)).toBe('[REDACTED:docker-login-password]');
  });

  it('judges a value by its sibling name and every value of a Kubernetes Secret', () => {
    const out = redactValue({
      env: [{ name: 'DB_PASSWORD', value: 'plain words' }, { name: 'LOG_LEVEL', value: 'debug' }],
      secret: { kind: 'Secret', data: { 'tls.key': 'a2V5', username: 'YWRtaW4=' }, metadata: { name: 'db' } },
    }, {}) as { env: { value: string }[]; secret: { data: Record<string, string>; metadata: { name: string } } };
    expect(out.env.map((e) => e.value)).toEqual(['[REDACTED:secret-field]', 'debug']);
    expect(Object.values(out.secret.data)).toEqual(['[REDACTED:kubernetes-secret]', '[REDACTED:kubernetes-secret]']);
    expect(out.secret.metadata.name).toBe('db');
  });

  it('walks values nested 20,000 deep and keeps a __proto__ key an ordinary key', () => {
    let deep: unknown = { password: 'Deep9xLq2w' };
    for (let i = 0; i < 20_000; i++) deep = [deep];
    let out = redactValue(deep, {});
    for (let i = 0; i < 20_000; i++) out = (out as unknown[])[0];
    expect(out).toEqual({ password: '[REDACTED:secret-field]' });
    const proto = redactValue(JSON.parse('{"__proto__": {"token": "Tk9xLq2wZ"}}'), {}) as Record<string, unknown>;
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(JSON.stringify(proto)).toBe('{"__proto__":{"token":"[REDACTED:secret-field]"}}');
  });

  it('removes the start of a secret a title cut at 80 characters', () => {
    const title = `deploy the model with HF_TOKEN=hf_Zq8xW2eR4tY6…`;
    expect(redactTitle(title, {})).toBe('deploy the model with HF_TOKEN=[REDACTED:truncated-secret]…');
    expect(redactTitle('deploy with ghp_Zq8xW2eR4tY6uI…', {})).toBe('deploy with [REDACTED:truncated-secret]…');
    expect(redactTitle('Deploy Qwen/Qwen3.5-122B-A10B-FP8 on both sparks and compare the throughput of…', {})).toBe('Deploy Qwen/Qwen3.5-122B-A10B-FP8 on both sparks and compare the throughput of…');
  });

  it('keeps a JSON text with nothing to redact byte for byte', () => {
    const text = '{ "max_tokens": 100,  "token_type": "bearer", "tokens": {"input": 1} }';
    expect(redactJsonText(text, {})).toBe(text);
  });
});

describe('false positives that damaged stored code', () => {
  for (const text of [
    'const token = await getToken();',
    'token = getToken()',
    '  password: process.env.DB_PASSWORD,',
    'DATABASE_URL=postgres://${DB_USER:-app}:${DB_PASS:-secret}@db:5432/app',
    'HF_TOKEN=$HF_TOKEN hf download m',
    'api_key: <your-api-key>',
    'curl -H "Authorization: Bearer <your-token>" https://api.example.com',
  ]) {
    it(`leaves ${JSON.stringify(text)} as it is`, () => expect(redactText(text, {})).toBe(text));
  }
  it('leaves code in a tool input as it is', () => {
    const input = JSON.stringify({ file_path: 'auth.ts', content: 'export async function login() {\n  const token = await getToken();\n  return { password: process.env.DB_PASSWORD, token };\n}\n' });
    expect(redactJsonText(input, {})).toBe(input);
  });
});

describe('a token in a transcript folder name', () => {
  it('reaches neither sources.key nor sources.path, and the file is still found unchanged on the next ingest', async () => {
    const dir = tempDir('retrace-secret-path-');
    const fixture = join(REPO_ROOT, 'test/fixtures/claude/projects/-home-ops-gptoss/d96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl');
    const folder = join(dir, 'projects', `-home-ops-${HF}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'd96690bf-84e5-4021-84e4-48dbd0b8dfa3.jsonl'), readFileSync(fixture));
    const db = tempDbPath(dir);
    const first = await ingestPaths(db, [folder]);
    expect(first.errors).toEqual([]);
    expect(first.redactions_by_kind['huggingface-token']).toBeGreaterThanOrEqual(2);
    const again = await ingestPaths(db, [folder]);
    expect(again.skipped_unchanged).toBe(1);
    const rows = await queryStore(db, (store) => store.all('SELECT key, path FROM sources'));
    expect(rows).toHaveLength(1);
    expect(String(rows[0]?.['path'])).toContain('-home-ops-[REDACTED:huggingface-token]/');
    expect(String(rows[0]?.['key'])).toMatch(/\[REDACTED:huggingface-token\].*#[0-9a-f]{16}$/);
    expect(storeBytes(db).includes(Buffer.from(HF))).toBe(false);
  }, 60_000);
});
