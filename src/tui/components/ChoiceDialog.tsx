import { Box } from 'ink';
import { wrap } from '../format.js';
import { useKeys } from '../hooks/use-keys.js';
import { seg } from '../segments.js';
import { PRIORITY } from '../state/key-routing.js';
import { Line } from './Line.js';

export interface ChoiceDialogProps {
  /** The question, wrapped (never cut: it names hosts whole). */
  title: string;
  width: number;
  choices: { key: string; label: string; run(): void }[];
  onCancel(): void;
}

/** A question with named answers (`h` this host · `a` all hosts); Esc cancels; every other key waits. */
export function ChoiceDialog({ title, width, choices, onCancel }: ChoiceDialogProps) {
  useKeys(
    (input, key) => {
      if (key.escape) onCancel();
      else choices.find((choice) => choice.key === input)?.run();
      return true;
    },
    { priority: PRIORITY.dialog },
  );
  const inner = Math.max(10, width - 2);
  const answers = [...choices.map((choice) => `${choice.key} ${choice.label}`), 'Esc cancel'].join(' · ');
  return (
    <Box flexDirection="column" borderStyle="single" width={width}>
      {wrap(title, inner).map((line, index) => (
        <Line key={index} segments={[seg(line, 'warn')]} width={inner} />
      ))}
      <Line segments={[seg(` ${answers}`, 'accent')]} width={inner} />
    </Box>
  );
}
