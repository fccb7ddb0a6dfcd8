// The "Office network" group of the settings form: proxy, extra CA bundles, egress policy.
import type { ReactNode } from 'react';

export interface NetworkDraft {
  /** As shown: a saved proxy's password is masked; it is only sent when edited. */
  proxyUrl: string;
  /** The masked saved value the field started with: unchanged means "keep what is saved". */
  proxyShown: string;
  checksUseProxy: boolean;
  serverCaFile: string;
  checksCaFile: string;
  strict: boolean;
}

export type NetworkField = 'proxyUrl' | 'serverCaFile' | 'checksCaFile';

interface Props {
  draft: NetworkDraft;
  change: (next: Partial<NetworkDraft>) => void;
  fieldProps: (field: NetworkField) => { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };
  fieldError: (field: NetworkField) => ReactNode;
  /** Where the saved proxy came from, for the source line. */
  savedProxy: string;
}

export function NetworkFields({ draft, change, fieldProps, fieldError, savedProxy }: Props) {
  return (
    <fieldset>
      <legend>Office network</legend>
      <label className="field">
        <span>
          Proxy for the agent’s traffic to the server (empty = the HTTPS_PROXY / HTTP_PROXY environment, or none)
        </span>
        <input
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="http://proxy.example:3128"
          value={draft.proxyUrl}
          onFocus={() => {
            // A masked password cannot be edited in place: the field starts over so it is typed again.
            if (draft.proxyUrl === draft.proxyShown && draft.proxyShown.includes('•')) change({ proxyUrl: '' });
          }}
          onChange={(e) => change({ proxyUrl: e.target.value })}
          {...fieldProps('proxyUrl')}
        />
      </label>
      {fieldError('proxyUrl')}
      <span className="field-source">
        Now: {savedProxy === '' ? 'none set here' : `${savedProxy} from the settings file (wins over the environment)`}
      </span>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.checksUseProxy}
          onChange={(e) => change({ checksUseProxy: e.target.checked })}
        />
        <span>
          Checks use the proxy too (by default a check reaches its target directly, to measure it from this network)
        </span>
      </label>
      <div className="grid-2">
        <div>
          <label className="field">
            <span>Extra CA bundle for the server (PEM file)</span>
            <input
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder="/etc/ssl/office-ca.pem"
              value={draft.serverCaFile}
              onChange={(e) => change({ serverCaFile: e.target.value })}
              {...fieldProps('serverCaFile')}
            />
          </label>
          {fieldError('serverCaFile')}
        </div>
        <div>
          <label className="field">
            <span>Extra CA bundle for checks (PEM file)</span>
            <input
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder="/etc/ssl/office-ca.pem"
              value={draft.checksCaFile}
              onChange={(e) => change({ checksCaFile: e.target.value })}
              {...fieldProps('checksCaFile')}
            />
          </label>
          {fieldError('checksCaFile')}
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={draft.strict} onChange={(e) => change({ strict: e.target.checked })} />
        <span>
          This monitor joins a shared fleet: don’t let checks reach this network (private, loopback and link-local
          addresses)
        </span>
      </label>
      <p className="hint">
        The CA bundles are trusted in addition to the system’s. Empty fields use the defaults. These apply at once.
      </p>
    </fieldset>
  );
}
