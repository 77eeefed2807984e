import { STEP_KINDS } from './build-steps.js';

type Raw = Record<string, unknown>;

const INPUT_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

/**
 * A copy of a document that failed the schema, reduced to what the step builder can read safely, so that
 * expressions, references and calls are still checked and every problem of the file is reported at once.
 * Nothing moves: a step that cannot be read (not a map, no kind key or several) becomes a placeholder at the
 * same index (keeping its id, so later references to it are not reported as unknown); malformed fields are
 * dropped (the schema diagnostics already name them).
 */
export function tolerate(doc: unknown): Raw {
  const top = isMap(doc) ? doc : {};
  const out: Raw = { name: typeof top.name === 'string' ? top.name : '', steps: steps(top.steps) };
  if (isMap(top.inputs)) {
    const inputs: Raw = {};
    for (const [name, spec] of Object.entries(top.inputs)) {
      if (isMap(spec) && INPUT_TYPES.includes(String(spec.type))) inputs[name] = spec;
    }
    out.inputs = inputs;
  }
  if (Array.isArray(top.secrets)) out.secrets = top.secrets.filter((s) => typeof s === 'string');
  const connector = connectorRef(top.connector);
  if (connector) out.connector = connector;
  if (isMap(top.outputs)) out.outputs = top.outputs;
  return out;
}

function steps(raw: unknown): Raw[] {
  return Array.isArray(raw) ? raw.map(step) : [];
}

function step(raw: unknown): Raw {
  if (!isMap(raw)) return { transform: null };
  const kinds = STEP_KINDS.filter((k) => k in raw);
  const id = typeof raw.id === 'string' ? { id: raw.id } : {};
  const [kind] = kinds;
  if (kinds.length !== 1 || kind === undefined) return { transform: null, ...id };
  // A call that cannot be followed would only add consequences of its own schema problem.
  if (
    kind === 'call' &&
    (typeof raw.call !== 'string' || raw.call === '' || (raw.with !== undefined && !isMap(raw.with)))
  ) {
    return { transform: null, ...id };
  }
  const out: Raw = { ...id };
  if (raw.when !== undefined) out.when = raw.when;
  if (isMap(raw.assign)) out.assign = raw.assign;
  const connector = connectorRef(raw.connector);
  if (connector) out.connector = connector;
  if (typeof raw.as === 'string') out.as = raw.as;
  if (typeof raw.index_as === 'string') out.index_as = raw.index_as;
  if (raw.steps !== undefined) out.steps = steps(raw.steps);
  if (raw.collect !== undefined) out.collect = raw.collect;
  if (raw.message !== undefined) out.message = raw.message;
  if (isMap(raw.with)) out.with = raw.with;
  const body = raw[kind];
  switch (kind) {
    case 'execute':
    case 'paginate':
    case 'download':
    case 'http':
      out[kind] = isMap(body) ? body : {};
      break;
    case 'set':
      out[kind] = isMap(body) ? body : {};
      break;
    case 'foreach':
      out[kind] = body;
      if (!Array.isArray(out.steps)) out.steps = [];
      break;
    default:
      out[kind] = body;
  }
  return out;
}

function connectorRef(raw: unknown): Raw | undefined {
  if (!isMap(raw)) return undefined;
  if (raw.id !== undefined) return { id: raw.id };
  if (raw.definition !== undefined)
    return { definition: raw.definition, ...(raw.workspace !== undefined ? { workspace: raw.workspace } : {}) };
  return undefined;
}

function isMap(v: unknown): v is Raw {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
