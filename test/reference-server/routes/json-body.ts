// Shared first step of the POST handlers: the body as a validated JSON object, or a 400.
import type { z } from 'zod';
import type { ReadBody } from '../http/body.ts';
import { HttpError } from '../http/reply.ts';
import { parseJson, validate } from '../validate.ts';

export function jsonBody<T extends z.ZodType>(body: ReadBody, schema: T): z.output<T> {
  const parsed = parseJson(body.bytes);
  if (!parsed.ok) throw new HttpError(400, parsed.reason);
  const valid = validate(schema, parsed.value);
  if (!valid.ok) throw new HttpError(400, valid.reason);
  return valid.value;
}
