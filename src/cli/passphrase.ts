/**
 * Asks for an encrypted key's passphrase on the terminal, as ssh does when no agent holds the key:
 * the prompt on stderr, what is typed never echoed. Only where a person can answer (stdin and
 * stderr are terminals); elsewhere there is no prompt and the login says how to fix it instead.
 */
export function terminalPassphrasePrompt(stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): ((keyPath: string) => Promise<string | null>) | undefined {
  if (!stdin.isTTY || !stderr.isTTY) return undefined;
  return (keyPath) =>
    new Promise((resolve) => {
      stderr.write(`Enter passphrase for key '${keyPath}': `);
      const wasRaw = stdin.isRaw;
      stdin.setRawMode(true);
      stdin.resume();
      stdin.setEncoding('utf8');
      let typed = '';
      const done = (value: string | null): void => {
        stdin.off('data', onData);
        stdin.setRawMode(wasRaw);
        stdin.pause();
        stderr.write('\n');
        resolve(value);
      };
      const onData = (chunk: string): void => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n') return done(typed);
          if (char === '\u0003' || char === '\u0004') return done(null); // Ctrl-C, Ctrl-D: no passphrase
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else typed += char;
        }
      };
      stdin.on('data', onData);
    });
}
