import type { SecretRule } from '../rule.js';

/**
 * A value given a secret-ish name: `DB_PASSWORD=…`, `"api_key": "…"`, `password: …`, `--token …`,
 * `X-Api-Key: …`. The expression captures the name and the value; the name is judged by
 * `names.ts`, the value by `values.ts` (a reference, placeholder, code or path stays).
 */

/** Words every name these rules judge contains (the keyword prefilter). */
export const SECRET_WORDS: readonly string[] = [
  'password', 'passwd', 'passphrase', 'secret', 'token', 'key', 'credential', 'auth', 'pwd', '_pass', '-pass', '.pass',
  '_pw', '-pw', '_pat', 'storepass', 'keypass',
];

/** A quoted string with escapes, a single-quoted one, or a shell word: groups +1, +2, +3. */
const VALUE = String.raw`(?:"((?:[^"\\\n]|\\.){1,1024})"|'([^'\n]{1,1024})'|([^\s"'\x60;&|<>,]{1,1024}))`;
/** A quoted string, or the rest of the line (a trailing ` # comment` left out): groups +1, +2, +3. */
const VALUE_TO_EOL = String.raw`(?:"((?:[^"\\\n]|\\.){1,1024})"|'((?:[^'\\\n]|\\.){1,1024})'|([^\s"'#][^\n]{0,1023}?))[ \t]{0,8}(?:[ \t]#[^\n]{0,512})?(?=\r?\n|$)`;
const NAME = String.raw`([A-Za-z_][\w.-]{0,63})`;
/** What tools put before a line of a file: a diff's `+`, `cat -n`'s or Read's line number, grep's `file:12:`. */
const LINE_PREFIX = String.raw`(?:[+\->]|[ \t]{0,8}\d{1,7}(?:→|\t|:|\|)|[^\s:"'=]{1,256}:(?:\d{1,7}[:-])?)?`;

export const NAMED_VALUES: readonly SecretRule[] = [
  {
    id: 'secret-assignment',
    description: 'NAME=value in shell, .env, docker -e, helm --set, libpq and URL query strings (the value ends at a space; shell-quote writes `NAME\\=value`)',
    keywords: SECRET_WORDS,
    regex: String.raw`(?<![\w.$-])${NAME}\\?=(?!=)${VALUE}`,
    name: { groups: [1], kind: 'variable' },
    secretGroups: [2, 3, 4],
    values: 'literal',
    examples: [
      { text: 'DB_PASSWORD=Db4xq9Lm2 ./migrate.sh', secret: 'Db4xq9Lm2' },
      { text: 'PGPASSWORD=pg-s3cret psql -h db -U app', secret: 'pg-s3cret' },
      { text: '//registry.npmjs.org/:_authToken=Np4ZkQ2wXy', secret: 'Np4ZkQ2wXy' },
      { text: 'DefaultEndpointsProtocol=https;AccountName=m;AccountKey=Zm9vYmFyYmF6cXV4==;EndpointSuffix=core.windows.net', secret: 'Zm9vYmFyYmF6cXV4==' },
      { text: "login(token='Tk92hsQ1xx0')", secret: 'Tk92hsQ1xx0' },
      { text: 'env PGPASSWORD\\=Pg9xLq2w psql', secret: 'Pg9xLq2w' },
    ],
    counterExamples: [
      'HF_TOKEN=$HF_TOKEN hf download x', 'TOKEN=${HF_TOKEN:-} x', 'max_tokens=100 monkey=banana', 'PWD=/home/ops OLDPWD=/tmp',
      'SORT_KEY=created_at', 'token=getToken()', 'login(token=token)', 'password=os.environ["X"]', 'OPENAI_API_KEY=EMPTY vllm bench',
      'SSH_KEY=~/.ssh/id_ed25519', 'TOKENIZERS_PARALLELISM=false',
      'sed -i "s/^WEBUI_SECRET_KEY=.*/WEBUI_SECRET_KEY=$(openssl rand -hex 32)/" .env', "grep -o 'API_KEY=[^ ]*' .env",
    ],
  },
  {
    id: 'secret-assignment',
    description: '"NAME=value" quoted whole (docker run -e "…", env files written with echo): the value runs to the closing quote',
    keywords: SECRET_WORDS,
    // Only as the argument of what sets a variable: a quoted remote command (`ssh h 'TOKEN=x cmd'`) keeps its command.
    regex: String.raw`(?<=(?:^|[\s(])(?:-e|--env|--build-arg|--set|--set-string|export|env|echo|printf|ENV|ARG)(?:[ \t]{1,4}|=))(["'])${NAME}=([^"'\n]{1,1024})\1`,
    name: { groups: [2], kind: 'variable' },
    secretGroups: [3],
    values: 'literal',
    examples: [{ text: 'docker run -e "MYSQL_ROOT_PASSWORD=My root pw" mysql:8', secret: 'My root pw' }],
    counterExamples: ['docker run -e "HF_TOKEN=$HF_TOKEN" img', "ssh gpu 'HF_TOKEN=$T hf download Qwen/Qwen3-8B'"],
  },
  {
    id: 'secret-config',
    description: 'A line of YAML, INI (.pypirc, ~/.aws/credentials), TOML, .env with spaces, or code: `password: …`, `token = "…"`',
    keywords: SECRET_WORDS,
    regex: String.raw`(?<![^\n])${LINE_PREFIX}[ \t]{0,32}(?:- {1,4})?(?:(?:export|local|readonly|declare|const|let|var|val|set|setenv|final|static|private|public)[ \t]{1,4})?${NAME}[ \t]{0,8}(?:[ \t]=|=[ \t]|:[ \t]|:(?=["']))[ \t]{0,8}${VALUE_TO_EOL}`,
    name: { groups: [1], kind: 'variable' },
    secretGroups: [2, 3, 4],
    values: 'literal',
    examples: [
      { text: 'database:\n  host: db.internal\n  password: Ym9x8QwLp2\n', secret: 'Ym9x8QwLp2' },
      { text: '[pypi]\nusername = __token__\npassword = correct horse battery staple\n', secret: 'correct horse battery staple' },
      { text: 'export API_TOKEN = "tok 1234 abcd"', secret: 'tok 1234 abcd' },
      { text: 'client_secret: Zx8-Qp2_Lm5  # from the console', secret: 'Zx8-Qp2_Lm5' },
      { text: '*** Add File: .env\n+  password: Pd9xLq2w\n', secret: 'Pd9xLq2w' },
      { text: '     3→  password: Rd9xLq2w\n', secret: 'Rd9xLq2w' },
      { text: 'config/app.yml:12:  api_key: Ak9xLq2wZ\n', secret: 'Ak9xLq2wZ' },
    ],
    counterExamples: [
      'const token = await getToken();', '  token = getToken()', '  password: process.env.DB_PASSWORD,', '  token: string;',
      'token: ${{ secrets.GH_TOKEN }}', 'password: "{{ vault_db_password }}"', 'api_key: <your-api-key>', 'pad_token: "<pad>"',
      'password_file: /run/secrets/db', 'token_type: bearer', 'secret: true',
    ],
  },
  {
    id: 'secret-field',
    description: 'A quoted key with a quoted value: JSON, Python dicts, escaped JSON (`kubectl … -o json`)',
    keywords: SECRET_WORDS,
    regex: String.raw`(["'])([\w.-]{1,64})\1[ \t]{0,8}(?::|=>|=)[ \t]{0,8}(?:"((?:[^"\\\n]|\\.){0,1024})"|'((?:[^'\\\n]|\\.){0,1024})')`,
    name: { groups: [2], kind: 'variable' },
    secretGroups: [3, 4],
    values: 'literal',
    examples: [
      { text: '{"password": "hunter2 hunter2"}', secret: 'hunter2 hunter2' },
      { text: "{'api_key': 'Ak93jdLq0s'}", secret: 'Ak93jdLq0s' },
      { text: '{"auths": {"ghcr.io": {"auth": "Ym90OnBhc3N3b3Jk"}}}', secret: 'Ym90OnBhc3N3b3Jk' },
      { text: '{"type": "service_account", "private_key_id": "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"}', secret: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567' },
    ],
    counterExamples: ['{"max_tokens": 100, "token_type": "bearer"}', '{"pad_token": "<|endoftext|>", "eos_token": "</s>"}', '{"password": ""}', '{"tokens": {"input": 1200}}'],
  },
  {
    id: 'secret-field',
    description: 'An unquoted key with a quoted value inside a line: JS objects, YAML flow maps',
    keywords: SECRET_WORDS,
    regex: String.raw`(?<![\w$.-])${NAME}[ \t]{0,4}:[ \t]{0,4}(?:"((?:[^"\\\n]|\\.){1,1024})"|'((?:[^'\\\n]|\\.){1,1024})')`,
    name: { groups: [1], kind: 'variable' },
    secretGroups: [2, 3],
    values: 'literal',
    examples: [{ text: "connect({ host: 'db', password: 'Pw-92jxQ' })", secret: 'Pw-92jxQ' }],
    counterExamples: ["connect({ password: '' })"],
  },
  {
    id: 'secret-inline',
    description: 'name: value inside a line of prose or output (`the password: Xy9…`), when the value mixes letters and digits',
    keywords: SECRET_WORDS,
    regex: String.raw`(?<![\w.$-])${NAME}[ \t]{0,4}:[ \t]{1,4}([^\s"',;]{8,256})`,
    name: { groups: [1], kind: 'variable' },
    secretGroups: [2],
    values: 'literal',
    // Words and numbers are prose or counts; a secret mixes letters and digits.
    allowlist: { regexes: ['^[^0-9]*$', '^[^A-Za-z]*$'] },
    examples: [{ text: 'I need password: Xy9Lq2wZ to log in', secret: 'Xy9Lq2wZ' }],
    counterExamples: ['the token: expired yesterday', 'I set the password: see-the-vault', 'total tokens: 12345678'],
  },
  {
    id: 'secret-flag',
    description: 'A command-line flag named for a secret: --api-key, --token, --hf-token, --password, -storepass',
    keywords: SECRET_WORDS,
    regex: String.raw`(?<![\w-])(--?[A-Za-z][\w-]{0,62})(?:=|[ \t]{1,4})${VALUE}`,
    name: { groups: [1], kind: 'flag' },
    secretGroups: [2, 3, 4],
    values: 'literal',
    allowlist: { regexes: ['^-', '^id='] },
    examples: [
      { text: 'vllm serve m --api-key 0123456789abcdef --port 8000', secret: '0123456789abcdef' },
      { text: 'kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef', secret: 'abcdef.0123456789abcdef' },
      { text: 'keytool -importkeystore -srcstorepass Ks-pass-99 -destkeystore x', secret: 'Ks-pass-99' },
      { text: "mongosh --password 'with spaces 1' db", secret: 'with spaces 1' },
    ],
    counterExamples: [
      'vllm serve m --max-num-batched-tokens 8192', 'docker login -u x --password-stdin', 'hf download m --token $HF_TOKEN',
      'docker build --secret id=npmrc,src=.npmrc .', 'psql --no-password mydb', 'openai api --api-key EMPTY',
    ],
  },
  {
    id: 'http-header-secret',
    description: 'A secret HTTP header: X-API-Key, api-key, PRIVATE-TOKEN, X-Auth-Token, X-Vault-Token, any *-Key / *-Token / *-Secret',
    keywords: ['-key', '-token', '-secret', '-auth', '-password', '-signature', 'api-key', 'apikey', 'private-token'],
    regex: String.raw`(?<![\w-])([A-Za-z][A-Za-z0-9-]{0,60}-(?:key|token|secret|auth|password|passwd|signature)|api-?key|private-token)[ \t]{0,4}:[ \t]{0,4}([^\s"'\\]{1,4096})`,
    caseInsensitive: true,
    name: { groups: [1], kind: 'header' },
    secretGroups: [2],
    values: 'literal',
    examples: [
      { text: 'curl -H "X-API-Key: k3y-9f8e7d6c" https://api.example.com', secret: 'k3y-9f8e7d6c' },
      { text: 'curl --header "PRIVATE-TOKEN: Gt9xQ2wE" https://gitlab.example.com/api/v4', secret: 'Gt9xQ2wE' },
      { text: '> Ocp-Apim-Subscription-Key: 0f1e2d3c4b5a69788796a5b4c3d2e1f0', secret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' },
    ],
    counterExamples: ['-H "X-API-Key: $API_KEY"', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'x-ratelimit-remaining-tokens: 9000'],
  },
  {
    id: 'bearer-token',
    description: 'The token of a Bearer authorization',
    keywords: ['bearer'],
    regex: String.raw`(?<![A-Za-z])[Bb][Ee][Aa][Rr][Ee][Rr][ \t]{1,4}([A-Za-z0-9._~+/=-]{8,4096})`,
    secretGroups: [1],
    values: 'shape',
    // Prose about the scheme (`a Bearer authentication header`), not a token.
    allowlist: { regexes: ['^(?:[Aa]uthentication|[Aa]uthorization|[Cc]redentials?|[Tt]okens?|[Hh]eaders?|[Ss]chemes?|[Pp]refix|[Ss]trings?|[Vv]alues?)$'] },
    examples: [{ text: 'curl -H "Authorization: Bearer abc.def.ghi-jkl_mno" localhost:8000', secret: 'abc.def.ghi-jkl_mno' }],
    counterExamples: ['send a Bearer authentication header', 'Authorization: Bearer $TOKEN', 'Bearer YOUR_TOKEN_HERE'],
  },
  {
    id: 'basic-auth',
    description: 'The credentials of a Basic authorization',
    keywords: ['basic'],
    regex: String.raw`[Aa]uthorization[ \t]{0,4}:[ \t]{0,4}[Bb]asic[ \t]{1,4}([A-Za-z0-9+/=]{8,1024})`,
    secretGroups: [1],
    values: 'shape',
    examples: [{ text: 'curl -H "Authorization: Basic b3BzOnNlY3JldHBhc3M=" https://registry', secret: 'b3BzOnNlY3JldHBhc3M=' }],
  },
  {
    id: 'authorization-header',
    description: 'Any other Authorization value: `token …`, `Bot …`, `ApiKey …`, or a bare credential',
    keywords: ['authorization'],
    regex: String.raw`(?<![\w-])(?:proxy-)?authorization[ \t]{0,4}:[ \t]{0,4}(?:(?:token|bot|apikey|api-key|ssws|key|geniekey|oauth|splunk)[ \t]{1,4})?([^\s"'\\]{8,4096})`,
    caseInsensitive: true,
    secretGroups: [1],
    values: 'literal',
    allowlist: { regexes: ['^(?:Bearer|Basic|Digest|Negotiate|NTLM)$'] },
    examples: [{ text: 'curl -H "Authorization: token 9f8e7d6c5b4a39281706f5e4d3c2b1a0" https://api.github.com', secret: '9f8e7d6c5b4a39281706f5e4d3c2b1a0' }],
  },
  {
    id: 'cookie',
    description: 'Cookie and Set-Cookie values (sessions)',
    keywords: ['cookie'],
    regex: String.raw`(?<![\w-])(?:set-)?cookie[ \t]{0,4}:[ \t]{0,4}([^\r\n"'\\]{1,4096})`,
    caseInsensitive: true,
    secretGroups: [1],
    values: 'literal',
    examples: [{ text: '-H "Cookie: session=9f8e7d6c5b4a; csrftoken=x1y2z3"', secret: 'csrftoken=x1y2z3' }],
  },
];
