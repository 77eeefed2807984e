import type { Value } from './types.js';

/**
 * Evaluates a plan Value with `bindings` as JSONata variables (keys without $).
 * Templates stringify their parts: strings as they are, null/undefined as '', anything else as JSON.
 * Object members whose value is undefined are left out (so an absent optional param is simply not sent).
 */
export async function evalValue(value: Value, bindings: Readonly<Record<string, unknown>>): Promise<unknown> {
  switch (value.kind) {
    case 'literal':
      return value.value;
    case 'expr':
      return value.expr.evaluate(bindings);
    case 'template': {
      const pieces = await Promise.all(
        value.parts.map(async (part) =>
          typeof part === 'string' ? part : stringifyPart(await part.evaluate(bindings)),
        ),
      );
      return pieces.join('');
    }
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(value.entries)) {
        const evaluated = await evalValue(member, bindings);
        if (evaluated !== undefined) result[key] = evaluated;
      }
      return result;
    }
    case 'array': {
      const result: unknown[] = [];
      for (const item of value.items) result.push(await evalValue(item, bindings));
      return result;
    }
  }
}

function stringifyPart(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? '';
}
