import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export const MIN_SIZE: TerminalSize = { columns: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || MIN_SIZE.columns, rows: stdout.rows || MIN_SIZE.rows };
}

/**
 * The terminal's size, following resizes. `fixed` wins (tests: ink-testing-library's stdout
 * has 100 columns and no rows).
 */
export function useTerminalSize(fixed?: TerminalSize): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => fixed ?? read(stdout));
  useEffect(() => {
    if (fixed) {
      setSize(fixed);
      return undefined;
    }
    const onResize = () => setSize(read(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed?.columns, fixed?.rows]);
  return size;
}
