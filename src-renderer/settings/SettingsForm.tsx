// The shell's settings as a form: loaded from the agent, saved as one patch of what changed.
import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import {
  inputLimits,
  intervalDefaultsSec,
  type CommandLineSettings,
  type Settings,
  type SettingsPatch,
} from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';
import { NetworkFields, type NetworkDraft, type NetworkField } from './NetworkFields.tsx';
import { maskProxy, proxyProblem } from './proxy-text.ts';

type IntervalKey = keyof Settings['intervals'];
/**
 * Each loop's floor: below it the agent would only load the server (a sync every 0.05 s asks
 * for check changes twenty times a second) without telling anyone anything sooner.
 */
const intervalFields: { key: IntervalKey; label: string; fallback: number; min: number }[] = [
  { key: 'syncSec', label: 'Check sync', fallback: intervalDefaultsSec.syncSec, min: 10 },
  { key: 'uploadSec', label: 'Result upload', fallback: intervalDefaultsSec.uploadSec, min: 1 },
  { key: 'statusSec', label: 'Status report', fallback: intervalDefaultsSec.statusSec, min: 10 },
  { key: 'pingSec', label: 'Heartbeat', fallback: intervalDefaultsSec.pingSec, min: 5 },
];

type FieldName = IntervalKey | 'targets' | 'outboxResults' | 'outboxMegabytes' | NetworkField;

interface Draft {
  notifications: boolean;
  launchAtLogin: boolean;
  intervals: Record<IntervalKey, string>;
  targets: string;
  outboxResults: string;
  outboxMegabytes: string;
  network: NetworkDraft;
}

const draftOf = (s: Settings): Draft => ({
  notifications: s.notifications,
  launchAtLogin: s.launchAtLogin,
  intervals: {
    syncSec: s.intervals.syncSec?.toString() ?? '',
    uploadSec: s.intervals.uploadSec?.toString() ?? '',
    statusSec: s.intervals.statusSec?.toString() ?? '',
    pingSec: s.intervals.pingSec?.toString() ?? '',
  },
  targets: s.connectivityTargets.join('\n'),
  outboxResults: s.outboxLimits.maxResults?.toString() ?? '',
  outboxMegabytes: s.outboxLimits.maxMegabytes?.toString() ?? '',
  network: {
    proxyUrl: maskProxy(s.proxyUrl),
    proxyShown: maskProxy(s.proxyUrl),
    checksUseProxy: s.checksUseProxy,
    serverCaFile: s.serverCaFile ?? '',
    checksCaFile: s.checksCaFile ?? '',
    strict: s.egressPolicy === 'strict',
  },
});

export interface FieldError {
  field: FieldName;
  message: string;
}

/** A whole number in [min, max], undefined for an empty field, or the sentence saying why not. */
function wholeNumber(
  text: string,
  label: string,
  min: number,
  max: number,
): { value: number | undefined; message?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  const value = Number(trimmed);
  if (!Number.isInteger(value) || value < min || value > max) {
    return {
      value: undefined,
      message: `${label}: give a whole number between ${min.toLocaleString()} and ${max.toLocaleString()}, or leave it empty for the default.`,
    };
  }
  return { value };
}

/** The patch, or every field that is wrong, each in words: one save shows all of them. */
export function patchOf(draft: Draft): { ok: true; patch: SettingsPatch } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const intervals: Settings['intervals'] = {};
  for (const field of intervalFields) {
    const text = draft.intervals[field.key].trim();
    if (text === '') continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < field.min || value > inputLimits.intervalSec.max) {
      errors.push({
        field: field.key,
        message: `${field.label}: give a number of seconds between ${field.min} and ${inputLimits.intervalSec.max}, or leave it empty for the default (${field.fallback} s).`,
      });
    } else intervals[field.key] = value;
  }
  const targets = draft.targets
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const bad = targets.filter((t) => !/^[^\s:]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/i.test(t));
  if (bad.length > 0)
    errors.push({
      field: 'targets',
      message: `Connectivity targets: ${bad.map((b) => `"${b}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not host:port (for example 192.0.2.10:443).`,
    });
  else if (targets.length > inputLimits.connectivityTargets)
    errors.push({ field: 'targets', message: `Connectivity targets: at most ${inputLimits.connectivityTargets}.` });
  const results = wholeNumber(
    draft.outboxResults,
    'Unsent results kept',
    inputLimits.outboxResults.min,
    inputLimits.outboxResults.max,
  );
  if (results.message !== undefined) errors.push({ field: 'outboxResults', message: results.message });
  const megabytes = wholeNumber(
    draft.outboxMegabytes,
    'Unsent results size',
    inputLimits.outboxMegabytes.min,
    inputLimits.outboxMegabytes.max,
  );
  if (megabytes.message !== undefined) errors.push({ field: 'outboxMegabytes', message: megabytes.message });
  const { network } = draft;
  // An untouched field keeps the saved proxy (its password was never in the window to send back).
  const proxyEdited = network.proxyUrl.trim() !== network.proxyShown;
  const proxy = proxyEdited ? proxyProblem(network.proxyUrl) : undefined;
  if (proxy !== undefined) errors.push({ field: 'proxyUrl', message: proxy });
  for (const [field, label] of [
    ['serverCaFile', 'Extra CA bundle for the server'],
    ['checksCaFile', 'Extra CA bundle for checks'],
  ] as const) {
    if (/[\r\n\0]/.test(network[field])) errors.push({ field, message: `${label}: give the path of one PEM file.` });
  }
  if (errors.length > 0) return { ok: false, errors };
  const outboxLimits: Settings['outboxLimits'] = {
    ...(results.value === undefined ? {} : { maxResults: results.value }),
    ...(megabytes.value === undefined ? {} : { maxMegabytes: megabytes.value }),
  };
  const networkPatch: SettingsPatch = {
    ...(proxyEdited ? { proxyUrl: network.proxyUrl.trim() } : {}),
    checksUseProxy: network.checksUseProxy,
    serverCaFile: network.serverCaFile.trim(),
    checksCaFile: network.checksCaFile.trim(),
    egressPolicy: network.strict ? 'strict' : 'open',
  };
  return {
    ok: true,
    patch: {
      notifications: draft.notifications,
      launchAtLogin: draft.launchAtLogin,
      intervals,
      connectivityTargets: targets,
      outboxLimits,
      ...networkPatch,
    },
  };
}

/** Where an interval's value comes from: the command line wins over the settings file. */
export function intervalSource(
  key: IntervalKey,
  settings: Settings,
  commandLine: CommandLineSettings | undefined,
): string {
  const field = intervalFields.find((f) => f.key === key);
  const cli = commandLine?.intervals?.[key];
  if (cli !== undefined) return `${cli} s from the command line (it wins over this field)`;
  const saved = settings.intervals[key];
  if (saved !== undefined) return `${saved} s from the settings file`;
  return `${field?.fallback ?? ''} s, the default`;
}

export function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (next: Settings) => void }) {
  const { bridge, info } = useAgent();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [invalid, setInvalid] = useState<FieldError[]>([]);
  const form = useRef<HTMLFormElement>(null);
  const errorOf = (field: FieldName): FieldError | undefined => invalid.find((e) => e.field === field);
  const fieldProps = (field: FieldName) => ({
    id: `setting-${field}`,
    ...(errorOf(field) === undefined
      ? {}
      : { 'aria-invalid': true as const, 'aria-describedby': `setting-${field}-error` }),
  });
  const fieldError = (field: FieldName) => {
    const error = errorOf(field);
    return error === undefined ? null : (
      <span id={`setting-${field}-error`} className="field-error">
        {error.message}
      </span>
    );
  };
  const [saved, setSaved] = useState(false);
  // A refused save moves focus to its first invalid field in the commit that draws the errors.
  // A focus deferred to a later frame could land after the user had saved again, and focusing a
  // freshly masked proxy empties it.
  // Each refused save is a new object, so a second refusal of the same field focuses it again.
  const [focusRequest, setFocusRequest] = useState<{ field: FieldName } | undefined>();
  useEffect(() => {
    if (focusRequest !== undefined) form.current?.querySelector<HTMLElement>(`#setting-${focusRequest.field}`)?.focus();
  }, [focusRequest]);
  const save = useCommand(useCallback((patch: SettingsPatch) => bridge.invoke('settings:update', patch), [bridge]));
  const web = info?.host === 'web';

  const change = (next: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...next }));
    setSaved(false);
  };

  const submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const outcome = patchOf(draft);
    setInvalid(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) {
      const first = outcome.errors[0];
      if (first !== undefined) setFocusRequest({ field: first.field });
      return;
    }
    const next = await save.run(outcome.patch);
    if (next !== undefined) {
      // The saved proxy is shown masked again from here on.
      setDraft((d) => ({ ...d, network: draftOf(next).network }));
      setSaved(true);
      onSaved(next);
    }
  };

  return (
    <form
      ref={form}
      className="card settings-form"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="settings-title"
      noValidate
    >
      <h2 id="settings-title">Behaviour</h2>
      <fieldset>
        <legend>Desktop</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.notifications}
            disabled={web}
            onChange={(e) => change({ notifications: e.target.checked })}
          />
          <span>Notify me when a check goes down or recovers</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.launchAtLogin}
            disabled={web}
            onChange={(e) => change({ launchAtLogin: e.target.checked })}
          />
          <span>Start the agent when I log in</span>
        </label>
        <p className="hint">
          {web
            ? 'These apply to the desktop app; the web dashboard runs while the agent runs.'
            : 'These apply at once.'}
        </p>
      </fieldset>
      <fieldset>
        <legend>Intervals (seconds; empty = default)</legend>
        <div className="grid-4">
          {intervalFields.map((field) => (
            <div key={field.key}>
              <label className="field">
                <span>{field.label}</span>
                <input
                  type="number"
                  inputMode="decimal"
                  min={field.min}
                  step="any"
                  placeholder={`${field.fallback}`}
                  value={draft.intervals[field.key]}
                  onChange={(e) => change({ intervals: { ...draft.intervals, [field.key]: e.target.value } })}
                  {...fieldProps(field.key)}
                />
              </label>
              {fieldError(field.key)}
              <span className="field-source">Now: {intervalSource(field.key, settings, info?.commandLine)}</span>
            </div>
          ))}
        </div>
        <p className="hint">
          Applies when the agent next starts{web ? '' : ' (quit and reopen the app)'}. At least{' '}
          {intervalFields.map((f) => `${f.min} s for ${f.label.toLowerCase()}`).join(', ')}.
        </p>
      </fieldset>
      <fieldset>
        <legend>Connectivity targets</legend>
        <label className="field">
          <span>
            Extra host:port addresses to try before calling this machine offline, one per line (the server is always
            tried)
          </span>
          <textarea
            rows={3}
            value={draft.targets}
            spellCheck={false}
            placeholder="192.0.2.10:443"
            onChange={(e) => change({ targets: e.target.value })}
            {...fieldProps('targets')}
          />
        </label>
        {fieldError('targets')}
        <p className="hint">Applies when the agent next starts.</p>
      </fieldset>
      <fieldset>
        <legend>Unsent results buffer (empty = default)</legend>
        <div className="grid-4">
          <div>
            <label className="field">
              <span>Results kept at most</span>
              <input
                type="number"
                inputMode="numeric"
                min="1000"
                step="1"
                placeholder="500000"
                value={draft.outboxResults}
                onChange={(e) => change({ outboxResults: e.target.value })}
                {...fieldProps('outboxResults')}
              />
            </label>
            {fieldError('outboxResults')}
          </div>
          <div>
            <label className="field">
              <span>Size at most (MB)</span>
              <input
                type="number"
                inputMode="numeric"
                min="10"
                step="1"
                placeholder="256"
                value={draft.outboxMegabytes}
                onChange={(e) => change({ outboxMegabytes: e.target.value })}
                {...fieldProps('outboxMegabytes')}
              />
            </label>
            {fieldError('outboxMegabytes')}
          </div>
        </div>
        <p className="hint">
          While the server cannot be reached, results wait here. Past either bound the oldest are dropped and counted on
          the Unsent results page. Applies from the next start.
        </p>
      </fieldset>
      <NetworkFields
        draft={draft.network}
        change={(next) => change({ network: { ...draft.network, ...next } })}
        fieldProps={fieldProps}
        fieldError={fieldError}
        savedProxy={maskProxy(settings.proxyUrl)}
      />
      {invalid.length === 0 ? null : (
        <Notice
          tone="error"
          title={
            invalid.length === 1
              ? 'Not saved: one value needs attention'
              : `Not saved: ${invalid.length} values need attention`
          }
        >
          <ul className="error-list">
            {invalid.map((e) => (
              <li key={e.field}>{e.message}</li>
            ))}
          </ul>
        </Notice>
      )}
      {save.error === undefined ? null : (
        <Notice tone="error" title="Not saved">
          {sentence(save.error)} Correct it and save again.
        </Notice>
      )}
      {saved ? <Notice tone="success">Settings saved.</Notice> : null}
      <div className="button-row">
        <button type="submit" className="primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}
