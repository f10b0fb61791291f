/**
 * Progress on stderr (stdout carries only the results table): one line per phase and step,
 * each stamped with the time since the bench started.
 */
const began = Date.now();

function stamp(): string {
  const seconds = (Date.now() - began) / 1000;
  return `[${seconds.toFixed(1).padStart(6)}s]`;
}

export function phase(name: string, budgetSeconds: number): void {
  process.stderr.write(`${stamp()} == ${name} (budget ${budgetSeconds}s)\n`);
}

export function step(text: string): void {
  process.stderr.write(`${stamp()}    ${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`${stamp()}    ! ${text}\n`);
}

export function elapsedSeconds(): number {
  return (Date.now() - began) / 1000;
}
