// A check's URL read once, for every probe and the socket helpers alike.
import { redactUrl } from './redact.ts';

/** The check's URL, or why it is not one. Userinfo is redacted from the message. */
export function parseTarget(raw: string): URL | { problem: string } {
  try {
    return new URL(raw);
  } catch {
    return { problem: raw === '' ? 'check has no URL' : `invalid URL ${JSON.stringify(redactUrl(raw))}` };
  }
}
