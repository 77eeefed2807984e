/**
 * The shape of jsonata's processed syntax tree (what `jsonata(src).ast()` gives, jsonata 2.x): the one
 * parser stays jsonata's; the compiler reads these nodes. Only the fields the compiler uses are typed.
 */
export interface Node {
  readonly type: string;
  readonly value?: unknown;
  readonly position?: number;
  /** Filters applied to this node's value (a step outside a path, or a variable). */
  readonly predicate?: readonly Stage[];
  /** Filters applied per item inside a path step. */
  readonly stages?: readonly Stage[];
  /** A group-by object constructor on this node (`a{...}`). */
  readonly group?: GroupNode;
  readonly keepArray?: boolean;
  /** Set on a path whose steps carry `[]`. */
  readonly keepSingletonArray?: boolean;
  readonly consarray?: boolean;
  readonly steps?: readonly Node[];
  readonly lhs?: Node | readonly (readonly [Node, Node])[];
  readonly rhs?: Node;
  readonly expression?: Node;
  readonly expressions?: readonly Node[];
  readonly condition?: Node;
  readonly then?: Node;
  readonly else?: Node;
  readonly procedure?: Node;
  readonly arguments?: readonly Node[];
  readonly body?: Node;
  readonly thunk?: boolean;
  readonly signature?: { readonly definition?: string };
  readonly terms?: readonly { readonly descending: boolean; readonly expression: Node }[];
  // Tuple-stream and parent features (fallback to jsonata).
  readonly focus?: string;
  readonly index?: string;
  readonly tuple?: boolean;
  readonly ancestor?: unknown;
  readonly seekingParent?: unknown;
}

export interface Stage {
  readonly type: string;
  readonly expr?: Node;
  readonly value?: unknown;
  readonly position?: number;
}

export interface GroupNode {
  readonly lhs: readonly (readonly [Node, Node])[];
  readonly position?: number;
}

/** The key/value pairs of an object constructor node. */
export function pairsOf(node: Node): readonly (readonly [Node, Node])[] {
  return (node.lhs ?? []) as readonly (readonly [Node, Node])[];
}

/** The left operand of a binary node. */
export function lhsOf(node: Node): Node {
  return node.lhs as Node;
}
