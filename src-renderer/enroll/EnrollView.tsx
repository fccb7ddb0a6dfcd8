// Enrollment (and reclaim): the token is pasted, trimmed, masked unless shown, held only in this
// form's memory and never stored. A failed attempt keeps everything typed, so one fix and one
// click retries it.
import { useCallback, useEffect, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import type { EnrollResult, InvokeArgs } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';
import { useNavigation } from '../state/navigation.tsx';
import type { EnrollFailure } from '../../src-main/ipc/contract.ts';
import { enrollFailureWords, type EnrollField, type FailureText } from '../words/failure-words.ts';
import { TokenField } from './TokenField.tsx';

interface Form {
  server: string;
  token: string;
  name: string;
  region: string;
  country: string;
  city: string;
  reclaimId: string;
  allowInsecureHttp: boolean;
  /** Empty: the saved proxy (Settings) or the environment's is used. */
  proxyUrl: string;
  serverCaFile: string;
  /** The "joins a shared fleet" choice: egress policy strict. */
  sharedFleet: boolean;
}

type Place = 'name' | 'region' | 'country' | 'city';
const placeFields: { key: Place; label: string; placeholder: string }[] = [
  { key: 'name', label: 'Monitor name', placeholder: 'e.g. office-pc' },
  { key: 'region', label: 'Region', placeholder: 'e.g. eu-west' },
  { key: 'country', label: 'Country', placeholder: 'e.g. DE' },
  { key: 'city', label: 'City', placeholder: 'e.g. Berlin' },
];

/** What the form needs to attach a failure to one field. */
interface FieldError {
  field: EnrollField | undefined;
  props: (field: EnrollField) => { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };
  notice: (field: EnrollField | undefined) => ReactNode;
}

export function EnrollView({ reclaimId }: { reclaimId?: string | undefined }) {
  const { bridge, snapshot, info } = useAgent();
  const { navigate, setFlash } = useNavigation();
  const identity = snapshot?.identity;
  const [form, setForm] = useState<Form>({
    server: identity?.server ?? '',
    token: '',
    name: identity?.name ?? '',
    region: identity?.region ?? '',
    country: identity?.country ?? '',
    city: identity?.city ?? '',
    reclaimId: reclaimId ?? '',
    allowInsecureHttp: false,
    proxyUrl: '',
    serverCaFile: '',
    sharedFleet: snapshot?.egressPolicy === 'strict',
  });
  const [failure, setFailure] = useState<{ failure: EnrollFailure; server: string; reclaimId: string } | undefined>();
  const [advancedOpen, setAdvancedOpen] = useState(reclaimId !== undefined);
  const enroll = useCommand(
    useCallback(
      (args: InvokeArgs<'agent:enroll'>, monitorId: string) =>
        monitorId === '' ? bridge.invoke('agent:enroll', args) : bridge.invoke('agent:reclaim', { ...args, monitorId }),
      [bridge],
    ),
  );

  // Settings remember what was typed last time (never the token): fill the fields still empty.
  useEffect(() => {
    let live = true;
    void bridge.invoke('settings:get', {}).then((result) => {
      if (!live || !result.ok) return;
      const s = result.value;
      setForm((f) => ({
        ...f,
        server: f.server || s.serverUrl,
        name: f.name || s.monitorName || (info?.hostName ?? ''),
        region: f.region || s.region,
        country: f.country || s.country,
        city: f.city || s.city,
        serverCaFile: f.serverCaFile || (s.serverCaFile ?? ''),
        sharedFleet: f.sharedFleet || s.egressPolicy === 'strict',
      }));
    });
    return () => {
      live = false;
    };
  }, [bridge, info]);

  const set = (patch: Partial<Form>): void => setForm((f) => ({ ...f, ...patch }));

  const send = async (monitorId: string): Promise<void> => {
    setFailure(undefined);
    const args = {
      server: form.server.trim(),
      token: form.token.trim(),
      name: form.name.trim(),
      region: form.region.trim(),
      country: form.country.trim(),
      city: form.city.trim(),
      ...(form.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
      // Empty network fields keep what Settings already hold; the fleet choice is sent when it says something new.
      ...(form.proxyUrl.trim() === '' ? {} : { proxyUrl: form.proxyUrl.trim() }),
      ...(form.serverCaFile.trim() === '' ? {} : { serverCaFile: form.serverCaFile.trim() }),
      ...(form.sharedFleet
        ? { egressPolicy: 'strict' as const }
        : snapshot?.egressPolicy === 'strict'
          ? { egressPolicy: 'open' as const }
          : {}),
    };
    const result: EnrollResult | undefined = await enroll.run(args, monitorId.trim());
    if (result === undefined) return;
    if (!result.ok) {
      setFailure({ failure: result, server: args.server, reclaimId: monitorId.trim() });
      return;
    }
    setForm((f) => ({ ...f, token: '', proxyUrl: '' }));
    setFlash(`Enrolled as monitor ${result.monitorId} on ${result.server}. Its checks arrive within seconds.`);
    navigate({ view: 'overview' });
  };

  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    void send(form.reclaimId);
  };

  const enrollAsNew = (): void => {
    set({ reclaimId: '' });
    void send('');
  };

  const text: FailureText | undefined =
    failure === undefined ? undefined : enrollFailureWords(failure.failure, failure.server, failure.reclaimId);
  const reclaiming = form.reclaimId.trim() !== '';
  const form_ = useRef<HTMLFormElement>(null);

  // The focus goes to the field the failure is about (or the message, when none is).
  useEffect(() => {
    if (text === undefined) return;
    if (text.field === 'reclaimId') setAdvancedOpen(true);
    const target = form_.current?.querySelector<HTMLElement>(
      text.field === undefined ? '#enroll-failure' : `#enroll-${text.field}`,
    );
    target?.focus();
  }, [failure]);

  const allowInsecureAndRetry = (): void => {
    setForm((f) => ({ ...f, allowInsecureHttp: true }));
    setAdvancedOpen(true);
  };

  const failureNotice = (shownAt: EnrollField | undefined): ReactNode =>
    text === undefined || text.field !== shownAt ? null : (
      <div id="enroll-failure" tabIndex={-1}>
        <Notice
          tone="error"
          title={text.title}
          actions={
            text.offerNewMonitor ? (
              <button type="button" onClick={enrollAsNew} disabled={enroll.pending}>
                Enroll as a new monitor
              </button>
            ) : text.offerInsecureHttp && !form.allowInsecureHttp ? (
              <button type="button" onClick={allowInsecureAndRetry}>
                Allow plain http for this server
              </button>
            ) : undefined
          }
        >
          <p>{text.detail}</p>
          <p>{text.advice}</p>
        </Notice>
      </div>
    );
  const errors: FieldError = {
    field: text?.field,
    props: (field) => ({
      id: `enroll-${field}`,
      ...(text?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': 'enroll-failure' } : {}),
    }),
    notice: failureNotice,
  };

  return (
    <ViewFrame
      title={reclaiming ? 'Reclaim a monitor' : 'Enroll this agent'}
      intro="Paste the enrollment token from your uptime server’s “Add a monitor” page. The token is used once and never stored; the agent keeps only the API key the server returns."
    >
      <form ref={form_} className="card enroll-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>Server URL</span>
          <input
            type="url"
            required
            value={form.server}
            placeholder="https://uptime.example.com"
            autoComplete="url"
            spellCheck={false}
            onChange={(e) => set({ server: e.target.value })}
            {...errors.props('server')}
          />
        </label>
        {errors.notice('server')}
        {text?.offerInsecureHttp === true && form.allowInsecureHttp ? (
          <p className="hint" role="status">
            Plain http is allowed for this server: press Enroll again.
          </p>
        ) : null}
        <TokenField value={form.token} onChange={(token) => set({ token })} inputProps={errors.props('token')} />
        {errors.notice('token')}
        <div className="grid-2">
          {placeFields.map((field) => (
            <div key={field.key}>
              <label className="field">
                <span>{field.label}</span>
                <input
                  type="text"
                  required
                  value={form[field.key]}
                  placeholder={field.placeholder}
                  onChange={(e) => set({ [field.key]: e.target.value })}
                  {...errors.props(field.key)}
                />
              </label>
              {errors.notice(field.key)}
            </div>
          ))}
        </div>
        <details open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
          <summary>Advanced: reclaim a monitor id, office network</summary>
          <p className="hint">
            To take over a monitor that was enrolled before (its history and check assignments stay), give its id. Its
            enrollment must first be reset on the server’s Monitors page. Leave empty to enroll as a new monitor.
          </p>
          <label className="field">
            <span>Reclaim monitor id</span>
            <input
              type="text"
              value={form.reclaimId}
              placeholder="12 characters, e.g. 0h3k5m7p9r1t"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set({ reclaimId: e.target.value })}
              {...errors.props('reclaimId')}
            />
          </label>
          {errors.notice('reclaimId')}
          <label className="check">
            <input
              type="checkbox"
              checked={form.allowInsecureHttp}
              onChange={(e) => set({ allowInsecureHttp: e.target.checked })}
            />
            <span>
              Allow a plain http:// server that is not on this machine (the API key would cross the network unencrypted)
            </span>
          </label>
          <label className="field">
            <span>Proxy (empty = the one in Settings, or the HTTPS_PROXY environment)</span>
            <input
              type="password"
              id="enroll-proxyUrl"
              value={form.proxyUrl}
              placeholder="http://user:password@proxy.example:3128"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set({ proxyUrl: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Extra CA bundle for the server (PEM file)</span>
            <input
              type="text"
              id="enroll-serverCaFile"
              value={form.serverCaFile}
              placeholder="/etc/ssl/office-ca.pem"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set({ serverCaFile: e.target.value })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={form.sharedFleet}
              onChange={(e) => set({ sharedFleet: e.target.checked })}
            />
            <span>
              This monitor joins a shared fleet: don’t let checks reach this network (private, loopback and link-local
              addresses)
            </span>
          </label>
          <p className="hint">These are saved to Settings › Office network and used for this enrollment.</p>
        </details>

        {errors.notice(undefined)}
        {enroll.error === undefined ? null : (
          <Notice tone="error" title="Enrollment did not run">
            {sentence(enroll.error)}
          </Notice>
        )}

        <div className="button-row">
          <button type="submit" className="primary" disabled={enroll.pending}>
            {enroll.pending ? 'Enrolling…' : reclaiming ? 'Reclaim monitor' : 'Enroll'}
          </button>
          {snapshot?.enrolled === true ? (
            <button type="button" onClick={() => navigate({ view: 'settings' })} disabled={enroll.pending}>
              Cancel
            </button>
          ) : null}
          {enroll.pending ? <Spinner label="Waiting for the server…" /> : null}
        </div>
      </form>
    </ViewFrame>
  );
}
