import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DerivedSessionRows } from '../store/derived-writer.js';
import type { CallRecord } from './classify/index.js';
import type { DeriveReply, DeriveRequest, DeriveThreadData } from './derive-thread-protocol.js';
import { ruleSelection } from './rules/selection.js';
import type { TreeMessage } from './tree/types.js';

/** The compiled derive thread beside this file (absent when running from the TypeScript sources). */
const THREAD_FILE = fileURLToPath(new URL('./derive-thread.js', import.meta.url));

interface Waiting {
  resolve: (reply: DeriveReply) => void;
  reject: (error: Error) => void;
}

/**
 * The ingest's side of the derive thread: requests answered in order, a session's calls sent a
 * page at a time with at most one page waiting in the thread (memory stays a page or two).
 * A thread that dies fails the request it was on and every later one (`alive` turns false).
 */
export class DeriveThread {
  private readonly waiting: Waiting[] = [];
  private failure: Error | null = null;
  /** Whether the thread derives with the same rules as this one (known once it has loaded them). */
  readonly usable: Promise<boolean>;

  private constructor(private readonly worker: Worker, fingerprint: string) {
    let settle: (usable: boolean) => void = () => undefined;
    this.usable = new Promise((resolve) => (settle = resolve));
    worker.on('message', (reply: DeriveReply) => {
      if (reply.type === 'ready') return settle(reply.fingerprint === fingerprint);
      this.waiting.shift()?.resolve(reply);
    });
    const die = (error: Error): void => {
      this.failure ??= error;
      settle(false);
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
    };
    worker.on('error', (error) => die(new Error(`the derive thread failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => die(new Error(`the derive thread stopped (exit code ${code})`)));
  }

  /** A derive thread with the rules this thread selected, or null when there is no compiled one to start. */
  static start(fingerprint: string, file: string = THREAD_FILE): DeriveThread | null {
    if (!existsSync(file)) return null;
    const selection = ruleSelection();
    const workerData: DeriveThreadData = { ruleDirs: selection.dirs, ruleFiles: selection.files };
    return new DeriveThread(new Worker(file, { workerData }), fingerprint);
  }

  get alive(): boolean {
    return this.failure === null;
  }

  /**
   * Sends one session to the thread: its pages of calls, then its messages (read after the calls,
   * as derive does). Resolves once all is sent, with the rows to come: the next session can be
   * read and sent while the thread still derives this one.
   */
  async send(sessionId: string, pages: AsyncIterable<CallRecord[]>, messages: () => Promise<{ isSubagent: boolean; messages: TreeMessage[] }>): Promise<{ rows: Promise<DerivedSessionRows> }> {
    let sent = this.ask({ type: 'begin' });
    let rows: Promise<DerivedSessionRows>;
    try {
      for await (const calls of pages) {
        expectOk(await sent);
        sent = this.ask({ type: 'calls', calls });
      }
      const { isSubagent, messages: read } = await messages();
      expectOk(await sent);
      rows = this.ask({ type: 'end', sessionId, isSubagent, messages: read, derivedAt: Date.now() }).then((reply) => {
        expectOk(reply);
        if (reply.type !== 'rows') throw new Error(`the derive thread answered ${reply.type} to end`);
        return reply.rows;
      });
    } finally {
      // Answered in order: a page still out is awaited before anything else is asked.
      await sent.catch(() => undefined);
    }
    // Awaited by whoever stores them; until then a failure is not unhandled.
    rows.catch(() => undefined);
    return { rows };
  }

  /** Stops the thread (what it was asked and has not answered fails). */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  private ask(request: DeriveRequest): Promise<DeriveReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(request);
    });
  }
}

function expectOk(reply: DeriveReply): void {
  if (reply.type === 'failed') throw new Error(reply.message);
}
