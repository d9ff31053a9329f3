// System packages and the PostgreSQL server the tests need. As root on Debian, what is missing is
// installed with apt (and said); otherwise we stop with the exact command to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import postgres from 'postgres';

const isRoot = process.getuid?.() === 0;
export const hasCommand = (name) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export function aptInstall(packages, why) {
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!isRoot || !hasCommand('apt-get')) {
    throw new Error(`Missing ${why}. Install it with:\n  sudo apt-get update && sudo ${command}`);
  }
  console.log(`Installing ${why} with apt: ${packages.join(' ')}`);
  execFileSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${command} -qq`], {
    stdio: 'inherit',
  });
}

/** pgTAP, pg_prove and plpgsql_check for the server's major version; Chromium for E2E. */
export function ensureSystemPackages({ major, e2e }) {
  const extensions = `/usr/share/postgresql/${major}/extension`;
  const missing = [];
  if (!existsSync(`${extensions}/pgtap.control`)) missing.push(`postgresql-${major}-pgtap`);
  if (!hasCommand('pg_prove')) missing.push('libtap-parser-sourcehandler-pgtap-perl');
  if (!existsSync(`${extensions}/plpgsql_check.control`)) missing.push(`postgresql-${major}-plpgsql-check`);
  if (e2e && !process.env.CHROME_PATH && !existsSync('/usr/bin/chromium')) missing.push('chromium');
  if (missing.length > 0) aptInstall(missing, 'test dependencies');
}

export async function serverMajor(url) {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    const [{ major }] = await sql`select current_setting('server_version_num')::int / 10000 as major`;
    return major;
  } finally {
    await sql.end();
  }
}

/**
 * Returns the server's major version once it answers. A local server that does not answer is started
 * (Debian's installed cluster), or installed with apt as root.
 */
export async function ensureTestServer(url) {
  try {
    return await serverMajor(url);
  } catch (error) {
    const host = new URL(url).hostname;
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) throw error;
  }
  if (!hasCommand('pg_lsclusters')) aptInstall(['postgresql'], 'a PostgreSQL server');
  console.log('Starting the local PostgreSQL cluster(s) …');
  const clusters = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
  for (const line of clusters) {
    const [version, name] = line.split(/\s+/);
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start'], { stdio: 'inherit' });
  }
  return serverMajor(url);
}
