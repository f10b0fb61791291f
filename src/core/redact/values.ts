/**
 * Values that stand where a secret would, but are not one: references to a secret kept elsewhere
 * (`$HF_TOKEN`, `${DB_PASS:-x}`, `{{ secrets.X }}`, `process.env.X`), placeholders (`<your-token>`,
 * `xxxx`, `EMPTY`), code (`await getToken()`, `self.token`, `string;`) and file paths. A generic
 * rule (a name and a value) keeps them as they are: redacting them would damage stored code and
 * invent secrets that are not there. Vendor shapes (`hf_…`) skip all but the placeholder test.
 */

const REFERENCE: readonly RegExp[] = [
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*\b/, // $HF_TOKEN, ${HF_TOKEN}, ${HF_TOKEN:-…}
  /^\$\(/, // $(cat /run/secrets/x)
  /^`/, // `cat key`
  /^\$\{\{/, // ${{ secrets.X }}
  /^\{\{/, // {{ token }}
  /^\{%/, // {% … %}
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %API_KEY%
  /^\$env:/i, // PowerShell
  /\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?\}/, // a ${VAR} anywhere: a template, not a value
  /^(?:process\.env|os\.environ|os\.getenv|getenv|env(?:\.|\[|\()|ENV\[|System\.getenv|import\.meta\.env|secrets?\.|vault[.(:])/,
  /^\[REDACTED/,
];

const PLACEHOLDER: readonly RegExp[] = [
  /^<[^<>]{1,80}>$/, // <your-token>, <password>
  /^\[[A-Z_ -]{1,40}\]$/, // [PAD], [YOUR TOKEN]
  /^(?:x{3,}|X{3,}|\*{3,}|#{3,}|\.{3,}|…|_{3,}|-{3,}|0{6,})$/,
  /(?:x{6,}|X{6,}|\*{4,}|\.{3}|…)/, // hf_xxxxxxxx…, sk-…, a key shown as ****
  /^(?:your|my|the|some|insert|replace|enter|put|paste)[-_ ]?(?:own[-_ ]?)?[a-z_-]*(?:token|key|secret|password|pass|here)[a-z_-]*$/i,
  /^(?:empty|none|null|nil|undefined|dummy|fake|placeholder|changeme|change[-_]me|redacted|hidden|masked|required|optional|same-origin|include|omit|replace[-_ ]?me|fill[-_ ]?me|fix[-_ ]?me|set[-_ ]?me|true|false|yes|no|on|off|example|sample|test|todo|tbd|unset|not[-_ ]?set|secret|password|token)$/i,
];

const IDENT = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
/** A variable name without digits: `pwd;` is code, a random `mh7qk…I9AC,` at the end of a sentence is not. */
const WORDS = String.raw`[A-Za-z_$]{1,64}(?:\??\.[A-Za-z_$]{1,64}){0,8}`;

const CODE: readonly RegExp[] = [
  /^(?:await|new|yield|typeof|function|async|lambda|return|require|import)\s/, // const token = await …
  new RegExp(String.raw`^${IDENT}\s*\(`), // getToken(), os.getenv("X"), this.peek() as Token, KEYS.concat([
  new RegExp(String.raw`^${IDENT}\[.{0,512}\]\s*(?:[;,]?$|\.|\()`), // os.environ["X"], m[2].replace(…)
  /^[({[](?:\s|$)/, // { algo: …, data: … }, [ … ]
  /^\(\s{0,4}[A-Za-z_$][\w$.]{0,64}\s/, // (typeof x === …)
  /^\/.{0,512}\/[dgimsuy]{0,6}\s*[;,]?$/, // a regular expression literal
  new RegExp(String.raw`^${IDENT}\s+(?:\?\?|\|\||&&|\?|or|and|if|\|)\s`), // opts.token ?? '', x or y
  new RegExp(String.raw`^${WORDS}\s*[;,]$`), // pwd;  token,
  new RegExp(String.raw`^${WORDS}\){1,4}[;,]?$`), // the last argument of a call: login(token=tok)
  /^[a-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/, // self.token, args.hf_token, config.db.password
  /^(?:string|str|number|int|bool|boolean|any|unknown|object|bytes|String|SecretStr|Optional\b|None|null|undefined)\b/, // a type annotation
  /^\(?[A-Za-z_$][\w$]*\)?\s*=>/, // an arrow function
  /^[!&*][A-Za-z]/, // YAML tags and anchors: !vault, &anchor, *alias
  /^(?:\.[*+]|\[\^?[^\]\n]{1,64}\][*+])/, // a pattern: sed's s/^KEY=.*/KEY=$(openssl rand -hex 32)/, grep 'TOKEN=[^ ]*'
];

/** `accessToken`, `api_key`, `MY_TOKEN`: a compound name holding a secret word is a variable, not a value. */
function isVariableName(value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(value)) return false;
  if (!/(?:token|key|secret|pass|pwd|auth|cred)/i.test(value) || /\d/.test(value)) return false;
  return value.includes('_') || /[a-z][A-Z]/.test(value);
}

/** Absolute, home-relative or dotted relative paths: `~/.ssh/id_rsa`, `/run/secrets/db`, `./key.pem`. */
const PATH = /^(?:~|\.{1,2}|\$HOME)?\/(?:[\w.@+-]{1,128}\/){0,32}[\w.@+-]{0,128}$/;

/** True when a value in a vendor's shape is a placeholder (`hf_xxxxxxxx…`), not a token. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.some((pattern) => pattern.test(value)) || lowVariety(value);
}

/** `hf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`, `sk-1111…`: too few distinct characters to be random. */
function lowVariety(value: string): boolean {
  if (value.length < 16) return false;
  const distinct = new Set(value.slice(value.length > 8 ? 4 : 0)).size;
  return distinct <= 3;
}

/**
 * False for a reference, a placeholder, code or a path: what a generic rule found next to a
 * secret-ish name is a secret only when it is a literal value. A bare word (`password: hunter2`)
 * is a value; a compound name (`token = accessToken`) is a variable.
 */
export function isLiteralSecret(raw: string): boolean {
  const value = raw.trim();
  if (value.length < 3) return false;
  if (REFERENCE.some((pattern) => pattern.test(value))) return false;
  if (isPlaceholder(value)) return false;
  if (PATH.test(value) && value.includes('/')) return false;
  if (/^\d{1,2}$/.test(value)) return false;
  if (CODE.some((pattern) => pattern.test(value)) || isVariableName(value)) return false;
  return true;
}
