import { render } from 'ink-testing-library';
import { App } from '../../src/tui/App.js';
import type { Route } from '../../src/tui/routes.js';
import type { TuiServices } from '../../src/tui/services.js';
import type { Theme } from '../../src/tui/theme.js';

/**
 * The whole app at a fixed size (ink-testing-library's stdout has 100 columns and no rows), with
 * helpers that wait the way Ink needs: useInput subscribes in an effect, so a tick before and
 * after each key.
 */
export const KEYS = { enter: '\r', escape: '\u001B', down: '\u001B[B', up: '\u001B[A', pageDown: '\u001B[6~', backspace: '\u007F' } as const;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export function renderApp(services: TuiServices, start: Route[], options: { columns?: number; rows?: number; theme?: Theme } = {}) {
  const size = { columns: options.columns ?? 80, rows: options.rows ?? 24 };
  const app = render(<App services={services} theme={options.theme ?? { colour: false }} start={start} size={size} />);
  const frame = () => app.lastFrame() ?? '';
  return {
    ...app,
    frame,
    /** Each string is one key press (or a pasted run of characters). */
    async press(...keys: string[]) {
      for (const key of keys) {
        await tick();
        app.stdin.write(key);
        // A run of characters is routed one per tick (see AppProviders).
        for (let i = 0; i < [...key].length + 2; i += 1) await tick();
      }
    },
    /** Waits until the frame satisfies `check` (services answer asynchronously). */
    async waitFor(check: (frame: string) => boolean, what = 'the expected frame', timeoutMs = 3000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (check(frame())) return frame();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`timed out waiting for ${what}; last frame:\n${frame()}`);
    },
    async waitForText(text: string, timeoutMs?: number): Promise<string> {
      return this.waitFor((f) => f.includes(text), JSON.stringify(text), timeoutMs);
    },
  };
}

/** The line of the frame that holds the cursor mark. */
export function selectedLine(frame: string): string {
  return frame.split('\n').find((line) => line.startsWith('›')) ?? '';
}
