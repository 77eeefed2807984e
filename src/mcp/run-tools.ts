import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JournalReader, RunStatus } from '../journal/index.js';
import { toolError } from './tool-error.js';

const STATUSES: readonly RunStatus[] = ['running', 'succeeded', 'failed', 'interrupted', 'cancelled'];

/** The journal's tools: what `recipe runs` and `recipe runs show` print. */
export const runTools: Tool[] = [
  {
    name: 'list_runs',
    description: 'Runs in the journal, newest first (every run, not only those of this server).',
    inputSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: [...STATUSES] },
        recipe: { type: 'string', description: "A recipe's name" },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'show_run',
    description: 'One run: its status, inputs (secrets masked), outputs, error, and who started it (origin).',
    inputSchema: {
      type: 'object',
      properties: { run_id: { type: 'string' } },
      required: ['run_id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
];

export async function listRuns(journal: JournalReader, args: Record<string, unknown>): Promise<CallToolResult> {
  const { status, recipe, limit } = args;
  if (status !== undefined && !STATUSES.includes(status as RunStatus))
    return toolError('M003', { tool: 'list_runs', message: `status must be one of ${STATUSES.join(', ')}` });
  if (recipe !== undefined && typeof recipe !== 'string')
    return toolError('M003', { tool: 'list_runs', message: 'recipe must be a string' });
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 100))
    return toolError('M003', { tool: 'list_runs', message: 'limit must be an integer from 1 to 100' });
  const runs = await journal.listRuns({
    ...(status !== undefined ? { status: status as RunStatus } : {}),
    ...(recipe !== undefined ? { recipe: recipe as string } : {}),
    limit: (limit as number | undefined) ?? 20,
  });
  const structured = { runs };
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }] };
}

export async function showRun(journal: JournalReader, args: Record<string, unknown>): Promise<CallToolResult> {
  const runId = args.run_id;
  if (typeof runId !== 'string') return toolError('M003', { tool: 'show_run', message: 'run_id must be a string' });
  const record = await journal.getRun(runId);
  if (!record) return toolError('M004', { runId });
  // The journal holds nothing secret (masked when recorded); the holder (pid, host) is not the agent's business.
  const { holder: _holder, report: _report, ...shown } = record;
  return { structuredContent: shown, content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }] };
}
