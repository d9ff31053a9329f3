// Memory of the processes `npm run bench` starts, read from /proc (Linux).
import { readFileSync, readdirSync } from 'node:fs';

/** Resident memory (MiB) of a process and its descendants (the server runs under a launcher). */
export function treeRss(pid) {
  let kib = 0;
  try {
    kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) kib += treeRss(Number(child)) * 1024;
    }
  } catch {
    // the process ended meanwhile
  }
  return kib / 1024;
}
