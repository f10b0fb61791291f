import type { IngestItem, Location, MessageRecord, ToolCallRecord } from '../../core/model.js';
import { assignParallelGroups } from '../parallel-groups.js';

/** A message being assembled from several lines, with the calls it issued. */
export interface HeldMessage {
  message: MessageRecord;
  calls: ToolCallRecord[];
  location: Location;
  /** False once no further line can add to the message itself (its calls may still be waiting). */
  open: boolean;
  /** Calls still waiting for their result. */
  waiting: Set<string>;
}

interface ReleasedCall {
  entry: HeldMessage;
  index: number;
}

/** How many messages may wait behind an unanswered call before they are written anyway. */
const DEFAULT_MAX_HELD = 1000;
/** How many released-but-unanswered calls are remembered for a result that comes late. */
const MAX_RELEASED = 1000;

/**
 * Holds the messages of a JSONL transcript until they are complete: a message is written once no
 * line can add to it and all its calls have their results, always in file order. While anything
 * is held the reader is not at a safe resume point, so a result that lands after the next ingest
 * starts is read together with its call.
 */
export class HeldMessages {
  private readonly queue: HeldMessage[] = [];
  private readonly waitingCalls = new Map<string, HeldMessage>();
  private readonly released = new Map<string, ReleasedCall>();
  /** Answered calls already written, remembered for a late amendment (`amend`). */
  private readonly answered = new Map<string, ReleasedCall>();

  constructor(private readonly maxHeld = DEFAULT_MAX_HELD) {}

  hold(message: MessageRecord, location: Location, open: boolean): HeldMessage {
    const entry: HeldMessage = { message, calls: [], location, open, waiting: new Set() };
    this.queue.push(entry);
    return entry;
  }

  /** Puts a released message back (more of it arrived); it is written again, whole. */
  rehold(entry: HeldMessage): void {
    if (this.queue.includes(entry)) return;
    entry.open = true;
    this.queue.push(entry);
  }

  isHeld(entry: HeldMessage): boolean {
    return this.queue.includes(entry);
  }

  addCall(entry: HeldMessage, call: ToolCallRecord, waits: boolean): void {
    entry.calls.push(call);
    if (waits) {
      entry.waiting.add(call.callId);
      this.waitingCalls.set(call.callId, entry);
    }
  }

  /** The call with this id, while held (waiting or answered) or remembered after release. */
  findCall(callId: string): ToolCallRecord | null {
    const entry = this.waitingCalls.get(callId) ?? this.released.get(callId)?.entry ?? this.heldEntryOf(callId);
    return entry?.calls.find((call) => call.callId === callId) ?? null;
  }

  /** An answered call already written, while remembered. */
  findAnswered(callId: string): ToolCallRecord | null {
    const written = this.answered.get(callId);
    return written ? (written.entry.calls[written.index] ?? null) : null;
  }

  /**
   * Changes a call wherever it is: held, waiting, or already written (then written again, the
   * store keeps the last version). For facts that arrive after the result (Codex's
   * `exec_command_end`); null for a call not known or no longer remembered.
   */
  amend(callId: string, change: (call: ToolCallRecord) => ToolCallRecord): IngestItem[] | null {
    const written = this.answered.get(callId);
    if (!written) return this.update(callId, change, false);
    const call = change(written.entry.calls[written.index] as ToolCallRecord);
    written.entry.calls[written.index] = call;
    return [{ kind: 'message', message: written.entry.message, toolCalls: [call], location: written.entry.location }];
  }

  /** Whether the call still waits for its result (it is held and not answered). */
  isWaiting(callId: string): boolean {
    return this.waitingCalls.has(callId);
  }

  /** The held message that issued an answered call (a short queue: a linear look is cheap). */
  private heldEntryOf(callId: string): HeldMessage | undefined {
    return this.queue.find((entry) => entry.calls.some((call) => call.callId === callId));
  }

  /** Updates a call; `settled` false keeps it waiting (a process still running). Null: unknown call. */
  update(callId: string, change: (call: ToolCallRecord) => ToolCallRecord, settled = true): IngestItem[] | null {
    const entry = this.waitingCalls.get(callId);
    if (entry) {
      const index = entry.calls.findIndex((call) => call.callId === callId);
      entry.calls[index] = change(entry.calls[index] as ToolCallRecord);
      if (settled) {
        entry.waiting.delete(callId);
        this.waitingCalls.delete(callId);
      }
      return [];
    }
    const answered = this.heldEntryOf(callId);
    if (answered) {
      // Answered but not yet written (its message waits for another call): changed in place.
      const index = answered.calls.findIndex((call) => call.callId === callId);
      answered.calls[index] = change(answered.calls[index] as ToolCallRecord);
      return [];
    }
    const late = this.released.get(callId);
    if (!late) return null;
    // Released earlier while still waiting: write the call again (the store keeps its last version).
    const call = change(late.entry.calls[late.index] as ToolCallRecord);
    late.entry.calls[late.index] = call;
    if (settled) this.released.delete(callId);
    return [{ kind: 'message', message: late.entry.message, toolCalls: [call], location: late.entry.location }];
  }

  seal(entry: HeldMessage | null): void {
    if (entry) entry.open = false;
  }

  /** Applies `change` to every call still waiting and stops waiting for them (a turn was aborted). */
  settleAll(change: (call: ToolCallRecord) => ToolCallRecord): void {
    for (const [callId, entry] of this.waitingCalls) {
      const index = entry.calls.findIndex((call) => call.callId === callId);
      entry.calls[index] = change(entry.calls[index] as ToolCallRecord);
      entry.waiting.delete(callId);
    }
    this.waitingCalls.clear();
  }

  /** The complete messages at the head of the queue, in order; the head too if too much is held. */
  release(): IngestItem[] {
    const items: IngestItem[] = [];
    while (this.queue.length > 0) {
      const head = this.queue[0] as HeldMessage;
      const ready = !head.open && head.waiting.size === 0;
      if (!ready && this.queue.length <= this.maxHeld) break;
      items.push(this.emit(this.queue.shift() as HeldMessage));
    }
    return items;
  }

  /** Writes everything still held (end of file, end of a turn); unanswered calls stay `running`. */
  flush(): IngestItem[] {
    const items: IngestItem[] = [];
    for (const entry of this.queue.splice(0)) {
      entry.open = false;
      items.push(this.emit(entry));
    }
    return items;
  }

  /** Nothing is held: the next line is a safe place to resume from. */
  idle(): boolean {
    return this.queue.length === 0;
  }

  private emit(entry: HeldMessage): IngestItem {
    entry.calls = assignParallelGroups(entry.calls);
    entry.calls.forEach((call, index) => {
      if (entry.waiting.has(call.callId)) return;
      this.answered.set(call.callId, { entry, index });
      if (this.answered.size > MAX_RELEASED) this.answered.delete(this.answered.keys().next().value as string);
    });
    for (const callId of entry.waiting) {
      this.waitingCalls.delete(callId);
      this.released.set(callId, { entry, index: entry.calls.findIndex((call) => call.callId === callId) });
      if (this.released.size > MAX_RELEASED) this.released.delete(this.released.keys().next().value as string);
    }
    entry.waiting.clear();
    return { kind: 'message', message: { ...entry.message }, toolCalls: [...entry.calls], location: entry.location };
  }
}
