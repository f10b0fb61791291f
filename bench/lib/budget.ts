/**
 * A phase's share of the ten-minute run. Repetitions (medians of several runs) are added only
 * while the phase still has time; the first run of everything always happens.
 */
export class Budget {
  private readonly started = Date.now();

  constructor(readonly seconds: number) {}

  elapsedMs(): number {
    return Date.now() - this.started;
  }

  remainingMs(): number {
    return this.seconds * 1000 - this.elapsedMs();
  }

  /** True when another repetition expected to take `estimateMs` still fits. */
  allows(estimateMs: number): boolean {
    return this.remainingMs() > estimateMs;
  }
}
