import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RunReport } from '../run/index.js';
import { newRunId } from '../run/index.js';
import type { LocalRunner } from '../triggers/local-runner.js';
import { APPLY_ARG, type RecipeTool } from './recipe-tools.js';
import { runTools, listRuns, showRun } from './run-tools.js';
import { toolError } from './tool-error.js';

/** How the MCP server answers: its recipes, the runner, and whether a call may send writes. */
export interface McpOptions {
  readonly tools: readonly RecipeTool[];
  readonly runner: LocalRunner;
  /** --allow-writes: a call that passes apply: true sends its writes; without it every call is a dry run. */
  readonly allowWrites: boolean;
  readonly version: string;
  /** Who is calling, for the journal: the transport and what the session knows (never a token). */
  readonly transport: 'stdio' | 'http';
}

/**
 * One MCP server (one per stdio process, one per HTTP session): the recipes as tools, list_runs and show_run.
 * The low-level Server, not McpServer: the tools' schemas are JSON Schemas made from the recipes, not zod.
 */
export function buildMcpServer(o: McpOptions): Server {
  const server = new Server({ name: 'recipe', version: o.version }, { capabilities: { tools: {} } });
  const byName = new Map(o.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...o.tools.map((t): Tool => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: { title: t.name, readOnlyHint: !o.allowWrites, openWorldHint: true },
      })),
      ...runTools,
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const args = request.params.arguments ?? {};
    if (name === 'list_runs') return listRuns(o.runner.journal, args);
    if (name === 'show_run') return showRun(o.runner.journal, args);
    const tool = byName.get(name);
    if (!tool) return toolError('M001', { name });
    const { [APPLY_ARG]: apply, ...inputs } = args;
    if (apply !== undefined && typeof apply !== 'boolean')
      return toolError('M003', { tool: name, message: 'apply must be true or false' });
    // Refused before anything is checked or sent: a person did not allow writes when starting the server.
    if (apply === true && !o.allowWrites) return toolError('M002', {});
    const checked = await o.runner.check(tool.file, inputs);
    if (!checked.ok)
      return toolError(checked.invalid === 'inputs' ? 'M003' : 'M005', {
        tool: name,
        file: tool.file,
        message: checked.diagnostics.map((d) => `${d.code} ${d.message}`).join('; '),
      });
    const client = server.getClientVersion();
    const token = extra._meta?.progressToken;
    let progress = 0;
    const report = await o.runner.run(checked.runnable, {
      runId: newRunId(Math.random),
      origin: {
        kind: 'mcp',
        caller: {
          transport: o.transport,
          client: client ? `${client.name}@${client.version}` : 'unknown',
          ...(extra.sessionId !== undefined ? { session: extra.sessionId } : {}),
        },
      },
      dryRun: !(apply === true && o.allowWrites),
      signal: extra.signal,
      ...(token !== undefined
        ? {
            onEvent: (e) => {
              if (e.type !== 'step-end' || e.step.depth !== 0) return;
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: ++progress, message: `step ${e.step.id}: ${e.status}` },
                })
                .catch(() => undefined);
            },
          }
        : {}),
    });
    return toolResult(report);
  });
  return server;
}

/** A run's report as a tool result: structuredContent (the output schema's shape) and the same as text. */
function toolResult(report: RunReport): CallToolResult {
  const structured = {
    run_id: report.run_id,
    status: report.status,
    dry_run: report.dry_run,
    outputs: report.outputs,
    writes: report.dry_run_writes ?? [],
    ...(report.error ? { error: { code: report.error.code, message: report.error.message } } : {}),
  };
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    ...(report.status !== 'ok' ? { isError: true } : {}),
  };
}
