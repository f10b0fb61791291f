import { isJsonObject } from '../jsonl/parse-line.js';
import { elapsed, extraJson, extraOf } from '../jsonl/values.js';
import type { ToolCallRecord } from '../../core/model.js';
import type { ContentBlock } from './schema.js';
import { resultText } from './tool-result.js';

/**
 * Tools the model's provider runs itself (Anthropic Messages API): the call is a
 * `server_tool_use` (web_search, web_fetch, code_execution, …) or `mcp_tool_use` block in the
 * assistant message, and its result a `<name>_tool_result` / `mcp_tool_result` block of the same
 * message — on the next line in Claude Code's one-block-per-line transcripts. No `user` record
 * and no `toolUseResult` sidecar: the result block is all there is.
 */
export const SERVER_CALL_BLOCKS: ReadonlySet<string> = new Set(['server_tool_use', 'mcp_tool_use']);

export function isServerResultBlock(type: string): boolean {
  return type === 'mcp_tool_result' || /^[a-z_]+_tool_result$/.test(type);
}

function line(parts: readonly unknown[]): string {
  return parts.filter((part) => typeof part === 'string' && part !== '').join(' — ');
}

/** A provider result's text: search hits as `title — url`, fetched text, code output; never encrypted payloads. */
function serverResultText(content: unknown): string {
  if (Array.isArray(content)) {
    return content
      .map((item: unknown) => {
        if (!isJsonObject(item)) return String(item);
        if (typeof item['text'] === 'string') return item['text'];
        return line([item['title'], item['url']]) || `[${typeof item['type'] === 'string' ? item['type'] : 'item'}]`;
      })
      .join('\n');
  }
  if (!isJsonObject(content)) return resultText(content);
  const streams = [content['stdout'], content['stderr']].filter((part): part is string => typeof part === 'string' && part !== '');
  if (streams.length > 0) return streams.join('\n');
  const document = isJsonObject(content['content']) ? content['content'] : null;
  const source = document && isJsonObject(document['source']) ? document['source'] : null;
  const fetched = typeof source?.['data'] === 'string' ? source['data'] : null;
  return [line([content['title'], content['url']]), fetched].filter((part) => part).join('\n') || resultText(content);
}

/** The error code of a provider result that failed (`{type: "web_search_tool_result_error", error_code}`), if it did. */
function errorCode(content: unknown): string | null {
  if (!isJsonObject(content) || typeof content['type'] !== 'string' || !/_error$/.test(content['type'])) return null;
  return typeof content['error_code'] === 'string' ? content['error_code'] : content['type'];
}

/** A provider-run call completed by its result block. Code execution reports a `return_code`. */
export function completeServerCall(call: ToolCallRecord, block: ContentBlock, endedAt: number | null): ToolCallRecord {
  const content = block.content;
  const failed = errorCode(content);
  const returnCode = isJsonObject(content) && typeof content['return_code'] === 'number' ? content['return_code'] : null;
  return {
    ...call,
    status: failed !== null || block.is_error === true ? 'error' : 'completed',
    output: failed !== null ? `error: ${failed}` : serverResultText(content),
    endedAt,
    durationMs: elapsed(call.startedAt, endedAt),
    exitCode: returnCode,
    extra: extraJson({ ...extraOf(call), resultType: block.type }),
  };
}
