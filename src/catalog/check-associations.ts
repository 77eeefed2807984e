import type { Value } from '../expr/index.js';
import { describePath, membersOf, type ParamPath, type ParamProblem } from './check-params.js';
import { hintFor } from './names.js';
import type { AssociationType, CatalogAction, CatalogType, JsonSchema } from './types.js';

/**
 * Association type ids and names (deal_to_company) in the association entity's create and in an activity's
 * create-time associations, checked against the type's association table where the pair is known before the run.
 */
export function checkAssociations(type: CatalogType, action: CatalogAction, params: Value): ParamProblem[] {
  const table = type.associationTypes;
  const members = membersOf(params);
  if (!table || !members || action.action !== 'create') return [];
  const out: ParamProblem[] = [];
  const report = (path: ParamPath, reason: string) =>
    out.push({ code: 'A009', params: { where: describePath(action, path), reason }, path, at: 'value' });
  if (action.entity === type.associationEntity) {
    const from = literalString(members.get('fromObjectType'));
    const to = literalString(members.get('toObjectType'));
    const rows = table.filter((r) => r.from === from && r.to === to);
    const pair = rows.length > 0 ? `from ${from} to ${to}` : undefined;
    checkRef(members, rows.length > 0 ? rows : table, pair, ['associationTypeId'], report);
    return out;
  }
  // An activity's create: <param>[i].types[j]; the target's type is known only at run time.
  const rows = table.filter((r) => r.from === action.entity);
  if (rows.length === 0) return out;
  for (const param of linkParams(action)) {
    const list = members.get(param);
    if (!list) continue;
    itemsOf(list).forEach((item, i) => {
      const types = membersOf(item)?.get('types');
      if (!types) return;
      itemsOf(types).forEach((t, j) => {
        const m = membersOf(t);
        if (m) checkRef(m, rows, `from ${action.entity}`, [param, i, 'types', j, 'associationTypeId'], report);
      });
    });
  }
  return out;
}

/** The params in which a create links the new record to others: those whose schema holds an associationTypeId. */
function linkParams(action: CatalogAction): string[] {
  const props = (action.params.properties ?? {}) as Record<string, JsonSchema>;
  return Object.keys(props).filter((k) => JSON.stringify(props[k]).includes('"associationTypeId"'));
}

/** One associationTypeId (with its associationCategory beside it) against the rows that may apply. */
function checkRef(
  members: ReadonlyMap<string, Value>,
  rows: readonly AssociationType[],
  pair: string | undefined,
  path: ParamPath,
  report: (path: ParamPath, reason: string) => void,
): void {
  const ref = members.get('associationTypeId');
  if (ref?.kind !== 'literal') return;
  const category = literalString(members.get('associationCategory'));
  const value = ref.value;
  if (typeof value === 'string' && category === 'USER_DEFINED') {
    report(path, `a name ("${value}") stands for a PLATFORM_DEFINED type; USER_DEFINED types take their number`);
    return;
  }
  if (category !== 'PLATFORM_DEFINED') return;
  const names = [...new Set(rows.filter((r) => !r.alias).map((r) => r.name))];
  if (typeof value === 'string' && !names.includes(value)) {
    report(
      path,
      `no association type named "${value}"${pair ? ` ${pair}` : ''}${hintFor(value, names)}; names: ${names.join(', ')}`,
    );
  } else if (typeof value === 'number' && pair && !rows.some((r) => r.typeId === value)) {
    const ids = rows.filter((r) => !r.alias).map((r) => `${r.typeId} (${r.name})`);
    report(path, `${value} is not a PLATFORM_DEFINED association type ${pair}; ids: ${ids.join(', ')}`);
  }
}

function literalString(v: Value | undefined): string | undefined {
  return v?.kind === 'literal' && typeof v.value === 'string' ? v.value : undefined;
}

function itemsOf(v: Value): readonly Value[] {
  if (v.kind === 'array') return v.items;
  if (v.kind === 'literal' && Array.isArray(v.value)) return v.value.map((value) => ({ kind: 'literal', value }));
  return [];
}
