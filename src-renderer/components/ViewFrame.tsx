// Every view: one h1 that takes focus when the view opens, so keyboard and screen-reader users
// land at the start of what they asked for.
import { useEffect, useRef, type ReactNode } from 'react';

export function ViewFrame({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view-header">
        <div>
          <h1 id="view-title" ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {intro === undefined ? null : <p className="view-intro">{intro}</p>}
        </div>
        {actions === undefined ? null : <div className="view-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
