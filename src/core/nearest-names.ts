/**
 * "Did you mean …?" for names looked up by substring (`retrace why scitrea`): a name is near when
 * some part of it is a few edits away from what was typed, so a typo inside a long image
 * reference (`sglang:sprak` in `lmsysorg/sglang:spark`) is found as well as one in a short name.
 */

/** The fewest edits (insert, delete, substitute, swap two neighbours) that turn `query` into some substring of `text`. */
export function substringEditDistance(query: string, text: string): number {
  const q = [...query];
  const t = [...text];
  // previous2/previous/current are rows of the DP over the text; row 0 is all zeros because a
  // match may start anywhere in the text.
  let previous2: number[] = new Array<number>(t.length + 1).fill(0);
  let previous: number[] = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= q.length; i += 1) {
    const current: number[] = new Array<number>(t.length + 1).fill(i);
    for (let j = 1; j <= t.length; j += 1) {
      const cost = q[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && q[i - 1] === t[j - 2] && q[i - 2] === t[j - 1]) best = Math.min(best, (previous2[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    previous2 = previous;
    previous = current;
  }
  return Math.min(...previous);
}

/** How many edits still count as a typo of a query this long (1 for short words, a third of longer ones). */
export function typoBudget(query: string): number {
  return Math.max(1, Math.floor([...query].length / 3));
}

/** The names nearest to `query` within its typo budget, nearest first (then shorter, then alphabetical). */
export function nearestNames(query: string, names: Iterable<string>, limit = 3): string[] {
  const wanted = query.toLowerCase();
  const budget = typoBudget(wanted);
  const scored: { name: string; distance: number }[] = [];
  for (const name of new Set(names)) {
    const distance = substringEditDistance(wanted, name.toLowerCase());
    if (distance <= budget) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}
