// The shell's settings as a form: loaded from the agent, saved as one patch of what changed.
import { useCallback, useState, type SubmitEvent } from 'react';
import type { Settings, SettingsPatch } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';

type IntervalKey = keyof Settings['intervals'];
const intervalFields: { key: IntervalKey; label: string; fallback: number }[] = [
  { key: 'syncSec', label: 'Check sync', fallback: 60 },
  { key: 'uploadSec', label: 'Result upload', fallback: 10 },
  { key: 'statusSec', label: 'Status report', fallback: 60 },
  { key: 'pingSec', label: 'Heartbeat', fallback: 30 },
];

interface Draft {
  notifications: boolean;
  launchAtLogin: boolean;
  intervals: Record<IntervalKey, string>;
  targets: string;
  outboxResults: string;
  outboxMegabytes: string;
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
});

/** A whole number in [min, max], undefined for an empty field, or the sentence saying why not. */
function wholeNumber(text: string, label: string, min: number, max: number): { ok: true; value: number | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const value = Number(trimmed);
  if (!Number.isInteger(value) || value < min || value > max) {
    return { ok: false, message: `${label}: give a whole number between ${min.toLocaleString()} and ${max.toLocaleString()}, or leave it empty for the default.` };
  }
  return { ok: true, value };
}

/** The patch, or the first field that is wrong, in words. */
function patchOf(draft: Draft): { ok: true; patch: SettingsPatch } | { ok: false; message: string } {
  const intervals: Settings['intervals'] = {};
  for (const field of intervalFields) {
    const text = draft.intervals[field.key].trim();
    if (text === '') continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0.05 || value > 86_400) return { ok: false, message: `${field.label}: give a number of seconds between 0.05 and 86400, or leave it empty for the default.` };
    intervals[field.key] = value;
  }
  const targets = draft.targets.split('\n').map((t) => t.trim()).filter((t) => t !== '');
  const bad = targets.find((t) => !/^[^\s:]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/i.test(t));
  if (bad !== undefined) return { ok: false, message: `Connectivity target "${bad}" is not host:port (for example 192.0.2.10:443).` };
  if (targets.length > 20) return { ok: false, message: 'At most 20 connectivity targets.' };
  const results = wholeNumber(draft.outboxResults, 'Unsent results kept', 1_000, 10_000_000);
  if (!results.ok) return results;
  const megabytes = wholeNumber(draft.outboxMegabytes, 'Unsent results size', 10, 10_240);
  if (!megabytes.ok) return megabytes;
  const outboxLimits: Settings['outboxLimits'] = {
    ...(results.value === undefined ? {} : { maxResults: results.value }),
    ...(megabytes.value === undefined ? {} : { maxMegabytes: megabytes.value }),
  };
  return { ok: true, patch: { notifications: draft.notifications, launchAtLogin: draft.launchAtLogin, intervals, connectivityTargets: targets, outboxLimits } };
}

export function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (next: Settings) => void }) {
  const { bridge, info } = useAgent();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [invalid, setInvalid] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const save = useCommand(useCallback((patch: SettingsPatch) => bridge.invoke('settings:update', patch), [bridge]));
  const web = info?.host === 'web';

  const change = (next: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...next }));
    setSaved(false);
  };

  const submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const outcome = patchOf(draft);
    setInvalid(outcome.ok ? undefined : outcome.message);
    if (!outcome.ok) return;
    const next = await save.run(outcome.patch);
    if (next !== undefined) {
      setSaved(true);
      onSaved(next);
    }
  };

  return (
    <form className="card settings-form" onSubmit={(e) => void submit(e)} aria-labelledby="settings-title" noValidate>
      <h2 id="settings-title">Behaviour</h2>
      <fieldset>
        <legend>Desktop</legend>
        <label className="check">
          <input type="checkbox" checked={draft.notifications} disabled={web} onChange={(e) => change({ notifications: e.target.checked })} />
          <span>Notify me when a check goes down or recovers</span>
        </label>
        <label className="check">
          <input type="checkbox" checked={draft.launchAtLogin} disabled={web} onChange={(e) => change({ launchAtLogin: e.target.checked })} />
          <span>Start the agent when I log in</span>
        </label>
        {web ? <p className="hint">These apply to the desktop app; the web dashboard runs while <code>uptime-agent run</code> runs.</p> : null}
      </fieldset>
      <fieldset>
        <legend>Intervals (seconds; empty = default)</legend>
        <div className="grid-4">
          {intervalFields.map((field) => (
            <label key={field.key} className="field">
              <span>{field.label}</span>
              <input
                type="number"
                inputMode="decimal"
                min="0.05"
                step="any"
                placeholder={`${field.fallback}`}
                value={draft.intervals[field.key]}
                onChange={(e) => change({ intervals: { ...draft.intervals, [field.key]: e.target.value } })}
              />
            </label>
          ))}
        </div>
        {web ? <p className="hint">Interval and connectivity changes apply the next time <code>uptime-agent run</code> starts.</p> : null}
      </fieldset>
      <fieldset>
        <legend>Connectivity targets</legend>
        <label className="field">
          <span>Extra host:port addresses to try before calling this machine offline, one per line (the server is always tried)</span>
          <textarea rows={3} value={draft.targets} spellCheck={false} placeholder="192.0.2.10:443" onChange={(e) => change({ targets: e.target.value })} />
        </label>
      </fieldset>
      <fieldset>
        <legend>Unsent results buffer (empty = default)</legend>
        <div className="grid-4">
          <label className="field">
            <span>Results kept at most</span>
            <input type="number" inputMode="numeric" min="1000" step="1" placeholder="500000" value={draft.outboxResults} onChange={(e) => change({ outboxResults: e.target.value })} />
          </label>
          <label className="field">
            <span>Size at most (MB)</span>
            <input type="number" inputMode="numeric" min="10" step="1" placeholder="256" value={draft.outboxMegabytes} onChange={(e) => change({ outboxMegabytes: e.target.value })} />
          </label>
        </div>
        <p className="hint">While the server cannot be reached, results wait here. Past either bound the oldest are dropped and counted on the Unsent results page. Applies from the next start.</p>
      </fieldset>
      {invalid === undefined ? null : <Notice tone="error" title="Not saved">{invalid}</Notice>}
      {save.error === undefined ? null : <Notice tone="error" title="Not saved">{sentence(save.error)} Correct it and save again.</Notice>}
      {saved ? <Notice tone="success">Settings saved.</Notice> : null}
      <div className="button-row">
        <button type="submit" className="primary" disabled={save.pending}>{save.pending ? 'Saving…' : 'Save settings'}</button>
      </div>
    </form>
  );
}
