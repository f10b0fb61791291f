import { describe, expect, it } from 'vitest';
import { COMPONENTS, extractFacts } from '../../src/query/classify/facts.js';
import { decideOutcome, readBytes, readHealth } from '../../src/query/classify/outcome.js';
import { scanSignatures, SIGNATURES } from '../../src/query/classify/signatures.js';

/** One output line per signature that must be recognised, and the label it must get. */
const SIGNATURE_EXAMPLES: Record<string, { line: string; label: string | RegExp }> = {
  'timeout-notice': { line: 'bash tool terminated command after exceeding timeout 120000 ms', label: 'timed out after 120 s' },
  'module-missing': { line: "Qwen3.5 MoE: NOT FOUND - No module named 'sglang.srt.models.qwen3_5_moe'", label: 'import fails: sglang.srt.models.qwen3_5_moe' },
  'cannot-import': { line: "ImportError: cannot import name 'Qwen3_5Moe' from 'transformers'", label: 'cannot import Qwen3_5Moe' },
  'import-error': { line: 'ImportError: libcudart.so.13: cannot open shared object file', label: /^ImportError: libcudart/ },
  'marker-not-found': { line: 'Qwen3.5 MTP: NOT FOUND', label: 'Qwen3.5 MTP not found' },
  'not-registered': { line: 'Qwen3_5MoeForConditionalGeneration registered: False', label: 'Qwen3_5MoeForConditionalGeneration not in the model registry' },
  'not-supported': { line: "ValueError: Model architectures ['X'] are not supported for now.", label: /are not supported/ },
  'arch-incompatible': { line: 'NVIDIA GB10 with CUDA capability sm_121 is not compatible with the current PyTorch installation.', label: 'PyTorch has no sm_121 kernels' },
  'package-missing': { line: 'WARNING: Package(s) not found: vllm', label: 'not installed: vllm' },
  'manifest-missing': { line: 'Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries', label: 'no matching manifest for linux/arm64/v8' },
  'pull-denied': { line: 'Error response from daemon: pull access denied for foo/bar, repository does not exist', label: /pull access denied/ },
  'no-kernel-image': { line: 'torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device', label: 'no kernel image is available for execution on the device' },
  'cuda-oom': { line: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB.', label: 'torch.OutOfMemoryError: CUDA out of memory' },
  'cuda-error': { line: 'RuntimeError: CUDA error: an illegal memory access was encountered', label: /^CUDA error: an illegal memory access/ },
  'resolver-conflict': { line: 'ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/', label: 'pip ResolutionImpossible' },
  'externally-managed': { line: 'error: externally-managed-environment', label: 'externally managed Python (PEP 668)' },
  'engine-failed': { line: '(EngineCore_0 pid=244) ERROR [core.py:700] EngineCore failed to start.', label: 'EngineCore failed to start' },
  'command-missing': { line: 'bash: line 1: huggingface-cli: command not found', label: 'huggingface-cli: command not found' },
  'connection-refused': { line: 'curl: (7) Failed to connect to localhost port 8000: Connection refused', label: 'connection refused' },
  'image-pulled': { line: 'Status: Downloaded newer image for lmsysorg/sglang:spark', label: 'Downloaded newer image for lmsysorg/sglang:spark' },
  installed: { line: 'Successfully installed hf-xet-1.2.1 huggingface_hub-1.4.1', label: 'installed hf-xet-1.2.1 huggingface_hub-1.4.1' },
  'download-complete': { line: 'Fetching 58 files: 100%|██████████| 58/58 [29:52<00:00, 30.90s/it]', label: /^Fetching 58 files: 100%/ },
  'server-ready': { line: '(APIServer pid=1187) INFO:     Application startup complete.', label: 'server ready' },
  'marker-supported': { line: 'Qwen3.5 MoE: SUPPORTED', label: 'Qwen3.5 MoE supported' },
  registered: { line: 'Qwen3_5MoeForConditionalGeneration registered: True', label: 'Qwen3_5MoeForConditionalGeneration registered' },
};

describe('output signatures: one test per signature', () => {
  it('every signature has an example', () => {
    expect(SIGNATURES.map((s) => s.name).filter((name) => !SIGNATURE_EXAMPLES[name])).toEqual([]);
  });

  for (const signature of SIGNATURES) {
    it(`${signature.name} (${signature.effect})`, () => {
      const example = SIGNATURE_EXAMPLES[signature.name];
      if (!example) throw new Error(`no example for ${signature.name}`);
      const hits = scanSignatures(`noise before\n${example.line}\nnoise after`, signature.decides[0] ?? 'other');
      const hit = hits.find((h) => h.name === signature.name);
      expect(hit, JSON.stringify(hits)).toBeDefined();
      if (typeof example.label === 'string') expect(hit?.label).toBe(example.label);
      else expect(hit?.label).toMatch(example.label);
      expect(hit?.decisive).toBe(true);
    });
  }

  it('nvidia-smi\'s "Not Supported" memory column is not a failure', () => {
    expect(scanSignatures('| N/A   38C    P8    4W /  N/A  | Not Supported          |      0%      Default |', 'inspect')).toEqual([]);
  });

  it('a signature outside the kinds it decides is kept as evidence, not as a decision', () => {
    const [hit] = scanSignatures('huggingface-cli: not found', 'inspect');
    expect(hit).toMatchObject({ name: 'command-missing', decisive: false });
  });
});

describe('version facts: one test per component', () => {
  const lines: Record<string, [string, string]> = {
    sglang: ['SGLang: 0.5.10rc0', '0.5.10rc0'],
    vllm: ['(APIServer pid=1187) INFO 02-26 14:40:38 [api_server.py:1839] vLLM API server version 0.17.0rc1.dev58+g9a3e6c1f2', '0.17.0rc1.dev58+g9a3e6c1f2'],
    tensorrt_llm: ['TensorRT-LLM version: 0.17.0', '0.17.0'],
    transformers: ['Transformers: 4.57.6', '4.57.6'],
    pytorch: ['PyTorch Version 2.11.0a0+eb65b36', '2.11.0a0+eb65b36'],
    cuda: ['CUDA Version 13.0.1', '13.0.1'],
    triton: ['Triton: 3.6.0', '3.6.0'],
    flashinfer: ['flashinfer==0.2.5', '0.2.5'],
    driver: ['| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |', '580.95.05'],
  };
  it('every component has an example', () => {
    expect(COMPONENTS.map((c) => c.component).filter((c) => !lines[c])).toEqual([]);
  });
  for (const component of COMPONENTS) {
    it(component.component, () => {
      const [line, version] = lines[component.component] ?? ['', ''];
      expect(extractFacts(line).find((f) => f.component === component.component)?.version).toBe(version);
    });
  }
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
