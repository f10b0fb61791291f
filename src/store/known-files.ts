import { FORMATS, type SourceFormat } from '../core/model.js';
import type { KnownFile } from '../core/source.js';
import type { SourceState } from './source-writer.js';
import { storedName } from './stored-name.js';

const isFormat = (format: string): format is SourceFormat => (FORMATS as readonly string[]).includes(format);

/**
 * What discovery may know of a file before opening it: the store's record of the source keyed by
 * that path (under the name redaction gives it), when it was read whole and stamped.
 */
export function knownFileLookup(states: ReadonlyMap<string, SourceState>, redact: boolean): (path: string) => KnownFile | undefined {
  return (path) => {
    const state = states.get(storedName({ key: path, path }, redact, {}).key);
    if (!state?.fileStamp || state.contentHash === 'partial' || !isFormat(state.format)) return undefined;
    return { format: state.format, size: state.size, stamp: state.fileStamp, appendable: state.bytesConsumed !== null };
  };
}
