import { isSafeToRepeat, writes } from './actions.js';

/** What a service said of one action in its inspect answer; a field it did not give is absent. */
export interface ActionFact {
  readonly write?: boolean;
  readonly idempotent?: boolean;
}

/** `entity.action` → what an inspect answer says of it (`actions[].write`, `actions[].idempotent`). */
export function actionFactsOf(inspectAnswer: unknown): Map<string, ActionFact> {
  const facts = new Map<string, ActionFact>();
  const actions = (inspectAnswer as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(actions)) return facts;
  for (const a of actions as unknown[]) {
    const { entity, action, write, idempotent } = (a ?? {}) as Record<string, unknown>;
    if (typeof entity !== 'string' || typeof action !== 'string') continue;
    const fact = {
      ...(typeof write === 'boolean' ? { write } : {}),
      ...(typeof idempotent === 'boolean' ? { idempotent } : {}),
    };
    if (Object.keys(fact).length > 0) facts.set(`${entity}.${action}`, fact);
  }
  return facts;
}

/** `entity.action` → write, for each action of an inspect answer that says `write: true|false`. */
export function actionWritesOf(inspectAnswer: unknown): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [key, fact] of actionFactsOf(inspectAnswer)) if (fact.write !== undefined) out.set(key, fact.write);
  return out;
}

/**
 * The action facts the client learned per connector from inspect answers: its own inspect calls, and answers
 * a resume replays from the journal. What an answer says nothing of is left to the name rule (actions.ts).
 */
export class ActionFacts {
  private readonly byConnector = new Map<string, ReadonlyMap<string, ActionFact>>();

  /** Keeps what an inspect answer says, when it says which actions write (else the connector keeps the rule). */
  learn(connectorId: string, inspectAnswer: unknown): void {
    const facts = actionFactsOf(inspectAnswer);
    if ([...facts.values()].some((f) => f.write !== undefined)) this.byConnector.set(connectorId, facts);
  }

  /** True once an inspect answer of the connector said which of its actions write. */
  knows(connectorId: string): boolean {
    return this.byConnector.has(connectorId);
  }

  /** Whether the connector's entity.action writes (actions.ts `writes`: the service's word, else the name rule). */
  writes(connectorId: string, entity: string, action: string): boolean {
    return writes(this.factOf(connectorId, entity, action)?.write, entity, action);
  }

  /** Whether sending the call again cannot change the outcome: a read, or a write its service calls idempotent. */
  safeToRepeat(connectorId: string, entity: string, action: string): boolean {
    const fact = this.factOf(connectorId, entity, action);
    return isSafeToRepeat(entity, action, writes(fact?.write, entity, action), fact?.idempotent === true);
  }

  private factOf(connectorId: string, entity: string, action: string): ActionFact | undefined {
    return this.byConnector.get(connectorId)?.get(`${entity}.${action}`);
  }
}
