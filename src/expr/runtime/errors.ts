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
  // Picture strings ($formatNumber, $formatBase, $formatInteger, $parseInteger, dates): jsonata's own code
  // throws these (jsonata-natives.ts); the templates are here so that they read as jsonata's do.
  D3080: 'The picture string must only contain a maximum of two sub-pictures',
  D3081: "The sub-picture must not contain more than one instance of the 'decimal-separator' character",
  D3082: "The sub-picture must not contain more than one instance of the 'percent' character",
  D3083: "The sub-picture must not contain more than one instance of the 'per-mille' character",
  D3084: "The sub-picture must not contain both a 'percent' and a 'per-mille' character",
  D3085:
    "The mantissa part of a sub-picture must contain at least one character that is either an 'optional digit character' or a member of the 'decimal digit family'",
  D3086:
    'The sub-picture must not contain a passive character that is preceded by an active character and that is followed by another active character',
  D3087:
    "The sub-picture must not contain a 'grouping-separator' character that appears adjacent to a 'decimal-separator' character",
  D3088: "The sub-picture must not contain a 'grouping-separator' at the end of the integer part",
  D3089: "The sub-picture must not contain two adjacent instances of the 'grouping-separator' character",
  D3090:
    "The integer part of the sub-picture must not contain a member of the 'decimal digit family' that is followed by an instance of the 'optional digit character'",
  D3091:
    "The fractional part of the sub-picture must not contain an instance of the 'optional digit character' that is followed by a member of the 'decimal digit family'",
  D3092:
    "A sub-picture that contains a 'percent' or 'per-mille' character must not contain a character treated as an 'exponent-separator'",
  D3093:
    "The exponent part of the sub-picture must comprise only of one or more characters that are members of the 'decimal digit family'",
  D3100: 'The radix of the formatBase function must be between 2 and 36.  It was given {{value}}',
  D3130:
    'Formatting or parsing an integer as a sequence starting with {{value}} is not supported by this implementation',
  D3131: 'In a decimal digit pattern, all digits must be from the same decimal group',
  D3132: 'Unknown component specifier {{value}} in date/time picture string',
  D3133: "The 'name' modifier can only be applied to months and days in the date/time picture string, not {{value}}",
  D3134: 'The timezone integer format specifier cannot have more than four digits',
  D3135: "No matching closing bracket ']' in date/time picture string",
  D3136: 'The date/time picture string is missing specifiers required to parse the timestamp',
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
