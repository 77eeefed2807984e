import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { embeddedCatalog } from '../catalog/index.js';
import { findRecipeDir } from './run/run-embedded.js';

/** What the completion scripts ask for at TAB time: `runs` (run ids), `docs` (entities and ENTITY.ACTION). */
export const VALUE_KINDS = ['runs', 'docs'] as const;

/**
 * `recipe __complete runs|docs`: one value a line, for the completion scripts (hidden from help). Quiet and
 * harmless at TAB time: no journal file is created (a missing one lists nothing), no error is printed.
 */
export function registerCompleteValues(program: Command): void {
  program
    .command('__complete', { hidden: true })
    .argument('<kind>')
    .action(async (kind: string) => {
      try {
        const values = kind === 'runs' ? await runIds() : kind === 'docs' ? docTopics() : [];
        if (values.length > 0) process.stdout.write(`${values.join('\n')}\n`);
      } catch {
        // Completion offers nothing rather than an error in the middle of a command line.
      }
    });
}

async function runIds(): Promise<string[]> {
  const { journalPath, openJournalReader } = await import('../journal/index.js');
  const path = journalPath(undefined, process.env, process.cwd(), findRecipeDir(process.cwd()));
  if (path === ':memory:' || !existsSync(path)) return [];
  const reader = openJournalReader(path);
  try {
    return (await reader.listRuns({ limit: 50 })).map((r) => r.run_id);
  } finally {
    await reader.close();
  }
}

function docTopics(): string[] {
  return embeddedCatalog().types.flatMap((t) =>
    t.entities.flatMap((e) => [e.name, ...e.actions.map((a) => `${e.name}.${a.action}`)]),
  );
}
