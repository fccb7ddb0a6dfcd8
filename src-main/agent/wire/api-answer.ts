// The server's answer to one API call, read and judged: its body read up to a bound, a status
// other than 200 classified with the server's one-line reason, a 200 body parsed against its
// schema. Every outcome is data (ApiOutcome), worded once for the log and the window.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { kindForStatus, type ApiError, type ApiOutcome } from './api-error.ts';

export const fail = (error: ApiError): { ok: false; error: ApiError } => ({ ok: false, error });

/** The answer was larger than the call's bound. */
export class AnswerTooLarge extends Error {}

export async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server's reason is the first line of its plain-text body, kept short for one-line display. */
function serverReason(text: string): string | undefined {
  const line = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (line === '') return undefined;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

export function statusError(status: number, text: string, target: string): ApiError {
  const reason = serverReason(text);
  const kind = kindForStatus(status);
  const said = reason === undefined ? '' : `: ${reason}`;
  if (kind === 'invalid-answer') {
    return { kind, status, message: `${target} answered ${status}, not 200 (is the server URL right?)` };
  }
  return { kind, status, ...(reason === undefined ? {} : { reason }), message: `${target} answered ${status}${said}` };
}

export function parseAnswer<S extends z.ZodType>(text: string, schema: S, target: string): ApiOutcome<z.infer<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail({
      kind: 'invalid-answer',
      status: 200,
      message: `${target} answered 200 with a body that is not JSON`,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.');
    return fail({
      kind: 'invalid-answer',
      status: 200,
      message: `${target} answered 200 with an unexpected body (${where}: ${issue?.message ?? 'invalid'})`,
    });
  }
  return { ok: true, value: parsed.data };
}
