import type { ErrorClass } from '../errors/index.js';

/** The CLI's exit codes; every command maps errors through exitCodeFor in one place. */
export const ExitCode = {
  ok: 0,
  runFailed: 1,
  invalid: 2,
  config: 3,
  interrupted: 130,
} as const;

export function exitCodeFor(errorClass: ErrorClass): number {
  switch (errorClass) {
    case 'invalid':
      return ExitCode.invalid;
    case 'run':
      return ExitCode.runFailed;
    case 'config':
      return ExitCode.config;
    case 'interrupted':
      return ExitCode.interrupted;
  }
}
