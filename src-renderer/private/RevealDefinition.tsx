// A private check's local definition stays masked; Reveal asks the agent for it on demand and
// it hides again by itself after a minute, so a secret is not left on screen.
import { useCallback, useEffect, useState } from 'react';
import { Notice } from '../components/Notice.tsx';
import { sentence } from '../format.ts';
import { useAgent } from '../state/agent-context.tsx';
import { useCommand } from '../state/use-command.ts';

const hideAfterMs = 60_000;

type Definition = Record<string, unknown>;

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function RevealDefinition({ guid, name }: { guid: string; name: string }) {
  const { bridge } = useAgent();
  const [definition, setDefinition] = useState<Definition | null | undefined>();
  const reveal = useCommand(useCallback(() => bridge.invoke('private:reveal', { guid }), [bridge, guid]));

  useEffect(() => {
    if (definition === undefined) return;
    const timer = setTimeout(() => setDefinition(undefined), hideAfterMs);
    return () => clearTimeout(timer);
  }, [definition]);

  const open = async (): Promise<void> => {
    const value = await reveal.run();
    if (value !== undefined) setDefinition(value);
  };

  if (definition === undefined) {
    return (
      <div className="reveal">
        <span className="masked" aria-hidden="true">
          ••••••••
        </span>
        <span className="visually-hidden">Definition hidden.</span>
        <button
          type="button"
          className="small"
          onClick={() => void open()}
          disabled={reveal.pending}
          aria-label={`Reveal the definition of ${name}`}
        >
          {reveal.pending ? 'Revealing…' : 'Reveal'}
        </button>
        {reveal.error === undefined ? null : <Notice tone="error">{sentence(reveal.error)}</Notice>}
      </div>
    );
  }
  return (
    <div className="reveal revealed">
      {definition === null ? (
        <p className="muted">The file no longer has an entry for this check.</p>
      ) : (
        <dl className="facts definition" aria-label={`Definition of ${name}`}>
          {Object.entries(definition)
            .filter(([, v]) => v !== undefined && v !== null && v !== '')
            .map(([field, value]) => (
              <div key={field} className="fact-pair">
                <dt>{field}</dt>
                <dd className="wrap">
                  <code>{shown(value)}</code>
                </dd>
              </div>
            ))}
        </dl>
      )}
      <div className="reveal-foot">
        <button
          type="button"
          className="small"
          onClick={() => setDefinition(undefined)}
          aria-label={`Hide the definition of ${name}`}
        >
          Hide
        </button>
        <span className="hint">Hidden again by itself after a minute.</span>
      </div>
    </div>
  );
}
