/**
 * Recorded text made safe for a terminal. Transcripts hold whatever the agent's commands printed:
 * colour codes, cursor moves, window titles (OSC 0), clipboard writes (OSC 52). None of it may
 * reach the user's terminal as a control sequence, in the TUI or in the CLI's text output.
 */

// CSI … final byte, OSC … BEL/ST (both also in their 8-bit forms), and two-byte escapes: a recorded
// `ls --color` must not repaint our screen.
// eslint-disable-next-line no-control-regex
const ANSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|\x1b[@-Z\\-_]/g;
// C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F: U+009B is a CSI on some terminals).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// The same, keeping carriage returns (machine formats such as CSV end their lines with CRLF).
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_CR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** One line as a terminal would show it: escapes dropped, `\r` overwrites, tabs expanded. */
export function cleanLine(line: string): string {
  const withoutEscapes = line.replace(ANSI, '');
  const afterReturn = withoutEscapes.slice(withoutEscapes.lastIndexOf('\r') + 1);
  let out = '';
  for (const char of afterReturn.replace(CONTROL, '')) {
    out += char === '\t' ? ' '.repeat(8 - (out.length % 8)) : char;
  }
  return out;
}

// Every character `cleanLine` changes or drops: escapes start with ESC or a C1 control, then tab, CR and the other controls.
// eslint-disable-next-line no-control-regex
const CHANGED_BY_CLEAN_LINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

/** A text of several lines, each as `cleanLine` shows it. */
export function cleanText(text: string): string {
  // Most text (a table of 15,000 sessions, 2 MB) has nothing to clean: returned as it is, not rebuilt a character at a time.
  if (!CHANGED_BY_CLEAN_LINE.test(text)) return text;
  return text.includes('\n') ? text.split('\n').map(cleanLine).join('\n') : cleanLine(text);
}

/** A text on one line (previews): escapes dropped, every run of white space one space. */
export function oneLine(text: string): string {
  return text.replace(ANSI, '').replace(/\s+/g, ' ').replace(CONTROL, '').trim();
}

/** Data left as it is but for escape sequences and control characters (tab, CR and LF stay). */
export function withoutTerminalControls(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL_BUT_CR, '');
}
