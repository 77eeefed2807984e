/**
 * Errors of compiled evaluation, with jsonata's codes and message templates (jsonata 2.x, MIT licence), so
 * an error reads the same whichever engine ran the expression and run/ maps it to the catalog as before.
 */
const TEMPLATES: Readonly<Record<string, string>> = {
  T0410: 'Argument {{index}} of function {{token}} does not match function signature',
  T0411: 'Context value is not a compatible type with argument {{index}} of function {{token}}',
  T0412: 'Argument {{index}} of function {{token}} must be an array of {{type}}',
  D1001: 'Number out of range: {{value}}',
  D1002: 'Cannot negate a non-numeric value: {{value}}',
  T1003: 'Key in object structure must evaluate to a string; got: {{value}}',
  D1004: 'Regular expression matches zero length string',
  T1005: 'Attempted to invoke a non-function. Did you mean ${{{token}}}?',
  T1006: 'Attempted to invoke a non-function',
  D1009: 'Multiple key definitions evaluate to same key: {{value}}',
  T1010: 'The matcher function argument passed to function {{token}} does not return the correct object structure',
  D1011: 'Stack overflow. Check for non-terminating recursive function.  Consider rewriting as tail-recursive',
  D1012: 'Evaluation timeout after {{value}} milliseconds. Check for infinite loop',
  D1013: 'Object property names starting with _jsonata_ are reserved for internal use: {{value}}',
  T2001: 'The left side of the {{token}} operator must evaluate to a number',
  T2002: 'The right side of the {{token}} operator must evaluate to a number',
  T2003: 'The left side of the range operator (..) must evaluate to an integer',
  T2004: 'The right side of the range operator (..) must evaluate to an integer',
  T2006: 'The right side of the function application operator ~> must be a function',
  T2007: 'Type mismatch when comparing values {{value}} and {{value2}} in order-by clause',
  T2008: 'The expressions within an order-by clause must evaluate to numeric or string values',
  T2009: 'The values {{value}} and {{value2}} either side of operator {{token}} must be of the same data type',
  T2010: 'The expressions either side of operator {{token}} must evaluate to numeric or string values',
  D2014:
    'The size of the sequence allocated by the range operator (..) must not exceed 1e7.  Attempted to allocate {{value}}.',
  D3001: 'Attempting to invoke string function on Infinity or NaN',
  D3010: 'Second argument of replace function cannot be an empty string',
  D3011: 'Fourth argument of replace function must evaluate to a positive number',
  D3012: 'Attempted to replace a matched string with a non-string value',
  D3020: 'Third argument of split function must evaluate to a positive number',
  D3030: 'Unable to cast value to a number: {{value}}',
  D3040: 'Third argument of match function must evaluate to a positive number',
  D3050: 'The second argument of reduce function must be a function with at least two arguments',
  D3060: 'The sqrt function cannot be applied to a negative number: {{value}}',
  D3061:
    'The power function has resulted in a value that cannot be represented as a JSON number: base={{value}}, exponent={{exp}}',
  D3070:
    'The single argument form of the sort function can only be applied to an array of strings or an array of numbers.  Use the second argument to specify a comparison function',
  D3110: 'The argument of the toMillis function must be an ISO 8601 formatted timestamp. Given {{value}}',
  D3137: '{{{message}}}',
  D3138: 'The $single() function expected exactly 1 matching result.  Instead it matched more.',
  D3139: 'The $single() function expected exactly 1 matching result.  Instead it matched 0.',
  D3140: 'Malformed URL passed to ${{{functionName}}}(): {{value}}',
  D3141: '{{{message}}}',
};

/** The fields jsonata puts on its errors; `position` is the offset just after the offending token. */
export interface ErrorFields {
  position?: number;
  token?: unknown;
  value?: unknown;
  value2?: unknown;
  index?: number;
  type?: string;
  exp?: unknown;
  functionName?: string;
  message?: string;
}

/** An evaluation error with jsonata's code; its message is filled from the template when it leaves the evaluation. */
export class ExprError extends Error {
  position?: number;
  token?: unknown;
  value?: unknown;
  value2?: unknown;
  index?: number;
  type?: string;
  exp?: unknown;
  functionName?: string;

  constructor(
    readonly code: string,
    fields: ErrorFields = {},
  ) {
    super(fields.message ?? code);
    this.name = 'ExprError';
    const { message: _message, ...rest } = fields;
    Object.assign(this, rest);
  }

  /** jsonata's populateMessage: `{{{x}}}` is the field as is, `{{x}}` its JSON. */
  populate(): this {
    const template = TEMPLATES[this.code];
    if (template === undefined) return this;
    const fields = this as unknown as Record<string, unknown>;
    let message = template.replace(/\{\{\{([^}]+)}}}/g, (_whole, name: string) => String(fields[name]));
    message = message.replace(/\{\{([^}]+)}}/g, (_whole, name: string) => String(JSON.stringify(fields[name])));
    this.message = message;
    return this;
  }
}

/** Thrown inside compiled code when jsonata must evaluate the expression instead (see compiled-expr.ts). */
export class BailOut {
  constructor(readonly reason: string) {}
}

/**
 * jsonata writes its position and token on any error passing through a call or an operator (a TypeError
 * from its own code too); this says which errors get them here: every Error (ExprError included).
 */
export function isDecorable(err: unknown): err is Error & { position?: number; token?: unknown } {
  return err instanceof Error;
}
