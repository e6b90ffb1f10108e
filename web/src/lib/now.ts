import { useEffect, useState } from 'react';

/**
 * The current time for what a page shows relative to it ("expires in 3 days", "closed"), read when
 * the component mounts and again every `everyMs`, so an open page does not go stale. Read in an
 * effect, not during render: rendering stays pure (the same props give the same page).
 */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
