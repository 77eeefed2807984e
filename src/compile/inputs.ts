import type { Diagnostic } from '../errors/index.js';
import { didYouMean, makeDiagnostic } from '../source/index.js';
import type { InputSpec, InputType, Plan, SourceLoc } from './plan.js';

/** The values of a recipe's inputs after coercion and defaults, or the problems with what was given. */
export interface ResolvedInputs {
  readonly values: Record<string, unknown>;
  readonly diagnostics: Diagnostic[];
}

/**
 * Checks and coerces the inputs given to a run (strings from `-i name=value`, or typed values from the API)
 * against the plan's declarations: unknown names, required inputs, types, enums; missing ones take their
 * default. Diagnostics point at the input's declaration in the recipe.
 */
export function resolveInputs(plan: Plan, given: Record<string, unknown>): ResolvedInputs {
  const values: Record<string, unknown> = {};
  const diagnostics: Diagnostic[] = [];
  // Diagnostics name the file as the plan's locations do (the name it was loaded under).
  const file = Object.values(plan.inputs)[0]?.loc.file ?? plan.steps[0]?.loc.file ?? plan.file;
  const fileLoc: SourceLoc = { file, line: 1, column: 1, pointer: '/inputs' };
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(plan.inputs, name)) {
      diagnostics.push(makeDiagnostic('I003', { name, hint: didYouMean(name, Object.keys(plan.inputs)) }, fileLoc));
    }
  }
  for (const [name, spec] of Object.entries(plan.inputs)) {
    if (!Object.hasOwn(given, name) || given[name] === undefined) {
      if (spec.default !== undefined) values[name] = structuredClone(spec.default);
      else if (spec.required) diagnostics.push(makeDiagnostic('I002', { name }, spec.loc));
      continue;
    }
    const coerced = coerceInput(given[name], spec.type);
    if (!coerced.ok) {
      diagnostics.push(makeDiagnostic('I004', { name, type: spec.type, value: shorten(given[name]) }, spec.loc));
      continue;
    }
    if (spec.enum && !spec.enum.some((allowed) => sameJson(allowed, coerced.value))) {
      const allowed = spec.enum.map((v) => JSON.stringify(v)).join(', ');
      diagnostics.push(makeDiagnostic('I005', { name, allowed, value: JSON.stringify(coerced.value) }, spec.loc));
      continue;
    }
    values[name] = coerced.value;
  }
  return { values, diagnostics };
}

/** Converts a given value to the declared type; strings are parsed (numbers, true/false, JSON for array/object). */
export function coerceInput(value: unknown, type: InputType): { ok: true; value: unknown } | { ok: false } {
  if (typeof value === 'string' && type !== 'string') {
    const text = value.trim();
    switch (type) {
      case 'integer':
        return /^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text))
          ? { ok: true, value: Number(text) }
          : { ok: false };
      case 'number': {
        const n = Number(text);
        return text !== '' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
      }
      case 'boolean':
        return text === 'true'
          ? { ok: true, value: true }
          : text === 'false'
            ? { ok: true, value: false }
            : { ok: false };
      case 'array':
      case 'object': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return { ok: false };
        }
        return matchesType(parsed, type) ? { ok: true, value: parsed } : { ok: false };
      }
    }
  }
  return matchesType(value, type) ? { ok: true, value } : { ok: false };
}

/** True when a JSON value has the declared input type. */
export function matchesType(value: unknown, type: InputType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function shorten(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export type { InputSpec };
