import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { catchCrashes, enterFullScreen, type TerminalStreams } from '../../src/tui/terminal.js';

const ENTER = '\x1b[?1049h';
const LEAVE = '\x1b[?1049l';
const SHOW_CURSOR = '\x1b[?25h';

/** Streams and a process that record what the terminal code does to them. */
function fakes() {
  const written: string[] = [];
  const errors: string[] = [];
  const rawModes: boolean[] = [];
  const stdin = { isTTY: true, isRaw: true, setRawMode: (on: boolean) => rawModes.push(on) };
  const streams = {
    stdout: { write: (text: string) => written.push(text) },
    stderr: { write: (text: string) => errors.push(text) },
    stdin,
  } as unknown as TerminalStreams;
  const proc = Object.assign(new EventEmitter(), {
    pid: 4242,
    killed: [] as string[],
    exits: [] as number[],
    kill(pid: number, signal: string) {
      this.killed.push(`${pid} ${signal}`);
      return true;
    },
    exit(code: number) {
      this.exits.push(code);
    },
  });
  return { written, errors, rawModes, streams, proc, screen: () => written.join('') };
}

describe('the terminal around the TUI', () => {
  it('switches to the alternate screen and hides the cursor, then gives both back once', () => {
    const { streams, proc, screen, rawModes } = fakes();
    const session = enterFullScreen(streams, proc as unknown as NodeJS.Process);
    expect(screen().startsWith(ENTER)).toBe(true);
    session.restore();
    session.restore();
    expect(screen().split(LEAVE)).toHaveLength(2);
    expect(screen().endsWith(SHOW_CURSOR + LEAVE)).toBe(true);
    expect(rawModes).toEqual([false]);
    expect(proc.listenerCount('SIGTERM') + proc.listenerCount('exit') + proc.listenerCount('uncaughtException')).toBe(0);
  });

  it('restores on SIGTERM and lets the signal do what it would have done', () => {
    const { streams, proc, screen } = fakes();
    enterFullScreen(streams, proc as unknown as NodeJS.Process);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(screen().endsWith(LEAVE)).toBe(true);
    expect(proc.killed).toEqual(['4242 SIGTERM']);
  });

  it('leaves a signal to another handler when there is one', () => {
    const { streams, proc, screen } = fakes();
    proc.on('SIGINT', () => undefined);
    enterFullScreen(streams, proc as unknown as NodeJS.Process);
    proc.emit('SIGINT', 'SIGINT');
    expect(screen().endsWith(LEAVE)).toBe(true);
    expect(proc.killed).toEqual([]);
  });

  it('restores before reporting a crash, and exits 1', () => {
    const { streams, proc, screen, errors } = fakes();
    enterFullScreen(streams, proc as unknown as NodeJS.Process);
    proc.emit('uncaughtException', new Error('boom'));
    expect(screen().endsWith(LEAVE)).toBe(true);
    expect(errors.join('')).toMatch(/^retrace tui: unexpected failure: Error: boom/);
    expect(proc.exits).toEqual([1]);
  });

  it('hands a crash to the caller that asked for it, after restoring, and does not exit', () => {
    const { streams, proc, screen, errors } = fakes();
    const crashes: unknown[] = [];
    enterFullScreen(streams, proc as unknown as NodeJS.Process, { onCrash: (error) => crashes.push(error) });
    const lost = Object.assign(new Error('write EIO'), { code: 'EIO' });
    proc.emit('uncaughtException', lost);
    expect(screen().endsWith(LEAVE)).toBe(true);
    expect(crashes).toEqual([lost]);
    expect(errors).toEqual([]);
    expect(proc.exits).toEqual([]);
    expect(proc.listenerCount('uncaughtException')).toBe(0);
  });

  it('restores when the process exits any other way', () => {
    const { streams, proc, screen } = fakes();
    enterFullScreen(streams, proc as unknown as NodeJS.Process);
    proc.emit('exit', 0);
    expect(screen().endsWith(LEAVE)).toBe(true);
  });

  it('in plain mode hands a live run its crashes once, and none after restore', () => {
    const { proc } = fakes();
    const crashes: unknown[] = [];
    const session = catchCrashes((error) => crashes.push(error), proc as unknown as NodeJS.Process);
    proc.emit('unhandledRejection', new Error('first'));
    expect(crashes.map((error) => (error as Error).message)).toEqual(['first']);
    expect(proc.listenerCount('uncaughtException') + proc.listenerCount('unhandledRejection')).toBe(0);
    const again = catchCrashes((error) => crashes.push(error), proc as unknown as NodeJS.Process);
    again.restore();
    session.restore();
    expect(proc.listenerCount('uncaughtException') + proc.listenerCount('unhandledRejection')).toBe(0);
  });
});
