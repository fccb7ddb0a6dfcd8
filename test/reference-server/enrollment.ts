// Enrollment shared by POST /api/enroll and the admin API: the credential decides the scope
// (an organisation, or the shared fleet), never the request body.
import type { EnrolledMonitor, MonitorProfile, ReclaimOutcome } from './monitors.ts';
import type { ServerState } from './state.ts';

export interface EnrollScope {
  /** null = shared fleet. */
  orgId: string | null;
  tokenId: string | null;
}

/** New enrollment when `reclaimId` is undefined, else a reclaim of that monitor. */
export function enrollMonitor(
  state: ServerState,
  scope: EnrollScope,
  profile: MonitorProfile,
  reclaimId?: string,
): ReclaimOutcome {
  const outcome: ReclaimOutcome =
    reclaimId === undefined
      ? state.monitors.enroll(scope.orgId, profile, scope.tokenId)
      : state.monitors.reclaim(reclaimId, scope.orgId, profile, scope.tokenId);
  if (typeof outcome !== 'string') autoAssignOrgChecks(state, outcome);
  return outcome;
}

/** An auto-assign organisation gives each of its monitors all its live checks. */
function autoAssignOrgChecks(state: ServerState, enrolled: EnrolledMonitor): void {
  const orgId = enrolled.monitor.orgId;
  if (orgId === null || state.organizations.get(orgId)?.autoAssign !== true) return;
  for (const check of state.checks.list()) {
    if (check.orgId === orgId && !check.deleted) state.assignments.assign(check.guid, enrolled.monitor.id);
  }
}
