import { ServiceError, type ServiceErrorItem } from '../../core/errors.js';
import { normalizeDate } from './dates.js';
import type { ObjectType } from './object-types.js';
import { ownValue } from '../../core/own.js';

/** How a write is checked: API create/update, or a fixture load (which also accepts read-only/extra properties). */
export type WriteMode = 'create' | 'update' | 'fixture';

/** A validated property change set: a string sets the value, null clears it. */
export type PropertyChanges = Record<string, string | null>;

interface Rules {
  writable: ReadonlySet<string>;
  createOnly: ReadonlySet<string>;
  required: readonly string[];
  enums: Readonly<Record<string, readonly string[]>>;
}

function rulesOf(type: ObjectType): Rules {
  if (type.entity) {
    const e = type.entity;
    return { writable: new Set(e.writable), createOnly: new Set(e.createOnly), required: e.required, enums: e.enums };
  }
  const s = type.schema!;
  const enums: Record<string, string[]> = {};
  for (const p of s.properties) if (p.type === 'enumeration') enums[p.name] = p.options.map((o) => o.value);
  return {
    writable: new Set(s.properties.map((p) => p.name)),
    createOnly: new Set(),
    required: s.requiredProperties,
    enums,
  };
}

function issue(field: string, message: string, details: Record<string, unknown> | null = null): ServiceErrorItem {
  return { field, message, error_code: 'invalid_property', details };
}

/**
 * Checks and normalises the properties of a write: writable names only, string values (numbers and
 * booleans become strings, "" or null clears), allowed values where the spec lists them, ISO dates,
 * numbers; on create also the defaults and the required properties. Collects every problem, then
 * throws one 400 naming each property.
 */
export function validateProperties(
  type: ObjectType,
  input: Record<string, unknown>,
  mode: WriteMode,
  now: string,
  fieldPrefix = 'params.properties',
): PropertyChanges {
  const rules = rulesOf(type);
  const problems: ServiceErrorItem[] = [];
  const out: PropertyChanges = {};
  const automatic = new Set(['hs_object_id', type.createDateProp, type.modifiedDateProp]);
  for (const [name, raw] of Object.entries(input)) {
    const field = `${fieldPrefix}.${name}`;
    if (mode !== 'fixture' && (!rules.writable.has(name) || (mode === 'update' && rules.createOnly.has(name)))) {
      const why = type.known.has(name) || automatic.has(name) ? 'is not writable' : 'does not exist';
      const extra = mode === 'update' && rules.createOnly.has(name) ? ' (it can only be set on create)' : '';
      problems.push(issue(field, `property "${name}" ${why} on ${type.key}${extra}`, { property: name }));
      continue;
    }
    if (mode === 'fixture' && automatic.has(name)) continue; // the store sets these
    if (raw === null || raw === '') {
      out[name] = null;
      continue;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
      problems.push(issue(field, `property "${name}" must be a string`, { property: name }));
      continue;
    }
    const value = String(raw);
    const checked = checkValue(type, rules, name, value);
    if (typeof checked === 'string') out[name] = checked;
    else problems.push(issue(field, checked.message, { property: name, ...checked.details }));
  }
  if (mode !== 'update') applyDefaultsAndRequired(type, rules, out, now, fieldPrefix, problems);
  if (problems.length > 0) {
    const first = problems[0]!;
    const message =
      problems.length === 1
        ? first.message
        : `${first.message} (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`;
    throw new ServiceError('H400_INVALID_PROPERTY', { message }, { items: problems });
  }
  return out;
}

function checkValue(
  type: ObjectType,
  rules: Rules,
  name: string,
  value: string,
): string | { message: string; details: Record<string, unknown> } {
  const allowed = ownValue(rules.enums, name);
  if (allowed && !allowed.includes(value)) {
    return {
      message: `property "${name}": "${value}" was not one of the allowed options: ${allowed.join(', ')}`,
      details: { allowed },
    };
  }
  if (type.key === 'contacts' && name === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) {
    return { message: `property "email": "${value}" is not a valid email address`, details: {} };
  }
  const kind = ownValue(type.kinds, name);
  if (kind === 'datetime') {
    const iso = normalizeDate(value);
    return (
      iso ?? {
        message: `property "${name}": "${value}" is not a valid ISO 8601 date (or epoch milliseconds)`,
        details: {},
      }
    );
  }
  if (kind === 'number' && !/^-?\d+(\.\d+)?$/.test(value.trim())) {
    return { message: `property "${name}": "${value}" is not a number`, details: {} };
  }
  if (kind === 'integer' && !/^-?\d+$/.test(value.trim())) {
    return { message: `property "${name}": "${value}" is not an integer`, details: {} };
  }
  return kind === 'number' || kind === 'integer' ? value.trim() : value;
}

function applyDefaultsAndRequired(
  type: ObjectType,
  rules: Rules,
  out: PropertyChanges,
  now: string,
  fieldPrefix: string,
  problems: ServiceErrorItem[],
): void {
  const defaults = type.entity?.defaults ?? {};
  for (const [name, value] of Object.entries(defaults)) {
    if (out[name] !== undefined && out[name] !== null) continue;
    if (name === 'hs_timestamp' && type.key === 'meetings' && out.hs_meeting_start_time)
      out[name] = out.hs_meeting_start_time;
    else out[name] = value === 'now' ? now : value;
  }
  for (const name of rules.required) {
    if (out[name] === undefined || out[name] === null) {
      problems.push(
        issue(`${fieldPrefix}.${name}`, `property "${name}" is required to create ${type.key}`, { property: name }),
      );
    }
  }
}
