// Sample data for the demo and the command line: one auto-assign organisation (so every monitor
// that enrolls gets its checks), a few checks and a fresh enrollment token. The check list is a
// parameter so the demo can point checks at its own targets.
import type { ReferenceServer } from './index.ts';
import type { CheckInput, CheckRecord } from './types.ts';

export interface SeedCheck extends Omit<CheckInput, 'orgId'> {
  /** Create it, then wipe its definition (the agent must load it from a local file). */
  privateDefinition?: boolean;
}

export interface SeedOptions {
  /** Organisation name; an existing organisation of that name is reused (a persistent db). */
  organization?: string;
  /** Default: demoChecks(server.url). Ignored when the organisation already existed. */
  checks?: SeedCheck[];
  tokenLabel?: string;
}

export interface Seeded {
  orgId: string;
  /** A new org enrollment token on every call. */
  token: string;
  tokenId: string;
  /** A platform (shared fleet) token, valid for one hour. */
  platformToken: string;
  /** Checks created by this call (none when the organisation already existed). */
  checks: CheckRecord[];
}

/** Loopback checks against the reference server itself, plus one that is always down. */
export function demoChecks(serverUrl: string): SeedCheck[] {
  const { port } = new URL(serverUrl);
  return [
    {
      guid: 'demo-api-reachable',
      name: 'Reference server API (401 expected without a key)',
      url: `${serverUrl}/api/ping`,
      interval_sec: 30,
      status_code_op: 'eq',
      status_code_value: 401,
      match_string: 'Authorization',
    },
    { guid: 'demo-tcp-port', name: 'Reference server TCP port', url: `tcp://127.0.0.1:${port}`, interval_sec: 30 },
    // Port 9 (discard) is closed on a normal machine: a check that is reliably down.
    {
      guid: 'demo-always-down',
      name: 'Nothing listens here',
      url: 'http://127.0.0.1:9/',
      interval_sec: 60,
      timeout_sec: 5,
    },
    {
      guid: 'demo-private',
      name: 'Private definition (from the local file)',
      url: `${serverUrl}/api/ping`,
      interval_sec: 60,
      privateDefinition: true,
    },
  ];
}

export function seed(server: ReferenceServer, options: SeedOptions = {}): Seeded {
  const { admin } = server;
  const name = options.organization ?? 'Demo organisation';
  const existing = admin.organizations().find((org) => org.name === name);
  const org = existing ?? admin.createOrganization(name, { autoAssign: true });
  const checks: CheckRecord[] = [];
  if (!existing) {
    for (const { privateDefinition, ...input } of options.checks ?? demoChecks(server.url)) {
      const check = admin.createCheck({ ...input, orgId: org.id });
      checks.push(privateDefinition === true ? admin.makePrivateDefinition(check.guid) : check);
    }
  }
  const token = admin.mintOrgToken(org.id, { label: options.tokenLabel ?? 'seed' });
  const platform = admin.mintPlatformToken({ label: 'seed' });
  return { orgId: org.id, token: token.token, tokenId: token.id, platformToken: platform.token, checks };
}
