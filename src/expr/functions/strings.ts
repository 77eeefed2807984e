/** JSONata's string built-ins, ported from jsonata 2.x (same results, same error codes). */
import { ExprError } from '../runtime/errors.js';
import { createSequence } from '../runtime/sequence.js';
import { stringToArray, toJsonataString } from '../runtime/values.js';
import { callAs } from '../runtime/functions.js';
import { evaluateMatcher, type MatchResult } from './regex.js';

type Str = string | undefined;

export function string(arg: unknown, prettify?: boolean): Str {
  return toJsonataString(arg, prettify === true);
}

/** True when the string has no surrogate pairs, so UTF-16 indexes are character indexes. */
const ASTRAL = /[\uD800-\uDFFF]/;

export function substring(str: Str, start: number, length?: number): Str {
  if (str === undefined) return undefined;
  const chars: { length: number; slice(a: number, b?: number): string | string[] } = ASTRAL.test(str)
    ? stringToArray(str)
    : str;
  const strLength = chars.length;
  let from = start;
  if (strLength + from < 0) from = 0;
  if (length !== undefined) {
    if (length <= 0) return '';
    const end = from >= 0 ? from + length : strLength + from + length;
    return joined(chars.slice(from, end));
  }
  return joined(chars.slice(from));
}

function joined(part: string | string[]): string {
  return typeof part === 'string' ? part : part.join('');
}

export function substringBefore(str: Str, chars: string): Str {
  if (str === undefined) return undefined;
  const pos = str.indexOf(chars);
  return pos > -1 ? str.substring(0, pos) : str;
}

export function substringAfter(str: Str, chars: string): Str {
  if (str === undefined) return undefined;
  const pos = str.indexOf(chars);
  return pos > -1 ? str.substring(pos + chars.length) : str;
}

export function lowercase(str: Str): Str {
  return str === undefined ? undefined : str.toLowerCase();
}

export function uppercase(str: Str): Str {
  return str === undefined ? undefined : str.toUpperCase();
}

export function length(str: Str): number | undefined {
  if (str === undefined) return undefined;
  return ASTRAL.test(str) ? stringToArray(str).length : str.length;
}

export function trim(str: Str): Str {
  if (str === undefined) return undefined;
  let result = str.replace(/[ \t\n\r]+/gm, ' ');
  if (result.charAt(0) === ' ') result = result.substring(1);
  if (result.charAt(result.length - 1) === ' ') result = result.substring(0, result.length - 1);
  return result;
}

export function pad(str: Str, width: number, char?: string): Str {
  if (str === undefined) return undefined;
  const padChar = char === undefined || char.length === 0 ? ' ' : char;
  const w = Math.trunc(width);
  const padLength = Math.abs(w) - (length(str) as number);
  if (!(padLength > 0)) return str;
  let padding = new Array(padLength + 1).join(padChar);
  if (padChar.length > 1) padding = substring(padding, 0, padLength) as string;
  return w > 0 ? str + padding : padding + str;
}

export function contains(str: Str, token: unknown): boolean | undefined {
  if (str === undefined || token === undefined) return undefined;
  if (typeof token === 'string') return str.indexOf(token) !== -1;
  return evaluateMatcher(token, str) !== undefined;
}

export function match(str: Str, regex: unknown, limit?: number): unknown {
  if (str === undefined) return undefined;
  if (limit !== undefined && limit < 0) throw new ExprError('D3040', { value: limit, index: 3 });
  const result = createSequence();
  if (limit === undefined || limit > 0) {
    let count = 0;
    let matches = evaluateMatcher(regex, str);
    while (matches !== undefined && (limit === undefined || count < limit)) {
      result.push({ match: matches.match, index: matches.start, groups: matches.groups });
      matches = evaluateMatcher(matches.next);
      count++;
    }
  }
  return result;
}

export function replace(str: Str, pattern: unknown, replacement: unknown, limit?: number): Str {
  if (str === undefined) return undefined;
  if (pattern === '') throw new ExprError('D3010', { value: pattern, index: 2 });
  if (limit !== undefined && limit < 0) throw new ExprError('D3011', { value: limit, index: 4 });
  if (limit !== undefined && !(limit > 0)) return str;
  const replacer =
    typeof replacement === 'string'
      ? (m: MatchResult) => substitute(replacement, m)
      : (m: MatchResult) => callAs('replacer.apply', replacement, m);
  let result = '';
  let position = 0;
  let count = 0;
  if (typeof pattern === 'string') {
    let index = str.indexOf(pattern, position);
    while (index !== -1 && (limit === undefined || count < limit)) {
      result += str.substring(position, index);
      result += replacement as string;
      position = index + pattern.length;
      count++;
      index = str.indexOf(pattern, position);
    }
    return result + str.substring(position);
  }
  let matches = evaluateMatcher(pattern, str);
  if (matches === undefined) return str;
  while (matches !== undefined && (limit === undefined || count < limit)) {
    result += str.substring(position, matches.start);
    const replacedWith = replacer(matches);
    if (typeof replacedWith !== 'string') throw new ExprError('D3012', { value: replacedWith });
    result += replacedWith;
    position = matches.start + matches.match.length;
    count++;
    matches = evaluateMatcher(matches.next);
  }
  return result + str.substring(position);
}

/** A replacement text with `$0`, `$1`... and `$$`, as jsonata reads it. */
function substitute(replacement: string, regexMatch: MatchResult): string {
  let out = '';
  let position = 0;
  let index = replacement.indexOf('$', position);
  while (index !== -1 && position < replacement.length) {
    out += replacement.substring(position, index);
    position = index + 1;
    const dollarVal = replacement.charAt(position);
    if (dollarVal === '$') {
      out += '$';
      position++;
    } else if (dollarVal === '0') {
      out += regexMatch.match;
      position++;
    } else {
      const groups = regexMatch.groups.length;
      const maxDigits = groups === 0 ? 1 : Math.floor(Math.log(groups) * Math.LOG10E) + 1;
      let group = parseInt(replacement.substring(position, position + maxDigits), 10);
      if (maxDigits > 1 && group > groups)
        group = parseInt(replacement.substring(position, position + maxDigits - 1), 10);
      if (!Number.isNaN(group)) {
        if (groups > 0) {
          const submatch = regexMatch.groups[group - 1];
          if (submatch !== undefined) out += submatch;
        }
        position += group.toString().length;
      } else {
        out += '$';
      }
    }
    index = replacement.indexOf('$', position);
  }
  return out + replacement.substring(position);
}

export function split(str: Str, separator: unknown, limit?: number): string[] | undefined {
  if (str === undefined) return undefined;
  if (limit !== undefined && limit < 0) throw new ExprError('D3020', { value: limit, index: 3 });
  const result: string[] = [];
  if (limit !== undefined && !(limit > 0)) return result;
  if (typeof separator === 'string') return str.split(separator, limit);
  let count = 0;
  let matches = evaluateMatcher(separator, str);
  if (matches === undefined) {
    result.push(str);
    return result;
  }
  let start = 0;
  while (matches !== undefined && (limit === undefined || count < limit)) {
    result.push(str.substring(start, matches.start));
    start = matches.end;
    matches = evaluateMatcher(matches.next);
    count++;
  }
  if (limit === undefined || count < limit) result.push(str.substring(start));
  return result;
}

export function join(strs: readonly string[] | undefined, separator?: string): Str {
  if (strs === undefined) return undefined;
  return strs.join(separator ?? '');
}
