// `npm run admin:create [-- --promote | --if-none]`: creates an admin, or sets a new password (and second
// factor) for an existing one, on an existing database (ADMIN_USERNAME / ADMIN_PASSWORD / ADMIN_TOTP_SECRET,
// else "admin" with a printed one-time password and otpauth:// URI). A player's username needs --promote;
// --if-none creates nothing when an admin exists. Every run seals the two-factor secrets kept in clear from
// before, with TOTP_ENCRYPTION_KEY (the embedded database's own key when it is not given).
import { openForMaintenance } from './lib/database.js';
import { runDeno } from './lib/deno.js';

const database = await openForMaintenance({ mustExist: true });
try {
  await runDeno(
    'scripts/admin.ts',
    process.argv.slice(2).filter((arg) => arg === '--promote' || arg === '--if-none'),
    { DATABASE_URL: database.url, TOTP_ENCRYPTION_KEY: database.totpKey() ?? '' },
  );
} catch {
  process.exitCode = 1; // the script has said why
} finally {
  await database.close();
}
