import { JsonataExpr } from '../expr/index.js';

/** Freezes a plan and everything in it; compiled expressions are frozen by expr/ and left alone. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof JsonataExpr)
    return value;
  Object.freeze(value);
  for (const member of Object.values(value as object)) deepFreeze(member);
  return value;
}
