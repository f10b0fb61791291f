import { formatBytes } from '../../core/units.js';

export interface ProgressState {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
  elapsedMs: number;
}

/** One line: a bar, files, MB and messages per second, fitted to `width` columns. */
export function renderProgress(state: ProgressState, width: number): string {
  const fraction = state.bytesTotal > 0 ? Math.min(1, state.bytesDone / state.bytesTotal) : state.filesTotal > 0 ? state.filesDone / state.filesTotal : 0;
  const seconds = Math.max(state.elapsedMs / 1000, 0.001);
  const rate = `${(state.bytesDone / 1e6 / seconds).toFixed(1)} MB/s, ${Math.round(state.messages / seconds)} msg/s`;
  const text = ` ${state.filesDone}/${state.filesTotal} files  ${formatBytes(state.bytesDone)}/${formatBytes(state.bytesTotal)}  ${rate}`;
  const barWidth = Math.max(10, Math.min(30, width - text.length - 8));
  const filled = Math.round(fraction * barWidth);
  const line = `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%${text}`;
  return line.slice(0, Math.max(20, width - 1));
}
