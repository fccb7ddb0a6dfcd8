// Who may use the dashboard: it listens on 127.0.0.1 only, but any local process and any web
// page the user visits can reach loopback. So every API request must carry the per-run token
// from the printed URL (compared in constant time), browsers' cross-site requests are refused by
// their Origin, and a Host other than our own address is refused (DNS rebinding: a foreign name
// resolving to 127.0.0.1 would otherwise make the page same-origin with us).

export { tokenHeader } from '../../ipc/web-protocol.ts';
const { createHash, randomBytes, timingSafeEqual } = process.getBuiltinModule('node:crypto');

/** 32 random bytes, URL-safe: unguessable, and fine in a query string. */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** Constant time whatever the lengths: both sides are hashed to the same size first. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined || given === '') return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const ourHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && ourHosts(port).includes(host.toLowerCase());
}

/** Absent is allowed (same-origin GET, or not a browser); present must be our own origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return ourHosts(port).some((host) => origin.toLowerCase() === `http://${host}`);
}
