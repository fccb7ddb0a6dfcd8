// A message box: errors are alerts (read out at once), the rest polite status messages.
import type { ReactNode } from 'react';

export type Tone = 'error' | 'warning' | 'info' | 'success';

export function Notice({
  tone,
  title,
  children,
  actions,
}: {
  tone: Tone;
  title?: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <span className="notice-icon" aria-hidden="true">
        {tone === 'error' ? '!' : tone === 'warning' ? '!' : tone === 'success' ? '✓' : 'i'}
      </span>
      <div className="notice-body">
        {title === undefined ? null : <p className="notice-title">{title}</p>}
        {children}
        {actions === undefined ? null : <div className="notice-actions">{actions}</div>}
      </div>
    </div>
  );
}
