/**
 * Which names hold secrets: the name of a variable, a JSON or YAML key, a command-line flag or an
 * HTTP header. A generic rule captures the name and the value; the value is a secret only when
 * its name ends in one of these words (`DB_PASSWORD`, `apiKey`, `--hf-token`, `X-Api-Key`), so
 * `max_tokens`, `token_type`, `password_file` and `--max-num-batched-tokens` stay as they are.
 */

/** Endings of a name, compared with its letters and digits only, lower-cased (`api_key` → `apikey`). */
const SECRET_NAME_ENDINGS: readonly string[] = [
  'password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'accesskey', 'secretkey', 'privatekey',
  'authkey', 'signingkey', 'encryptionkey', 'masterkey', 'accountkey', 'sharedaccesskey', 'subscriptionkey',
  'credential', 'credentials', 'licensekey', 'webhooksecret', 'privatekeyid', 'storepass', 'keypass',
];

/** Names that are a secret as a whole word only (`auth` in a docker config, not `author`). */
const SECRET_EXACT_NAMES: readonly string[] = ['auth', 'pat', 'apitoken'];

/** Endings that look secret but name something else. */
const NOT_SECRET_NAMES: readonly RegExp[] = [
  // A tokenizer's special tokens (`pad_token: "<pad>"`, `eos_token`): model configuration.
  /(?:^|[^a-z])(?:pad|eos|bos|unk|mask|sep|cls|eot|eom|im_start|im_end|start|end|image|video|audio|vision|think|special|prefix|suffix|middle|additional_special|fim_[a-z]+)_?tokens?$/i,
  // Flags and fields that say whether, not what: `--no-password`, `use_auth_token: true`.
  /^(?:no|use|ask|prompt|skip|require|requires|with|without|has|is|enable|disable)[-_]/i,
];

/** `SORT_KEY`, `SSH_PUBLIC_KEY`, `CACHE_KEY`: keys that are not keys to anything. */
const NOT_SECRET_KEY_NAMES = /(?:sort|primary|partition|foreign|cache|lookup|hash|index|group|row|shard|routing|dedup|idempotency|public|pub|object|map|hot|short|sequence|unique|composite|natural|surrogate|api_?version|s3|file|path|id|websocket)[_.-]key$/i;

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Shell and .env variables, INI, YAML, JSON and code names. */
export function isSecretName(name: string): boolean {
  if (NOT_SECRET_NAMES.some((pattern) => pattern.test(name))) return false;
  const squashed = squash(name);
  if (SECRET_EXACT_NAMES.includes(squashed) || squashed === '_auth') return true;
  if (/^_?auth$/i.test(name)) return true;
  if (SECRET_NAME_ENDINGS.some((ending) => squashed.endsWith(ending))) return true;
  // SMTP_PASS, MYSQL_PWD, DB_PASS: the short words only after a separator, never PWD or OLDPWD alone.
  return /[_.-](?:pass|pwd|pw|key)$/i.test(name) && !NOT_SECRET_KEY_NAMES.test(name);
}

/** `--api-key`, `--hf-token`, `--db-password`, `--ssh-key` (a path, which the value check keeps); not `--password-stdin`, `--token-file`. */
export function isSecretFlag(name: string): boolean {
  return isSecretName(name.replace(/^-+/, ''));
}

/** HTTP headers: `Authorization`, `Cookie`, `X-Api-Key`, `PRIVATE-TOKEN`, any `*-Key`/`*-Token`/`*-Secret`. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (/^(?:authorization|proxy-authorization|cookie|set-cookie|api-?key|apikey|token|private-token|job-token|deploy-token)$/.test(lower)) return true;
  if (/-(?:key|token|secret|password|passwd|auth|signature|credential|credentials)$/.test(lower)) {
    return !/^(?:sec-websocket-key|x-idempotency-key|idempotency-key|x-ratelimit-[a-z-]*|x-request-[a-z-]*)$/.test(lower);
  }
  return false;
}
