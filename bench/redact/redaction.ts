import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSecrets, type ScanStats } from '../../src/core/redact/redact.js';
import { REPO_ROOT } from '../lib/paths.js';

/**
 * `npm run build && node dist/bench/redact/redaction.js`: redaction throughput on the texts that
 * made it slow (a 6 MB line of 45,832 curl commands took 103 s before the keyword windows), on
 * rules' own keywords repeated (the worst case for a rule that rescans from every match), and on
 * the bundled sample session's strings (ordinary transcript text). Prints one JSON line per text.
 */

function measure(name: string, texts: readonly string[], rounds = 3): void {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const times: number[] = [];
  let stats: ScanStats = { keywordHits: 0, windows: 0, scannedChars: 0 };
  for (let round = 0; round < rounds; round++) {
    stats = { keywordHits: 0, windows: 0, scannedChars: 0 };
    const started = performance.now();
    for (const text of texts) findSecrets(text, stats);
    times.push(performance.now() - started);
  }
  const best = Math.min(...times);
  console.log(JSON.stringify({
    text: name, mb: +(chars / 1e6).toFixed(2), best_ms: Math.round(best), mb_per_s: +((chars / 1e6) / (best / 1000)).toFixed(1),
    scanned_per_char: +(stats.scannedChars / chars).toFixed(2), keyword_hits: stats.keywordHits,
  }));
}

const curlLine = Array.from({ length: 45_832 }, (_, i) => `curl -s http://10.0.${i % 250}.1:8000/v1/models -H "Accept: application/json" -H "User-Agent: retrace-bench/1.0 (linux)"`).join(' ; ');
measure('45,832 curl on one line', [curlLine]);
for (const unit of ['curl -u ', 'password=', '"password": "', 'https://a:b', 'mysql -p', 'data:\n', '\\"password\\":\\"', '\x1b[31mpassword\x1b[0m=']) {
  measure(`${JSON.stringify(unit)} repeated`, [unit.repeat(Math.ceil(3_000_000 / unit.length))], 1);
}

const sessions = join(REPO_ROOT, 'sessions');
const file = readdirSync(sessions).find((name) => name.endsWith('.json'));
if (file) {
  const strings: string[] = [];
  const stack: unknown[] = [JSON.parse(readFileSync(join(sessions, file), 'utf8'))];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (typeof value === 'string') strings.push(value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  measure('the sample session, string by string', strings, 5);
}
