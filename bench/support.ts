// Shared bench helpers: percentiles, a memory sampler, a loopback target in its own process
// (so the agent's CPU and memory figures are the agent's alone), and table printing.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function rssSampler(everyMs = 100): { peakMb(): number; stop(): void } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), everyMs);
  return { peakMb: () => Math.max(peak, process.memoryUsage.rss()) / 1024 / 1024, stop: () => clearInterval(timer) };
}

/**
 * Starts bench/target-process.ts in a child process; resolves with its base URL. `tlsFile`: a JSON
 * file with a PEM `cert` and `key`, for an https target.
 */
export async function startTargetProcess(
  delayMs = 0,
  tlsFile?: string,
): Promise<{ url: string; stop(): void; child: ChildProcess }> {
  const child = fork(
    new URL(import.meta.url.endsWith('.ts') ? './target-process.ts' : './target-process.js', import.meta.url).pathname,
    [String(delayMs), ...(tlsFile === undefined ? [] : [tlsFile])],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const [message] = (await once(child, 'message')) as [{ port: number }];
  const scheme = tlsFile === undefined ? 'http' : 'https';
  return { url: `${scheme}://127.0.0.1:${message.port}/`, stop: () => child.kill(), child };
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  const first = rows[0];
  if (first === undefined) return;
  const columns = Object.keys(first);
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(line(columns.map((c) => c.padEnd(width(c)))));
  console.log(line(columns.map((c) => '-'.repeat(width(c)))));
  // The first column names the row and reads left-aligned; figures line up on the right.
  for (const row of rows)
    console.log(
      line(columns.map((c, i) => (i === 0 ? String(row[c]).padEnd(width(c)) : String(row[c]).padStart(width(c))))),
    );
}

export const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * A figure judged against an upper bound, printed with up to three more digits when its usual
 * rounding would hide which side of the bound it is on: 12.04 MB against "<= 12 MB" prints 12.04,
 * where 12.0 beside "NOT met" reads as a wrong verdict (the 65th whole bench printed just that).
 */
export function fixedBeside(n: number, bound: number, digits = 1): string {
  let shown = digits;
  while (n > bound && Number(n.toFixed(shown)) <= bound && shown < digits + 3) shown += 1;
  return fixed(n, shown);
}

/** A count as the tables print it, whole and with thousands separators (38,448). */
export const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Bytes in a MiB, the unit every memory figure of the tables is printed in ("MB"). */
export const mib = 1024 * 1024;

/** Bytes as the tables print memory, to a tenth of a MB; a dash when there is no figure. */
export const mibText = (bytes: number | undefined): string =>
  bytes === undefined ? '—' : `${fixed(bytes / mib, 1)} MB`;

/** A share (0.23) as a whole percent ("23 %"). */
export const percent = (share: number): string => `${fixed(share * 100, 0)} %`;
