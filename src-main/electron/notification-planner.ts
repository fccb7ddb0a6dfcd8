// Which notifications to show, decided without the Notification API: check transitions grouped
// when many change at once, a check that changes again soon held quiet for a while and then told
// its latest state once, a check the agent finds flapping told once as such (the agent then
// stops announcing its changes) and told again only if it settles down, and each problem (key
// rejected, monitor disabled, definitions file) told once per new occurrence. Times are passed
// in, so every rule is tested without waiting.
import type { AgentSnapshot, CheckTransition, ProblemKind, ViewName } from '../ipc/contract.ts';
import { problemText } from '../ipc/problem-words.ts';
import { shellDefaults } from './shell-defaults.ts';

export interface Note {
  title: string;
  body: string;
  /** Where a click on it takes the window. */
  navigate: { view: ViewName; guid?: string };
}

export interface PlannerOptions {
  flapWindowMs: number;
  namesInGroup: number;
}

export interface NotificationPlanner {
  /** A batch of transitions arrived: what to show now. */
  transitions(batch: readonly CheckTransition[], nowMs: number): Note[];
  /** Held changes whose quiet window has ended: what to show now. */
  due(nowMs: number): Note[];
  /** When due() will next have something to say, if ever. */
  nextDueAt(): number | undefined;
  /** A new snapshot: problems that just appeared. */
  snapshot(snapshot: AgentSnapshot): Note[];
}

/** "A, B, C and 2 more" */
export function listNames(names: readonly string[], shown: number): string {
  if (names.length <= 1) return names.join('');
  if (names.length <= shown) return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

function flappingNotes(flapping: readonly CheckTransition[], namesInGroup: number): Note[] {
  const [first] = flapping;
  if (first === undefined) return [];
  const quiet = 'You are not told of each change; you are told if it stays down.';
  if (flapping.length > 1)
    return [
      {
        title: `${flapping.length} checks keep going down and up`,
        body: `${listNames(
          flapping.map((t) => t.name),
          namesInGroup,
        )} change state again and again. ${quiet}`,
        navigate: { view: 'events' },
      },
    ];
  const changes = first.flapping?.changes ?? 0;
  const minutes = Math.max(
    1,
    Math.round((Date.parse(first.at) - Date.parse(first.flapping?.since ?? first.at)) / 60_000),
  );
  return [
    {
      title: `${first.name} keeps going down and up`,
      body: `It changed state ${changes} times in ${minutes} min. ${quiet}`,
      navigate: { view: 'checks', guid: first.guid },
    },
  ];
}

function groupNotes(told: readonly CheckTransition[], namesInGroup: number): Note[] {
  const notes: Note[] = flappingNotes(
    told.filter((t) => t.kind === 'flapping'),
    namesInGroup,
  );
  const down = told.filter((t) => t.kind === 'down');
  const recovered = told.filter((t) => t.kind === 'recovered');
  const [firstDown] = down;
  if (down.length === 1 && firstDown !== undefined) {
    const settled = firstDown.settled === true ? 'It stopped changing and stays down: ' : '';
    notes.push({
      title: `${firstDown.name} is down`,
      body: `${settled}${firstDown.error ?? 'The check failed.'} Open Uptime Agent for its recent results.`,
      navigate: { view: 'checks', guid: firstDown.guid },
    });
  } else if (down.length > 1) {
    notes.push({
      title: `${down.length} checks went down`,
      body: `${listNames(
        down.map((t) => t.name),
        namesInGroup,
      )}. Open Uptime Agent to see why.`,
      navigate: { view: 'checks' },
    });
  }
  const [firstUp] = recovered;
  if (recovered.length === 1 && firstUp !== undefined) {
    const lasted =
      firstUp.downSince === undefined
        ? ''
        : ` after ${Math.max(1, Math.round((Date.parse(firstUp.at) - Date.parse(firstUp.downSince)) / 60_000))} min down`;
    notes.push({
      title: `${firstUp.name} recovered`,
      body: `The check passes again${lasted}.`,
      navigate: { view: 'checks', guid: firstUp.guid },
    });
  } else if (recovered.length > 1) {
    notes.push({
      title: `${recovered.length} checks recovered`,
      body: `${listNames(
        recovered.map((t) => t.name),
        namesInGroup,
      )} pass again.`,
      navigate: { view: 'checks' },
    });
  }
  return notes;
}

/** Problems worth interrupting the user for, with their title and where a click goes. */
const notifiedProblems: Partial<Record<ProblemKind, { title: string; view: ViewName }>> = {
  'key-rejected': { title: 'The server refused this monitor’s API key', view: 'enroll' },
  'monitor-disabled': { title: 'This monitor was disabled on the server', view: 'overview' },
  'key-damaged': { title: 'This monitor’s stored API key is damaged', view: 'enroll' },
  'clock-skew': { title: 'This computer’s clock is off', view: 'overview' },
  'private-file': { title: 'The private definitions file has a problem', view: 'private' },
};

interface CheckMemory {
  toldAt: number;
  toldKind: CheckTransition['kind'];
  /** The latest transition seen inside the quiet window, told when it ends if still news. */
  held?: CheckTransition;
}

export function createNotificationPlanner(options: PlannerOptions = shellDefaults): NotificationPlanner {
  const checks = new Map<string, CheckMemory>();
  /** Problem kind → the message last told; gone when the problem went away. */
  let problems = new Map<ProblemKind, string>();

  function tell(transition: CheckTransition, nowMs: number, told: CheckTransition[]): void {
    checks.set(transition.guid, { toldAt: nowMs, toldKind: transition.kind });
    told.push(transition);
  }

  return {
    transitions(batch, nowMs) {
      const told: CheckTransition[] = [];
      for (const transition of batch) {
        const memory = checks.get(transition.guid);
        // The agent says it once per flapping episode: told at once, and what was held is old news.
        if (transition.kind === 'flapping') tell(transition, nowMs, told);
        // Settled passing after flapping: the flapping notice said only a lasting outage is told.
        else if (transition.kind === 'recovered' && transition.settled === true) checks.delete(transition.guid);
        else if (memory !== undefined && nowMs - memory.toldAt < options.flapWindowMs) memory.held = transition;
        else tell(transition, nowMs, told);
      }
      return groupNotes(told, options.namesInGroup);
    },
    due(nowMs) {
      const told: CheckTransition[] = [];
      for (const [guid, memory] of checks) {
        if (nowMs - memory.toldAt < options.flapWindowMs) continue;
        const held = memory.held;
        if (held !== undefined && held.kind !== memory.toldKind) tell(held, nowMs, told);
        else checks.delete(guid); // quiet and told: nothing left to remember
      }
      return groupNotes(told, options.namesInGroup);
    },
    nextDueAt() {
      let next: number | undefined;
      for (const memory of checks.values()) {
        if (memory.held === undefined) continue;
        const at = memory.toldAt + options.flapWindowMs;
        next = next === undefined ? at : Math.min(next, at);
      }
      return next;
    },
    snapshot(snapshot) {
      const notes: Note[] = [];
      const now = new Map<ProblemKind, string>();
      for (const problem of snapshot.problems) {
        const shown = notifiedProblems[problem.kind];
        if (shown === undefined) continue;
        const body = problemText(problem);
        now.set(problem.kind, body);
        // New, or the same kind with a different cause (another error in the file).
        if (problems.get(problem.kind) !== body)
          notes.push({ title: shown.title, body, navigate: { view: shown.view } });
      }
      problems = now;
      return notes;
    },
  };
}
