import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanLine, cleanText, withoutTerminalControls } from '../../src/core/terminal-text.js';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { sampleExport } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

const dir = tempDir('retrace-escapes-');
const db = tempDbPath(dir);
const file = join(dir, 'hostile-export.json');

/** A window title (OSC 0), a clipboard write (OSC 52), a screen clear, colour, an 8-bit CSI and a bell. */
const HOSTILE = ['\x1b]0;pwned\x07', '\x1b]52;c;cGF3bmVk\x07', '\x1b[2J', '\x1b[31m', '\u009b6n', '\x07'];
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex

function hostile(text: string): string {
  return `${HOSTILE.join('')}${text.split('\n').join(`\n${HOSTILE[3]}${HOSTILE[0]}`)}`;
}

/** The bundled sample with escape sequences in its title, every text and every tool output. */
function hostileSample(): unknown {
  const doc = sampleExport() as { info: Record<string, unknown>; messages: { parts: Record<string, unknown>[] }[] };
  doc.info['title'] = hostile(String(doc.info['title']));
  for (const message of doc.messages) {
    for (const part of message.parts) {
      if (part['type'] === 'text') part['text'] = hostile(String(part['text']));
      const state = part['state'] as { output?: unknown } | undefined;
      if (part['type'] === 'tool' && state && typeof state.output === 'string') state.output = hostile(state.output);
    }
  }
  return doc;
}

function expectNoControls(what: string, text: string): void {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const bad = lines.find((line) => CONTROL.test(line));
  expect(bad, `${what} passed a control character to the terminal`).toBeUndefined();
}

let runId = '';

beforeAll(async () => {
  writeFileSync(file, JSON.stringify(hostileSample()));
  const ingest = await runRetraceJson<{ sources: number }>(['ingest', file, '--db', db]);
  expect(ingest.json.sources).toBe(1);
  const replay = await runRetraceJson<{ run: { id: string } }>(['replay', 'Deploy', '--db', db]);
  runId = replay.json.run.id;
}, 120_000);

describe('terminal escape sequences from recorded data never reach the terminal (issue 15, point 4)', () => {
  it('the shared helper drops escapes and control characters, as the TUI always did', () => {
    expect(cleanLine('\x1b]0;title\x07\x1b[31mred\x1b[0m \u009b2Jok\x07')).toBe('red ok');
    expect(cleanText('a\x1b[2J\nb\r\x1b[Kc')).toBe('a\nc');
    expect(withoutTerminalControls('n,s\r\n1,"\x1b]52;c;eA==\x07x"')).toBe('n,s\r\n1,"x"');
  });

  const commands: [string, () => string[]][] = [
    ['sessions', () => ['sessions']],
    ['show', () => ['show', 'Deploy']],
    ['tree', () => ['tree', 'Deploy']],
    ['why', () => ['why', 'scitrera']],
    ['timings', () => ['timings']],
    ['runs', () => ['runs']],
    ['runs RUN', () => ['runs', runId]],
    ['sql', () => ['sql', 'SELECT title FROM sessions UNION ALL SELECT output FROM tool_calls']],
    ['replay (dry run)', () => ['replay', 'Deploy']],
  ];

  for (const [name, args] of commands) {
    it(`retrace ${name} prints the recorded text without its escapes`, async () => {
      const run = await runRetrace([...args(), '--db', db]);
      expect(run.code).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(20);
      expectNoControls(`retrace ${name} (stdout)`, run.stdout);
      expectNoControls(`retrace ${name} (stderr)`, run.stderr);
    });
  }

  it('keeps machine formats byte for byte when they go to a pipe (CSV, JSON escapes)', async () => {
    const csv = await runRetrace(['sql', '--db', db, '--csv', `SELECT output FROM tool_calls WHERE output LIKE '%pwned%' LIMIT 1`]);
    expect(csv.stdout).toContain(HOSTILE[0]);
    const json = await runRetraceJson<{ output: string }[]>(['sql', '--db', db, `SELECT output FROM tool_calls WHERE output LIKE '%pwned%' LIMIT 1`]);
    expect(json.json[0]?.output).toContain(HOSTILE[0]);
  });
});
