import { createHash } from 'node:crypto';

/** A typed block of skills docs content (the shapes the hosted service answers). */
export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'code'; language: string; code: string }
  | { type: 'table'; headers: string[]; rows: string[][] };

export const heading = (text: string, level = 2): Block => ({ type: 'heading', level, text });
export const paragraph = (text: string): Block => ({ type: 'paragraph', text });
export const list = (items: string[]): Block => ({ type: 'list', items });
export const code = (language: string, text: string): Block => ({ type: 'code', language, code: text });
export const table = (headers: string[], rows: string[][]): Block => ({ type: 'table', headers, rows });

/** One entry of a skill's outline. */
export interface OutlineSection {
  id: string;
  title: string;
  summary: string;
  available: boolean;
}

/** A skill as the list, search and docs endpoints describe it. */
export interface SkillInfo {
  id: string;
  kind: 'static' | 'connector_source';
  title: string;
  summary: string;
  tags: string[];
  /** Where the docs come from: a guide bundled with the service, or a connector type's definition. */
  provenance: string;
  /** Fingerprint of what the docs are generated from; changes when they would. */
  version: string;
  /** static for bundled guides; live for connector docs, built from the service's current state. */
  freshness: { state: 'static' | 'live'; checked_at?: string | null };
  warnings: string[];
}

/** A short stable fingerprint of a JSON value (a skill's version). */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
