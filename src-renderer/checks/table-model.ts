// Filtering and sorting the checks table: pure, so the table and its tests agree.
import type { CheckHealth, CheckView } from '../../src-main/ipc/contract.ts';

export type SortKey = 'name' | 'type' | 'target' | 'interval' | 'last' | 'latency' | 'uptime' | 'health';
export interface Sort {
  key: SortKey;
  direction: 'ascending' | 'descending';
}

export type HealthFilter = 'all' | 'problems' | CheckHealth;

/** Worst first when sorting by state: what needs attention comes to the top. */
const healthOrder: Record<CheckHealth, number> = {
  down: 0,
  'not-run': 1,
  skipped: 2,
  pending: 3,
  paused: 4,
  up: 5,
  disabled: 6,
};

const valueOf: Record<SortKey, (c: CheckView) => string | number> = {
  name: (c) => c.name.toLowerCase(),
  type: (c) => c.type,
  target: (c) => c.target.toLowerCase(),
  interval: (c) => c.intervalSec,
  last: (c) => c.lastResult?.ran_at ?? '',
  latency: (c) => c.lastResult?.latency_ms ?? -1,
  uptime: (c) => c.uptimePct ?? -1,
  health: (c) => healthOrder[c.health],
};

export function filterChecks(checks: readonly CheckView[], text: string, health: HealthFilter): CheckView[] {
  const needle = text.trim().toLowerCase();
  return checks.filter((c) => {
    if (health === 'problems' ? c.health !== 'down' && c.health !== 'not-run' : health !== 'all' && c.health !== health)
      return false;
    if (needle === '') return true;
    return [c.name, c.target, c.type, c.guid].some((field) => field.toLowerCase().includes(needle));
  });
}

export function sortChecks(checks: readonly CheckView[], sort: Sort): CheckView[] {
  const get = valueOf[sort.key];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...checks].sort((a, b) => {
    const x = get(a);
    const y = get(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return order === 0 ? a.name.localeCompare(b.name) : order * sign;
  });
}

/** Clicking the sorted column flips it; another column starts ascending. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: 'ascending' };
}
