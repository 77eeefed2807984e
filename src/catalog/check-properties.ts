import type { Value } from '../expr/index.js';
import { describePath, membersOf, type ParamPath, type ParamProblem } from './check-params.js';
import { hintFor } from './names.js';
import type { CatalogAction, CatalogEntity, CatalogType, JsonSchema } from './types.js';

/**
 * Property names a read asks for (`properties` and `propertiesWithHistory` lists, api_search's `properties`,
 * filter and sort `propertyName`) against the entity's readable properties. The connector ignores names it
 * does not know, so an unknown one is a warning: it is almost always a typo that silently reads nothing.
 * Writes need no check here: create and update schemas list the writable properties, so an unknown one is
 * already an error.
 */
export function checkReadProperties(
  type: CatalogType,
  entity: CatalogEntity,
  action: CatalogAction,
  params: Value,
): ParamProblem[] {
  const readable = entity.properties?.readable;
  const members = membersOf(params);
  if (!readable || !members || action.write) return [];
  const out: ParamProblem[] = [];
  const known = new Set(readable);
  // `<association entity>.<object type>` filters on associations rather than naming a property.
  const linkPrefix = type.associationEntity === undefined ? undefined : `${type.associationEntity}.`;
  const check = (name: string, path: ParamPath, offset?: number) => {
    if (name === '' || known.has(name) || (linkPrefix !== undefined && name.startsWith(linkPrefix))) return;
    out.push({
      code: 'W007',
      params: { where: describePath(action, path), entity: entity.name, name, hint: hintFor(name, readable) },
      path,
      at: 'value',
      ...(offset !== undefined ? { offset } : {}),
    });
  };
  const props = (action.params.properties ?? {}) as Record<string, JsonSchema>;
  for (const key of ['properties', 'propertiesWithHistory']) {
    const v = members.get(key);
    if (v?.kind !== 'literal') continue;
    if (typeof v.value === 'string' && props[key]?.type === 'string') {
      let at = 0;
      for (const part of v.value.split(',')) {
        check(part.trim(), [key], at + (part.length - part.trimStart().length));
        at += part.length + 1;
      }
    } else if (Array.isArray(v.value)) {
      v.value.forEach((name, i) => typeof name === 'string' && check(name, [key, i]));
    }
  }
  const literal = (v: Value | undefined): unknown => (v?.kind === 'literal' ? v.value : undefined);
  const groups = literal(members.get('filterGroups'));
  if (Array.isArray(groups))
    groups.forEach((g, i) => {
      const filters = (g as { filters?: unknown } | null)?.filters;
      if (Array.isArray(filters))
        filters.forEach((f, j) => {
          const name = (f as { propertyName?: unknown } | null)?.propertyName;
          if (typeof name === 'string') check(name, ['filterGroups', i, 'filters', j, 'propertyName']);
        });
    });
  const sorts = literal(members.get('sorts'));
  if (Array.isArray(sorts))
    sorts.forEach((s, i) => {
      const name = (s as { propertyName?: unknown } | null)?.propertyName;
      if (typeof name === 'string') check(name, ['sorts', i, 'propertyName']);
    });
  return out;
}
