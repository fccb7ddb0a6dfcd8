// What a failed enrollment means, as data (issue 23): one kind per answer the user must act on
// differently, with the cause, the field at fault and the monitor id to reclaim. The window and
// the CLI choose their words from these (src-renderer/words/, src-main/cli/failure-words.ts).
import { DataDirError } from '../base/data-dir.ts';
import { localCause, type FailureFacts } from '../wire/failure.ts';

/** What went wrong, one kind per answer the user must act on differently. */
export type EnrollFailureKind =
  | 'usage'
  | 'token-rejected'
  | 'no-such-monitor'
  | 'still-enrolled'
  | 'bad-request'
  | 'unreachable'
  /** The data folder cannot take the key: nothing was sent. */
  | 'local-state'
  /** The server enrolled the monitor but its key could not be saved: monitorId says which. */
  | 'not-saved';

export const enrollFailureKinds: readonly EnrollFailureKind[] = [
  'usage',
  'token-rejected',
  'no-such-monitor',
  'still-enrolled',
  'bad-request',
  'unreachable',
  'local-state',
  'not-saved',
];

/** The field of the enroll form (and flag of `uptime-agent enroll`) a failure is about. */
export type EnrollField = 'server' | 'token' | 'name' | 'region' | 'country' | 'city' | 'reclaimId';

/** What is wrong with that field. */
export type FieldProblem = 'required' | 'too-long' | 'invalid' | 'plain-http';

/**
 * A failed enrollment as data: each surface chooses its words from kind, cause, field and
 * monitorId (src-renderer/words/, src-main/cli/failure-words.ts); `message` is for the log.
 */
export interface EnrollFailure extends Omit<FailureFacts, 'kind'> {
  ok: false;
  kind: EnrollFailureKind;
  message: string;
  field?: EnrollField;
  problem?: FieldProblem;
  /**
   * not-saved: the monitor the server enrolled, to reclaim once its enrollment is reset;
   * still-enrolled and no-such-monitor: the id that was to be reclaimed.
   */
  monitorId?: string;
}

export type EnrollOutcome = { ok: true; monitorId: string; server: string; warning?: string } | EnrollFailure;

const enrollFields: readonly string[] = ['server', 'token', 'name', 'region', 'country', 'city', 'reclaimId'];
export const isEnrollField = (name: string): name is EnrollField => enrollFields.includes(name);

/** The local cause of a failed write: the folder (prepareDataDir) or the file (its errno code). */
export function saveFailureCause(error: unknown): FailureFacts['cause'] {
  if (error instanceof DataDirError) return error.kind === 'read-only' ? 'not-writable' : undefined;
  return localCause((error as NodeJS.ErrnoException).code);
}

/** The server's refusal of an enrollment (or no answer at all) as a failure kind and log line. */
export function describeFailure(
  status: number | undefined,
  reason: string | undefined,
  message: string,
  reclaimId: string | undefined,
  action: string | undefined,
): { kind: EnrollFailureKind; message: string; field?: EnrollField } {
  switch (status) {
    case 401:
      return {
        kind: 'token-rejected',
        message:
          'the server refused the enrollment token: it is unknown, revoked or expired. Mint a new token on the "Add a monitor" page and try again.',
      };
    case 404:
      return {
        kind: 'no-such-monitor',
        message: `no monitor with id ${reclaimId ?? '?'} exists in this token's organisation. Enroll as a new monitor instead (leave out the monitor id).`,
      };
    case 409:
      return {
        kind: 'still-enrolled',
        message: `monitor ${reclaimId ?? '?'} is still enrolled. Reset its enrollment on the server's Monitors page first, then reclaim it again.`,
      };
    case 400: {
      // The server names the body field at fault first ("name: must not be empty", wire-api.md).
      const named = reason?.split(':', 1)[0]?.trim();
      const field = named === 'id' ? 'reclaimId' : named;
      return {
        kind: 'bad-request',
        ...(field !== undefined && field !== 'server' && field !== 'token' && isEnrollField(field) ? { field } : {}),
        message: `the server refused the enrollment request${reason === undefined ? '' : `: ${reason}`}. Check the name, region, country and city.`,
      };
    }
    default:
      // A proxy or certificate problem says what to do itself; "is the server running" would mislead.
      return {
        kind: 'unreachable',
        message: `could not enroll: ${message}. ${action === undefined ? 'Check the server URL and that the server is running' : capitalise(action)}.`,
      };
  }
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
