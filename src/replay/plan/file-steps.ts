import { createHash } from 'node:crypto';
import type { TextEdit } from './apply-patch.js';
import type { FileRecord } from './file-state.js';
import { secretReferenceName } from './secrets.js';
import { delimiterFor } from './segments.js';
import { shellQuote } from './template.js';

/**
 * The command of a step that writes a file the agent wrote: its final content from the record in
 * a here-document (quoted, so nothing in it expands; where the record had a secret, an unquoted
 * one whose only expansion is `${NAME}`, read from the environment at run time). Its guard is the
 * content's sha256: a file that already holds it is left alone, so the step is a no-op the second
 * time. A file only edited (never shown whole) gets the edits applied in place, each once. Pure.
 */

export interface FileStepText {
  command: string;
  guard: string | null;
  sha256: string | null;
  /** Secret names the content refers to. */
  secrets: { name: string; description: string }[];
}

const MARKER = /\[REDACTED:([a-z0-9:_-]+)\]/g;
const HAS_MARKER = /\[REDACTED:[a-z0-9:_-]+\]/;

/** System paths need root to write (what the record did with sudo, or as root). */
export function needsRoot(path: string): boolean {
  return path.startsWith('/') && !/^\/(?:home|Users|tmp|var\/tmp)\//.test(path);
}

/** A path as one shell word; `~/…` keeps its home. */
export function pathWord(path: string): string {
  if (path === '~') return '~';
  if (path.startsWith('~/')) return `~/${shellQuote(path.slice(2))}`;
  return shellQuote(path);
}

function parentOf(path: string): string | null {
  const at = path.lastIndexOf('/');
  if (at <= 0) return null;
  const parent = path.slice(0, at);
  return parent === '~' ? null : parent;
}

function secretsIn(content: string): { name: string; description: string }[] {
  const found: { name: string; description: string }[] = [];
  for (const match of content.matchAll(MARKER)) {
    const reference = secretReferenceName(content.slice(0, match.index ?? 0), match[1] ?? 'secret');
    if (!found.some((s) => s.name === reference.name)) found.push(reference);
  }
  return found;
}

/** A value the content names, to be written as its placeholder (a role's workdir in a unit file). */
export interface ContentVariable {
  name: string;
  value: string;
}

/** Where `value` stands in `text` as a whole path (not the start of a longer name). */
function valuePattern(value: string): RegExp {
  return new RegExp(`${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_.-])`, 'g');
}

/** The body of an unquoted here-document that writes `content` exactly, secrets as `${NAME}`, variables as `{{ name }}`. */
function expandingBody(content: string, variables: readonly ContentVariable[] = []): string {
  let out = '';
  let last = 0;
  const escape = (text: string): string => {
    let escaped = text.replace(/[\\$`]/g, '\\$&').replace(/\{\{/g, '{${RETRACE_NONE:-}{');
    for (const { name, value } of variables) escaped = escaped.replace(valuePattern(value), `{{ ${name} }}`);
    return escaped;
  };
  for (const match of content.matchAll(MARKER)) {
    const at = match.index ?? 0;
    out += `${escape(content.slice(last, at))}\${${secretReferenceName(content.slice(0, at), match[1] ?? 'secret').name}}`;
    last = at + match[0].length;
  }
  return out + escape(content.slice(last));
}

/** `cat > F` (or `sudo tee F`) fed a here-document holding `content`. */
function heredocWrite(target: string, content: string, root: boolean, variables: readonly ContentVariable[]): string {
  const plain = !HAS_MARKER.test(content) && !content.includes('{{') && variables.length === 0;
  const body = plain ? content : expandingBody(content, variables);
  const delimiter = delimiterFor(body);
  const opener = `<<${plain ? `'${delimiter}'` : delimiter}`;
  const writer = root ? `sudo tee ${target} >/dev/null` : `cat > ${target}`;
  // A here-document always ends its last line: content without a final newline goes through printf.
  if (!content.endsWith('\n')) return `printf '%s' "$(cat ${opener}\n${body}\n${delimiter}\n)" | ${writer}`;
  return `${writer} ${opener}\n${body.slice(0, -1)}\n${delimiter}`;
}

/**
 * `variables`: values the content may name that a `--var` moves (a role's workdir): where the
 * content names one, it is written as the placeholder, and the guard compares the rendered content
 * at run time (the recorded sha256 no longer is what a moved plan writes).
 */
export function writeFileStep(file: FileRecord, target: string, variables: readonly ContentVariable[] = []): FileStepText {
  const content = file.content ?? '';
  const root = file.sudo || needsRoot(file.path);
  const secrets = secretsIn(content);
  const named = variables.filter((v) => v.value.length > 1 && !/[\\$`{}]/.test(v.value) && valuePattern(v.value).test(content));
  const parent = parentOf(target);
  const mkdir = parent ? `${root ? 'sudo ' : ''}mkdir -p ${pathWord(parent)} && ` : '';
  const command = `${mkdir}${heredocWrite(pathWord(target), content, root, named)}`;
  const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
  if (secrets.length > 0 || named.length > 0) {
    // The content holds a secret or a moved value, so no hash of it can be written down: compare with it at run time.
    const body = expandingBody(content, named);
    const delimiter = delimiterFor(body);
    return { command, guard: `cmp -s ${pathWord(target)} - <<${delimiter}\n${body.endsWith('\n') ? body.slice(0, -1) : body}\n${delimiter}`, sha256: secrets.length > 0 ? null : sha256, secrets };
  }
  const word = pathWord(target);
  return { command, guard: `[ "$({ sha256sum ${word} || shasum -a 256 ${word}; } 2>/dev/null | cut -c1-64)" = ${sha256} ]`, sha256, secrets };
}

/** Applies the edits in place with python3, each at most once: a re-run finds them done and changes nothing. */
const EDIT_SCRIPT = [
  'import json, os, sys',
  'path = sys.argv[1]',
  'edits = json.loads(sys.stdin.readline())',
  'secrets = json.loads(sys.stdin.readline())',
  'def real(text):',
  '    for marker, name in secrets.items():',
  '        text = text.replace(marker, os.environ[name])',
  '    return text',
  'with open(path) as handle:',
  '    text = handle.read()',
  'changed = False',
  'for edit in edits:',
  '    old, new = real(edit["old"]), real(edit["new"])',
  '    if new and new in text and (not old or old not in new or old not in text):',
  '        continue',
  '    if old and old not in text:',
  '        sys.exit("retrace: %s is not as the record had it: %r not found" % (path, old[:80]))',
  '    text = text + new if not old else (text.replace(old, new) if edit["all"] else text.replace(old, new, 1))',
  '    changed = True',
  'if changed:',
  '    with open(path, "w") as handle:',
  '        handle.write(text)',
  'print(("edited " if changed else "already as recorded: ") + path)',
].join('\n');

export function editFileStep(file: FileRecord, target: string): FileStepText {
  const edits = file.edits.map((edit: TextEdit) => ({ old: edit.old, new: edit.new, all: edit.all }));
  const text = edits.map((e) => `${e.old}\n${e.new}`).join('\n');
  const secrets = secretsIn(text);
  const markers: Record<string, string> = {};
  for (const match of text.matchAll(MARKER)) markers[match[0]] = secretReferenceName(text.slice(0, match.index ?? 0), match[1] ?? 'secret').name;
  const root = file.sudo || needsRoot(file.path);
  const check = secrets.map((s) => `: "\${${s.name}:?set ${s.name} in the environment}" && `).join('');
  const stdin = `${JSON.stringify(edits)}\n${JSON.stringify(markers)}`;
  const delimiter = delimiterFor(stdin);
  const command = `${check}${root ? 'sudo -E ' : ''}python3 -c ${shellQuote(EDIT_SCRIPT)} ${pathWord(target)} <<'${delimiter}'\n${stdin}\n${delimiter}`;
  return { command, guard: null, sha256: null, secrets };
}
