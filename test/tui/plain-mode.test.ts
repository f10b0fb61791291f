import { describe, expect, it } from 'vitest';
import { frameLines, plainModeWanted } from '../../src/tui/plain-mode.js';
import { plainKeys } from '../../src/tui/state/plain-keys.js';

describe('plain mode (TERM=dumb)', () => {
  it('is wanted for TERM=dumb only', () => {
    expect(plainModeWanted({ TERM: 'dumb' })).toBe(true);
    expect(plainModeWanted({ TERM: 'xterm-256color' })).toBe(false);
    expect(plainModeWanted({})).toBe(false);
  });

  it('reads a typed line as keys: characters as typed, named keys, an empty line for Enter', () => {
    expect(plainKeys('')).toEqual(['\r']);
    expect(plainKeys('jj')).toEqual(['j', 'j']);
    expect(plainKeys('/scitrera<enter>')).toEqual(['/', ...'scitrera', '\r']);
    expect(plainKeys('<esc><DOWN>x<pgdn>')).toEqual(['\u001B', '\u001B[B', 'x', '\u001B[6~']);
    expect(plainKeys('a<nope>b')).toEqual([...'a<nope>b']);
  });

  it('prints a frame without trailing blanks, and a run of empty lines as one', () => {
    expect(frameLines(' title   \n\n\n\n row  \n\nstatus   \n\n')).toEqual([' title', '', ' row', '', 'status']);
  });
});
