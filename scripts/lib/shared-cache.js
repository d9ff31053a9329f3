// A shared HTTP cache in front of a local server, as a CDN (or the static host's /api rewrite) stands in
// front of the deployed function: Debian's nginx with proxy_cache (installed with apt as root when missing),
// started here on a free port in a folder of its own, in the foreground, and stopped by `stop()`. It keeps
// what the answers allow (Cache-Control: s-maxage, stale-while-revalidate; never `private`, `no-store` or an
// answer with a cookie), revalidates with the ETag (If-None-Match), lets one request refill an expired
// answer while the others get the stale copy (proxy_cache_background_update: stale-while-revalidate), and
// answers a client's If-None-Match with 304 from its own copy.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForOk } from './processes.js';
import { stopChild } from './supervisor.js';
import { aptInstall, hasCommand } from './system.js';

/** Starts nginx caching `origin` (http://host:port); resolves with its base URL and `stop()`. */
export async function startSharedCache(origin, { connections = 20_000 } = {}) {
  if (!hasCommand('nginx')) aptInstall(['nginx'], 'nginx (the shared cache of `npm run bench`)');
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), 'cricket-cache-'));
  mkdirSync(path.join(folder, 'cache'));
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    path.join(folder, 'nginx.conf'),
    `
# as root nginx would hand its workers to \`nobody\`, who cannot write this folder
${asRoot ? 'user root;' : ''}
worker_processes auto;
worker_rlimit_nofile ${2 * connections + 100};
daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections ${connections}; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  keepalive_requests 1000000;
  proxy_cache_path ${folder}/cache levels=1:2 keys_zone=api:10m max_size=100m inactive=10m use_temp_path=off;
  upstream origin {
    server ${new URL(origin).host};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache api;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      proxy_cache_background_update on;
      proxy_cache_use_stale updating error timeout;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', folder, '-e', path.join(folder, 'error.log'), '-c', 'nginx.conf'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitForOk(`${base}/api/health`, 20_000),
    new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited (${code})`)))),
  ]);
  return {
    base,
    pid: child.pid,
    stop: async () => {
      await stopChild(child, 'SIGTERM', 10_000);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
