import { useEffect, useState } from 'react';

/** One timer per interval for every clock on screen, so their updates land in one render. */
const tickers = new Map<
  number,
  { timer: ReturnType<typeof setInterval>; listeners: Set<(now: number) => void> }
>();

function subscribe(intervalMs: number, listener: (now: number) => void): () => void {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    const listeners = new Set<(now: number) => void>();
    const timer = setInterval(() => {
      const now = Date.now();
      for (const l of listeners) l(now);
    }, intervalMs);
    ticker = { timer, listeners };
    tickers.set(intervalMs, ticker);
  }
  ticker.listeners.add(listener);
  return () => {
    ticker.listeners.delete(listener);
    if (ticker.listeners.size === 0) {
      clearInterval(ticker.timer);
      tickers.delete(intervalMs);
    }
  };
}

/**
 * The clock, refreshed every `intervalMs` while `active`; only the component that calls it
 * re-renders (a spinner, an elapsed time), never the transcript. Clocks with the same interval
 * share one timer, so a spinner and the working line tick together.
 */
export function useNow(active: boolean, intervalMs = 100): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    return subscribe(intervalMs, setNow);
  }, [active, intervalMs]);
  return now;
}
