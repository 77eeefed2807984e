import { setFlagsFromString } from 'node:v8';

/**
 * Every expression is bounded, regexes included. A regex literal in an expression (`/^(a+)+$/`) runs on V8's
 * backtracking engine, which a hostile input can keep busy for hours inside one synchronous call, where no
 * timer (expression_timeout_ms, a step's timeout_ms) can stop it. With this flag, V8 switches a match that
 * backtracks too much to its linear-time engine, which finishes in time proportional to the input: the same
 * answer, without the blow-up. Patterns that engine cannot run (backreferences, lookbehind, some lookaheads)
 * stay on the backtracking engine; docs/language.md lists them. Process-wide and harmless to set twice, so
 * set when expr/ loads, before any expression is evaluated.
 */
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
