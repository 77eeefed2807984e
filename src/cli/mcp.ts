import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { formatLocation, RecipeError } from '../errors/index.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { openRunSide, type RunSide, type RunSideFlags } from './run-side.js';
import { version } from './version.js';

interface McpFlags extends RunSideFlags {
  recipes?: string;
  http?: boolean;
  host: string;
  port: string;
  token?: string;
  allowWrites?: boolean;
}

/** `recipe mcp`: the recipes of a folder as MCP tools (stdio, or streamable HTTP with --http). */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the recipes of a folder as MCP tools for agents: every call a dry run unless allowed')
    .option('--recipes <dir>', 'the folder of recipes (default ./recipes, else .)')
    .option('--allow-writes', 'a call that passes apply: true sends its writes (without this flag, apply is refused)')
    .option('--http', 'serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (a bearer token is required)')
    .option('--host <host>', 'with --http: interface to listen on', '127.0.0.1')
    .option('--port <port>', 'with --http: port (0 = any free port)', '8093')
    .option('--token <token>', 'with --http: the bearer token (or RECIPE_MCP_TOKEN; else a random one, printed)')
    .option('--base-url <url>', 'connector service the runs talk to (else CONNECTOR_API_URL, else the embedded one)')
    .option('--organization <id>', 'organization sent as x-organization-id (else CONNECTOR_ORGANIZATION_ID)')
    .option('--fixtures <file>', 'runs use an embedded service holding only this dataset')
    .option('--db <path>', "the embedded service's database file, or :memory:")
    .option('--journal <path>', 'the run journal (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--env-file <file>', 'read CONNECTOR_* and secrets from this file (default: .env when present)')
    .option('--no-env-file', 'do not read .env')
    .addHelpText(
      'after',
      `
Each recipe (*.yaml, not *.test.yaml) is a tool named after the recipe: its description, its inputs as the
input schema (plus "apply"), its outputs as structuredContent. Every call is a dry run — reads are live,
writes are returned to the agent, not sent — unless this server was started with --allow-writes AND the call
passes apply: true. Also the tools list_runs and show_run. Each run is journaled with the caller (recipe runs).

Over stdio nothing but MCP goes to stdout; notes go to stderr. With --http, prints "mcp at URL".

Examples:
  recipe mcp                                          stdio; add it to an MCP client (docs/mcp.md)
  recipe mcp --recipes ops/recipes --allow-writes     agents may send writes with apply: true
  RECIPE_MCP_TOKEN=... recipe mcp --http --port 0     streamable HTTP on 127.0.0.1`,
    )
    .action(async (flags: McpFlags) => {
      process.exitCode = await mcpCommand(flags);
    });
}

async function mcpCommand(flags: McpFlags): Promise<number> {
  const note = (line: string): boolean => process.stderr.write(`${line}\n`);
  let side: RunSide | undefined;
  try {
    const port = Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RecipeError('M006', { flag: `--port ${flags.port}`, reason: 'a port is an integer from 0 to 65535' });
    const token = flags.token ?? (process.env.RECIPE_MCP_TOKEN || undefined);
    if (flags.http && token !== undefined && token.length < 16)
      throw new RecipeError('M006', { flag: '--token', reason: 'the token must be at least 16 characters' });
    // Loaded here: the MCP SDK is only paid for by this command.
    const [{ loadRecipeTools }, { buildMcpServer }, { LocalRunner }] = await Promise.all([
      import('../mcp/recipe-tools.js'),
      import('../mcp/mcp-server.js'),
      import('../triggers/local-runner.js'),
    ]);
    side = await openRunSide(flags);
    const dir = flags.recipes ?? (existsSync('recipes') ? 'recipes' : '.');
    const tools = (await loadRecipeTools(dir, side.catalog)).filter(
      (t) => t.name !== 'list_runs' && t.name !== 'show_run',
    );
    for (const n of side.notes) note(n);
    const runner = new LocalRunner({ ...side, log: note });
    const options = { tools, runner, allowWrites: flags.allowWrites === true, version };
    note(
      `${tools.length} recipe tools from ${dir}${flags.allowWrites ? ' (--allow-writes: apply: true sends writes)' : ' (dry runs only)'}`,
    );
    if (!flags.http) {
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = buildMcpServer({ ...options, transport: 'stdio' });
      const closed = new Promise<void>((resolve) => (server.onclose = resolve));
      await server.connect(new StdioServerTransport());
      // The client ending stdin ends the session; the SDK does not notice an end of input by itself.
      process.stdin.once('end', () => void server.close());
      await Promise.race([closed, signalled()]);
      await server.close();
      return ExitCode.ok;
    }
    const { startMcpHttp } = await import('../mcp/http.js');
    const bearer = token ?? randomBytes(24).toString('base64url');
    const http = await startMcpHttp({
      host: flags.host,
      port,
      token: bearer,
      newServer: () => buildMcpServer({ ...options, transport: 'http' }),
    });
    if (token === undefined) note(`bearer token (made up for this run): ${bearer}`);
    process.stdout.write(`mcp at ${http.url}\n`);
    await signalled();
    await http.close();
    return ExitCode.ok;
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    note(`${formatLocation(e.location)}${e.code} ${e.message}`);
    return exitCodeFor(e.class);
  } finally {
    await side?.close();
  }
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
