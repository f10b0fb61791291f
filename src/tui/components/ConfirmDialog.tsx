import { Box } from 'ink';
import { wrap } from '../format.js';
import { useKeys } from '../hooks/use-keys.js';
import { seg } from '../segments.js';
import { PRIORITY } from '../state/key-routing.js';
import { Line } from './Line.js';

export interface ConfirmDialogProps {
  title: string;
  /** What is at stake, e.g. the command about to run; wrapped, at most `maxLines` lines. */
  detail: string;
  width: number;
  maxLines?: number;
  /** The answers besides y/n, e.g. `s` to skip instead. */
  extra?: { key: string; label: string; run(): void }[];
  onAnswer(yes: boolean): void;
}

/** A question that takes every key until answered (y/n, Esc = no): the list behind it waits. */
export function ConfirmDialog({ title, detail, width, maxLines = 4, extra = [], onAnswer }: ConfirmDialogProps) {
  useKeys(
    (input, key) => {
      if (input === 'y' || input === 'Y') onAnswer(true);
      else if (input === 'n' || input === 'N' || key.escape) onAnswer(false);
      else extra.find((option) => option.key === input)?.run();
      return true;
    },
    { priority: PRIORITY.dialog },
  );
  const inner = Math.max(10, width - 4);
  const lines = wrap(detail, inner).slice(0, maxLines);
  const answers = ['y yes', 'n no', ...extra.map((option) => `${option.key} ${option.label}`)].join(' · ');
  return (
    <Box flexDirection="column" borderStyle="single" width={width}>
      {/* Wrapped, never cut: the title names the host a destructive step runs on (user@host:port, every one). */}
      {wrap(title, inner + 2).map((line, index) => (
        <Line key={`title-${index}`} segments={[seg(line, 'warn')]} width={inner + 2} />
      ))}
      {lines.map((line, index) => (
        <Line key={index} segments={[seg(` ${line}`)]} width={inner + 2} />
      ))}
      <Line segments={[seg(` ${answers}`, 'accent')]} width={inner + 2} />
    </Box>
  );
}
