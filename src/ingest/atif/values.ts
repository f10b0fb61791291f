/** Small readers of loosely-typed ATIF `extra` objects (what retrace wrote there, or another tool). */

export type Fields = Record<string, unknown>;

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fieldsOf(value: unknown): Fields {
  return isFields(value) ? value : {};
}

/** A field's text; `fallback` when the field is absent (a present null stays null). */
export function textField(fields: Fields, key: string, fallback: string | null = null): string | null {
  if (!(key in fields)) return fallback;
  const value = fields[key];
  return typeof value === 'string' ? value : value === null ? null : fallback;
}

export function numberField(fields: Fields, key: string): number | null {
  const value = fields[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function epochOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** The `extra` object without retrace's own key: what another tool put there, as JSON text (null when nothing). */
export function foreignExtra(extra: unknown): string | null {
  if (!isFields(extra)) return null;
  const { retrace: _ours, ...rest } = extra;
  return Object.keys(rest).length > 0 ? JSON.stringify(rest) : null;
}

/** Text of an ATIF content value: a string, or the text parts of a multimodal array (images named by path). */
export function contentText(content: unknown): string | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content
    .map((part) => {
      const fields = fieldsOf(part);
      if (fields['type'] === 'text') return typeof fields['text'] === 'string' ? fields['text'] : '';
      const source = fieldsOf(fields['source']);
      return `[image: ${typeof source['path'] === 'string' ? source['path'] : 'unknown'}]`;
    })
    .join('\n');
}
