import { useEffect, useState, type ReactNode } from 'react';
import { PageHeader } from '../../ui/controls';
import { secondsLeft } from './logic';
import './auth.css';

/** The frame of the small account forms: a centered card with a title and an intro line. */
export function AuthCard({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth narrow">
      <PageHeader title={title} subtitle={intro} />
      <div className="card auth-card">{children}</div>
      {footer ? <div className="auth-footer">{footer}</div> : null}
    </div>
  );
}

/** Seconds left until `until` (ms since epoch), ticking once a second while above zero. */
export function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : secondsLeft(until, now);
}
