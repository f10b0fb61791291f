/**
 * JSON of any depth, walked without recursion. V8's JSON.parse takes any depth, but what comes
 * after it recurses: JSON.stringify, schema validation, the redaction walk. A tool input nested
 * 5,000 levels deep overflowed the stack and cost its whole file. Parsed values are therefore cut
 * at MAX_JSON_DEPTH: a value deeper than that is kept as its own JSON text (a string), losslessly,
 * and everything after sees a tree at most MAX_JSON_DEPTH deep.
 */

/** Far from any stack limit (a recursion of thousands of frames), far beyond real transcripts. */
export const MAX_JSON_DEPTH = 512;

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** Whether a parsed value nests deeper than `maxDepth`: a walk over its nodes, without recursion. */
export function nestsDeeperThan(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  if (!isContainer(value)) return false;
  const containers: Container[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop() as Container;
    const depth = depths.pop() as number;
    const children = Array.isArray(container) ? container : Object.values(container);
    for (const child of children) {
      if (!isContainer(child)) continue;
      if (depth + 1 > maxDepth) return true;
      containers.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * False when the text has too few brackets to nest deeper than `depth`: the common case, found by
 * a native scan (a tenth of JSON.parse's time, where a walk over the parsed nodes takes half).
 */
function mayNestDeeperThan(text: string, depth: number): boolean {
  let brackets = 0;
  for (const open of ['{', '[']) {
    for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) {
      brackets += 1;
      if (brackets > depth) return true;
    }
  }
  return false;
}

/** JSON.parse, with values below MAX_JSON_DEPTH replaced by their JSON text. Throws as JSON.parse does. */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return mayNestDeeperThan(text, MAX_JSON_DEPTH) && nestsDeeperThan(value) ? limitJsonDepth(value) : value;
}

/**
 * Replaces, in place, every array or object deeper than `maxDepth` (the root is depth 1) by its
 * JSON text. For values JSON.parse made, which nothing else holds yet.
 */
export function limitJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): unknown {
  if (!isContainer(value)) return value;
  const stack: { container: Container; depth: number }[] = [{ container: value, depth: 1 }];
  while (stack.length > 0) {
    const { container, depth } = stack.pop() as { container: Container; depth: number };
    const entries: [string | number, unknown][] = Array.isArray(container) ? container.map((item, i) => [i, item]) : Object.entries(container);
    for (const [key, child] of entries) {
      if (!isContainer(child)) continue;
      if (depth + 1 > maxDepth) (container as Record<string | number, unknown>)[key] = stringifyJson(child);
      else stack.push({ container: child, depth: depth + 1 });
    }
  }
  return value;
}

type Work = { literal: string } | { value: unknown };

/** JSON.stringify of a parsed JSON value (no toJSON, no cycles) with an explicit stack. */
export function stringifyJson(value: unknown): string {
  const out: string[] = [];
  const work: Work[] = [{ value }];
  while (work.length > 0) {
    const item = work.pop() as Work;
    if ('literal' in item) {
      out.push(item.literal);
      continue;
    }
    const current = item.value;
    if (Array.isArray(current)) {
      out.push('[');
      work.push({ literal: ']' });
      for (let i = current.length - 1; i >= 0; i--) {
        work.push({ value: current[i] === undefined ? null : current[i] });
        if (i > 0) work.push({ literal: ',' });
      }
    } else if (isContainer(current)) {
      const record = current as Record<string, unknown>;
      const keys = Object.keys(record).filter((key) => record[key] !== undefined);
      out.push('{');
      work.push({ literal: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        work.push({ value: record[key] });
        work.push({ literal: `${JSON.stringify(key)}:` });
        if (i > 0) work.push({ literal: ',' });
      }
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}
