import { MARK, type Tone } from './theme.js';

/**
 * The decision tree's and the runner's words for outcomes, as a mark and a tone. The words are
 * always shown too; the mark only makes a long column scannable.
 */
export function verdictMark(verdict: string | null): { mark: string; tone: Tone } {
  const word = (verdict ?? '').toLowerCase();
  if (/skip|untried|untested|abandon|not tried|lead|planned/.test(word)) return { mark: MARK.skipped, tone: 'dim' };
  if (/reject|fail|negative|broken|error|dead/.test(word)) return { mark: MARK.failed, tone: 'danger' };
  if (/timeout|timed/.test(word)) return { mark: MARK.timeout, tone: 'warn' };
  if (/chosen|accept|confirm|select|win|work|positive|success|ok|deployed|kept|same/.test(word)) return { mark: MARK.ok, tone: 'ok' };
  if (/diverged/.test(word)) return { mark: MARK.diverged, tone: 'danger' };
  return { mark: MARK.unknown, tone: 'warn' };
}

/** A run step's status as a mark and a tone (the word is shown beside it). */
export function stepStatusMark(status: string): { mark: string; tone: Tone } {
  switch (status) {
    case 'ok':
      return { mark: MARK.ok, tone: 'ok' };
    case 'failed':
    case 'interrupted':
      return { mark: MARK.failed, tone: 'danger' };
    case 'timeout':
      return { mark: MARK.timeout, tone: 'warn' };
    case 'running':
      return { mark: MARK.running, tone: 'accent' };
    case 'skipped':
    case 'guarded':
    case 'planned':
      return { mark: MARK.skipped, tone: 'dim' };
    case 'pending':
      return { mark: MARK.pending, tone: 'dim' };
    default:
      return { mark: MARK.unknown, tone: 'warn' };
  }
}
