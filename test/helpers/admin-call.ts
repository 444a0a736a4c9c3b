/**
 * One raw admin call to a running emulator, answering the status and the parsed JSON body: for tests
 * that check the wire (statuses, error bodies) rather than the typed client's answers.
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
  return { status: res.status, body: (await res.json()) as T };
}
