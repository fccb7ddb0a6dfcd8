// Which private definitions file the agent uses. The desktop app opens a file dialog; the web
// dashboard cannot, so there the path is typed in.
import { useCallback, useState, type SubmitEvent } from 'react';
import type { AgentSnapshot } from '../../src-main/ipc/contract.ts';
import { Notice } from '../components/Notice.tsx';
import { dateTime, sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';

export function FileChooser() {
  const { bridge, snapshot, info, acceptSnapshot } = useAgent();
  const file = snapshot?.privateDefinitions.file;
  const [path, setPath] = useState(file ?? '');
  const choose = useCommand(
    useCallback(
      (typed?: string) => bridge.invoke('private:choose-file', typed === undefined ? {} : { file: typed }),
      [bridge],
    ),
  );
  const reload = useCommand(useCallback(() => bridge.invoke('private:reload', {}), [bridge]));
  const clear = useCommand(useCallback(() => bridge.invoke('private:clear-file', {}), [bridge]));
  const web = info?.host === 'web';
  // Stopping takes every private check off at once: it asks first.
  const [confirming, setConfirming] = useState(false);
  const took = (next: AgentSnapshot | undefined): void => {
    if (next !== undefined) acceptSnapshot(next);
  };

  const submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    if (path.trim() === '') return;
    took(await choose.run(path.trim()));
  };
  const error = choose.error ?? reload.error ?? clear.error;

  return (
    <section className="card" aria-labelledby="file-title">
      <h2 id="file-title">Definitions file</h2>
      <p>
        {file === undefined ? (
          'No file is in use, so private checks are not run.'
        ) : (
          <>
            In use: <code className="wrap">{file}</code>
          </>
        )}
        {snapshot?.privateDefinitions.loadedAt === undefined ? null : (
          <span className="muted">
            {' '}
            — read {dateTime(snapshot.privateDefinitions.loadedAt)}; changes are picked up by themselves.
          </span>
        )}
      </p>
      {snapshot?.privateDefinitions.fileError === undefined ? null : (
        <Notice tone="error" title="The file cannot be used as it is">
          {sentence(snapshot.privateDefinitions.fileError)}
        </Notice>
      )}
      {web ? (
        <form className="row-form" onSubmit={(e) => void submit(e)}>
          <label className="field grow">
            <span>Path of the definitions file on the agent’s machine</span>
            <input
              type="text"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/home/me/private-checks.json"
              spellCheck={false}
              autoComplete="off"
            />
          </label>
          <button type="submit" className="primary" disabled={choose.pending || path.trim() === ''}>
            {choose.pending ? 'Loading…' : 'Use this file'}
          </button>
        </form>
      ) : null}
      <div className="button-row">
        {web ? null : (
          <button
            type="button"
            className="primary"
            onClick={() => void choose.run().then(took)}
            disabled={choose.pending}
          >
            {file === undefined ? 'Choose a file…' : 'Choose another file…'}
          </button>
        )}
        <button
          type="button"
          onClick={() => void reload.run().then(took)}
          disabled={reload.pending || file === undefined}
        >
          {reload.pending ? 'Reloading…' : 'Reload'}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => setConfirming(true)}
          disabled={clear.pending || file === undefined || confirming}
        >
          Stop using this file…
        </button>
      </div>
      {confirming && file !== undefined ? (
        <Notice
          tone="warning"
          title="Stop using this file?"
          actions={
            <>
              <button
                type="button"
                className="danger"
                disabled={clear.pending}
                onClick={() =>
                  void clear.run().then((next) => {
                    setConfirming(false);
                    took(next);
                  })
                }
              >
                {clear.pending ? 'Stopping…' : 'Stop using it'}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep using it
              </button>
            </>
          }
        >
          Every private check stops running until you choose a file again. The file itself is not changed.
        </Notice>
      ) : null}
      {error === undefined ? null : (
        <Notice tone="error" title="The file could not be changed">
          {sentence(error)}
        </Notice>
      )}
    </section>
  );
}
