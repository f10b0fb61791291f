import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeholdersOf, renderTemplate, shellQuote, templatize } from '../../src/replay/plan/template.js';

/** Runs a rendered command in a real bash and returns what it printed, as bytes. */
function bash(command: string): Buffer {
  return execFileSync('bash', ['-c', command]);
}

/** Values a shell could be tricked by; NUL aside (no shell word can hold one). */
const hostile = fc.string({ unit: 'binary', maxLength: 40 }).filter((value) => !value.includes('\0'));

describe('shell quoting of substituted values', () => {
  it('leaves plain words bare and quotes everything else as one word', () => {
    expect(shellQuote('hellohal2064/vllm-qwen3.5-gb10')).toBe('hellohal2064/vllm-qwen3.5-gb10');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's $(rm -rf ~)")).toBe(`'it'\\''s $(rm -rf ~)'`);
    expect(() => shellQuote('a\0b')).toThrow('NUL');
  });

  it('substitutes only declared names and leaves Go templates alone', () => {
    const rendered = renderTemplate(`docker ps --format '{{.Names}}' | grep {{ image }} {{ other }}`, { image: 'a b' });
    expect(rendered).toBe(`docker ps --format '{{.Names}}' | grep 'a b' {{ other }}`);
    expect(placeholdersOf('{{ a }} {{b}} {{ a }} {{.C}}')).toEqual(['a', 'b']);
  });

  it("reads a Go template's own words (end, else) as the template's, not as placeholders", () => {
    const command = `docker inspect --format '{{range .Mounts}}{{.Source}}{{ end }}{{if .State.Running}}up{{else}}down{{end}}' {{ name }}`;
    expect(placeholdersOf(command)).toEqual(['name']);
    expect(renderTemplate(command, { name: 'sg' })).toBe(command.replace('{{ name }}', 'sg'));
  });

  it('quotes for the context it lands in: bare, single-quoted, double-quoted, $\'…\'', () => {
    const value = `x'y"z$HOME\`id\`\\`;
    for (const template of [
      `printf '%s' {{ v }}`,
      `printf '%s' "{{ v }}"`,
      `printf '%s' 'pre-{{ v }}-post'`,
      `printf '%s' "pre-{{ v }}-post"`,
      `printf '%s' $'a\\'{{ v }}'`,
    ]) {
      const expected = template.includes('pre-') ? `pre-${value}-post` : template.includes("$'") ? `a'${value}` : value;
      expect(bash(renderTemplate(template, { v: value })).toString('utf8'), template).toBe(expected);
    }
  });

  it('property: arbitrary strings arrive byte for byte through bash, in every quoting context, with no injection', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom('bare', 'double', 'single'), (value, context) => {
        const slot = context === 'bare' ? '{{ v }}' : context === 'double' ? '"<{{ v }}>"' : "'<{{ v }}>'";
        const output = bash(renderTemplate(`printf '%s' ${slot}; printf '|%s' done`, { v: value }));
        const expected = context === 'bare' ? value : `<${value}>`;
        expect(output.toString('hex')).toBe(Buffer.from(`${expected}|done`, 'utf8').toString('hex'));
      }),
      { numRuns: 60 },
    );
  });

  it('turns recorded values into placeholders without touching longer neighbours', () => {
    const values = [
      { name: 'head_ip', value: '192.168.200.1' },
      { name: 'image', value: 'hellohal2064/vllm-qwen3.5-gb10' },
    ];
    expect(templatize('ray start --address=192.168.200.1:6379 --x 192.168.200.12 hellohal2064/vllm-qwen3.5-gb10', values)).toBe(
      'ray start --address={{ head_ip }}:6379 --x 192.168.200.12 {{ image }}',
    );
  });
});
