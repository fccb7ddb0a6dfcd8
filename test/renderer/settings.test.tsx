// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { intervalDefaultsSec, type IpcResult, type Settings, type SettingsPatch } from '../../src-main/ipc/contract.ts';
import { SettingsView } from '../../src-renderer/views/SettingsView.tsx';
import { createFakeBridge, deferred, fail, ok } from './fake-bridge.ts';
import { appInfoOf, notEnrolled, settingsOf, snapshotOf } from './fixtures.ts';
import { renderView } from './render.tsx';

afterEach(cleanup);

describe('Settings', () => {
  it('loads the settings, showing progress first', async () => {
    const loaded = deferred<IpcResult<Settings>>();
    renderView(<SettingsView />, createFakeBridge({ 'settings:get': () => loaded.promise }));
    expect(await screen.findByText('Loading settings…')).toBeTruthy();
    await act(async () => {
      loaded.resolve(ok(settingsOf({ connectivityTargets: ['192.0.2.10:443'] })));
      await loaded.promise;
    });
    expect(screen.getByLabelText<HTMLTextAreaElement>(/Extra host:port addresses/).value).toBe('192.0.2.10:443');
  });

  it('explains a failed load and retries', async () => {
    const bridge = createFakeBridge({
      'settings:get': () => fail('failed'),
    });
    renderView(<SettingsView />, bridge);
    expect((await screen.findByRole('alert')).textContent).toContain('This could not be done');
    bridge.answer('settings:get', () => ok(settingsOf()));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Save settings' })).toBeTruthy();
  });

  it('saves only valid values, as one patch', async () => {
    const bridge = createFakeBridge({ 'settings:update': (patch) => ok(settingsOf(patch as Partial<Settings>)) });
    renderView(<SettingsView />, bridge);
    const sync = await screen.findByLabelText('Check sync');
    fireEvent.change(sync, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getAllByText(/Check sync: give a number of seconds/).length).toBeGreaterThan(0);
    expect(bridge.callsTo('settings:update')).toHaveLength(0);

    fireEvent.change(sync, { target: { value: '30' } });
    const kept = screen.getByLabelText('Results kept at most');
    fireEvent.change(kept, { target: { value: '12.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getAllByText(/Unsent results kept: give a whole number/).length).toBeGreaterThan(0);
    expect(bridge.callsTo('settings:update')).toHaveLength(0);

    fireEvent.change(kept, { target: { value: '100000' } });
    fireEvent.change(screen.getByLabelText(/Extra host:port addresses/), {
      target: { value: 'router.lan:80\n\n 192.0.2.1:443 ' },
    });
    fireEvent.click(screen.getByLabelText('Start the agent when I log in'));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(bridge.callsTo('settings:update')).toEqual([
      {
        notifications: true,
        launchAtLogin: true,
        intervals: { syncSec: 30 },
        connectivityTargets: ['router.lan:80', '192.0.2.1:443'],
        outboxLimits: { maxResults: 100000 },
        checksUseProxy: false,
        serverCaFile: '',
        checksCaFile: '',
        egressPolicy: 'open',
      },
    ]);
  });

  it('works with the proxy password masked by the agent (it never crosses the bridge)', async () => {
    // What settings:get and settings:update now answer: the password is already masked.
    const masked = settingsOf({ proxyUrl: 'http://alice:•••@proxy.office:3128', checksUseProxy: true });
    const bridge = createFakeBridge({
      'settings:get': () => ok(masked),
      'settings:update': (patch) => ok({ ...masked, ...(patch as Partial<Settings>) }),
    });
    renderView(<SettingsView />, bridge);
    const proxy = await screen.findByLabelText<HTMLInputElement>(/Proxy for the agent’s traffic/);
    expect(proxy.value).toBe('http://alice:•••@proxy.office:3128');
    fireEvent.click(screen.getByLabelText(/Checks use the proxy too/));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    const [patch] = bridge.callsTo('settings:update') as SettingsPatch[];
    expect(patch).not.toHaveProperty('proxyUrl');
    expect(patch).toMatchObject({ checksUseProxy: false });
    expect(proxy.value).toBe('http://alice:•••@proxy.office:3128');
  });

  it('shows the office network settings with a saved proxy password masked, and keeps it unless edited', async () => {
    const saved = settingsOf({
      proxyUrl: 'http://alice:s3cret-pw@proxy.office:3128',
      checksUseProxy: true,
      serverCaFile: '/etc/ssl/office-ca.pem',
      checksCaFile: '/etc/ssl/checks-ca.pem',
      egressPolicy: 'strict',
    });
    const bridge = createFakeBridge({
      'settings:get': () => ok(saved),
      'settings:update': (patch) => ok({ ...saved, ...(patch as Partial<Settings>) }),
    });
    const { container } = renderView(<SettingsView />, bridge);
    const proxy = await screen.findByLabelText<HTMLInputElement>(/Proxy for the agent’s traffic/);
    expect(proxy.value).toBe('http://alice:•••@proxy.office:3128');
    expect(container.innerHTML).not.toContain('s3cret-pw');
    expect(screen.getByLabelText<HTMLInputElement>(/Checks use the proxy too/).checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Extra CA bundle for the server (PEM file)').value).toBe(
      '/etc/ssl/office-ca.pem',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Extra CA bundle for checks (PEM file)').value).toBe(
      '/etc/ssl/checks-ca.pem',
    );
    const fleet = screen.getByLabelText<HTMLInputElement>(/This monitor joins a shared fleet/);
    expect(fleet.checked).toBe(true);

    fireEvent.click(fleet);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    const [patch] = bridge.callsTo('settings:update') as SettingsPatch[];
    expect(patch).not.toHaveProperty('proxyUrl');
    expect(patch).toMatchObject({
      checksUseProxy: true,
      serverCaFile: '/etc/ssl/office-ca.pem',
      checksCaFile: '/etc/ssl/checks-ca.pem',
      egressPolicy: 'open',
    });
    expect(container.innerHTML).not.toContain('s3cret-pw');
  });

  it('refuses a proxy URL it cannot use at the field, and sends an edited one', async () => {
    const bridge = createFakeBridge({ 'settings:update': (patch) => ok(settingsOf(patch as Partial<Settings>)) });
    renderView(<SettingsView />, bridge);
    const proxy = await screen.findByLabelText<HTMLInputElement>(/Proxy for the agent’s traffic/);
    fireEvent.change(proxy, { target: { value: 'socks5://proxy.office:1080' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(proxy.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(proxy.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /socks5:\/\/ proxies are not supported/,
    );
    // Focus moves to the refused field as the error is drawn, not in some later frame: a late
    // focus used to land after the next, successful save and empty the newly masked field.
    expect(document.activeElement).toBe(proxy);
    expect(bridge.callsTo('settings:update')).toHaveLength(0);

    fireEvent.change(proxy, { target: { value: ' http://bob:pw-typed@proxy.office:3128 ' } });
    fireEvent.click(screen.getByLabelText(/Checks use the proxy too/));
    fireEvent.change(screen.getByLabelText('Extra CA bundle for checks (PEM file)'), {
      target: { value: '/srv/ca.pem' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(bridge.callsTo('settings:update')[0]).toMatchObject({
      proxyUrl: 'http://bob:pw-typed@proxy.office:3128',
      checksUseProxy: true,
      checksCaFile: '/srv/ca.pem',
      egressPolicy: 'open',
    });
    // Once saved, the field shows the password masked like any saved proxy.
    expect(proxy.value).toBe('http://bob:•••@proxy.office:3128');
  });

  it('shows the egress policy on the monitor card', async () => {
    renderView(
      <SettingsView />,
      createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf({ egressPolicy: 'strict' })) }),
    );
    // The card is on screen before the snapshot that holds the policy (the window never shows it
    // without one; this test renders the view alone).
    await waitFor(() =>
      expect(screen.getByText('Checks may reach').nextElementSibling?.textContent).toMatch(
        /public addresses only: this monitor joins a shared fleet/,
      ),
    );
  });

  it('on the web: warns about the key storage, and greys out desktop-only settings', async () => {
    renderView(
      <SettingsView />,
      createFakeBridge({
        'app:info': () =>
          ok(appInfoOf({ host: 'web', keyStorageWarning: 'Anyone who can use your account can read it.' })),
      }),
    );
    expect(
      (await screen.findByText('The API key is not encrypted by the operating system')).closest('[role="status"]')
        ?.textContent,
    ).toContain('Anyone who can use');
    expect((await screen.findByLabelText<HTMLInputElement>('Start the agent when I log in')).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Open logs folder' })).toBeNull();
  });

  it('forgets the monitor only after a confirmation', async () => {
    const bridge = createFakeBridge({
      'agent:forget': () => ok({ ...notEnrolled(), takenAt: '2026-11-21T10:00:09.000Z' }),
    });
    renderView(<SettingsView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Forget this monitor…' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Forget monitor abcdefghjkmn?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsTo('agent:forget')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Forget this monitor…' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Forget it' }));
    expect(await screen.findByText('not enrolled')).toBeTruthy();
    expect(bridge.callsTo('agent:forget')).toHaveLength(1);
  });

  it('offers re-enrollment and a reclaim of the current id, and opens the logs folder', async () => {
    const bridge = createFakeBridge({ 'agent:snapshot': () => ok(snapshotOf()), 'app:open-logs': () => ok(null) });
    const { navigate } = renderView(<SettingsView />, bridge);
    // As a user would: once the card shows the current monitor id.
    await screen.findByText('abcdefghjkmn');
    fireEvent.click(screen.getByRole('button', { name: 'Reclaim a monitor…' }));
    expect(navigate).toHaveBeenCalledWith({ view: 'enroll', reclaimId: 'abcdefghjkmn' });
    fireEvent.click(await screen.findByRole('button', { name: 'Open logs folder' }));
    expect(bridge.callsTo('app:open-logs')).toHaveLength(1);
  });

  it('shows every invalid value at once, each at its field, with minimums that make sense', async () => {
    const bridge = createFakeBridge();
    renderView(<SettingsView />, bridge);
    const sync = await screen.findByLabelText('Check sync');
    fireEvent.change(sync, { target: { value: '0.05' } });
    fireEvent.change(screen.getByLabelText('Heartbeat'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText(/Extra host:port addresses/), {
      target: { value: 'router\n192.0.2.1:443' },
    });
    fireEvent.change(screen.getByLabelText('Size at most (MB)'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Not saved: 4 values need attention')).toBeTruthy();
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Check sync: give a number of seconds between 10 and 86400, or leave it empty for the default (60 s).',
      'Heartbeat: give a number of seconds between 5 and 86400, or leave it empty for the default (30 s).',
      'Connectivity targets: "router" is not host:port (for example 192.0.2.10:443).',
      'Unsent results size: give a whole number between 10 and 10,240, or leave it empty for the default.',
    ]);
    expect(sync.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(sync.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      'between 10 and 86400',
    );
    expect(screen.getByLabelText('Result upload').getAttribute('aria-invalid')).toBeNull();
    expect(bridge.callsTo('settings:update')).toHaveLength(0);
  });

  it('says where each interval in effect comes from: command line, settings file or default', async () => {
    renderView(
      <SettingsView />,
      createFakeBridge({
        'settings:get': () => ok(settingsOf({ intervals: { syncSec: 30, pingSec: 15 } })),
        'app:info': () => ok(appInfoOf({ host: 'web', commandLine: { intervals: { pingSec: 0.5 } } })),
      }),
    );
    expect(await screen.findByText('Now: 30 s from the settings file')).toBeTruthy();
    expect(screen.getByText('Now: 0.5 s from the command line (it wins over this field)')).toBeTruthy();
    expect(screen.getByText(`Now: ${intervalDefaultsSec.uploadSec} s, the default`)).toBeTruthy();
  });
});
