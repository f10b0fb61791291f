/**
 * Reading the assistant's prose: sentences, mentions of a candidate, and the short clause in which
 * it states a judgement ("too old for Qwen3.5", "Qwen3.5 needs ≥ 5.x", "cannot run on the Spark").
 */

const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|vs|etc|cf|approx|incl|no|fig|ca|resp|[A-Za-z])\.$/i;

/** Sentences and bullet lines; version numbers, file names and abbreviations do not end a sentence. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    // A bold or `#` heading line is a title, not a statement.
    if (/^\s*(?:\*\*[^*]+\*\*|#{1,6}\s.*)\s*$/.test(line)) continue;
    let current = '';
    for (const piece of line.split(/(?<=[.!?])\s+/)) {
      current = current ? `${current} ${piece}` : piece;
      if (!ABBREVIATIONS.test(current)) {
        out.push(current);
        current = '';
      }
    }
    if (current) out.push(current);
  }
  return out.map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim()).filter(Boolean);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` names any of `names` as a whole word (case-insensitive for words, exact for refs). */
export function mentions(text: string, names: readonly string[]): boolean {
  return names.some((name) => name.length >= 3 && new RegExp(`(?<![\\w/.:-])${escapeRegExp(name)}(?![\\w/-]|:[\\w])`, /[/:]/.test(name) ? '' : 'i').test(text));
}

/** Cue words of a judgement, strongest first. */
const JUDGEMENT_CUES: readonly RegExp[] = [
  /\b(?:needs|requires|required)\b/i,
  /\btoo (?:old|new|large|big|slow)\b/i,
  /\b(?:cannot|can't|can not|won't|will not|unable to)\b/i,
  /\b(?:lacks?|has no)\b/i,
  /\b(?:incompatible|not compatible|unsupported|not supported)\b/i,
  /\b(?:only)\b/i,
  /\bbecause\b/i,
  /\b(?:dead end|ruled out|is out|are out|rejected|no good)\b/i,
];

const CLAUSE_BOUNDARY = /(?:[;:]\s|\s[—–]\s|\.\s|,\s(?=(?:i\.e\.|so|but|and|because)\b)|\s(?=(?:because|since)\b))/g;

/**
 * The clause holding the strongest judgement cue, trimmed to a readable length. Bodies are read in
 * the order given (visible text before reasoning: what the assistant told the user is its verdict).
 */
export function judgementClause(bodies: readonly string[], max = 110): string | null {
  for (const body of bodies) {
    const found = clauseWithCue(body, max);
    if (found) return found;
  }
  return null;
}

function clauseWithCue(text: string, max: number): string | null {
  for (const cue of JUDGEMENT_CUES) {
    for (const sentence of sentences(text)) {
      const found = cue.exec(sentence);
      if (!found) continue;
      const boundaries = [...sentence.matchAll(CLAUSE_BOUNDARY)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
      const before = boundaries.filter((b) => b.end <= found.index).at(-1);
      const after = boundaries.find((b) => b.start >= found.index + found[0].length);
      let start = before?.end ?? 0;
      // A bare verdict ("…: rejected") says nothing new: the clause before it says why.
      if (/^\s*(?:is |are )?(?:rejected|a dead end|dead end|ruled out|out|no good)[.!]?\s*$/i.test(sentence.slice(start, after?.start ?? sentence.length))) {
        start = boundaries.filter((b) => b.end < start).at(-1)?.end ?? 0;
        const end = before?.start ?? sentence.length;
        const previous = sentence.slice(start, end).replace(/[`*]/g, '').trim();
        if (previous.length >= 6) return previous.length > max ? `${previous.slice(0, max - 1)}…` : previous;
        continue;
      }
      let clause = sentence.slice(start, after?.start ?? sentence.length).replace(/[`*]/g, '').trim();
      clause = clause.replace(/^(?:i\.e\.|so|but|and)\s+/i, '').replace(/[.:,;]+$/, '');
      if (clause.length < 6) continue;
      return clause.length > max ? `${clause.slice(0, max - 1)}…` : clause;
    }
  }
  return null;
}

/** Words that show a sentence is turning away from something. */
export const NEGATIVE_CUE = /\b(?:cannot|can't|won't|not|no|too old|fails?|failed|rejected|dead end|out\b|lacks?|missing|instead|unsupported|incompatible)\b/i;

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
