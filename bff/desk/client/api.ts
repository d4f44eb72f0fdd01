/**
 * The desk's JSON API from the page (docs/architecture.md, "Labels"): the session cookie goes
 * by itself (same origin), the CSRF token comes from the page's `<meta name="csrf-token">`.
 */

/** The session is gone (logged out, expired) or the token no longer matches: the page must be reloaded. */
export class SessionExpired extends Error {
  override readonly name = 'SessionExpired';
}

/** No answer from the server (network down, BFF restarting). */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

/** A POST with a JSON body (or a CSV text, `csv`); the answer's status and JSON body, whatever the status. */
export async function callApi(path: string, body: unknown, csv = false): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        'content-type': csv ? 'text/csv' : 'application/json',
        accept: 'application/json',
        'x-csrf-token': csrfToken(),
      },
      body: csv ? String(body) : JSON.stringify(body),
    });
  } catch {
    throw new NoAnswer();
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  if (response.status === 401 || response.status === 403) throw new SessionExpired();
  return { status: response.status, body: parsed };
}

/**
 * The code and message of an error answer (spec 7.1 envelope), when it is one, and the field its message names
 * (`invalid_body`: "recipient.endereco.cep: Invalid input").
 */
export function errorOf(body: unknown): { code: string; message: string; field?: string } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body as { error: unknown };
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  const field = /^([\w.]+): /.exec(text)?.[1];
  return { code: typeof code === 'string' ? code : 'error', message: text, ...(field ? { field } : {}) };
}
