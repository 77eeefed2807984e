/**
 * Scope frames: each step list runs in its own frame, child of the enclosing one. A step id, a set/assign
 * name or a loop variable binds in the current frame, so it is visible to later steps of the same list and
 * to nested lists, never outside. Lookups walk outwards; bindings() flattens for JSONata.
 */
export class Scope {
  private readonly vars = new Map<string, unknown>();

  constructor(private readonly parent: Scope | null = null) {}

  /** A new frame inside this one. */
  child(): Scope {
    return new Scope(this);
  }

  /** Binds `name` (without $) in this frame. */
  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }

  /** The value bound to `name` in this frame or the nearest enclosing one. */
  get(name: string): unknown {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name);
    return undefined;
  }

  /** True when `name` is bound in this frame or an enclosing one (even to undefined). */
  has(name: string): boolean {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return true;
    return false;
  }

  /** Every visible name and its value (inner frames win), as JSONata variables. */
  bindings(extra?: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const chain: Scope[] = [];
    for (let s: Scope | null = this; s; s = s.parent) chain.push(s);
    const out: Record<string, unknown> = {};
    for (let i = chain.length - 1; i >= 0; i--) for (const [k, v] of chain[i]!.vars) out[k] = v;
    if (extra) Object.assign(out, extra);
    return out;
  }
}
