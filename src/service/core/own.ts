/**
 * The value of an own property, or undefined. A key that came from a request ("constructor", "toString",
 * "__proto__") must never find what Object.prototype inherits: lookups keyed by user input go through this
 * (or a Map). test/architecture/own-keys.test.ts holds the line.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
