/**
 * The shapes of secrets that turn up in deployment transcripts. Each rule names its kind (the
 * marker says which kind was removed) and, where only part of the match is secret, which capture
 * group holds the secret so the surrounding text (`Bearer `, `HF_TOKEN=`, `user:`…) stays readable.
 * Order matters: specific vendors first, generic assignments last.
 */
export interface SecretRule {
  kind: string;
  /** Source of a regular expression; compiled once, together with all the others. */
  pattern: string;
  /** Index of the capture group (within this rule's own groups) that is the secret; 0 = whole match. */
  secretGroup: number;
  /**
   * A cheap test every match must pass (a literal the secret cannot be without). Only the rules
   * whose anchor is present in a text are run on it: most text carries none.
   */
  anchor: RegExp;
}

const NOT_WORD_BEFORE = '(?<![A-Za-z0-9_])';

export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    // A PEM block, also one cut short by truncation (no END line) and one inside JSON (\n escapes).
    pattern:
      '-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s\\\\n]*)',
    secretGroup: 0,
    anchor: /PRIVATE KEY/,
  },
  { kind: 'anthropic-key', pattern: `${NOT_WORD_BEFORE}sk-ant-[A-Za-z0-9]{2,8}-[A-Za-z0-9_-]{20,}`, secretGroup: 0,
    anchor: /sk-ant-/ },
  { kind: 'openai-key', pattern: `${NOT_WORD_BEFORE}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`, secretGroup: 0,
    anchor: /sk-/ },
  { kind: 'huggingface-token', pattern: `${NOT_WORD_BEFORE}hf_[A-Za-z0-9]{30,}`, secretGroup: 0,
    anchor: /hf_/ },
  { kind: 'github-token', pattern: `${NOT_WORD_BEFORE}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})`, secretGroup: 0,
    anchor: /gh[pousr]_|github_pat_/ },
  { kind: 'gitlab-token', pattern: `${NOT_WORD_BEFORE}glpat-[A-Za-z0-9_-]{20,}`, secretGroup: 0,
    anchor: /glpat-/ },
  { kind: 'aws-access-key-id', pattern: `${NOT_WORD_BEFORE}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`, secretGroup: 0,
    anchor: /A[BCKS][CI]A/ },
  {
    kind: 'aws-secret-key',
    pattern: '(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|SecretAccessKey)["\']?\\s*[:=]\\s*["\']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])',
    secretGroup: 1,
    anchor: /aws_secret_access_key|AWS_SECRET_ACCESS_KEY|SecretAccessKey/,
  },
  { kind: 'google-api-key', pattern: `${NOT_WORD_BEFORE}AIza[0-9A-Za-z_-]{35}`, secretGroup: 0,
    anchor: /AIza/ },
  { kind: 'slack-token', pattern: `${NOT_WORD_BEFORE}xox[abposr]-[A-Za-z0-9-]{10,}`, secretGroup: 0,
    anchor: /xox/ },
  { kind: 'slack-webhook', pattern: 'https://hooks\\.slack\\.com/services/[A-Za-z0-9/_-]{20,}', secretGroup: 0,
    anchor: /hooks\.slack\.com/ },
  { kind: 'stripe-key', pattern: `${NOT_WORD_BEFORE}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}`, secretGroup: 0,
    anchor: /_live_|_test_/ },
  { kind: 'npm-token', pattern: `${NOT_WORD_BEFORE}npm_[A-Za-z0-9]{36}`, secretGroup: 0,
    anchor: /npm_/ },
  { kind: 'nvidia-api-key', pattern: `${NOT_WORD_BEFORE}nvapi-[A-Za-z0-9_-]{40,}`, secretGroup: 0, anchor: /nvapi-/ },
  { kind: 'pypi-token', pattern: `${NOT_WORD_BEFORE}pypi-AgE[A-Za-z0-9_-]{50,}`, secretGroup: 0, anchor: /pypi-AgE/ },
  { kind: 'sendgrid-key', pattern: `${NOT_WORD_BEFORE}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{30,64}`, secretGroup: 0, anchor: /SG\./ },
  { kind: 'telegram-bot-token', pattern: `(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}`, secretGroup: 0, anchor: /:AA/ },
  { kind: 'jwt', pattern: `${NOT_WORD_BEFORE}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, secretGroup: 0,
    anchor: /eyJ/ },
  { kind: 'bearer-token', pattern: '(?<![A-Za-z])[Bb]earer\\s+([A-Za-z0-9._~+/=-]{8,})', secretGroup: 1,
    anchor: /[Bb]earer/ },
  {
    kind: 'basic-auth',
    pattern: '[Aa]uthorization:\\s*[Bb]asic\\s+([A-Za-z0-9+/=]{8,})',
    secretGroup: 1,
    anchor: /[Bb]asic/,
  },
  {
    kind: 'url-password',
    // scheme://user:password@host (also redis://:password@host): keep user and host, drop the password.
    pattern: '[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\\s:/@"\'<>]{0,64}:([^\\s@/"\'<>]{1,256})@',
    secretGroup: 1,
    anchor: /:\/\/[^\s/]*@/,
  },
  {
    kind: 'docker-login-password',
    pattern: 'docker\\s+login\\b[^\\n]*?\\s(?:-p|--password)(?:=|\\s+)["\']?([^\\s"\']{4,})',
    secretGroup: 1,
    anchor: /docker\s+login/,
  },
  {
    kind: 'cli-user-password',
    // curl -u user:password, wget --user=u:p
    pattern: '(?:curl|wget)\\b[^\\n]*?\\s(?:-u|--user)(?:=|\\s+)["\']?[^\\s:"\']+:([^\\s"\']{4,})',
    secretGroup: 1,
    anchor: /(?:curl|wget)\b/,
  },
  { kind: 'sshpass-password', pattern: 'sshpass\\s+-p\\s*["\']?([^\\s"\']{4,})', secretGroup: 1, anchor: /sshpass/ },
  {
    kind: 'mysql-password',
    pattern: '(?:mysql|mysqldump|mariadb)\\b[^\\n]*?\\s-p([^\\s"\']{4,})',
    secretGroup: 1,
    anchor: /mysql|mariadb/,
  },
  {
    kind: 'secret-flag',
    pattern:
      '(?<![A-Za-z0-9_-])--(?:api-key|token|hf-token|password|passwd|secret|access-token|auth-token)(?:=|\\s+)(?!\\$|\\[REDACTED)["\']?([^\\s"\']{6,})',
    secretGroup: 1,
    anchor: /--(?:api-key|token|hf-token|password|passwd|secret|access-token|auth-token)/,
  },
  {
    kind: 'secret-field',
    // "password": "…" / 'api_key': '…' in JSON, YAML-ish and Python dict text.
    pattern:
      '["\'](?:password|passwd|secret|client_secret|api_key|apikey|access_token|auth_token|token|private_key_id)["\']\\s*:\\s*["\'](?!\\[REDACTED)([^"\'\\s]{6,})["\']',
    secretGroup: 1,
    anchor: /(?:password|passwd|secret|api_?key|access_token|auth_token|token|private_key_id)["']\s*:/,
  },
  {
    kind: 'secret-yaml',
    // password: …  /  api_key: … at the start of a line of YAML or .env-like text.
    pattern:
      '(?:^|\\n)[ \\t+-]*(?:password|passwd|secret|client_secret|api_key|apikey|access_token|auth_token|token)[ \\t]*:[ \\t]*["\']?(?![$\\[{])([^\\s"\'#]{6,})',
    secretGroup: 1,
    anchor: /(?:password|passwd|secret|api_?key|token)[ \t]*:/,
  },
  {
    kind: 'secret-assignment',
    // HF_TOKEN=…, DB_PASSWORD="…", export API_KEY='…'; not HF_TOKEN=$HF_TOKEN (a reference, no value).
    pattern:
      '(?<![A-Za-z0-9_])(?:(?:[A-Za-z0-9_]*_)?(?:TOKEN|PASSWORD|PASSWD|PASS|SECRET|API_?KEY|ACCESS_KEY|PRIVATE_KEY|KEY|token|password|passwd|secret|api_?key|access_key)|[A-Za-z][A-Za-z0-9]*(?:Key|Token|Password|Passwd|Secret))\\s*=\\s*(?![$\\[])(?:"([^"\\s]{4,})"|\'([^\'\\s]{4,})\'|([^\\s"\'`;&|)]{4,}))',
    secretGroup: -1,
    anchor: /(?:TOKEN|PASS(?:WORD|WD)?|SECRET|KEY|token|pass(?:word|wd)?|secret|key|Key|Token|Pass(?:word|wd)?|Secret)\s*=/,
  },
];
