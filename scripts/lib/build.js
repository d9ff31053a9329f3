// Builds the SPA into dist/ when it is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bin, root, run } from './processes.js';

const SOURCES = ['src', 'index.html', 'vite.config.ts', 'scripts/lib/site-headers.ts', 'package-lock.json', 'public'];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => newestChange(path.join(target, name))));
}

export async function buildIfStale(log) {
  const built = path.join(root, 'dist', 'index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > Math.max(...SOURCES.map((source) => newestChange(path.join(root, source))))) return;
  log('Building the web app …');
  await run(bin('vite'), ['build', '--logLevel', 'warn']);
}
