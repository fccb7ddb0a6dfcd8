// The open view and the selected check live in the URL hash ("#/checks/<guid>"), so Back goes to
// the previous view, a reload stays where it was, and a dashboard link can point at a check.
// The token is never part of it (it lives in sessionStorage, see bridge/install.ts).
import { viewNames } from '../../src-main/ipc/contract.ts';
import type { Place } from './navigation.tsx';

const routeViews: readonly string[] = viewNames;

export function placeFromHash(hash: string): Place | undefined {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '');
  const [view, id] = parts;
  if (view === undefined || !routeViews.includes(view)) return undefined;
  const decoded = id === undefined ? undefined : safeDecode(id);
  if (view === 'checks' && decoded !== undefined) return { view: 'checks', guid: decoded };
  if (view === 'enroll' && decoded !== undefined) return { view: 'enroll', reclaimId: decoded };
  return { view: view as Place['view'] };
}

export function hashOf(place: Place): string {
  const id = place.view === 'checks' ? place.guid : place.view === 'enroll' ? place.reclaimId : undefined;
  return `#/${place.view}${id === undefined || id === '' ? '' : `/${encodeURIComponent(id)}`}`;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
