import type { SecretRule } from '../rule.js';

/**
 * Secrets whose place in a command or a file format says what they are: `curl -u user:pass`,
 * `mysql -pPASS`, `sshpass -p`, `docker login -p`, `echo pass | sudo -S`, a URL's password, a
 * .netrc `password`, a connection string's `Password=`, a Kubernetes Secret's `data:`. A flag's
 * rule matches the flag alone and asks the engine whether its command word comes before it in the
 * same command (`afterKeyword`): no expression spans from a command to its flag, so a later
 * command on the same line can never make a rule reach back over the secrets before it.
 */

/** A quoted or bare argument: groups +1, +2, +3. */
const ARG = String.raw`(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|([^\s"']{1,256}))`;
/** How far after its command a flag may come (`curl -sS -X POST -H … -u user:pass`). */
const SAME_COMMAND = { within: 2048 };

export const COMMAND_SECRETS: readonly SecretRule[] = [
  {
    id: 'url-password',
    description: 'The password of scheme://user:password@host, also one holding `/` or `@`, and redis://:password@host',
    keywords: ['://'],
    // First a password that may hold `/` and `@`, ending at the last `@` before a dotted host; else one without them.
    regex: String.raw`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://([^\s:/@"'<>]{0,128}):(?:([^\s"'<>]{1,256}?)@(?=[A-Za-z0-9-]{1,63}\.[A-Za-z0-9.-]{1,253}(?::\d{1,5})?(?:[/?#\s"'<>,;)\]]|$)|localhost\b|\[)|([^\s@/"'<>]{1,256})@)`,
    secretGroups: [2, 3],
    values: 'literal',
    allowlist: { regexes: ['^\\d{1,5}(?:/|$)'] },
    examples: [
      { text: 'pip install --index-url https://bob:s3cr3t-pass@pypi.example.com/simple x', secret: 's3cr3t-pass' },
      { text: 'git clone https://ops:pa/ss@w0rd@git.example.com/a/b.git', secret: 'pa/ss@w0rd' },
      { text: 'redis-cli -u redis://:Rd9xLq2w@cache:6379/0 ping', secret: 'Rd9xLq2w' },
      { text: 'DATABASE_URL=postgres://app:Pg8sQ1z@db/app', secret: 'Pg8sQ1z' },
    ],
    counterExamples: [
      'postgres://${DB_USER:-app}:${DB_PASS:-secret}@db:5432/app', 'http://localhost:8000/v1/models', 'docker://reg.io:5000/img@sha256:abc',
      'https://registry.npmjs.org:443/@types/node', 'ssh://git@github.com/acme/deploy.git',
    ],
  },
  {
    id: 'url-token-user',
    description: 'A token given as the user of a URL (https://<token>@github.com)',
    keywords: ['://'],
    regex: String.raw`(?<![A-Za-z0-9+.-])https?://([A-Za-z0-9_.~-]{24,256})@`,
    secretGroups: [1],
    values: 'literal',
    examples: [{ text: 'git remote add origin https://Zq8xW2eR4tY6uI0oP3aS5dF7@git.example.com/x.git', secret: 'Zq8xW2eR4tY6uI0oP3aS5dF7' }],
  },
  {
    id: 'cli-user-password',
    description: 'curl/wget -u user:password, --user, --proxy-user',
    keywords: ['curl', 'wget'],
    afterKeyword: SAME_COMMAND,
    regex: String.raw`[ \t](?:-u|-U|--user|--proxy-user|--http-user)(?:=|[ \t]{0,4})(?:"([^"\n:]{0,128}):([^"\n]{1,256})"|'([^'\n:]{0,128}):([^'\n]{1,256})'|([^\s:'"]{0,128}):([^\s'"]{1,256}))`,
    secretGroups: [2, 4, 6],
    values: 'literal',
    allowlist: { regexes: ['^\\d{1,6}$'] },
    examples: [
      { text: 'curl -u admin:Cu7xQw2e https://grafana.internal/api/health', secret: 'Cu7xQw2e' },
      { text: "curl -s -u 'ops:pass with space' https://x", secret: 'pass with space' },
    ],
    counterExamples: ['curl -u "$USER:$PASS" https://x', 'curl x && docker run -u 1000:1000 img'],
  },
  {
    id: 'mysql-password',
    description: 'mysql / mysqldump / mariadb -pPASSWORD (attached to -p)',
    keywords: ['mysql', 'mariadb'],
    afterKeyword: SAME_COMMAND,
    // An argv element quoted whole by shell-quote (`'-pmy pw'`) too.
    regex: String.raw`[ \t](?:'-p([^'\n]{1,256})'|"-p([^"\n]{1,256})"|-p${ARG})`,
    secretGroups: [1, 2, 3, 4, 5],
    values: 'literal',
    examples: [
      { text: "mysql -u root '-pMq9 xLw2' db", secret: 'Mq9 xLw2' },
      { text: "mysql -u root -pMq9xLw2 -e 'SHOW DATABASES'", secret: 'Mq9xLw2' },
      { text: "mysql -u root -p'my secret pw' db", secret: 'my secret pw' },
    ],
    counterExamples: ['mysql -u root -p mydb', 'mysql -u root -p$MYSQL_PWD'],
  },
  {
    id: 'sshpass-password',
    description: 'sshpass -p PASSWORD',
    keywords: ['sshpass'],
    regex: String.raw`sshpass[ \t]{1,4}-p[ \t]{0,4}${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [{ text: "sshpass -p 'Sp9x Lq2' ssh ops@10.20.0.5 uptime", secret: 'Sp9x Lq2' }],
  },
  {
    id: 'docker-login-password',
    description: 'docker/podman/helm/oras/skopeo login -p PASSWORD',
    keywords: ['docker login', 'podman login', 'nerdctl login', 'buildah login', 'skopeo login', 'oras login', 'crane auth login', 'regctl registry login', 'helm registry login'],
    afterKeyword: SAME_COMMAND,
    regex: String.raw`[ \t](?:-p|--password)(?:=|[ \t]{1,4})${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [{ text: 'docker login registry.internal -u deploy -p Dk9xLq2w', secret: 'Dk9xLq2w' }],
  },
  ...(
    [
      ['redis-cli -a', ['redis-cli'], String.raw`[ \t](?:-a|--pass)[ \t]{1,4}`, 'redis-cli -h cache -a Rc9xLq2w ping', 'Rc9xLq2w'],
      ['ldapsearch -w', ['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldappasswd', 'ldapwhoami'], String.raw`[ \t]-w[ \t]{1,4}`, 'ldapsearch -x -D cn=admin -w Ld9xLq2w -b dc=x', 'Ld9xLq2w'],
      ['mongosh -p', ['mongo'], String.raw`[ \t]-p[ \t]{1,4}`, 'mongosh -u root -p Mo9xLq2w --host db', 'Mo9xLq2w'],
      ['smbclient -U user%password', ['smbclient', 'rpcclient'], String.raw`[ \t]-U[ \t]{0,4}["']?[^\s%"']{1,128}%`, 'smbclient //nas/share -U ops%Sm9xLq2w', 'Sm9xLq2w'],
    ] as const
  ).map(([what, keywords, flag, text, secret]): SecretRule => ({
    id: 'cli-password',
    description: `${what}: a password given on the command line`,
    keywords,
    afterKeyword: SAME_COMMAND,
    regex: `${flag}${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [{ text, secret }],
  })),
  {
    id: 'htpasswd-password',
    description: 'htpasswd -b FILE USER PASSWORD',
    keywords: ['htpasswd'],
    regex: String.raw`htpasswd[ \t]{1,4}-[a-zA-Z]{0,6}b[a-zA-Z]{0,6}[ \t]{1,4}[^\s]{1,256}[ \t]{1,4}[^\s]{1,128}[ \t]{1,4}${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [{ text: 'htpasswd -Bbc /etc/nginx/.htpasswd ops Ht9xLq2w', secret: 'Ht9xLq2w' }],
  },
  {
    id: 'openssl-pass',
    description: 'openssl -passin/-passout pass:PASSWORD',
    keywords: ['pass:'],
    regex: String.raw`(?<![\w-])-pass(?:in|out)?[ \t]{1,4}["']?pass:([^\s"']{1,256})`,
    secretGroups: [1],
    values: 'literal',
    examples: [{ text: 'openssl pkcs12 -export -in c.pem -passout pass:Os9xLq2w -out c.p12', secret: 'Os9xLq2w' }],
  },
  {
    id: 'piped-password',
    description: 'A password echoed into sudo -S, --password-stdin, chpasswd or passwd --stdin',
    keywords: ['password-stdin', 'sudo', 'chpasswd', '--stdin'],
    regex: String.raw`(?<![\w-])(?:echo|printf)[ \t]{1,4}(?:-[ne]{1,2}[ \t]{1,4})?(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|([^\s|;&"']{1,256}))[ \t]{0,4}\|[ \t]{0,4}(?:sudo[ \t]{1,4}-S|[^\n|;]{0,256}?(?:--password-stdin|chpasswd|passwd[ \t]{1,4}--stdin))`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [
      { text: "echo 'Su9x Lq2w' | sudo -S apt-get update", secret: 'Su9x Lq2w' },
      { text: 'echo Rg9xLq2w | docker login ghcr.io -u bot --password-stdin', secret: 'Rg9xLq2w' },
    ],
    counterExamples: ['echo $CR_PAT | docker login ghcr.io -u bot --password-stdin'],
  },
  {
    id: 'piped-password',
    description: 'A password given as a here-string to sudo -S or --password-stdin',
    keywords: ['password-stdin', 'sudo -s'],
    afterKeyword: SAME_COMMAND,
    regex: String.raw`<<<[ \t]{0,4}${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [{ text: 'sudo -S true <<< "Hs9x Lq2w"', secret: 'Hs9x Lq2w' }],
  },
  {
    id: 'netrc-password',
    description: 'The password of a .netrc machine entry',
    keywords: ['machine'],
    regex: String.raw`\bmachine[ \t]{1,4}[^\s]{1,253}[\s\S]{0,300}?[ \t\n]password[ \t]{1,4}([^\s]{1,256})`,
    secretGroups: [1],
    values: 'literal',
    examples: [
      { text: 'machine api.heroku.com\n  login me@example.com\n  password 01234567-89ab-cdef\n', secret: '01234567-89ab-cdef' },
      { text: 'echo "machine pypi.internal login ops password Nr9xLq2w" > ~/.netrc', secret: 'Nr9xLq2w' },
    ],
  },
  {
    id: 'connection-string-password',
    description: 'Password=/Pwd= in a ;-separated connection string (ADO.NET, ODBC, JDBC), spaces allowed',
    keywords: ['password=', 'pwd=', 'password =', 'pwd ='],
    regex: String.raw`[;"'][ \t]{0,4}(?:[Pp]assword|PASSWORD|[Pp]wd|PWD)[ \t]{0,4}=[ \t]{0,4}([^;"'\n]{1,256}?)[ \t]{0,4}(?=;|["'\n]|$)`,
    secretGroups: [1],
    values: 'literal',
    examples: [{ text: 'Server=db;Database=app;User Id=sa;Password=my pass 9;Encrypt=true', secret: 'my pass 9' }],
  },
  {
    id: 'kubernetes-secret',
    description: 'Every value under data: or stringData: of a Kubernetes Secret, as YAML',
    keywords: ['data:'],
    regex: String.raw`(?<![^\n])[ \t]{0,16}(?:data|stringData):[ \t]{0,8}()(?=\r?\n)`,
    secretGroups: [1],
    block: 'indented',
    each: String.raw`(?<![^\n])[ \t]{1,32}[\w.-]{1,253}:[ \t]{1,8}["']?([^\s"'#|>][^\n"']{0,65535})`,
    near: { literals: ['kind: Secret', "kind: 'Secret'", 'kind: "Secret"'], within: 8192 },
    values: 'literal',
    examples: [{ text: 'apiVersion: v1\ndata:\n  password: cGFzc3dvcmQxMjM=\n  username: YWRtaW4=\nkind: Secret\n', secret: 'cGFzc3dvcmQxMjM=' }],
    counterExamples: ['apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: fast\n'],
  },
  {
    id: 'kubernetes-secret',
    description: 'Every value under "data" or "stringData" of a Kubernetes Secret, as JSON',
    keywords: ['"data"', '"stringdata"'],
    regex: String.raw`"(?:data|stringData)"[ \t]{0,8}:[ \t]{0,8}\{([^{}]{0,65536})\}`,
    secretGroups: [1],
    each: String.raw`"[\w.-]{1,253}"[ \t\r\n]{0,64}:[ \t]{0,8}"([^"]{1,65536})"`,
    near: { literals: ['"kind":"Secret"', '"kind": "Secret"'], within: 8192 },
    values: 'literal',
    examples: [{ text: '{"apiVersion":"v1","data":{"token":"dG9rZW4xMjM0NQ==","ca.crt":"Y2VydA=="},"kind":"Secret"}', secret: 'dG9rZW4xMjM0NQ==' }],
  },
  {
    id: 'kubernetes-secret',
    description: 'kubectl create secret … --from-literal=KEY=VALUE (every literal)',
    keywords: ['from-literal'],
    regex: String.raw`\bsecret[ \t]{1,4}(?:generic|docker-registry|tls)\b([^\n;|]{0,4096})`,
    secretGroups: [1],
    each: String.raw`--from-literal[= ][\w.-]{1,253}=(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"']{1,512}))`,
    values: 'literal',
    examples: [{ text: 'kubectl create secret generic db --from-literal=username=admin --from-literal=password=Kc9xLq2w', secret: 'Kc9xLq2w' }],
  },
  {
    id: 'kubernetes-env-secret',
    description: 'A container env entry whose name is secret-ish: `- name: DB_PASSWORD` / `value: …` (YAML and JSON)',
    keywords: ['value'],
    regex: String.raw`(?:name:[ \t]{1,8}["']?([A-Za-z_][\w.-]{0,127})["']?[ \t]{0,8}\r?\n[+\->]?[ \t]{0,32}value:[ \t]{1,8}(?:"((?:[^"\\\n]|\\.){1,1024})"|'([^'\n]{1,1024})'|([^\s"'#][^\n]{0,1023}?))[ \t]{0,8}(?=\r?\n|$)|"name"[ \t]{0,8}:[ \t]{0,8}"([A-Za-z_][\w.-]{0,127})"[ \t]{0,8},[ \t\r\n]{0,64}"value"[ \t]{0,8}:[ \t]{0,8}"((?:[^"\\\n]|\\.){1,1024})")`,
    name: { groups: [1, 5], kind: 'variable' },
    secretGroups: [2, 3, 4, 6],
    values: 'literal',
    examples: [{ text: 'env:\n  - name: DB_PASSWORD\n    value: Ke9xLq2w\n', secret: 'Ke9xLq2w' }],
  },
  {
    id: 'cli-secret-argument',
    description: 'mc alias set NAME URL ACCESS SECRET, vault login TOKEN, wandb login KEY, npm config set …_authToken VALUE',
    keywords: ['mc alias', 'mc config', 'vault login', 'wandb login', 'npm config', 'npm set'],
    regex: String.raw`(?:\bmc[ \t]{1,4}(?:alias[ \t]{1,4}set|config[ \t]{1,4}host[ \t]{1,4}add)[ \t]{1,4}[^\s]{1,128}[ \t]{1,4}[^\s]{1,512}[ \t]{1,4}[^\s]{1,256}[ \t]{1,4}|\bvault[ \t]{1,4}login[ \t]{1,4}(?:token=)?|\bwandb[ \t]{1,4}login[ \t]{1,4}(?:--relogin[ \t]{1,4})?|\bnpm[ \t]{1,4}(?:config[ \t]{1,4})?set[ \t]{1,4}[^\s]{0,256}?(?:_authToken|_auth|_password)[ \t]{1,4})${ARG}`,
    secretGroups: [1, 2, 3],
    values: 'literal',
    examples: [
      { text: 'mc alias set lab http://10.0.0.5:9000 minio Mc9xLq2wZp', secret: 'Mc9xLq2wZp' },
      { text: 'wandb login 0123456789abcdef0123456789abcdef01234567', secret: '0123456789abcdef0123456789abcdef01234567' },
    ],
  },
];
