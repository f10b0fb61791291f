// `opencode export <id>`: the session and its messages as one 2-space JSON document.
import type { Story } from '../schema.js';
import { buildOpencode } from './opencode.js';
import type { Rendered } from './types.js';

export function renderOpencodeExport(story: Story): Rendered {
  const doc = buildOpencode(story);
  const id = String(doc.session.info.id);
  const text = `${JSON.stringify({ info: doc.session.info, messages: doc.session.messages }, null, 2)}\n`;
  return { sessionId: id, files: [{ path: `${id}.json`, kind: 'text', text }] };
}
