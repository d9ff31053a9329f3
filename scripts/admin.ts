/**
 * Creates (or promotes) the administrator account and prints its credentials once.
 * Run by `npm start` on a new database (with --if-none) and by `npm run admin:create`.
 *
 * ADMIN_USERNAME (default "admin") and ADMIN_PASSWORD (default: a random one-time password).
 */
import { encodeBase64Url } from '../edge-functions/_shared/base64url.ts';
import { connect } from '../edge-functions/_shared/db.ts';
import { hashPassword } from '../edge-functions/_shared/password.ts';

const onlyIfNone = Deno.args.includes('--if-none');
const username = Deno.env.get('ADMIN_USERNAME') || 'admin';
const given = Deno.env.get('ADMIN_PASSWORD');
const password = given || encodeBase64Url(crypto.getRandomValues(new Uint8Array(12)));

const sql = connect();
try {
  // An admin who can sign in: the demo data's seeding admin has a disabled hash and does not count.
  const [{ exists }] = await sql`
    select exists (
      select 1 from public.users u join app.credentials c on c.user_id = u.id
      where u.role = 'admin' and u.status = 'active' and c.password_hash like 'scrypt$%'
    ) as exists`;
  if (!(onlyIfNone && exists)) {
    const passwordHash = await hashPassword(password);
    await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      await tx`select app.create_admin(${username}, ${passwordHash}, ${'Administrator'}, ${`${username}@admin.local`})`;
    });
    console.log(`Admin account: username "${username}", password ${given ? '(from ADMIN_PASSWORD)' : `"${password}" (one-time: shown only now)`}`);
  }
} finally {
  await sql.end();
}
