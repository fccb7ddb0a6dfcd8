// Private definitions: checks whose definition lives only on this machine. Shows the file in
// use, which server checks it covers, which it misses, entries the server does not know, and
// the file's problems by entry and field. Values stay masked unless revealed.
import { EmptyState } from '../components/EmptyState.tsx';
import { EntryError } from '../private/EntryError.tsx';
import { ViewFrame } from '../components/ViewFrame.tsx';
import { FileChooser } from '../private/FileChooser.tsx';
import { RevealDefinition } from '../private/RevealDefinition.tsx';
import { useAgent } from '../state/agent-context.tsx';

const example = (guid = '<the check’s guid>'): string =>
  `{ "checks": [ { "guid": "${guid}", "url": "https://intranet.example/health" } ] }`;

export function PrivateView() {
  const { snapshot } = useAgent();
  if (snapshot === undefined) return null;
  const defs = snapshot.privateDefinitions;
  const privateChecks = snapshot.checks.filter((c) => c.privateDefinition).length;

  return (
    <ViewFrame
      title="Private definitions"
      intro="A private check’s target is kept only on this machine, in a JSON file: the server knows its name and schedule, never its URL, headers or body."
    >
      <FileChooser />

      {privateChecks === 0 && defs.unknown.length === 0 && defs.problems.length === 0 ? (
        <EmptyState title="This monitor has no private checks">
          <p>When a check on the server is made private, add its definition to the file, by guid:</p>
          <pre className="code-block">{example()}</pre>
        </EmptyState>
      ) : null}

      {defs.missing.length === 0 ? null : (
        <section className="card card-warning" aria-labelledby="missing-title">
          <h2 id="missing-title">Private checks without a local definition ({defs.missing.length})</h2>
          <p>
            These are not run. Add an entry with each guid to the file
            {defs.file === undefined ? ', after choosing one above' : ''}:
          </p>
          <ul className="plain-list">
            {defs.missing.map((m) => (
              <li key={m.guid}>
                <strong>{m.name}</strong> <code>{m.guid}</code>
              </li>
            ))}
          </ul>
          <pre className="code-block">{example(defs.missing[0]?.guid)}</pre>
        </section>
      )}

      {(defs.invalid ?? []).length === 0 ? null : (
        <section className="card card-error" aria-labelledby="invalid-title">
          <h2 id="invalid-title">Private checks whose entry has an error ({defs.invalid?.length ?? 0})</h2>
          <p>
            These are not run until their entry is fixed. Change the field named below and save the file: it is read
            again by itself, and the check runs on its next turn.
          </p>
          <ul className="plain-list">
            {(defs.invalid ?? []).map((c) => (
              <li key={c.guid}>
                <strong>{c.name}</strong> <code>{c.guid}</code>
                <ul className="entry-errors">
                  {defs.problems
                    .filter((p) => p.guid === c.guid && p.severity === 'error')
                    .map((p, i) => (
                      <li key={`${p.field ?? ''}-${i}`}>
                        <EntryError field={p.field} detail={p.detail ?? p.message} />
                      </li>
                    ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}

      {defs.matched.length === 0 ? null : (
        <section className="card" aria-labelledby="matched-title">
          <h2 id="matched-title">Defined in the file and running ({defs.matched.length})</h2>
          <ul className="plain-list matched">
            {defs.matched.map((m) => (
              <li key={m.guid}>
                <div>
                  <strong>{m.name}</strong> <code>{m.guid}</code>
                </div>
                <RevealDefinition guid={m.guid} name={m.name} />
              </li>
            ))}
          </ul>
        </section>
      )}

      {defs.unknown.length === 0 ? null : (
        <section className="card" aria-labelledby="unknown-title">
          <h2 id="unknown-title">Entries for checks this monitor does not have ({defs.unknown.length})</h2>
          <p>
            The server has no private check with these guids for this monitor (deleted, unassigned, or a typing error).
            They are ignored.
          </p>
          <ul className="plain-list">
            {defs.unknown.map((guid) => (
              <li key={guid}>
                <code>{guid}</code>
              </li>
            ))}
          </ul>
        </section>
      )}

      {defs.problems.length === 0 ? null : (
        <section className="card card-error" aria-labelledby="problems-title">
          <h2 id="problems-title">Problems in the file ({defs.problems.length})</h2>
          <p>
            An error leaves its entry out until it is fixed; a warning is only said. The file is read again as soon as
            it is saved.
          </p>
          <div className="table-wrap">
            <table className="table compact">
              <thead>
                <tr>
                  <th scope="col">Entry</th>
                  <th scope="col">Field</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {defs.problems.map((p, i) => (
                  <tr key={`${p.index}-${p.field ?? ''}-${i}`}>
                    <th scope="row">
                      {p.guid === undefined ? (
                        `#${p.index + 1}`
                      ) : (
                        <>
                          <code>{p.guid}</code> <span className="muted">(#{p.index + 1})</span>
                        </>
                      )}
                    </th>
                    <td>{p.field ?? '—'}</td>
                    <td>
                      <span className={`severity severity-${p.severity}`}>{p.severity}</span>
                    </td>
                    <td className="wrap">{p.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </ViewFrame>
  );
}
