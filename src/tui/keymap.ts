import type { ScreenName } from './routes.js';

/** What `?` shows: the keys of each screen, then the ones every screen shares. */
export interface KeyHelpEntry {
  keys: string;
  what: string;
}

const LIST: KeyHelpEntry[] = [
  { keys: 'j k ↓ ↑', what: 'step down / up' },
  { keys: 'Space PgDn PgUp', what: 'page down / up' },
  { keys: 'g G', what: 'first / last' },
  { keys: '/ n N', what: 'search, next / previous match' },
];

export const GLOBAL_KEYS: KeyHelpEntry[] = [
  { keys: '?', what: 'show / hide these keys' },
  { keys: 'Esc', what: 'back' },
  { keys: 'q Ctrl-C', what: 'quit' },
];

export const SCREEN_KEYS: Record<ScreenName, KeyHelpEntry[]> = {
  sessions: [
    { keys: 'Enter', what: 'open the session timeline' },
    { keys: 'd', what: 'decision tree of the session' },
    { keys: 't', what: 'timings of the session' },
    { keys: 'r', what: 'runs (replays)' },
    ...LIST,
  ],
  timeline: [
    { keys: 'Enter', what: "open a call's output / a message's text" },
    { keys: 'c', what: "the call's whole command, as recorded" },
    { keys: 'y', what: "copy the call's command (OSC 52 and a file)" },
    { keys: 'd', what: 'decision tree' },
    { keys: 't', what: 'timings' },
    ...LIST,
  ],
  output: [
    { keys: 'j k ↓ ↑', what: 'scroll a line' },
    { keys: 'Space b PgDn PgUp', what: 'scroll a page' },
    { keys: 'h l ← →', what: 'scroll sideways' },
    { keys: 'w', what: 'wrap long lines / cut them' },
    { keys: 'c', what: "the call's whole command" },
    { keys: 'y', what: "copy the call's command" },
    { keys: 'g G', what: 'top / bottom' },
    { keys: '/ n N', what: 'search, next / previous match' },
    { keys: 'q Esc', what: 'close the output' },
  ],
  tree: [
    { keys: 'Enter', what: 'why (evidence) for a candidate; timeline at a pivot' },
    { keys: 't', what: 'timings' },
    ...LIST,
  ],
  why: [
    { keys: 'Enter', what: 'timeline at this evidence or reasoning' },
    { keys: 'o', what: "open the evidence call's output" },
    ...LIST,
  ],
  timings: [
    { keys: 'Enter', what: 'timeline at this attempt' },
    { keys: 'f', what: 'filter: all, pull, download, probe…' },
    ...LIST,
  ],
  runs: [{ keys: 'Enter', what: 'run vs record' }, ...LIST],
  'live-run': [
    { keys: 'p', what: 'pause before the next step / resume (never past a failure)' },
    { keys: 's', what: 'skip the selected step (not started, or failed: go on without it)' },
    { keys: 'h a', what: 'skip on this host / on all hosts (a step on several)' },
    { keys: 'r', what: 'retry the failed step on the selected host' },
    { keys: 'q', what: 'abort the run (asks first)' },
    { keys: 'y n', what: 'answer a destructive step’s confirmation' },
    { keys: 'f', what: 'follow the running step again' },
    { keys: 'c', what: 'run vs record (when finished)' },
    { keys: 'j k ↓ ↑', what: 'select a step (its output shows below)' },
  ],
  compare: [
    { keys: 'Enter', what: "the step's outputs: recorded beside this run's, differences marked" },
    { keys: 'n N', what: 'next / previous difference (in the outputs)' },
    { keys: 'd', what: 'only diverged steps / all steps' },
    ...LIST,
  ],
};
