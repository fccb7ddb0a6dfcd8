// POST /api/results. The whole batch is validated before anything is stored, so a 400 never
// leaves half a batch behind.
//
// `accepted` counts the results for checks assigned to the caller, whether newly stored or
// already stored by an earlier attempt: a retry of a batch whose answer was lost then reports
// the same number as the first attempt, and "accepted < submitted" keeps meaning exactly
// "some results were for unassigned checks" (wire-api.md ResultsResponse).
import { HttpError, json, type Reply } from '../http/reply.ts';
import type { IncomingResult } from '../results-store.ts';
import { parseRfc3339 } from '../timestamps.ts';
import { resultSchema, resultsRequestSchema, validate } from '../validate.ts';
import { jsonBody } from './json-body.ts';
import type { MonitorContext } from './table.ts';

/** wire-api.md Limits: results per batch. */
export const maxResultsPerBatch = 500;

export function handleResults({ state, body, monitor }: MonitorContext): Reply {
  const { results } = jsonBody(body, resultsRequestSchema);
  if (results.length > maxResultsPerBatch) {
    throw new HttpError(400, `too many results: ${results.length} in one call, at most ${maxResultsPerBatch}`);
  }
  const incoming: IncomingResult[] = results.map((raw, i) => {
    const valid = validate(resultSchema, raw, `results[${i}]`);
    if (!valid.ok) throw new HttpError(400, valid.reason);
    const { monitor_id: _ignored, ...result } = valid.value;
    return { ...result, ranAtUs: parseRfc3339(result.ran_at) ?? 0 };
  });
  const { accepted } = state.results.ingest(monitor.id, incoming);
  return json({ accepted });
}
