import type { Adapter } from './adapter.js';
import { opencodeAdapter } from './opencode/index.js';

/** Every agent retrace reads, in the order auto-detection asks them. */
export const ADAPTERS: readonly Adapter[] = [opencodeAdapter];
