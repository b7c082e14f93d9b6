import { useCallback, useRef, useState } from 'react';
import { appendHistory, loadHistory, pushHistory } from './history';

const NO_SECRETS: readonly string[] = [];

/**
 * Input history backed by `file`: read once when the app mounts, appended on every new entry. A
 * write failure loses that entry on disk only. `secrets` (and key shapes) are redacted on disk.
 */
export function useHistory(
  file: string,
  secrets: readonly string[] = NO_SECRETS,
): { entries: string[]; add: (entry: string) => void } {
  const [entries, setEntries] = useState<string[]>(() => loadHistory(file));
  const current = useRef(entries);

  const add = useCallback(
    (entry: string) => {
      const before = current.current;
      if (entry.trim() === '' || before[before.length - 1] === entry) return;
      current.current = pushHistory(before, entry);
      setEntries(current.current);
      void appendHistory(file, entry, secrets).catch(() => undefined);
    },
    [file, secrets],
  );

  return { entries, add };
}
