/**
 * URL and base64 encoding. `$base64encode`/`$base64decode` work on the UTF-8 bytes of the text (jsonata's
 * take one byte per character, so any character above U+00FF was mangled); the jsonata engine gets the
 * same two functions registered, so both engines agree.
 */
import { ExprError } from '../runtime/errors.js';

type Str = string | undefined;

export function base64encode(str: Str): Str {
  return str === undefined ? undefined : Buffer.from(str, 'utf8').toString('base64');
}

export function base64decode(str: Str): Str {
  return str === undefined ? undefined : Buffer.from(str, 'base64').toString('utf8');
}

function guarded(name: string, f: (s: string) => string): (str: Str) => Str {
  return (str) => {
    if (str === undefined) return undefined;
    try {
      return f(str);
    } catch {
      throw new ExprError('D3140', { value: str, functionName: name });
    }
  };
}

export const encodeUrlComponent = guarded('encodeUrlComponent', encodeURIComponent);
export const encodeUrl = guarded('encodeUrl', encodeURI);
export const decodeUrlComponent = guarded('decodeUrlComponent', decodeURIComponent);
export const decodeUrl = guarded('decodeUrl', decodeURI);
