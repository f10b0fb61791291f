// Replay runs only what the plan says: arbitrary values, hostile ones included, sent through every
// context a placeholder can land in, to the real shells of test hosts (bash, and dash as a login
// shell). Each arrives byte for byte, or the render refuses it; nothing in a value ever runs.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate, TemplateError } from '../../src/replay/plan/template.js';
import { SshHostExecutor } from '../../src/replay/run/host-executor.js';
import { connectOptionsFor, resolveHostSpec } from '../../src/replay/run/live-replay.js';
import { SshConnection } from '../../src/replay/ssh/connection.js';
import type { HostRole, TestHosts } from '../ssh/harness.js';
import { INJECTION_CONTEXTS } from './helpers/injection-contexts.js';
import { hostSpec, testSshSettings, useTestHosts } from './helpers/hosts.js';

let hosts: TestHosts;
const ROLES: HostRole[] = ['head', 'dash'];
const executors = new Map<HostRole, SshHostExecutor>();

beforeAll(async () => {
  hosts = await useTestHosts({ roles: ROLES });
  for (const role of ROLES) {
    const settings = testSshSettings(hosts);
    const target = resolveHostSpec(hostSpec(hosts, role), settings);
    executors.set(role, new SshHostExecutor(role, await SshConnection.open(target, connectOptionsFor(target, settings))));
  }
  return () => {
    for (const executor of executors.values()) executor.close();
  };
});

/** Pieces a shell could be tricked by, between arbitrary text. */
const TRICKS = ['$(touch ~/canary)', '`touch ~/canary`', '"', "'", '\\', '$', '${HOME}', '\n', 'EOF', '\nEOF\n', '\t', ')', '"$(', "'\"$(touch ~/canary)\"'", ' ', '*', '!', ';', '&', '|', '#', '<<', 'é', '\u0001'];
const value = fc
  .array(fc.oneof(fc.constantFrom(...TRICKS), fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(''))
  .filter((text) => !text.includes('\0'));

/** Whether a render may refuse this value: only a line that would end the here-document around it. */
const endsHeredoc = (text: string): boolean => text.split('\n').slice(1).some((line) => line.startsWith('EOF'));

describe('placeholder values through every context, on real shells', () => {
  it('property: every value arrives byte for byte (or is refused where it would end a here-document), and nothing in it runs', { timeout: 180_000 }, async () => {
    let checked = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(value, async (text) => {
        for (const role of ROLES) {
          const home = hosts.host(role).homeDir;
          const out = join(home, 'injection');
          rmSync(out, { recursive: true, force: true });
          mkdirSync(out);
          const parts: string[] = [];
          const expected = new Map<number, string>();
          INJECTION_CONTEXTS.forEach((context, index) => {
            if (context.bashOnly && role === 'dash') return;
            let rendered: string;
            try {
              rendered = renderTemplate(context.template, { v: text });
            } catch (error) {
              expect(error).toBeInstanceOf(TemplateError);
              expect(endsHeredoc(text), `${context.name} refused ${JSON.stringify(text)}: ${(error as Error).message}`).toBe(true);
              refused += 1;
              return;
            }
            expected.set(index, context.expected(text));
            parts.push(`{\n${rendered}\n} > ~/injection/${index} 2>/dev/null`);
          });
          const outcome = await executors.get(role)?.run(parts.join('\n'), { timeoutMs: 30_000, secrets: {} });
          expect(outcome?.kind).toBe('exited');
          for (const [index, want] of expected) {
            const got = readFileSync(join(out, String(index)));
            expect(got.toString('hex'), `${role}: ${INJECTION_CONTEXTS[index]?.name} with ${JSON.stringify(text)}`).toBe(Buffer.from(want, 'utf8').toString('hex'));
            checked += 1;
          }
          expect(existsSync(join(home, 'canary')), `${role}: a value ran`).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
    expect(checked).toBeGreaterThan(40 * ROLES.length * (INJECTION_CONTEXTS.length - 4));
    expect(refused).toBeLessThan(checked);
  });

  it('refuses a non-word value in backticks, with its position, and renders a plain word there', () => {
    expect(() => renderTemplate('echo `printf %s {{ v }}`', { v: '$(id)' })).toThrow(/v \{\{ … \}\} at offset 16: .* inside backticks/);
    expect(renderTemplate('echo `printf %s {{ v }}`', { v: 'plain-word' })).toBe('echo `printf %s plain-word`');
  });
});
