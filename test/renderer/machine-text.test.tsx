// @vitest-environment happy-dom
// Words from kinds (issue 25): every view of the window, under each failure scenario the issue
// names, built from the agent's own data (scenarios.ts), says what happened in a person's words.
// The whole window is rendered (top bar, title, view list and the view), with a check's detail
// and its run explanation open, a test run made, a failed Sync now and a failed enrollment shown;
// its text, title, tooltips and accessible labels must hold no machine text.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { explainRun } from '../../src-main/agent/read/run-explanation.ts';
import { App } from '../../src-renderer/App.tsx';
import { AgentProvider } from '../../src-renderer/state/agent-context.tsx';
import { createFakeBridge, ok } from './fake-bridge.ts';
import { buildScenario, openGuid, scenarioNames, type Scenario, type ScenarioName } from './scenarios.ts';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/** Text no person should read in the window: each pattern with what it stands for. */
export const machinePatterns: [string, RegExp][] = [
  ['an ISO timestamp', /\d{4}-\d\d-\d\dT\d/],
  ['an errno name', /\bE[A-Z]{3,}\b/],
  ['an HTTP method and URL', /\b(GET|POST|PUT|PATCH|DELETE|HEAD)\s+https?:\/\//],
  ['a URL of the API', /\/api\//],
  ['a command-line flag', /(^|[\s("“'])--[a-z]/],
  ['undefined', /\bundefined\b/],
  ['NaN', /\bNaN\b/],
  ['an object printed whole', /\[object /],
  ['a stack trace', /\bat \S+ \(\S+:\d+:\d+\)|\bat (file|node):/],
  [
    'a library phrase',
    /fetch failed|socket hang up|UND_ERR|\bERR_[A-Z_]{3,}|SSL routines|Proxy response \(|AbortError|operation was aborted|SQLITE|database or disk is full|ZodError|Invalid input|in JSON at position|Unexpected token|is not a function|Cannot read properties/,
  ],
];

/** Each machine pattern found in text, with the text around it. */
export function machineText(text: string): string[] {
  const found: string[] = [];
  for (const [what, pattern] of machinePatterns) {
    const match = pattern.exec(text);
    if (match !== null)
      found.push(`${what}: …${text.slice(Math.max(0, match.index - 60), match.index + match[0].length + 40)}…`);
  }
  return found;
}

/** Everything the window says: its text, its title, and every tooltip and accessible name. */
function windowWords(): string {
  const attributes = ['title', 'aria-label', 'aria-description', 'placeholder', 'alt'];
  const said = [...document.querySelectorAll('*')].flatMap((el) =>
    attributes.map((a) => el.getAttribute(a)).filter((v): v is string => v !== null),
  );
  // Text node by text node: textContent runs "Shop" and "ECONNREFUSED" of two cells together.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.push(node.textContent ?? '');
  return [document.title, texts.join(' '), ...said].join('\n');
}

type View = 'overview' | 'checks' | 'unsent' | 'outages' | 'events' | 'private' | 'settings' | 'enroll';
const views: View[] = ['overview', 'checks', 'unsent', 'outages', 'events', 'private', 'settings', 'enroll'];

/**
 * Findings in files other helpers own at the time of writing (issue 25), named so the lead can
 * fix them at the merge and then delete the entry: `scenario / view` and the pattern's name.
 * Each entry must still be found, so a fixed finding fails here until its entry is removed.
 */
export const knownElsewhere: { scenario: ScenarioName | '*'; view: View | '*'; what: string; file: string }[] = [];

const isKnown = (scenario: ScenarioName, view: View, finding: string) =>
  knownElsewhere.some(
    (k) =>
      (k.scenario === '*' || k.scenario === scenario) &&
      (k.view === '*' || k.view === view) &&
      finding.startsWith(`${k.what}:`),
  );

const loading = /Loading|Connecting to the agent|Waiting for the server|Running .* once/;

async function settle(): Promise<void> {
  await waitFor(() => expect(document.body.textContent).not.toMatch(loading));
}

/** Renders the window on one view of a scenario and does what the view offers to show failures. */
async function show(scenario: Scenario, view: View): Promise<string> {
  const bridge = createFakeBridge({
    'agent:snapshot': () => ok(scenario.snapshot),
    'settings:get': () => ok(scenario.settings),
    'events:list': () => ok(scenario.events),
    'outages:list': () => ok(scenario.outages),
    'server-absences:list': () => ok(scenario.serverAbsences),
    'checks:history': () => ok(scenario.history),
    'checks:window': (args) => ok({ ...scenario.window, range: args.range }),
    'checks:test-run': () =>
      ok({
        ok: true,
        run: explainRun(
          {
            success: false,
            httpStatus: 0,
            latencyMs: 0,
            answered: true,
            decidedBy: 'connection',
            error: scenario.window.lastRun?.error ?? '',
            responseSample: '',
          },
          new Date(),
          scenario.window.lastRun?.error ?? '',
          true,
        ),
      }),
    'agent:sync-now': async () => ok(await scenario.command('agent:sync-now')),
    'agent:upload-now': async () => ok(await scenario.command('agent:upload-now')),
    'agent:resend-set-aside': async () => ok(await scenario.command('agent:resend-set-aside')),
    'agent:enroll': async (args) => ok(await scenario.enroll(args)),
  });
  window.history.replaceState(null, '', view === 'checks' ? `#/checks/${openGuid}` : `#/${view}`);
  render(
    <AgentProvider bridge={bridge}>
      <App />
    </AgentProvider>,
  );
  await screen.findByRole('heading', { level: 1 });
  await settle();
  let words = windowWords();
  if (view === 'overview') {
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    await settle();
    await waitFor(() => expect(bridge.callsTo('agent:sync-now')).toHaveLength(1));
    await act(() => Promise.resolve());
    await waitFor(() => expect(document.body.textContent).toMatch(/server/));
    expect(document.body.textContent).not.toMatch(/does not answer/);
    words += `\n${windowWords()}`;
  }
  if (view === 'unsent') {
    const upload = screen.getByRole<HTMLButtonElement>('button', { name: 'Upload now' });
    if (!upload.disabled) {
      fireEvent.click(upload);
      await screen.findByText('Upload failed');
    }
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    await screen.findByText('Sending again failed');
    // The agent's answer is shown, not the bridge's "no answer".
    expect(document.body.textContent).not.toMatch(/does not answer/);
    words += `\n${windowWords()}`;
  }
  if (view === 'outages') {
    // The server's absences are on this view (yesterday's in every scenario): their words are read too.
    await screen.findAllByText(/Server unreachable/);
  }
  if (view === 'checks') {
    const pane = await screen.findByRole('complementary', { name: 'Shop' });
    await within(pane).findByRole('region', { name: 'Last run' });
    words += `\n${windowWords()}`;
    fireEvent.click(within(pane).getByRole('button', { name: 'Run now' }));
    await within(pane).findByRole('region', { name: 'Test run' });
    words += `\n${windowWords()}`;
  }
  if (view === 'enroll') {
    const token = await screen.findByLabelText('Enrollment token');
    fireEvent.change(token, { target: { value: 'uet_pasted' } });
    const form = token.closest('form');
    if (form === null) throw new Error('the token field is not in a form');
    fireEvent.submit(form);
    await waitFor(() => expect(bridge.callsTo('agent:enroll')).toHaveLength(1));
    await screen.findByRole('alert');
    words += `\n${windowWords()}`;
    // Server URLs a person mistypes, each refused by the agent's own reading of the form.
    const url = screen.getByLabelText('Server URL');
    for (const [i, typed] of [
      'htp://uptime.example',
      'https://uptime.example/?x=1',
      'http://user:pw@uptime.example',
    ].entries()) {
      fireEvent.change(url, { target: { value: typed } });
      fireEvent.submit(form);
      await waitFor(() => expect(bridge.callsTo('agent:enroll').length).toBeGreaterThanOrEqual(i + 2));
      await screen.findByRole('alert');
      await settle();
      words += `\n${windowWords()}`;
    }
  }
  return words;
}

describe('the pattern matcher', () => {
  it('finds each kind of machine text in a planted string', () => {
    const planted = [
      'since 2026-11-24T17:13:00.000Z',
      'connect ECONNREFUSED 127.0.0.1:8080',
      'could not reach GET http://127.0.0.1:8080/api/checks',
      'the path /api/checks',
      'run uptime-agent with --private-checks',
      'undefined results',
      'NaN ms',
      '[object Object]',
      'Error: boom\n    at run (/app/src/agent.ts:12:5)',
      'fetch failed',
    ];
    for (const text of planted) expect(machineText(text), text).not.toEqual([]);
    // Each pattern is the one that catches one of them: none is dead.
    expect(new Set(planted.map((t) => machineText(t)[0]?.split(':')[0])).size).toBe(machinePatterns.length);
    expect(machineText('Down for 12 min (since 17:13) — the server refused the connection. Try again now.')).toEqual(
      [],
    );
  });

  it('finds machine text planted in a rendered view', async () => {
    const scenario = await buildScenario('server refusing');
    const [first, ...rest] = scenario.snapshot.checks;
    if (first === undefined) throw new Error('no check');
    const planted = {
      ...scenario,
      snapshot: { ...scenario.snapshot, checks: [{ ...first, name: 'ECONNREFUSED' }, ...rest] },
    };
    expect(machineText(await show(planted, 'overview')).join('\n')).toMatch(/errno/);
  });
});

describe.each(scenarioNames)('%s', (name) => {
  it.each(views)('the %s view says it in words', async (view) => {
    const scenario = await buildScenario(name);
    const findings = machineText(await show(scenario, view));
    const unknown = findings.filter((f) => !isKnown(name, view, f));
    expect(unknown, `${name} / ${view}`).toEqual([]);
    for (const k of knownElsewhere.filter(
      (e) => (e.scenario === '*' || e.scenario === name) && (e.view === '*' || e.view === view),
    ))
      expect(
        findings.some((f) => f.startsWith(`${k.what}:`)),
        `${name} / ${view}: "${k.what}" (${k.file}) is fixed: remove it from knownElsewhere`,
      ).toBe(true);
  });
});
