import {
  checkAssociations,
  checkParams,
  checkReadProperties,
  findEntity,
  findType,
  hintFor,
  type CatalogType,
  type ConnectorCatalog,
  type ParamProblem,
} from '../catalog/index.js';
import type { Diagnostic } from '../errors/index.js';
import { escapePointer } from '../expr/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import type { ConnectorRef, DownloadStep, ExecuteStep, PaginateStep, Plan, Step } from './plan.js';

type CallStep = ExecuteStep | PaginateStep | DownloadStep;

/**
 * Every execute, paginate and download of a plan against the connector catalog: the entity and action exist
 * for the step's connector type, and the params are what the action accepts, as far as they are known
 * before the run. A step whose connector type cannot be known statically (a connector id, a definition
 * computed by an expression, no connector at all, a type the catalog does not have) is not checked.
 */
export function checkConnectorCalls(
  plan: Plan,
  catalog: ConnectorCatalog,
  file: string,
  locator: Locator,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const checker = new CallChecker(catalog, file, locator, out);
  const recipeType = checker.typeOf(plan.connector);
  checker.steps(plan.steps, recipeType);
  return out;
}

class CallChecker {
  private readonly reported = new Set<string>();

  constructor(
    private readonly catalog: ConnectorCatalog,
    private readonly file: string,
    private readonly locator: Locator,
    private readonly out: Diagnostic[],
  ) {}

  steps(steps: readonly Step[], recipeType: CatalogType | undefined): void {
    for (const step of steps) {
      const type = step.connector ? this.typeOf(step.connector) : recipeType;
      if (step.kind === 'execute' || step.kind === 'paginate' || step.kind === 'download') this.call(step, type);
      if (step.kind === 'foreach' || (step.kind === 'paginate' && step.steps)) this.steps(step.steps ?? [], recipeType);
    }
  }

  /** The catalog type a connector reference names, when it is written literally. */
  typeOf(ref: ConnectorRef | undefined): CatalogType | undefined {
    if (ref?.kind !== 'lookup' || ref.definition.kind !== 'literal' || typeof ref.definition.value !== 'string')
      return undefined;
    const name = ref.definition.value;
    const type = findType(this.catalog, name);
    const pointer = `${ref.loc.pointer}/definition`;
    if (!type && this.catalog.complete && !this.reported.has(pointer)) {
      this.reported.add(pointer);
      const valid = this.catalog.types.map((t) => t.name);
      this.out.push(
        makeDiagnostic(
          'A010',
          { name, source: this.catalog.source, hint: hintFor(name, valid), valid: valid.join(', ') },
          this.at(pointer),
        ),
      );
    }
    return type;
  }

  private call(step: CallStep, type: CatalogType | undefined): void {
    if (!type) return;
    const base = `${step.loc.pointer}/${step.kind}`;
    const entity = findEntity(type, step.entity);
    if (!entity) {
      const valid = type.entities.map((e) => e.name);
      this.out.push(
        makeDiagnostic(
          'A001',
          { type: type.name, entity: step.entity, hint: hintFor(step.entity, valid), valid: valid.join(', ') },
          this.at(`${base}/entity`),
        ),
      );
      return;
    }
    const action = entity.actions.find((a) => a.action === step.action);
    if (!action) {
      const valid = entity.actions.map((a) => a.action);
      this.out.push(
        makeDiagnostic(
          'A002',
          {
            type: type.name,
            entity: step.entity,
            action: step.action,
            hint: hintFor(step.action, valid),
            valid: valid.join(', '),
          },
          this.at(`${base}/action`),
        ),
      );
      return;
    }
    const problems = [
      ...checkParams(action, step.params, entity),
      ...checkAssociations(type, action, step.params),
      ...checkReadProperties(type, entity, action, step.params),
    ];
    for (const p of problems) this.out.push(this.diagnostic(p, `${base}/params`));
  }

  private diagnostic(p: ParamProblem, paramsPointer: string): Diagnostic {
    const pointer = paramsPointer + p.path.map((s) => `/${escapePointer(String(s))}`).join('');
    const pos = p.at === 'key' ? this.locator.locateKey(pointer) : this.locator.locate(pointer, p.offset);
    return makeDiagnostic(p.code, p.params, { file: this.file, ...pos, pointer });
  }

  private at(pointer: string) {
    return { file: this.file, ...this.locator.locate(pointer), pointer };
  }
}
