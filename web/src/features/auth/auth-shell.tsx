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

/** A wait the server asked for (Retry-After). Each new object starts the count again. */
export interface Wait {
  seconds: number;
}

/** Seconds left of `wait` (0 without one), counted from when it was set, ticking once a second. */
export function useCountdown(wait: Wait | null): number {
  const [tick, setTick] = useState<{ of: Wait; left: number } | null>(null);
  useEffect(() => {
    if (wait === null) return;
    const until = Date.now() + wait.seconds * 1000;
    const timer = setInterval(() => {
      const left = secondsLeft(until, Date.now());
      setTick({ of: wait, left });
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [wait]);
  if (wait === null) return 0;
  return tick?.of === wait ? tick.left : wait.seconds;
}
