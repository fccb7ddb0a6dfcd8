// Records the programmatic API hands out. Wire field names (snake_case) are kept wherever a value
// is a wire field, so a test can compare what it set with what the agent received; server-side
// metadata is camelCase.

export interface Organization {
  id: string;
  name: string;
  /** Checks of this organisation are assigned to all its monitors, present and future. */
  autoAssign: boolean;
  createdAt: string;
}

export type TokenKind = 'org' | 'platform';

export interface EnrollmentToken {
  id: string;
  kind: TokenKind;
  /** The organisation an org token enrolls into; null for a platform token (shared fleet). */
  orgId: string | null;
  label: string | null;
  createdAt: string;
  /** Platform tokens only: one hour after minting. */
  expiresAt: string | null;
  revoked: boolean;
}

/** A freshly minted token: the only time its secret value is available. */
export interface MintedToken extends EnrollmentToken {
  token: string;
}

/** The definition and scheduling fields of a check, with their wire names. */
export interface CheckFields {
  name: string;
  url: string;
  enabled: boolean;
  interval_sec: number;
  match_string: string;
  result_detail_max_chars: number;
  timeout_sec?: number;
  match_mode?: string;
  post_data?: string;
  headers?: Record<string, string>;
  disable_redirects?: boolean;
  status_code_op?: string;
  status_code_value?: number;
  max_response_time_ms?: number;
  down_interval_sec?: number;
  insecure_skip_verify?: boolean;
  invert_result?: boolean;
  cert_expiry_warn_days?: number;
}

/** createCheck input: name and url are required, the rest default (see checks.ts). */
export type CheckInput = Partial<CheckFields> & {
  name: string;
  url: string;
  /** Defaults to a random UUID. */
  guid?: string;
  /** Owning organisation; unset means none (the check may go to any monitor). */
  orgId?: string;
};

/** updateCheck input: only the given fields change; null clears an optional field. */
export type CheckPatch = { [K in keyof CheckFields]?: CheckFields[K] | null };

export interface CheckRecord {
  guid: string;
  orgId: string | null;
  deleted: boolean;
  privateDefinition: boolean;
  /** The last change to the check itself (an assignment change is per monitor, see deltas.ts). */
  updatedAt: string;
  definition: CheckFields;
}

/** A check as GET /api/checks sends it. */
export type WireCheck = CheckFields & { guid: string; deleted: boolean; updated_at: string };

export interface MonitorRecord {
  id: string;
  /** null for a shared (fleet) monitor. */
  orgId: string | null;
  shared: boolean;
  name: string;
  region: string;
  country: string;
  city: string;
  enrolled: boolean;
  disabled: boolean;
  /** The enrollment token last used to enroll or reclaim it. */
  tokenId: string | null;
  enrolledAt: string;
  lastSeenAt: string | null;
}

/** What POST /api/status carries (wire MonitorStatus). */
export interface MonitorStatusBody {
  version: string;
  uptime_sec: number;
  unsent_results: number;
  last_outage_sec?: number;
  last_outage_ended_at?: string;
}

export interface StoredStatus {
  seq: number;
  monitorId: string;
  receivedAt: string;
  status: MonitorStatusBody;
}

export interface StoredResult {
  seq: number;
  /** Always the authenticated caller, whatever the payload said. */
  monitorId: string;
  checkGuid: string;
  orgId: string | null;
  /** As sent by the agent. */
  ranAt: string;
  success: boolean;
  httpStatus: number;
  latencyMs: number;
  /** Capped to the check's result_detail_max_chars code points; absent when not sent. */
  error?: string;
  responseSample?: string;
  receivedAt: string;
}
