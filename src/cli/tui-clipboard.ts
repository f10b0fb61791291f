import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** OSC 52 "set the clipboard" (c = the clipboard selection), which tmux, kitty, iTerm2, WezTerm… honour. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** Terminals known to print OSC 52 as garbage or to have no clipboard. */
function terminalIgnoresOsc52(env: NodeJS.ProcessEnv): boolean {
  return env['TERM'] === 'dumb' || env['TERM'] === 'linux';
}

export interface ClipboardOptions {
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WriteStream;
  /** Where the fallback copy goes (default: the temp folder). */
  file?: string;
}

/**
 * `y` in the TUI: the text goes to the clipboard through the terminal (OSC 52, which also works
 * over ssh), and to a file: many terminals ignore OSC 52 silently, so the user is told where the
 * text is either way.
 */
export async function copyToClipboard(text: string, options: ClipboardOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const file = options.file ?? join(env['TMPDIR'] ?? tmpdir(), 'retrace-copy.txt');
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
  if (!stdout.isTTY || terminalIgnoresOsc52(env)) return `saved to ${file} (no clipboard in this terminal)`;
  stdout.write(osc52(text));
  return `copied (OSC 52), also in ${file}`;
}
