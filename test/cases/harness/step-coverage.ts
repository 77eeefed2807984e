import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { CaseFile } from './case-file.js';

const SCHEMA = new URL('../../../schemas/recipe.schema.json', import.meta.url);

/** The step kinds and their documented fields, read from the recipe language's schema. */
export interface StepLanguage {
  /** Every step kind, in the schema's order. */
  kinds: string[];
  /** kind → its own fields: the kind key's members (execute.entity) and its siblings (paginate.as). */
  fields: Map<string, string[]>;
  /** The fields every step may have (id, when, retry, ...). */
  common: string[];
}

interface SchemaDef {
  properties?: Record<string, SchemaDef & { $ref?: string }>;
}

/** Reads schemas/recipe.schema.json: `<kind>Step` definitions, and the `common_<field>` ones they share. */
export function readStepLanguage(): StepLanguage {
  const defs = (JSON.parse(readFileSync(SCHEMA, 'utf8')) as { $defs: Record<string, SchemaDef> }).$defs;
  const common = Object.keys(defs)
    .filter((k) => k.startsWith('common_'))
    .map((k) => k.slice('common_'.length));
  const kinds: string[] = [];
  const fields = new Map<string, string[]>();
  for (const [name, def] of Object.entries(defs)) {
    if (!name.endsWith('Step')) continue;
    const kind = name.slice(0, -'Step'.length);
    kinds.push(kind);
    const props = def.properties ?? {};
    const own = Object.keys(props).filter((f) => f !== kind && !common.includes(f));
    const inner = Object.keys(props[kind]?.properties ?? {});
    fields.set(kind, [...inner, ...own]);
  }
  return { kinds, fields, common };
}

/** The labels the coverage check asks a case for: `<kind>`, `<kind>.<field>` and `common.<field>`. */
export function requiredLabels(lang: StepLanguage): string[] {
  return [
    ...lang.kinds.flatMap((k) => [k, ...(lang.fields.get(k) ?? []).map((f) => `${k}.${f}`)]),
    ...lang.common.map((f) => `common.${f}`),
  ];
}

/** The labels the steps of a recipe text use (nested steps included). */
export function usedLabels(recipeText: string, lang: StepLanguage): Set<string> {
  const used = new Set<string>();
  const visit = (steps: unknown): void => {
    if (!Array.isArray(steps)) return;
    for (const step of steps as Record<string, unknown>[]) {
      if (!step || typeof step !== 'object') continue;
      const kind = lang.kinds.find((k) => k in step);
      if (!kind) continue;
      used.add(kind);
      const own = lang.fields.get(kind) ?? [];
      for (const key of Object.keys(step)) {
        if (lang.common.includes(key)) used.add(`common.${key}`);
        else if (own.includes(key)) used.add(`${kind}.${key}`);
      }
      const body = step[kind];
      if (body && typeof body === 'object' && !Array.isArray(body))
        for (const key of Object.keys(body)) if (own.includes(key)) used.add(`${kind}.${key}`);
      visit(step.steps);
    }
  };
  const doc = parse(recipeText) as { steps?: unknown } | null;
  visit(doc?.steps);
  return used;
}

/** Each required label that no case file's recipe (or its other files) uses. */
export function missingLabels(files: readonly CaseFile[], lang: StepLanguage): string[] {
  const used = new Set<string>();
  for (const f of files)
    for (const text of [
      f.recipe,
      ...Object.entries(f.files)
        .filter(([p]) => /\.ya?ml$/.test(p))
        .map(([, t]) => t),
    ])
      for (const l of usedLabels(text, lang)) used.add(l);
  return requiredLabels(lang).filter((l) => !used.has(l));
}
