// Wire timestamps. The server keeps every instant as integer microseconds since the Unix epoch,
// so `updated_at` can carry six fractional digits (fixed width: lexical order = time order) and
// two changes in the same millisecond still get distinct, ordered stamps.
import type { DatabaseSync } from 'node:sqlite';

/** Microseconds since the epoch, an integer (exact as a JS number until the year 2255). */
export type Micros = number;

/** Formats as `2026-11-21T10:29:50.123456Z`: always 27 characters, always UTC. */
export function formatMicros(us: Micros): string {
  const ms = Math.floor(us / 1000);
  const iso = new Date(ms).toISOString(); // 2026-11-21T10:29:50.123Z
  const micros = String(us - ms * 1000).padStart(3, '0');
  return `${iso.slice(0, 23)}${micros}Z`;
}

export function dateToMicros(date: Date): Micros {
  return date.getTime() * 1000;
}

// RFC 3339 section 5.6 date-time. "T" and "Z" may be lowercase (section 5.6, NOTE); a space
// separator is not accepted because it is only an application option, not the grammar.
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

// setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/**
 * Parses an RFC 3339 date-time to microseconds, flooring digits beyond the sixth (an integer
 * stamp is strictly after the instant exactly when it is strictly after its floor). Returns
 * undefined for anything that is not a valid RFC 3339 date-time.
 */
export function parseRfc3339(text: string): Micros | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // Second 60 is a leap second; it rolls into the next minute, which is close enough.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = utcMs(year, month, day, hour, minute, second) - offsetMinutes * 60_000;
  const fraction = Number((m[7] ?? '').slice(0, 6).padEnd(6, '0'));
  return ms * 1000 + fraction;
}

/**
 * Hands out stamps that strictly increase across the life of the database, whatever the clock
 * does (an injected test clock may stand still or go back). The floor is persisted so a server
 * reopened on the same file never reissues a stamp.
 */
export interface Stamper {
  /** A stamp for a change: greater than every stamp and watermark handed out before. */
  next(): Micros;
  /**
   * A sync watermark (`server_time`): >= every stamp handed out so far, and every later
   * `next()` is strictly greater, so a delta asked with this value as since misses nothing.
   * Safe because the server is single-threaded and reads a delta and its watermark in one
   * synchronous step: no change can land between them.
   */
  watermark(): Micros;
}

export function createStamper(db: DatabaseSync, now: () => Date): Stamper {
  const read = db.prepare("SELECT value FROM meta WHERE key = 'stamp_floor'");
  const write = db.prepare(
    "INSERT INTO meta (key, value) VALUES ('stamp_floor', ?) " +
      'ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const row = read.get();
  let floor = row ? Number(row.value) : 0;
  const advance = (candidate: Micros): Micros => {
    floor = candidate;
    write.run(String(floor));
    return floor;
  };
  return {
    next: () => advance(Math.max(dateToMicros(now()), floor + 1)),
    watermark: () => advance(Math.max(dateToMicros(now()), floor)),
  };
}
