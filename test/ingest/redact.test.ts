import { describe, expect, it } from 'vitest';
import { redactText, type RedactionCounts } from '../../src/core/redact/redact.js';
import { redactValue } from '../../src/core/redact/redact-value.js';

function redact(text: string): { text: string; counts: RedactionCounts } {
  const counts: RedactionCounts = {};
  return { text: redactText(text, counts), counts };
}

describe('redactText: each kind of secret', () => {
  const cases: [string, string, string, string][] = [
    ['huggingface-token', 'HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 hf download x', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'HF_TOKEN=[REDACTED:huggingface-token] hf download x'],
    ['github-token', 'git clone https://x:ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/a/b', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz', ''],
    ['github-token', 'token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123', ''],
    ['aws-access-key-id', 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE', ''],
    ['aws-secret-key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', ''],
    ['openai-key', 'OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789', 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789', ''],
    ['anthropic-key', 'key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-ABCDEF', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-ABCDEF', ''],
    ['bearer-token', 'curl -H "Authorization: Bearer abc.def.ghi-jkl_mno" http://localhost:8000', 'abc.def.ghi-jkl_mno', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]" http://localhost:8000'],
    ['url-password', 'pip install --index-url https://bob:s3cr3t-pass@pypi.example.com/simple x', 's3cr3t-pass', 'pip install --index-url https://bob:[REDACTED:url-password]@pypi.example.com/simple x'],
    ['secret-assignment', 'DB_PASSWORD="correct horse" ; MY_SECRET=battery-staple', 'battery-staple', ''],
    ['secret-field', '{"password": "hunter2hunter2"}', 'hunter2hunter2', '{"password": "[REDACTED:secret-field]"}'],
    ['jwt', 'token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'eyJhbGciOiJIUzI1NiJ9', ''],
    ['slack-token', 'SLACK=xoxb-123456789012-abcdefghijkl', 'xoxb-123456789012-abcdefghijkl', ''],
    ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAA', '[REDACTED:private-key]'],
    ['secret-flag', 'vllm serve m --api-key 0123456789abcdef', '0123456789abcdef', 'vllm serve m --api-key [REDACTED:secret-flag]'],
  ];
  for (const [kind, input, secret, expected] of cases) {
    it(`removes a ${kind}`, () => {
      const { text, counts } = redact(input);
      expect(text).not.toContain(secret);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      if (expected) expect(text).toBe(expected);
    });
  }

  it('names the vendor when a generic assignment holds a known token shape', () => {
    const { counts } = redact('HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567');
    expect(counts).toEqual({ 'huggingface-token': 1 });
  });

  it('keeps a PEM key cut short by truncation from leaking', () => {
    const { text } = redact('"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
  });
});

describe('redactText: no false positives', () => {
  const harmless = [
    'Digest: sha256:16dec654b13e4d10a2d9eefa0560e85fed0d1fc9536986e1dfb1bcb0077cbc7a',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
    'request 123e4567-e89b-12d3-a456-426614174000 done',
    'hf download Qwen/Qwen3.5-122B-A10B-FP8 --local-dir ~/models',
    'HF_TOKEN=$HF_TOKEN hf download Qwen/Qwen3.5-122B-A10B-FP8',
    'vllm serve x --max-num-batched-tokens 8192 --max_tokens=100 monkey=banana',
    'NCCL_IB_HCA=rocep1s0f1 NCCL_SOCKET_IFNAME=enp1s0f1np1 RAY_memory_monitor_refresh_ms=0',
    'disk-usage-report-abcdefghijklmnopqrstuvwxyz and task-abcdefghijklmnopqrstuvw',
    'ssh aurora@10.1.230.180 docker ps',
    '"tokens": {"input": 1200, "output": 300}',
    'image: scitrera/dgx-spark-sglang:0.5.10rc0 nvcr.io/nvidia/vllm:25.11-py3',
  ];
  for (const text of harmless) {
    it(`leaves "${text.slice(0, 50)}" alone`, () => {
      expect(redact(text).text).toBe(text);
    });
  }
});

describe('redactValue', () => {
  it('redacts strings at any depth and leaves keys and numbers', () => {
    const counts: RedactionCounts = {};
    const value = redactValue({ command: 'curl -H "Authorization: Bearer abcdefghijkl"', n: 3, nested: [{ token: 'x' }] }, counts);
    expect(value).toEqual({ command: 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"', n: 3, nested: [{ token: 'x' }] });
    expect(counts).toEqual({ 'bearer-token': 1 });
  });
});
