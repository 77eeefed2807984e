import type { HttpCallRequest } from '../client/index.js';
import type { HttpStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { isHostAllowed } from '../calls/http-allow.js';
import { describeType } from '../calls/execute-request.js';
import type { Scope } from '../frame/scope.js';
import { callService } from '../calls/call-service.js';
import { httpCall, placeholderId } from '../calls/call-kinds.js';

/**
 * http: one request outside the connector API (a webhook, an internal service) through the client, with its
 * retry policy. The output is the body parsed by content type; $response is {status, headers, body}.
 * GET and HEAD are reads; other methods are writes, which --dry-run records instead of sending. Hosts outside
 * the `http.allow` lists of this recipe and of every recipe that called it are refused before anything is sent.
 */
export async function runHttp(step: HttpStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  const url = await requestUrl(step, scope, stepCtx);
  const headers = await requestHeaders(step, scope, stepCtx);
  let body: string | undefined;
  if (step.json !== undefined) {
    const value = await evaluate(step.json, scope);
    if (value !== undefined) {
      body = JSON.stringify(value);
      headers['content-type'] ??= 'application/json';
    }
  } else if (step.body !== undefined) {
    const value = await evaluate(step.body, scope);
    if (value !== undefined && value !== null) {
      body = typeof value === 'string' ? value : JSON.stringify(value);
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    }
  }
  for (const allow of stepCtx.state.httpAllow) {
    if (!isHostAllowed(url, allow))
      throw new RecipeError(
        'X016',
        { method: step.method, host: url.host, allowed: allow.join(', ') || 'none' },
        locationOf(step.loc),
      );
  }
  const req: HttpCallRequest = {
    method: step.method,
    url: url.href,
    headers,
    ...(body !== undefined ? { body } : {}),
    successStatus: step.successStatus,
  };
  if (stepCtx.ctx.dryRun && step.method !== 'GET' && step.method !== 'HEAD') {
    const output = stepCtx.state.dryRun.recordHttp(
      stepCtx.writeSite(),
      placeholderId(stepCtx.nextCallKey()),
      req,
      step.json !== undefined && body !== undefined,
    );
    stepCtx.ctx.log('info', stepCtx.ctx.redactor.redact(`dry run: would send ${step.method} ${url.href}`));
    return { output, response: { status: null, headers: {}, body: null, dry_run: true } };
  }
  // Through the record/replay point, like every request a run sends (service-call.ts).
  const answer = await callService(stepCtx, httpCall(stepCtx, req, step.timeoutMs));
  return { output: answer.body, response: answer };
}

async function requestUrl(step: HttpStep, scope: Scope, stepCtx: StepContext): Promise<URL> {
  const raw = await evaluate(step.url, scope);
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new RecipeError(
      'X007',
      {
        what: 'http url',
        expected: 'an absolute http or https URL',
        got: typeof raw === 'string' ? 'other text' : describeType(raw),
      },
      locationOf(stepCtx.step.loc),
    );
  if (step.query !== undefined) {
    for (const [name, value] of Object.entries(await objectOf(step.query, 'http query', scope, stepCtx))) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        url.searchParams.append(name, typeof item === 'string' ? item : JSON.stringify(item));
      }
    }
  }
  return url;
}

/** Header names lower-cased (so a recipe's Content-Type replaces the default one); values as text. */
async function requestHeaders(step: HttpStep, scope: Scope, stepCtx: StepContext): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (step.headers === undefined) return headers;
  for (const [name, value] of Object.entries(await objectOf(step.headers, 'http headers', scope, stepCtx))) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object')
      throw new RecipeError(
        'X007',
        { what: `http header ${name}`, expected: 'text', got: describeType(value) },
        locationOf(stepCtx.step.loc),
      );
    headers[name.toLowerCase()] = String(value);
  }
  return headers;
}

async function objectOf(
  value: HttpStep['query'],
  what: string,
  scope: Scope,
  stepCtx: StepContext,
): Promise<Record<string, unknown>> {
  const v = value === undefined ? undefined : await evaluate(value, scope);
  if (v === undefined || v === null) return {};
  if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  throw new RecipeError('X007', { what, expected: 'an object', got: describeType(v) }, locationOf(stepCtx.step.loc));
}
