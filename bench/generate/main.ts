import { DEFAULT_SEED, ensureCorpus, GENERATOR_VERSION } from './corpus.js';
import { ensureShape, SHAPES } from './shapes.js';

/** `node dist/bench/generate/main.js [--scale N] [--seed S] [--shapes]`: generate (or find) the corpus (and the shapes) only. */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const scale = Number(argument('--scale') ?? process.env['RETRACE_BENCH_SCALE'] ?? 1);
const seed = argument('--seed') ?? DEFAULT_SEED;
const { manifest, reused } = ensureCorpus({ scale, seed, version: GENERATOR_VERSION }, (text) => process.stderr.write(`${text}\n`));
console.log(JSON.stringify({ reused, generatedMs: manifest.generatedMs, formats: Object.values(manifest.formats).map((f) => ({ format: f.format, root: f.root, mb: +(f.bytes / 1048576).toFixed(1), sessions: f.sessions.length, messages: f.messages, toolCalls: f.toolCalls, files: f.files })) }, null, 2));
if (process.argv.includes('--shapes')) {
  for (const name of SHAPES) {
    const shape = ensureShape(name, scale, seed, GENERATOR_VERSION, (text) => process.stderr.write(`${text}\n`));
    console.log(JSON.stringify({ shape: shape.name, file: shape.file, mb: +(shape.bytes / 1048576).toFixed(1), sessions: shape.sessions, messages: shape.messages }));
  }
}
