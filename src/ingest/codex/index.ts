import type { Adapter, FileHead } from '../adapter.js';
import { detectJsonlHead, pickFromHead } from '../jsonl/head-lines.js';
import { isJsonObject } from '../jsonl/parse-line.js';
import { jsonlSource } from '../jsonl/jsonl-source.js';
import type { SourceFormat } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { CodexConverter } from './convert.js';
import { CODEX_HEAD } from './detect.js';
import { codexSessionsDir } from './paths.js';
import { codexResumeContext } from './resume-context.js';

/** One Codex rollout (`.jsonl`, appendable; or `.jsonl.zst`, read whole) as a source. */
export function codexSource(path: string): Promise<Source> {
  return jsonlSource(path, 'codex-jsonl', async ({ file, resume }) =>
    // Resuming mid-file: the thread's identity is on line 1, the model and prompt of the turn just before.
    new CodexConverter({ file, resumed: resume ? await codexResumeContext(file, resume) : null }),
  );
}

export const codexAdapter: Adapter = {
  agent: 'codex',
  formats: ['codex-jsonl'],

  detect(head: FileHead): SourceFormat | null {
    if (head.sqlite) return null;
    return detectJsonlHead(head.text, CODEX_HEAD) ? 'codex-jsonl' : null;
  },

  async sourcesForFile(path: string): Promise<Source[]> {
    return [await codexSource(path)];
  },

  versionOf(head: FileHead): string | null {
    return pickFromHead(head.text, (value) => {
      const payload = value['type'] === 'session_meta' && isJsonObject(value['payload']) ? value['payload'] : null;
      return typeof payload?.['cli_version'] === 'string' ? payload['cli_version'] : null;
    });
  },

  defaultLocations(env, home) {
    return [codexSessionsDir(env, home)];
  },
};
