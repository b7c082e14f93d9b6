/** Which process runs where: for files that name their owner (locks, journals). */
import { hostname } from 'node:os';

/** This machine's name as files name it (a home folder may be shared over NFS): `[A-Za-z0-9.-]` only. */
export function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
}

/** Whether process `pid` of this machine runs (signal 0 checks without sending; EPERM: it runs as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
