// Command-line parsing: node:util parseArgs for the shape, zod for the values, one clear
// sentence for anything wrong (exit 2, nothing sent).
import type { ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { inputLimits } from '../agent/base/input-limits.ts';
const { parseArgs } = process.getBuiltinModule('node:util');

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

type Options = NonNullable<ParseArgsConfig['options']>;

const common: Options = { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } };

/** parseArgs, turning its thrown errors into a usage message. */
export function parseFlags(argv: string[], options: Options): Parsed<Record<string, string | boolean | undefined>> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { ...common, ...options },
      strict: true,
      allowPositionals: false,
      // Every boolean flag has its --no- form, so a flag saved to settings.json can be turned off.
      allowNegative: true,
    });
    return { ok: true, value: values as Record<string, string | boolean | undefined> };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof Error ? (error.message.split('\n')[0] ?? 'invalid arguments') : 'invalid arguments',
    };
  }
}

/** zod issues as one sentence naming each flag. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const flag = issue.path.length > 0 ? `--${String(issue.path[0])}` : 'arguments';
      return `${flag}: ${issue.message}`;
    })
    .join('; ');
}

export const intervalSeconds = z.coerce
  .number({ error: 'must be a number of seconds' })
  .refine(Number.isFinite, 'must be a number of seconds')
  .min(inputLimits.intervalSec.min, `must be at least ${inputLimits.intervalSec.min} seconds`)
  .max(inputLimits.intervalSec.max, `must be at most ${inputLimits.intervalSec.max} seconds (a day)`);
