/** What an action did, in the words of the issue: the `actions.kind` column. */
export const ACTION_KINDS = [
  'pull',
  'probe',
  'download',
  'stop',
  'start',
  'serve',
  'cluster',
  'health',
  'inspect',
  'install',
  'build',
  'search',
  'fetch',
  'other',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** `ok`/`failed`/`timeout` for steps; `positive`/`negative` for a probe's answer; `unknown` when the record cannot tell. */
export const OUTCOMES = ['ok', 'failed', 'timeout', 'negative', 'positive', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];
