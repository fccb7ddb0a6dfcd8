// The operations the wire API leaves to the server's own UI (wire-api.md "Transitions: not
// shown"): organisations, tokens, checks, assignments and monitor state. Misuse (an unknown id,
// an invalid field) throws, because it is a bug in the test that called it.
import { enrollMonitor } from './enrollment.ts';
import type { MonitorProfile } from './monitors.ts';
import type { ServerState } from './state.ts';
import type {
  CheckInput,
  CheckPatch,
  CheckRecord,
  EnrollmentToken,
  MintedToken,
  MonitorRecord,
  Organization,
} from './types.ts';

export interface ReferenceAdmin {
  createOrganization(name: string, options?: { autoAssign?: boolean }): Organization;
  organizations(): Organization[];
  /** An organisation's "Add a monitor" token; never expires, revocable. */
  mintOrgToken(orgId: string, options?: { label?: string }): MintedToken;
  /** A shared-fleet token; expires one hour after minting (by the server's clock). */
  mintPlatformToken(options?: { label?: string }): MintedToken;
  revokeToken(tokenId: string): void;
  tokens(): EnrollmentToken[];
  /** Enrolls without HTTP, as POST /api/enroll would; orgId null = shared fleet. */
  enrollMonitor(orgId: string | null, profile?: Partial<MonitorProfile>): { monitorId: string; apiKey: string };
  /** Invalidates the key and marks the monitor not enrolled, so the agent can reclaim its id. */
  resetEnrollment(monitorId: string): void;
  /** Mints a new key (returned) and invalidates the old one. */
  resetKey(monitorId: string): string;
  /** While disabled, every API-key operation of the monitor answers 403. */
  disableMonitor(monitorId: string): void;
  enableMonitor(monitorId: string): void;
  monitors(): MonitorRecord[];
  createCheck(input: CheckInput): CheckRecord;
  /** Partial update; null clears an optional field. Bumps updated_at. */
  updateCheck(guid: string, patch: CheckPatch): CheckRecord;
  /** Marks deleted (kept, so deltas carry the deletion). A deleted check cannot change again. */
  deleteCheck(guid: string): CheckRecord;
  /** Wipes url, match_string, post_data and headers from the server for good. */
  makePrivateDefinition(guid: string): CheckRecord;
  check(guid: string): CheckRecord | undefined;
  checks(): CheckRecord[];
  assign(checkGuid: string, monitorId: string): void;
  /** The check goes out once more to that monitor (disabled + deleted), then never again. */
  unassign(checkGuid: string, monitorId: string): void;
  assignedChecks(monitorId: string): CheckRecord[];
}

const defaultProfile: MonitorProfile = { name: 'admin-enrolled', region: 'test', country: 'XX', city: 'Nowhere' };

export function createAdmin(state: ServerState): ReferenceAdmin {
  const { organizations, tokens, monitors, checks, assignments } = state;

  const assignable = (checkGuid: string, monitorId: string): void => {
    const check = checks.require(checkGuid);
    const monitor = monitors.require(monitorId);
    if (check.deleted) throw new Error(`assign: check ${checkGuid} is deleted`);
    if (!monitor.shared && check.orgId !== null && check.orgId !== monitor.orgId) {
      throw new Error(`assign: check ${checkGuid} belongs to another organisation than monitor ${monitorId}`);
    }
  };

  return {
    createOrganization: (name, options) => organizations.create(name, options),
    organizations: () => organizations.list(),
    mintOrgToken: (orgId, options) => tokens.mintOrgToken(organizations.require(orgId).id, options?.label),
    mintPlatformToken: (options) => tokens.mintPlatformToken(options?.label),
    revokeToken: (tokenId) => tokens.revoke(tokenId),
    tokens: () => tokens.list(),
    enrollMonitor(orgId, profile) {
      if (orgId !== null) organizations.require(orgId);
      const outcome = enrollMonitor(state, { orgId, tokenId: null }, { ...defaultProfile, ...profile });
      if (typeof outcome === 'string') throw new Error(`enrollMonitor: ${outcome}`);
      return { monitorId: outcome.monitor.id, apiKey: outcome.apiKey };
    },
    resetEnrollment: (monitorId) => monitors.resetEnrollment(monitorId),
    resetKey: (monitorId) => monitors.resetKey(monitorId),
    disableMonitor: (monitorId) => monitors.setDisabled(monitorId, true),
    enableMonitor: (monitorId) => monitors.setDisabled(monitorId, false),
    monitors: () => monitors.list(),
    createCheck(input) {
      if (input.orgId !== undefined) organizations.require(input.orgId);
      const check = checks.create(input);
      if (check.orgId !== null && organizations.get(check.orgId)?.autoAssign === true) {
        for (const monitor of monitors.list()) {
          if (monitor.orgId === check.orgId) assignments.assign(check.guid, monitor.id);
        }
      }
      return check;
    },
    updateCheck: (guid, patch) => checks.update(guid, patch),
    deleteCheck: (guid) => checks.remove(guid),
    makePrivateDefinition: (guid) => checks.makePrivateDefinition(guid),
    check: (guid) => checks.get(guid),
    checks: () => checks.list(),
    assign(checkGuid, monitorId) {
      assignable(checkGuid, monitorId);
      assignments.assign(checkGuid, monitorId);
    },
    unassign(checkGuid, monitorId) {
      checks.require(checkGuid);
      monitors.require(monitorId);
      assignments.unassign(checkGuid, monitorId);
    },
    assignedChecks: (monitorId) => assignments.assignedChecks(monitorId),
  };
}
