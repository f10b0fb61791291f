import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/query/classify/facts.js';
import { decideOutcome, readBytes, readHealth, writeOutCode } from '../../src/query/classify/outcome.js';
import { scanSignatures } from '../../src/query/classify/signatures.js';

/** Every signature's and version's own examples live in its rule file and are checked in rules-files.test.ts. */
describe('output signatures', () => {
  it('nvidia-smi\'s "Not Supported" memory column is not a failure', () => {
    expect(scanSignatures('| N/A   38C    P8    4W /  N/A  | Not Supported          |      0%      Default |', 'inspect')).toEqual([]);
  });

  it('a signature outside the kinds it decides is kept as evidence, not as a decision', () => {
    const [hit] = scanSignatures('huggingface-cli: not found', 'inspect');
    expect(hit).toMatchObject({ name: 'command-missing', decisive: false });
  });
});

describe('version facts', () => {
  it('an image tag is not a version fact, and the first version of a component wins', () => {
    expect(extractFacts('nvcr.io/nvidia/vllm:25.11-py3')).toEqual([]);
    expect(extractFacts('PyTorch: 2.9.0+cu130 CUDA: 13.0\nCUDA Version 13.0.1').map((f) => [f.component, f.version])).toEqual([
      ['pytorch', '2.9.0+cu130'],
      ['cuda', '13.0'],
    ]);
  });
});

describe('outcomes', () => {
  const run = (over: Partial<Parameters<typeof decideOutcome>[1]> = {}): Parameters<typeof decideOutcome>[1] => ({
    exitCode: 0, timedOut: false, status: 'completed', output: '', ownsExit: true, background: false, ...over,
  });

  it('timeout wins over everything', () => {
    expect(decideOutcome('pull', run({ exitCode: null, timedOut: true }), [])).toBe('timeout');
  });

  it('a probe answers positive or negative; a broken probe with no answer is negative too', () => {
    const negative = scanSignatures("No module named 'x'", 'probe');
    expect(decideOutcome('probe', run(), negative)).toBe('negative');
    expect(decideOutcome('probe', run({ exitCode: 1 }), [])).toBe('negative');
    expect(decideOutcome('probe', run(), scanSignatures('X: SUPPORTED', 'probe'))).toBe('positive');
    expect(decideOutcome('probe', run(), [])).toBe('positive');
  });

  it('a step fails on a decisive failure signature even with exit 0, and an earlier step of an && chain does not own the exit code', () => {
    expect(decideOutcome('pull', run(), scanSignatures('manifest unknown', 'pull'))).toBe('failed');
    expect(decideOutcome('pull', run({ exitCode: 1, ownsExit: false }), [])).toBe('ok');
    expect(decideOutcome('serve', run({ exitCode: 1 }), [])).toBe('failed');
    expect(decideOutcome('pull', run({ exitCode: null, status: 'completed', output: '' }), [])).toBe('unknown');
  });

  it('health reads the HTTP code, a model list, an answered completion', () => {
    expect(readHealth('200')).toMatchObject({ ok: true, label: 'health 200' });
    expect(readHealth('health: 200\nINFO: Application startup complete.')).toMatchObject({ ok: true });
    expect(readHealth('000')).toMatchObject({ ok: false, label: 'health 000' });
    expect(readHealth('ready 200\n{"model_name":"ensemble"}')).toMatchObject({ ok: true, label: 'health 200' });
    expect(readHealth('{"model_name":"ensemble","text_output":" Paris."}')).toMatchObject({ ok: true, label: 'completion answered "Paris."' });
    expect(readHealth('{"status":"ok"}')).toMatchObject({ ok: true, label: 'health 200, status ok' });
    // A metrics line is no status code.
    expect(readHealth('go_threads 105\nprocess_open_fds 42')).toBeNull();
    expect(readHealth('{"object":"list","data":[{"id":"openai/gpt-oss-120b"}]}')).toMatchObject({ ok: true, label: 'model listed: openai/gpt-oss-120b' });
    expect(readHealth('{"choices":[{"message":{"content":"391"}}]}')).toMatchObject({ ok: true, label: 'completion answered "391"' });
    expect(decideOutcome('health', run({ exitCode: 7, output: '000' }), [])).toBe('failed');
    expect(decideOutcome('health', run({ output: '200' }), [])).toBe('ok');
  });

  it('bytes moved: du -sh, rsync totals, "downloaded N GB"', () => {
    expect(readBytes('119G\t/home/aurora/.cache/huggingface/hub/models--Qwen')).toBe(119 * 1024 ** 3);
    expect(readBytes('141,253,810,456 100%  872.41MB/s    0:02:34 (xfr#58, to-chk=0/64)')).toBe(141_253_810_456);
    expect(readBytes('Downloaded 12.5 GB in 3m')).toBe(12.5e9);
    expect(readBytes('nothing here')).toBeNull();
  });
});

describe('log levels (review)', () => {
  it('a failure line that quotes --log-level=info is still a failure; a line logged at level=info is none', () => {
    const quoted = scanSignatures('torch.OutOfMemoryError: CUDA out of memory (launched with --log-level=info)', 'serve');
    expect(quoted.some((hit) => hit.effect === 'failure')).toBe(true);
    const logged = scanSignatures('time=2026-03-20 level=info msg="CUDA out of memory fallback disabled"', 'serve');
    expect(logged.some((hit) => hit.effect === 'failure')).toBe(false);
  });
});

describe('curl -w (review)', () => {
  it('finds the code curl wrote after a long one-line body, and not a code inside the body', () => {
    const body = `{"paths":${JSON.stringify('x'.repeat(200_000))},"status":503}`;
    expect(writeOutCode(`${body}0.512s 200`, '%{time_total}s %{http_code}')).toEqual({ value: '200', line: expect.stringContaining('0.512s 200') as unknown as string });
    expect(writeOutCode(`${body}\nHTTP 404 in 0.1s`, '\\nHTTP %{http_code} in %{time_total}s')?.value).toBe('404');
  });
});
