import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectorSchemaDir } from '../schema-dir.js';
import type { ActionDescriptor } from '../../core/connector-type.js';
import { buildCrmActionSpecs, schemaFileName } from './params-schemas.js';

/** schemas/connectors/crm (see connectorSchemaDir). */
export function crmSchemaDir(): string {
  return connectorSchemaDir('crm');
}

function readSchema(dir: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
}

function paramNames(schema: Record<string, unknown>): { required: string[]; optional: string[] } {
  const props = Object.keys((schema.properties ?? {}) as Record<string, unknown>).filter((n) => n !== 'cursor');
  const required = (schema.required ?? []) as string[];
  return { required, optional: props.filter((n) => !required.includes(n)) };
}

/**
 * The CRM's action descriptors. The params and result schemas are read from the files under
 * schemas/connectors/crm/ (generated from the entity table by scripts/gen-crm-schemas.mjs; a test
 * keeps them equal), so the files are exactly what validates execute.
 */
export function loadCrmActions(): ActionDescriptor[] {
  const dir = crmSchemaDir();
  return buildCrmActionSpecs().map((spec) => {
    const paramsSchema = readSchema(dir, schemaFileName(spec.entity, spec.action, 'params'));
    const resultSchema = readSchema(dir, schemaFileName(spec.entity, spec.action, 'result'));
    const { required, optional } = paramNames(paramsSchema);
    return {
      entity: spec.entity,
      action: spec.action,
      paramsSchema,
      resultSchema,
      requiredParams: required,
      optionalParams: optional,
      write: spec.write,
      ...(spec.idempotent ? { idempotent: true } : {}),
      summary: spec.summary,
    };
  });
}
