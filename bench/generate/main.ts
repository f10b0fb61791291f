import { DEFAULT_SEED, ensureCorpus, GENERATOR_VERSION } from './corpus.js';

/** `node dist/bench/generate/main.js [--size-mb N] [--seed S]`: generate (or find) the corpus only. */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const sizeMb = Number(argument('--size-mb') ?? process.env['RETRACE_BENCH_MB'] ?? 300);
const seed = argument('--seed') ?? DEFAULT_SEED;
const { manifest, reused } = ensureCorpus({ sizeMb, seed, version: GENERATOR_VERSION }, (text) => process.stderr.write(`${text}\n`));
console.log(JSON.stringify({ reused, generatedMs: manifest.generatedMs, formats: Object.values(manifest.formats).map((f) => ({ format: f.format, root: f.root, mb: +(f.bytes / 1048576).toFixed(1), sessions: f.sessions.length, messages: f.messages, toolCalls: f.toolCalls, files: f.files })) }, null, 2));
