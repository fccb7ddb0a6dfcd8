// Each answer to an enrollment, in words, with what to do about it. The agent's own message is
// kept as the detail: it names the id, the server's reason or the network error.
import type { EnrollResult } from '../../src-main/ipc/contract.ts';
import { sentence } from '../format.ts';

export type EnrollFailure = Extract<EnrollResult, { ok: false }>;

export interface FailureText {
  title: string;
  detail: string;
  advice: string;
  /** 404 on a reclaim: offer to enroll as a new monitor instead. */
  offerNewMonitor: boolean;
}

export function describeFailure(failure: EnrollFailure, server: string, reclaimId: string): FailureText {
  const detail = sentence(failure.message);
  switch (failure.kind) {
    case 'token-rejected':
      return {
        title: 'The server refused the enrollment token',
        detail: 'The token is unknown, revoked or expired.',
        advice: 'Mint a new token on the server’s “Add a monitor” page, paste it here, and enroll again.',
        offerNewMonitor: false,
      };
    case 'no-such-monitor':
      return {
        title: 'No such monitor in this organisation',
        detail: `The server has no monitor with id ${reclaimId} in the organisation of this token.`,
        advice: 'Check the monitor id, or enroll this agent as a new monitor.',
        offerNewMonitor: true,
      };
    case 'still-enrolled':
      return {
        title: 'That monitor is still enrolled',
        detail: `Monitor ${reclaimId} is enrolled and in use, so it cannot be reclaimed now.`,
        advice: 'A monitor can be reclaimed only after its enrollment was reset: reset it on the server’s Monitors page, then reclaim it again.',
        offerNewMonitor: false,
      };
    case 'bad-request':
      return { title: 'The server refused the request', detail, advice: 'Correct what the server named above, then enroll again.', offerNewMonitor: false };
    case 'unreachable':
      return {
        title: 'The server could not be reached',
        detail: `Tried ${server.replace(/\/+$/, '')}/api/enroll. ${detail}`,
        advice: 'Check the server URL, that the server is running, and that this machine can reach it.',
        offerNewMonitor: false,
      };
    case 'usage':
      return { title: 'Some fields need attention', detail, advice: 'Correct them and enroll again; nothing was sent.', offerNewMonitor: false };
  }
}
