// `npm run admin:create`: creates or promotes the admin account on an existing database
// (ADMIN_USERNAME / ADMIN_PASSWORD, else "admin" with a printed one-time password).
import { openForMaintenance } from './lib/database.js';
import { runDeno } from './lib/deno.js';

const database = await openForMaintenance({ mustExist: true });
try {
  await runDeno('scripts/admin.ts', [], { DATABASE_URL: database.url });
} finally {
  await database.close();
}
