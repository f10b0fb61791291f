/**
 * What the session knows of the files it read, wrote and edited: compose files, Kubernetes
 * manifests, Modelfiles and config files decide what a later `docker compose up`, `kubectl apply`
 * or `ollama create` runs. Learned from the agents' file tools (Read/Write/Edit, opencode's
 * read/write/edit, Codex's apply_patch) and from `cat FILE` / `sed -n 'a,bp' FILE` through the shell.
 * A file only edited (never read whole) keeps what the edits added.
 */
export interface KnownFile {
  path: string;
  text: string;
  /** The order in which files were last touched (higher is later). */
  touched: number;
}

const PATH_FIELDS = ['file_path', 'filePath', 'path', 'file', 'filename'];
const READ_TOOL = /^(?:read|read_file|view|open_file|cat)$/i;
const WRITE_TOOL = /^(?:write|write_file|create|create_file)$/i;
const EDIT_TOOL = /^(?:edit|multiedit|multi_edit|str_replace|str_replace_editor|replace)$/i;
const PATCH_TOOL = /^(?:apply_patch|patch)$/i;

function parseInput(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function field(input: Record<string, unknown>, names: readonly string[]): string | null {
  for (const name of names) if (typeof input[name] === 'string') return input[name] as string;
  return null;
}

/** A read tool's output without its wrapper and line numbers (`<file>`, `00001| `, `     1\t`). */
export function fileTextOfRead(output: string): string {
  const body = output.replace(/^\s*<file>\n?/, '').replace(/\n?<\/file>[\s\S]*$/, '').replace(/\n\(End of file[^\n]*\)\s*$/, '');
  const lines = body.split('\n');
  const numbered = lines.filter((l) => /^\s*\d+(?:\||\t|→)/.test(l)).length;
  if (numbered < Math.max(1, lines.filter((l) => l.trim() !== '').length * 0.8)) return body;
  return lines.map((l) => l.replace(/^\s*\d+(?:\| ?|\t|→)/, '')).join('\n');
}

/** One file under two spellings (`/home/ana/x.yml`, `~/x.yml`, `/root/x.yml`) is one file. */
export function homeRelative(path: string): string {
  return path.replace(/^\/home\/[^/]+\//, '~/').replace(/^\/root\//, '~/');
}

export class FileTracker {
  private readonly files = new Map<string, KnownFile>();
  private clock = 0;

  private set(path: string, text: string): void {
    this.files.set(homeRelative(path), { path, text, touched: ++this.clock });
  }

  private edit(path: string, oldText: string, newText: string): void {
    const known = this.files.get(homeRelative(path));
    if (known && oldText !== '' && known.text.includes(oldText)) this.set(path, known.text.replace(oldText, newText));
    else this.set(path, `${known?.text ?? ''}\n${newText}`);
  }

  /** Learns from one tool call that is not a shell command. */
  observeTool(tool: string, input: string, output: string | null): void {
    const args = parseInput(input);
    const path = field(args, PATH_FIELDS);
    if (READ_TOOL.test(tool) && path && output) this.set(path, fileTextOfRead(output));
    else if (WRITE_TOOL.test(tool) && path) this.set(path, field(args, ['content', 'contents', 'text', 'file_text']) ?? '');
    else if (EDIT_TOOL.test(tool) && path) {
      const edits = Array.isArray(args['edits']) ? (args['edits'] as Record<string, unknown>[]) : [args];
      for (const edit of edits) this.edit(path, field(edit, ['old_string', 'oldString', 'old_str', 'old']) ?? '', field(edit, ['new_string', 'newString', 'new_str', 'new']) ?? '');
    } else if (PATCH_TOOL.test(tool)) this.applyPatch(field(args, ['input', 'patch']) ?? input);
  }

  /** Learns from a shell read of a whole file (`cat FILE`, `sed -n '1,200p' FILE`). */
  observeShellRead(path: string, output: string | null): void {
    if (output) this.set(path, output);
  }

  /**
   * What `grep -n PATTERN FILE` printed of one file (`121:  cache_mode: FP16`): the lines it showed, for a
   * file the session has not read whole, so a later edit or `sed -i` of those lines is followed.
   */
  observeGrepLines(path: string, output: string | null): void {
    const lines = (output ?? '').split('\n').map((l) => /^\d+[:-](.*)$/.exec(l)?.[1]).filter((l): l is string => l !== undefined);
    if (lines.length === 0) return;
    const known = this.files.get(homeRelative(path));
    if (!known) return this.set(path, lines.join('\n'));
    const present = new Set(known.text.split('\n'));
    const missing = lines.filter((l) => !present.has(l));
    if (missing.length > 0) this.set(known.path, `${known.text}\n${missing.join('\n')}`);
  }

  /** `sed -i 's/A/B/[g]' FILE` on a file the session knows (the pattern read as a JavaScript regex, line by line). */
  substitute(pathHint: string, script: string): void {
    const delimiter = script[1] as string;
    const parts = script.slice(2).split(delimiter);
    if (parts.length < 3) return;
    const [pattern, replacement, flags] = parts as [string, string, string];
    const known = this.find((p) => pathMatches(p, pathHint, false))[0];
    if (!known) return;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern.replace(/\\([(){}|+?])/g, '$1'), `m${flags.includes('g') ? 'g' : ''}`);
    } catch {
      return;
    }
    this.set(known.path, known.text.replace(regex, replacement.replace(/\\&/g, '$&').replace(/&/g, '$&')));
  }

  /** Codex's patch format: `*** Add File: P` with `+` lines, `*** Update File: P` with hunks of `-`/`+` lines. */
  private applyPatch(patch: string): void {
    let current: string | null = null;
    let adding = false;
    let removed: string[] = [];
    let added: string[] = [];
    const flush = (): void => {
      if (current && (removed.length > 0 || added.length > 0)) this.edit(current, removed.join('\n'), added.join('\n'));
      removed = [];
      added = [];
    };
    for (const line of patch.split('\n')) {
      const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
      if (header) {
        flush();
        current = (header[2] as string).trim();
        adding = header[1] === 'Add';
        if (adding) this.set(current, '');
        continue;
      }
      if (!current || line.startsWith('***')) continue;
      if (adding) {
        if (line.startsWith('+')) {
          const before = this.files.get(homeRelative(current))?.text;
          this.set(current, before ? `${before}\n${line.slice(1)}` : line.slice(1));
        }
        continue;
      }
      if (line.startsWith('@@')) flush();
      else if (line.startsWith('-')) removed.push(line.slice(1));
      else if (line.startsWith('+')) added.push(line.slice(1));
      else if (line.startsWith(' ')) {
        if (removed.length > 0 || added.length > 0) flush();
      }
    }
    flush();
  }

  /** Known files, latest first, that match a test on their path. */
  find(test: (path: string) => boolean): KnownFile[] {
    return [...this.files.values()].filter((f) => test(f.path)).sort((a, b) => b.touched - a.touched);
  }
}

/** Whether `path` is `wanted` or lies under it, for a relative or `~` spelling of the same place. */
export function pathMatches(path: string, wanted: string, directory: boolean): boolean {
  const clean = homeRelative(wanted).replace(/^~\//, '').replace(/^\.\//, '').replace(/\/+$/, '');
  if (clean === '' || clean === '.') return true;
  const target = homeRelative(path).replace(/\/+$/, '');
  if (directory) return target.includes(`/${clean}/`) || target.startsWith(`${clean}/`);
  return target === clean || target.endsWith(`/${clean}`);
}
