// Nothing to show yet: says why, and what to do next.
import type { ReactNode } from 'react';

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children === undefined ? null : <div className="empty-text">{children}</div>}
      {action === undefined ? null : <div className="empty-action">{action}</div>}
    </div>
  );
}
