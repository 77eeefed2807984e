import type { Command } from 'commander';
import { RecipeError } from '../../errors/index.js';
import { openFleet, type FleetClient } from '../../fleet/queue.js';
import { fleetStatus, type FleetStatus } from '../../fleet/status.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import { FLEET_HELP, fleetStoreTarget, STORE_OPTION_HELP, type FleetFlags } from './fleet-flags.js';

/** `recipe fleet status`: the fleet at a glance (workers, queue, schedules, leases, chunks). */
export function registerFleet(program: Command): void {
  const fleet = program.command('fleet').description("the fleet's state: workers, queue, schedules, leases");
  fleet
    .command('status')
    .description('live workers and their runs, jobs by state, schedules, leases, distributed chunks')
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue (default recipe-runs)')
    .option('--json', 'print one JSON object (docs/fleet.md#fleet-status)')
    .addHelpText(
      'after',
      `
Configuration:
${FLEET_HELP}
A worker is listed while its heartbeat (every 5 s) is younger than 15 s: a worker killed with SIGKILL leaves
the list within 15 s, and its runs move on when their lease runs out (the EXPIRES column).

Examples:
  recipe fleet status --redis redis://127.0.0.1:6379
  recipe fleet status --postgres postgres://recipe@127.0.0.1:5432/recipe
  recipe fleet status --json | jq '.workers[] | {id, current}'`,
    )
    .action(async (flags: FleetFlags & { json?: boolean }) => {
      let client: FleetClient | undefined;
      try {
        const { store, queue } = fleetStoreTarget(flags, process.env);
        client = await openFleet(store, queue);
        const status = await fleetStatus(client);
        process.stdout.write(flags.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
        process.exitCode = ExitCode.ok;
      } catch (err) {
        const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
        process.stderr.write(`${e.code} ${e.message}\n`);
        process.exitCode = exitCodeFor(e.class);
      } finally {
        await client?.close();
      }
    });
}

function formatStatus(s: FleetStatus): string {
  const j = s.jobs;
  const out = [
    `queue ${s.queue}: ${j.waiting} waiting, ${j.active} active, ${j.delayed} delayed, ${j.failed} failed, ` +
      `${j.waiting_children} waiting for chunks, ${j.completed} completed`,
    '',
    `workers (${s.workers.length}):`,
  ];
  if (s.workers.length === 0) out.push('  none');
  else
    out.push(
      ...table([
        ['ID', 'VERSION', 'CONCURRENCY', 'HEARTBEAT', 'CURRENT'],
        ...s.workers.map((w) => [
          w.id,
          w.version,
          String(w.concurrency),
          w.heartbeat_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          w.current.map((c) => (c.kind === 'chunk' ? `${c.run_id} (chunk ${c.chunk})` : c.run_id)).join(', ') || '-',
        ]),
      ]),
    );
  out.push('', `schedules (${s.schedules.length}):`);
  if (s.schedules.length === 0) out.push('  none');
  else
    out.push(
      ...table([
        ['NAME', 'RECIPE', 'WHEN', 'NEXT'],
        ...s.schedules.map((c) => [
          c.name,
          c.recipe,
          c.cron ?? `every ${c.every_ms} ms`,
          c.paused ? 'paused' : (c.next ?? '-'),
        ]),
      ]),
    );
  out.push('', `leases (${s.leases.length}):`);
  if (s.leases.length === 0) out.push('  none');
  else
    out.push(
      ...table([
        ['RUN', 'PART', 'HOLDER', 'EXPIRES'],
        ...s.leases.map((l) => [l.run_id, l.part ?? '-', l.holder ?? '-', `in ${l.expires_in_ms} ms`]),
      ]),
    );
  if (s.chunks.length > 0)
    out.push(
      '',
      `chunks (${s.chunks.length}):`,
      ...table([
        ['RUN', 'CHUNK', 'STATE', 'WORKER', 'RETRIES', 'ITEMS'],
        ...s.chunks.map((c) => [
          c.run_id,
          String(c.chunk),
          c.state,
          c.worker ?? '-',
          String(c.retries),
          `${c.items_done}/${c.items_total}`,
        ]),
      ]),
    );
  return `${out.join('\n')}\n`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => `  ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd());
}
