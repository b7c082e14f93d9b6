import { useEffect, useState } from 'react';

/**
 * The clock, refreshed every `intervalMs` while `active`; only the component that calls it
 * re-renders (a spinner, an elapsed time), never the transcript.
 */
export function useNow(active: boolean, intervalMs = 100): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
