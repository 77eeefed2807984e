import type { ApiError } from '../api-types.js';

/** A failed call to the console's own API, with the message the server gave. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET a JSON document of the console's API. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const message = (body as ApiError | null)?.message ?? `HTTP ${res.status}`;
    throw new ApiFailure(res.status, message);
  }
  return body as T;
}

/**
 * POST an action of the console's API with its CSRF token (GET /api/info's actions.csrf_token) in the
 * X-Recipe-CSRF header; the server refuses an action without it, or from another site.
 */
export async function postAction<T>(path: string, body: Record<string, unknown>, csrfToken: string): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-recipe-csrf': csrfToken },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const message = (answer as ApiError | null)?.message ?? `HTTP ${res.status}`;
    throw new ApiFailure(res.status, message);
  }
  return answer as T;
}
