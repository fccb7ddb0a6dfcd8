// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EnrollFailure, EnrollResult, IpcResult } from '../../src-main/ipc/contract.ts';
import { EnrollView } from '../../src-renderer/enroll/EnrollView.tsx';
import { createFakeBridge, deferred, ok, type Answers } from './fake-bridge.ts';
import { appInfoOf, notEnrolled, settingsOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

/** A failure as the agent sends it: kind and facts; `message` is its log line, never shown. */
const refused =
  (kind: EnrollFailure['kind'], message: string, facts: Partial<EnrollFailure> = {}) =>
  () =>
    ok<EnrollResult>({ ok: false, kind, message, ...facts });

function setup(answers: Answers = {}, reclaimId?: string) {
  const bridge = createFakeBridge({
    'agent:snapshot': () => ok(notEnrolled()),
    'settings:get': () => ok(settingsOf({ serverUrl: 'https://uptime.example' })),
    ...answers,
  });
  return { bridge, ...renderView(<EnrollView reclaimId={reclaimId} />, bridge) };
}

async function fillAndSubmit(token = '  uet_pasted-token  '): Promise<void> {
  await screen.findByDisplayValue('https://uptime.example');
  fireEvent.change(screen.getByLabelText('Enrollment token'), { target: { value: token } });
  const form = screen.getByRole('button', { name: /Enroll|Reclaim monitor/ }).closest('form');
  if (form === null) throw new Error('the enroll button is not in a form');
  fireEvent.submit(form);
}

describe('Enroll', () => {
  it('starts from the remembered settings, with the token masked and a show toggle', async () => {
    setup();
    expect(await screen.findByDisplayValue('office-pc')).toBeTruthy();
    const token = screen.getByLabelText<HTMLInputElement>('Enrollment token');
    expect(token.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(token.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('names a first monitor after this machine when nothing was remembered', async () => {
    const bridge = createFakeBridge({
      'agent:snapshot': () => ok(notEnrolled()),
      'settings:get': () => ok(settingsOf({ serverUrl: 'https://uptime.example', monitorName: '' })),
      'app:info': () => ok(appInfoOf({ hostName: 'reception-pc' })),
    });
    renderView(<EnrollView />, bridge);
    expect(await screen.findByDisplayValue('reception-pc')).toBeTruthy();
  });

  it('sends the trimmed token, shows progress, and goes to the overview when enrolled', async () => {
    const answer = deferred<IpcResult<EnrollResult>>();
    const { bridge, navigate, setFlash } = setup({ 'agent:enroll': () => answer.promise });
    await fillAndSubmit();
    expect(screen.getByText('Waiting for the server…')).toBeTruthy();
    expect(bridge.callsTo('agent:enroll')).toEqual([
      {
        server: 'https://uptime.example',
        token: 'uet_pasted-token',
        name: 'office-pc',
        region: 'eu-west',
        country: 'DE',
        city: 'Berlin',
      },
    ]);
    answer.resolve(ok({ ok: true, monitorId: 'abcdefghjkmn', server: 'https://uptime.example' }));
    await screen.findByRole('button', { name: 'Enroll' });
    expect(navigate).toHaveBeenCalledWith({ view: 'overview' });
    expect(setFlash).toHaveBeenCalledWith(expect.stringContaining('Enrolled as monitor abcdefghjkmn'));
  });

  it('sends the advanced office-network fields with the enroll request, the proxy masked while typed', async () => {
    const { bridge } = setup({
      'agent:enroll': () => ok<EnrollResult>({ ok: true, monitorId: 'abcdefghjkmn', server: 'https://uptime.example' }),
    });
    await screen.findByDisplayValue('https://uptime.example');
    const proxy = screen.getByLabelText<HTMLInputElement>(/^Proxy/);
    expect(proxy.type).toBe('password');
    fireEvent.change(proxy, { target: { value: ' http://alice:pw@proxy.office:3128 ' } });
    fireEvent.change(screen.getByLabelText('Extra CA bundle for the server (PEM file)'), {
      target: { value: '/etc/ssl/office-ca.pem' },
    });
    fireEvent.click(screen.getByLabelText(/This monitor joins a shared fleet/));
    await fillAndSubmit();
    expect(bridge.callsTo('agent:enroll')).toEqual([
      {
        server: 'https://uptime.example',
        token: 'uet_pasted-token',
        name: 'office-pc',
        region: 'eu-west',
        country: 'DE',
        city: 'Berlin',
        proxyUrl: 'http://alice:pw@proxy.office:3128',
        serverCaFile: '/etc/ssl/office-ca.pem',
        egressPolicy: 'strict',
      },
    ]);
  });

  it.each([
    {
      kind: 'token-rejected' as const,
      message: 'the server refused the enrollment token',
      facts: { status: 401 },
      says: ['The server refused the enrollment token', 'Mint a new token'],
    },
    {
      kind: 'bad-request' as const,
      message: 'the server refused the enrollment request: name: too long',
      facts: { status: 400, reason: 'name: too long', field: 'name' as const },
      says: ['The server refused the request', 'name: too long'],
    },
    {
      kind: 'unreachable' as const,
      message: 'could not enroll: connect ECONNREFUSED 127.0.0.1:9',
      facts: { cause: 'refused' as const },
      says: ['The server could not be reached', 'Tried https://uptime.example.', 'Nothing answers at that address'],
    },
    {
      kind: 'usage' as const,
      message: 'city: Required',
      facts: { field: 'city' as const, problem: 'required' as const },
      says: ['Some fields need attention', 'The city is required', 'nothing was sent'],
    },
    {
      kind: 'local-state' as const,
      message: 'the data folder /x is not writable (EACCES); make it writable or choose another with --data-dir',
      facts: { cause: 'not-writable' as const },
      says: ['This computer cannot keep the monitor’s key', 'cannot be written', 'Nothing was sent'],
    },
  ])('says in words what $kind means, keeping what was typed', async ({ kind, message, facts, says }) => {
    setup({ 'agent:enroll': refused(kind, message, facts) });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    for (const text of says) expect(alert.textContent).toContain(text);
    // The log line never reaches the window.
    expect(alert.textContent).not.toContain(message);
    expect(screen.getByLabelText<HTMLInputElement>('Enrollment token').value).toBe('  uet_pasted-token  ');
  });

  it('409 on a reclaim: explains the reset on the Monitors page', async () => {
    const { bridge } = setup(
      { 'agent:reclaim': refused('still-enrolled', 'monitor x is still enrolled', { monitorId: 'abcdefghjkmn' }) },
      'abcdefghjkmn',
    );
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('That monitor is still enrolled');
    expect(alert.textContent).toContain('Monitor abcdefghjkmn is enrolled');
    expect(alert.textContent).toContain('Monitors page');
    expect(bridge.callsTo('agent:reclaim')[0]).toMatchObject({ monitorId: 'abcdefghjkmn' });
  });

  it('404 on a reclaim: offers to enroll as a new monitor, which drops the id', async () => {
    const { bridge } = setup(
      {
        'agent:reclaim': refused('no-such-monitor', 'no monitor with id 0000000000zz'),
        'agent:enroll': () => ok({ ok: true, monitorId: 'newmonitor12', server: 'https://uptime.example' }),
      },
      '0000000000zz',
    );
    expect(await screen.findByRole('heading', { name: 'Reclaim a monitor' })).toBeTruthy();
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No such monitor in this organisation');
    fireEvent.click(within(alert).getByRole('button', { name: 'Enroll as a new monitor' }));
    expect(await screen.findByRole('heading', { name: 'Enroll this agent' })).toBeTruthy();
    expect(bridge.callsTo('agent:enroll')).toHaveLength(1);
    expect(bridge.callsTo('agent:enroll')[0]).not.toHaveProperty('monitorId');
    expect(screen.getByLabelText<HTMLInputElement>('Reclaim monitor id').value).toBe('');
  });

  it('trims a pasted token as it is pasted', async () => {
    setup();
    const token = await screen.findByLabelText<HTMLInputElement>('Enrollment token');
    fireEvent.paste(token, { clipboardData: { getData: () => '\n  uet_abc  \n' } });
    expect(token.value).toBe('uet_abc');
  });

  it('a 404 on a plain enroll says the address is not the API base and marks the server field', async () => {
    setup({ 'agent:enroll': refused('no-such-monitor', "no monitor with id ? exists in this token's organisation") });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This address does not look like the uptime server’s API');
    expect(alert.textContent).toContain('Tried https://uptime.example,');
    expect(alert.textContent).not.toContain('no monitor with id');
    const server = screen.getByLabelText('Server URL');
    expect(server.getAttribute('aria-invalid')).toBe('true');
    expect(server.getAttribute('aria-describedby')).toBe('enroll-failure');
    // The focus moves in an effect after the message is on screen; on a loaded machine, later.
    await waitFor(() => expect(document.activeElement).toBe(server));
  });

  it('an https address of a plain-http server says so, without OpenSSL text', async () => {
    setup({
      'agent:enroll': refused(
        'unreachable',
        'could not enroll: could not reach https://uptime.example/api/enroll: the server speaks plain http, not https',
        { cause: 'plain-http' },
      ),
    });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This server speaks plain http');
    expect(alert.textContent).not.toMatch(/SSL routines|0A00010B/);
  });

  it('offers to allow plain http where the error about it appears, without naming a flag', async () => {
    const { bridge } = setup({
      'agent:enroll': refused(
        'usage',
        'plain http to uptime.example:8080 would send the API key in clear; use https://, or pass --allow-insecure-http if you accept that',
        { field: 'server', problem: 'plain-http' },
      ),
    });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This address uses plain http');
    expect(alert.textContent).not.toContain('--allow-insecure-http');
    fireEvent.click(within(alert).getByRole('button', { name: 'Allow plain http for this server' }));
    expect(screen.getByLabelText<HTMLInputElement>(/Allow a plain http/).checked).toBe(true);
    bridge.answer('agent:enroll', () =>
      ok({ ok: true, monitorId: 'abcdefghjkmn', server: 'http://uptime.example:8080' }),
    );
    fireEvent.submit(screen.getByRole('button', { name: 'Enroll' }).closest('form') as HTMLFormElement);
    await screen.findByRole('button', { name: 'Enroll' });
    expect(bridge.callsTo('agent:enroll').at(-1)).toMatchObject({ allowInsecureHttp: true });
  });

  it('a refused token marks the token field', async () => {
    setup({ 'agent:enroll': refused('token-rejected', 'the server refused the enrollment token', { status: 401 }) });
    await fillAndSubmit();
    await screen.findByRole('alert');
    expect(screen.getByLabelText('Enrollment token').getAttribute('aria-invalid')).toBe('true');
  });

  it('not saved: says the server enrolled the monitor and names the id to reclaim, not "refused"', async () => {
    setup({
      'agent:enroll': refused(
        'not-saved',
        "the server enrolled monitor q1w2e3r4t5y6, but its key could not be saved (the disk is full). Fix that, reset monitor q1w2e3r4t5y6's enrollment on the server's Monitors page, then reclaim monitor q1w2e3r4t5y6",
        { monitorId: 'q1w2e3r4t5y6', cause: 'disk-full' },
      ),
    });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Enrolled, but the key could not be saved');
    expect(alert.textContent).toContain('monitor q1w2e3r4t5y6');
    expect(alert.textContent).toContain('reclaim monitor q1w2e3r4t5y6');
    expect(alert.textContent).toContain('The disk holding the agent’s data is full');
    expect(alert.textContent).not.toContain('refused');
  });
});
