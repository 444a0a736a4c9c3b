import { expect } from 'vitest';

/**
 * One raw admin call to a running emulator, answering the status and the parsed JSON body (undefined
 * when it has none, as a 204): for tests that check the wire (statuses, error bodies) rather than the
 * typed client's answers.
 */
export async function adminCall<T = Record<string, unknown>>(
  r: { url: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${r.url}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** An admin call that must succeed (2xx): its parsed body (`{}` without one); a refusal fails the test, naming its answer. */
export async function adminOk<T = Record<string, unknown>>(
  r: { url: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const answer = await adminCall<T>(r, method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body ?? ({} as T);
}
