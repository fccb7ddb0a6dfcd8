// What a route answers, as a value: the dispatcher writes it and the recorder logs its status.
// Errors follow wire-api.md "Errors": non-2xx, one line of plain text, no JSON envelope.

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export function json(value: unknown, status = 200): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  };
}

/** A one-line text/plain error; newlines in the message are flattened so it stays one line. */
export function fail(status: number, message: string): Reply {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: `${message.replace(/[\r\n]+/g, ' ')}\n`,
  };
}

/** Thrown by a route step to answer an error without threading it through every return. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
