import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { catalog, formatTemplate, type ErrorCode } from '../errors/index.js';

/** A refusal as a tool error (isError), its code first so an agent can tell them apart. */
export function toolError(code: ErrorCode, params: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${code} ${formatTemplate(catalog[code].template, params)}` }],
  };
}
