import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * A real terminal for end-to-end tests: a tmux server of our own (its own socket, no user
 * config) running one shell in an 80×24 window. Keys go in with send-keys; the screen comes back
 * with capture-pane, as a user would see it.
 */
export class TmuxTerminal {
  private readonly socket: string;
  private readonly target = 'e2e';

  constructor(name: string) {
    this.socket = `retrace-${name}-${process.pid}`;
  }

  static available(): boolean {
    return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** A fresh shell with a known prompt and nothing on screen. */
  async start(columns = 80, rows = 24, env: Record<string, string> = {}): Promise<void> {
    const environment = Object.entries({ PS1: 'e2e$ ', HISTFILE: '/dev/null', ...env }).map(([key, value]) => `${key}=${value}`);
    this.tmux('new-session', '-d', '-x', String(columns), '-y', String(rows), '-s', this.target, 'env', ...environment, 'bash', '--norc', '--noprofile');
    this.tmux('set-option', '-t', this.target, 'status', 'off');
    await this.waitFor((screen) => screen.includes('e2e$'), 'the shell prompt');
  }

  /** Types a line into the shell and presses Enter. */
  run(commandLine: string): void {
    this.tmux('send-keys', '-t', this.target, '-l', commandLine);
    this.tmux('send-keys', '-t', this.target, 'Enter');
  }

  /** Presses keys one by one (tmux key names: Enter, Escape, Down, C-c …), as a person would. */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) {
      this.tmux('send-keys', '-t', this.target, key);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  }

  /** Pastes text as a terminal does (one burst, through a tmux paste buffer). */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'e2e-paste', text);
    this.tmux('paste-buffer', '-d', '-b', 'e2e-paste', '-t', this.target);
  }

  /** Sends text as literal keys all at once (typing faster than any frame), no pause between them. */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.target, '-l', text);
  }

  /** A tmux option of the whole server, e.g. `set-clipboard on` (OSC 52 then fills tmux's buffer). */
  setOption(name: string, value: string): void {
    this.tmux('set-option', '-s', name, value);
  }

  /** The newest tmux paste buffer (what an OSC 52 copy put there), or '' when there is none. */
  lastBuffer(): string {
    try {
      return this.tmux('show-buffer');
    } catch {
      return '';
    }
  }

  /** The visible screen; with `escapes`, its colours and attributes as escape codes; with `history`, the scrollback above it too. */
  screen(options: { escapes?: boolean; history?: boolean } = {}): string {
    return this.tmux('capture-pane', '-p', ...(options.escapes ? ['-e'] : []), ...(options.history ? ['-S', '-'] : []), '-t', this.target);
  }

  /** A tmux format of the pane, e.g. `#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`. */
  display(format: string): string {
    return this.tmux('display-message', '-p', '-t', this.target, format).trim();
  }

  /** Appends every byte the pane's program writes from now on to `file` (escape codes included). */
  record(file: string): void {
    this.tmux('pipe-pane', '-o', '-t', this.target, `cat >> ${file}`);
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', this.target, '-x', String(columns), '-y', String(rows));
  }

  /**
   * The first screen that satisfies `check` and is still the same one poll later: a capture taken
   * while the app was part-way through writing a frame (the top drawn, the bottom not yet) is
   * never returned, so what a test asserts next is about a whole frame.
   */
  async waitFor(check: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    let matched: string | null = null;
    while (Date.now() < deadline) {
      screen = this.screen();
      if (check(screen)) {
        if (screen === matched) return screen;
        matched = screen;
      } else {
        matched = null;
      }
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`tmux: timed out waiting for ${what}; the screen:\n${screen}`);
  }

  async waitForText(text: string, timeoutMs?: number): Promise<string> {
    return this.waitFor((screen) => screen.includes(text), JSON.stringify(text), timeoutMs);
  }

  /** Presses `key` until the line under the cursor mark satisfies `check` (at most `limit` times). */
  async stepUntil(key: string, check: (line: string) => boolean, what: string, limit = 60): Promise<string> {
    const selected = () => this.screen().split('\n').find((row) => row.startsWith('›')) ?? '';
    for (let i = 0; i <= limit; i += 1) {
      const line = selected();
      if (check(line)) return line;
      await this.press(key);
      // Wait for the cursor to move before looking again, so no press is counted twice.
      await this.waitFor(() => selected() !== line, `the cursor to leave "${line.trim()}"`, 2_000).catch(() => undefined);
    }
    throw new Error(`tmux: ${what} not reached after ${limit} presses of ${key}; the screen:\n${this.screen()}`);
  }

  /** Stops our tmux server (and the shell and anything still running in it), and removes its socket. */
  stop(): void {
    const socketPath = spawnSync('tmux', ['-L', this.socket, 'display-message', '-p', '#{socket_path}'], { encoding: 'utf8' }).stdout.trim();
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    // tmux leaves the socket file behind when its server is killed.
    if (socketPath.endsWith(`/${this.socket}`)) rmSync(socketPath, { force: true });
  }
}
