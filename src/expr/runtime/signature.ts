/**
 * jsonata's function signatures (`<s-nn?:s>`), ported one to one: the arguments of a call are matched
 * against a regular expression over their type letters, a missing `-` argument takes the context value,
 * an `a` parameter wraps a single value into an array. Same errors (T0410, T0411, T0412).
 */
import { ExprError } from './errors.js';
import { isFunction } from './values.js';

interface Param {
  regex: string;
  type: string;
  array?: boolean;
  context?: boolean;
  contextRegex?: RegExp;
  subtype?: string;
}

const ARRAY_TYPE_NAMES: Readonly<Record<string, string>> = {
  a: 'arrays',
  b: 'booleans',
  f: 'functions',
  n: 'numbers',
  o: 'objects',
  s: 'strings',
};

/** A parsed signature: `validate` gives the arguments the function receives, or throws. */
export interface Signature {
  readonly definition: string;
  validate(args: readonly unknown[], context: unknown): unknown[];
  /** True when the one argument `a` is valid as it is (validate would give [a]). */
  directOne(a: unknown): boolean;
}

/** The type letter of a value in a signature ('m' for missing). */
export function typeLetter(value: unknown): string {
  if (isFunction(value)) return 'f';
  switch (typeof value) {
    case 'string':
      return 's';
    case 'number':
      return 'n';
    case 'boolean':
      return 'b';
    case 'object':
      if (value === null) return 'l';
      return Array.isArray(value) ? 'a' : 'o';
    default:
      return 'm';
  }
}

/** Parses `<...>`; the return type after `:` is ignored, as jsonata does. */
export function parseSignature(signature: string): Signature {
  const params: Param[] = [];
  let param: Param = { regex: '', type: '' };
  let prevParam = param;
  const next = (): void => {
    params.push(param);
    prevParam = param;
    param = { regex: '', type: '' };
  };
  let position = 1;
  while (position < signature.length) {
    const symbol = signature.charAt(position);
    if (symbol === ':') break;
    switch (symbol) {
      case 's':
      case 'n':
      case 'b':
      case 'l':
      case 'o':
        param.regex = `[${symbol}m]`;
        param.type = symbol;
        next();
        break;
      case 'a':
        param.regex = '[asnblfom]';
        param.type = symbol;
        param.array = true;
        next();
        break;
      case 'f':
        param.regex = 'f';
        param.type = symbol;
        next();
        break;
      case 'j':
        param.regex = '[asnblom]';
        param.type = symbol;
        next();
        break;
      case 'x':
        param.regex = '[asnblfom]';
        param.type = symbol;
        next();
        break;
      case '-':
        prevParam.context = true;
        prevParam.contextRegex = new RegExp(prevParam.regex);
        prevParam.regex += '?';
        break;
      case '?':
      case '+':
        prevParam.regex += symbol;
        break;
      case '(': {
        const end = closing(signature, position, '(', ')');
        const choice = signature.substring(position + 1, end);
        param.regex = `[${choice}m]`;
        param.type = `(${choice})`;
        position = end;
        next();
        break;
      }
      case '<': {
        const end = closing(signature, position, '<', '>');
        prevParam.subtype = signature.substring(position + 1, end);
        position = end;
        break;
      }
    }
    position++;
  }
  const regex = new RegExp(`^${params.map((p) => `(${p.regex})`).join('')}$`);
  // Calls repeat with the same argument types: remember each type string's match.
  const matches = new Map<string, RegExpExecArray | null>();

  const fail = (args: readonly unknown[], supplied: string): never => {
    let partial = '^';
    let goodTo = 0;
    for (const p of params) {
      partial += p.regex;
      const m = supplied.match(partial);
      if (m === null) throw new ExprError('T0410', { value: args[goodTo], index: goodTo + 1 });
      goodTo = m[0].length;
    }
    throw new ExprError('T0410', { value: args[goodTo], index: goodTo + 1 });
  };

  // One argument per parameter, each of an accepted type and needing no wrapping: then the regular
  // expression can only match them one to one and the arguments are valid as they are.
  const accepts = params.map((p) => (p.regex.includes('+') ? '' : (/^\[?([a-z]+)\]?\??$/.exec(p.regex)?.[1] ?? '')));
  const fits = (i: number, arg: unknown): boolean => {
    const letter = typeLetter(arg);
    const p = params[i] as Param;
    if (!(accepts[i] as string).includes(letter)) return false;
    if (p.type === 'a' && letter !== 'a' && letter !== 'm') return false;
    return p.subtype === undefined || letter === 'm';
  };
  const direct = (args: readonly unknown[]): boolean => {
    if (args.length !== params.length) return false;
    for (let i = 0; i < args.length; i++) if (!fits(i, args[i])) return false;
    return true;
  };

  return {
    definition: signature,
    directOne: (a) => params.length === 1 && fits(0, a),
    validate(args, context) {
      if (direct(args)) return args as unknown[];
      let supplied = '';
      for (const arg of args) supplied += typeLetter(arg);
      let isValid = matches.get(supplied);
      if (isValid === undefined) {
        isValid = regex.exec(supplied);
        if (matches.size < 64) matches.set(supplied, isValid);
      }
      if (!isValid) return fail(args, supplied);
      const validated: unknown[] = [];
      let argIndex = 0;
      params.forEach((p, index) => {
        let arg = args[argIndex];
        const match = isValid[index + 1] as string;
        if (match === '') {
          if (p.context && p.contextRegex) {
            if (p.contextRegex.test(typeLetter(context))) validated.push(context);
            else throw new ExprError('T0411', { value: context, index: argIndex + 1 });
          } else {
            validated.push(arg);
            argIndex++;
          }
          return;
        }
        for (const single of match) {
          arg = args[argIndex];
          if (p.type === 'a') {
            if (single === 'm') {
              arg = undefined;
            } else {
              let arrayOK = true;
              if (p.subtype !== undefined) {
                if (single !== 'a' && match !== p.subtype) {
                  arrayOK = false;
                } else if (single === 'a' && (arg as unknown[]).length > 0) {
                  const items = arg as unknown[];
                  const itemType = typeLetter(items[0]);
                  if (itemType !== p.subtype.charAt(0)) arrayOK = false;
                  else arrayOK = items.every((v) => typeLetter(v) === itemType);
                }
              }
              if (!arrayOK) {
                throw new ExprError('T0412', {
                  value: arg,
                  index: argIndex + 1,
                  type: ARRAY_TYPE_NAMES[p.subtype ?? ''] ?? 'undefined',
                });
              }
              if (single !== 'a') arg = [arg];
            }
          }
          validated.push(arg);
          argIndex++;
        }
      });
      return validated;
    },
  };
}

function closing(str: string, start: number, open: string, close: string): number {
  let depth = 1;
  let position = start;
  while (position < str.length) {
    position++;
    const symbol = str.charAt(position);
    if (symbol === close) {
      depth--;
      if (depth === 0) break;
    } else if (symbol === open) depth++;
  }
  return position;
}
