import { describe, expect, it } from 'vitest';
import { launchOptions } from '../../src/query/classify/shape.js';

/** Which options of a launch can tell two approaches apart: how the model is served, not where. */
describe('a launch\'s own options', () => {
  it('keeps cache, output-length and profiling settings, drops folders, files and places', () => {
    const args = ['serve', '--kv-cache-dtype', 'fp8', '--cache-type-k', 'q8_0', '--max_output_len', '512', '--profile',
      '--output_dir', 'engines/a', '--log-file', 'serve.log', '--download-dir', 'w', '--cache-dir', 'c', '--served-name', 'q'];
    expect(launchOptions(args, null)).toBe('--kv-cache-dtype fp8 --cache-type-k q8_0 --max_output_len 512 --profile');
  });
});
