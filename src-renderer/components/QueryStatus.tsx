// What a view shows while its read from the agent is under way or failed (with a retry).
import type { QueryState } from '../state/use-query.ts';
import { sentence } from '../format.ts';
import { Notice } from './Notice.tsx';
import { Spinner } from './Spinner.tsx';

export function QueryStatus<T>({
  state,
  loading,
  failed,
  retry,
}: {
  state: QueryState<T>;
  loading: string;
  failed: string;
  retry: () => void;
}) {
  if (state.kind === 'loading') return <Spinner label={loading} />;
  if (state.kind === 'ready') return null;
  return (
    <Notice
      tone="error"
      title={failed}
      actions={
        <button type="button" onClick={retry}>
          Try again
        </button>
      }
    >
      {sentence(state.message)}
    </Notice>
  );
}
