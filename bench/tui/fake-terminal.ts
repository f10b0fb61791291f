import { EventEmitter } from 'node:events';

/**
 * A terminal for Ink without a terminal: stdout records every write with its time, stdin hands
 * Ink the keys the script types. Both say they are TTYs so Ink takes its interactive path.
 */
export interface Write {
  at: number;
  /** The process's CPU time (user + system, ms) at the write: steadier than wall time on a loaded machine. */
  cpuMs: number;
  text: string;
}

export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CSI escape sequences (colours, cursor moves, synchronized-update markers). */
const CSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

export function visibleText(text: string): string {
  return text.replace(CSI, '');
}

/** Writes that carry a frame (Ink also writes bare escape sequences). */
export function isFrame(text: string): boolean {
  return visibleText(text).trim().length > 0;
}

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly writes: Write[] = [];
  /** Called on every write that carries a frame. */
  onFrame: ((write: Write) => void) | null = null;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }

  write = (text: string): boolean => {
    const write = { at: performance.now(), cpuMs: cpuMs(), text };
    this.writes.push(write);
    if (this.writes.length > 200) this.writes.splice(0, 100);
    if (isFrame(text)) this.onFrame?.(write);
    return true;
  };

  /** The visible text of the last frame written (escape sequences stripped). */
  lastFrame(): string {
    for (let i = this.writes.length - 1; i >= 0; i -= 1) {
      const text = this.writes[i]?.text ?? '';
      if (isFrame(text)) return visibleText(text);
    }
    return '';
  }
}

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;
  private queue: string[] = [];

  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    return this;
  }

  setEncoding(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  pause(): this {
    return this;
  }

  read(): string | null {
    return this.queue.shift() ?? null;
  }

  /** Types a key: Ink reads it on 'readable'. */
  type(key: string): void {
    this.queue.push(key);
    this.emit('readable');
  }
}
