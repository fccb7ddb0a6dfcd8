// POST /api/enroll. The token (already checked by the dispatcher) decides the scope: an org
// token enrolls into its organisation, a platform token into the shared fleet.
import { enrollMonitor } from '../enrollment.ts';
import { fail, json, type Reply } from '../http/reply.ts';
import { enrollSchema } from '../validate.ts';
import { jsonBody } from './json-body.ts';
import type { TokenContext } from './table.ts';

export function handleEnroll({ state, body, token }: TokenContext): Reply {
  const { id, ...profile } = jsonBody(body, enrollSchema);
  const orgId = token.kind === 'org' ? token.orgId : null;
  const outcome = enrollMonitor(state, { orgId, tokenId: token.id }, profile, id);
  if (outcome === 'not-found') {
    const scope = orgId === null ? 'the shared fleet' : "this token's organisation";
    return fail(404, `no monitor with id ${String(id)} in ${scope}: enroll without id to get a new monitor`);
  }
  if (outcome === 'still-enrolled') {
    return fail(
      409,
      `monitor ${String(id)} is already enrolled: its enrollment must be reset before it can be reclaimed`,
    );
  }
  return json({ api_key: outcome.apiKey, monitor_id: outcome.monitor.id });
}
