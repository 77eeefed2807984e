import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as util from 'node:util';
import { RecipeError } from '../../errors/index.js';

/** The environment a command reads (CONNECTOR_* and recipe secrets), and what to say about where it came from. */
export interface CommandEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One line for stderr naming the file and the variables taken from it (never their values). */
  readonly note?: string;
}

/**
 * The process environment, filled in from `--env-file FILE`, else from `.env` in the working directory when
 * there is one (`--no-env-file` turns that off). Variables already set in the environment win over the file,
 * as with Node's own --env-file and docker compose. process.env itself is not changed.
 */
export function readCommandEnv(
  flag: string | false | undefined,
  cwd: string,
  processEnv: Readonly<Record<string, string | undefined>> = process.env,
): CommandEnv {
  if (flag === false) return { env: processEnv };
  const explicit = typeof flag === 'string';
  const file = explicit ? flag : join(cwd, '.env');
  if (!explicit && !existsSync(file)) return { env: processEnv };
  const shown = explicit ? flag : '.env';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RecipeError('C001', {
      reason: `cannot read the env file ${shown} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    });
  }
  const parsed = parseEnvText(text, shown);
  const taken: string[] = [];
  const kept: string[] = [];
  const env: Record<string, string | undefined> = { ...processEnv };
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (processEnv[name] !== undefined) kept.push(name);
    else {
      env[name] = value;
      taken.push(name);
    }
  }
  const parts = [`environment: ${shown}`, taken.length ? `(${taken.join(', ')})` : '(no new variables)'];
  if (kept.length) parts.push(`; already set, kept: ${kept.join(', ')}`);
  return { env, note: parts.join(' ') };
}

/** KEY=value lines, quotes, `export KEY=...` and comments, as Node parses them (util.parseEnv, Node 20.12+). */
function parseEnvText(text: string, shown: string): Record<string, string | undefined> {
  const parseEnv = (util as { parseEnv?: (content: string) => Record<string, string | undefined> }).parseEnv;
  if (typeof parseEnv !== 'function')
    throw new RecipeError('C001', { reason: `reading ${shown} needs Node.js 20.12 or later (util.parseEnv)` });
  return parseEnv(text);
}
