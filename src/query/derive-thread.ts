import { parentPort, workerData } from 'node:worker_threads';
import { derivedRows } from './derived-rows.js';
import type { DeriveReply, DeriveRequest, DeriveThreadData } from './derive-thread-protocol.js';
import { rulesFingerprint } from './rules/active.js';
import { selectRuleFolders } from './rules/selection.js';
import { SessionDerivation } from './session-derivation.js';

/**
 * The derive thread (a worker_threads entry): runs the pure core of derive (classify, tree, rows)
 * for the sessions the ingest's thread reads back and sends here, so the two cores parse and
 * derive at once. Loads the rules the parent selected and says their fingerprint first; the
 * parent uses it only when the fingerprints agree. One session at a time, one request at a time.
 */

const port = parentPort;
if (!port) throw new Error('derive-thread.js runs as a worker thread');
const data = workerData as DeriveThreadData;
selectRuleFolders(data.ruleDirs, data.ruleFiles);

let derivation = new SessionDerivation();

function answer(request: DeriveRequest): DeriveReply {
  switch (request.type) {
    case 'begin':
      derivation = new SessionDerivation();
      return { type: 'ok' };
    case 'calls':
      derivation.add(request.calls);
      return { type: 'ok' };
    case 'end': {
      const derived = derivation.finish(request.sessionId, request.isSubagent, request.messages);
      derivation = new SessionDerivation();
      return { type: 'rows', rows: derivedRows(derived.commands, derived.actions, derived.tree, derived.candidateOf, rulesFingerprint(), request.derivedAt) };
    }
  }
}

port.on('message', (request: DeriveRequest) => {
  let reply: DeriveReply;
  try {
    reply = answer(request);
  } catch (error) {
    derivation = new SessionDerivation();
    reply = { type: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ type: 'ready', fingerprint: rulesFingerprint() } satisfies DeriveReply);
