import { redactText } from '../../core/redact/redact.js';
import { quoteStates, type QuoteState } from './template.js';

/**
 * Secrets never travel in a plan: every secret a recorded command held (already replaced by a
 * `[REDACTED:kind]` marker at ingest; redacted here again in case the store kept cleartext) becomes
 * a reference to an environment variable, `${HF_TOKEN}`, whose value is read at run time.
 */

export interface SecretReference {
  name: string;
  description: string;
}

const MARKER = /\[REDACTED:([a-z0-9:_-]+)\]/g;

const NAME_BY_KIND: Readonly<Record<string, string>> = {
  'huggingface-token': 'HF_TOKEN',
  'openai-key': 'OPENAI_API_KEY',
  'anthropic-key': 'ANTHROPIC_API_KEY',
  'github-token': 'GITHUB_TOKEN',
  'gitlab-token': 'GITLAB_TOKEN',
  'aws-access-key-id': 'AWS_ACCESS_KEY_ID',
  'aws-secret-key': 'AWS_SECRET_ACCESS_KEY',
  'slack-token': 'SLACK_TOKEN',
  'npm-token': 'NPM_TOKEN',
};

function envName(text: string): string {
  const name = text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z_]/.test(name) ? name : `SECRET_${name}`;
}

/** Names the secret a marker stands for, from what surrounds it. */
function nameFor(before: string, kind: string): { name: string; description: string } {
  const assignment = /(?:^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\s*=\s*["']?$/.exec(before);
  if (assignment?.[1]) return { name: envName(assignment[1]), description: `${assignment[1]} in the recorded command (${kind})` };
  // A key of a YAML or JSON file (`api_key: …`, `"token": "…"`): the file's own name for it.
  const key = /(?:^|[\s{,])["']?([A-Za-z_][A-Za-z0-9_-]*)["']?\s*:\s*["']?$/.exec(before);
  if (key?.[1] && !/^(?:https?|Bearer|Authorization)$/i.test(key[1])) return { name: NAME_BY_KIND[kind] ?? envName(key[1]), description: `${key[1]} in the recorded file (${kind})` };
  if (/[Bb]earer\s+$/.test(before)) return { name: 'API_KEY', description: `the Bearer token of the recorded request (${kind})` };
  const url = /:\/\/([^\s:/@"']+):$/.exec(before);
  if (url) return { name: 'URL_PASSWORD', description: `the password of ${url[1]} in a recorded URL` };
  const flag = /--([a-z][a-z0-9-]*)[=\s]["']?$/.exec(before);
  if (flag?.[1]) return { name: NAME_BY_KIND[kind] ?? envName(flag[1]), description: `the value of --${flag[1]} (${kind})` };
  return { name: NAME_BY_KIND[kind] ?? envName(kind), description: `a ${kind} in the recorded command` };
}

/** The environment variable a `[REDACTED:kind]` marker stands for, from the text before it (a file's content too). */
export function secretReferenceName(before: string, kind: string): SecretReference {
  return nameFor(before, kind);
}

/** `${NAME}` written so the shell expands it wherever it stands (inside single quotes too). */
function referenceFor(name: string, state: QuoteState, assignment: boolean): string {
  switch (state) {
    case 'double':
      return `\${${name}}`;
    case 'single':
      return `'"\${${name}}"'`;
    case 'ansi':
      return `'"\${${name}}"$'`;
    case 'none':
      return assignment ? `\${${name}}` : `"\${${name}}"`;
  }
}

/** A URL's host names its password: `https://u:pw@pypi.lab/…` → PYPI_PASSWORD. */
function refineUrlName(text: string, end: number, found: { name: string; description: string }): { name: string; description: string } {
  if (found.name !== 'URL_PASSWORD') return found;
  const host = /^@([A-Za-z0-9.-]+)/.exec(text.slice(end))?.[1];
  if (!host) return found;
  return { name: envName(`${host.split('.')[0] ?? 'URL'}_PASSWORD`), description: `${found.description.replace('a recorded URL', `https://…@${host}`)}` };
}

export function secretsToReferences(command: string): { command: string; secrets: SecretReference[] } {
  const redacted = redactText(command, {});
  const states = quoteStates(redacted);
  const secrets: SecretReference[] = [];
  let out = '';
  let last = 0;
  for (const match of redacted.matchAll(MARKER)) {
    const at = match.index ?? 0;
    const end = at + match[0].length;
    const kind = match[1] ?? 'secret';
    const before = redacted.slice(0, at);
    const found = refineUrlName(redacted, end, nameFor(before, kind));
    if (!secrets.some((s) => s.name === found.name)) secrets.push(found);
    const assignment = /[A-Za-z0-9_]=$/.test(before);
    out += redacted.slice(last, at) + referenceFor(found.name, states[at] ?? 'none', assignment);
    last = end;
  }
  return { command: out + redacted.slice(last), secrets };
}

/**
 * A check's `-H "Authorization: Bearer …"` removed when no step of the plan gives the server a key:
 * a server started without one ignores it, and the replay must not ask for a secret nothing uses.
 */
export function stripUnusedBearer(command: string): string {
  return command.replace(/\s+-H\s*(["'])Authorization: Bearer \[REDACTED:[a-z0-9:_-]+\]\1/g, '');
}
