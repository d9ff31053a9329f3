/**
 * Creates the administrator account (or sets a new password for an existing one) and prints its
 * credentials once. Run by `npm start` on a new database (with --if-none) and by `npm run admin:create`.
 *
 * ADMIN_USERNAME (default "admin") and ADMIN_PASSWORD (default: a random one-time password of 16 characters;
 * one given must have at least ADMIN_PASSWORD_MIN, 12, for a new admin, a reset and a promotion alike). A username
 * that belongs to a player is refused unless --promote is given: then the player becomes an admin and
 * every session of theirs ends (the database does that for any change of role or password).
 *
 * Two-factor sign-in: `admin:create` sets it up (unless ADMIN_MFA=optional), with ADMIN_TOTP_SECRET (base32)
 * when given, else with a new secret printed as an otpauth:// URI for the authenticator app; ten recovery
 * codes are printed once. `npm start` (--if-none) sets it up only when ADMIN_TOTP_SECRET is given or
 * ADMIN_MFA is `required`; otherwise the admin can turn it on from their Security screen.
 */
import { ADMIN_PASSWORD_MIN, securityMessages } from '../src/domain/account-security.ts';
import { encodeBase64Url } from '../edge-functions/_shared/base64url.ts';
import { connect } from '../edge-functions/_shared/db.ts';
import { hashPassword } from '../edge-functions/_shared/password.ts';
import {
  isTotpSecret,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpUri,
} from '../edge-functions/_shared/second-factor.ts';

const onlyIfNone = Deno.args.includes('--if-none');
const promote = Deno.args.includes('--promote');
const username = Deno.env.get('ADMIN_USERNAME') || 'admin';
const given = Deno.env.get('ADMIN_PASSWORD') || undefined;
const password = given || encodeBase64Url(crypto.getRandomValues(new Uint8Array(12)));
const givenSecret = Deno.env.get('ADMIN_TOTP_SECRET')?.replace(/[\s=]/g, '').toUpperCase() || undefined;
const adminMfa = Deno.env.get('ADMIN_MFA');
const setUpTotp = givenSecret !== undefined || (onlyIfNone ? adminMfa === 'required' : adminMfa !== 'optional');

if (givenSecret !== undefined && !isTotpSecret(givenSecret)) {
  console.error('ADMIN_TOTP_SECRET must be base32 (A-Z, 2-7), 16 to 64 characters.');
  Deno.exit(1);
}

const sql = connect();
try {
  // An admin who can sign in: the demo data's seeding admin has a disabled hash and does not count.
  const [{ exists }] = await sql`
    select exists (
      select 1 from public.users u join app.credentials c on c.user_id = u.id
      where u.role = 'admin' and u.status = 'active' and c.password_hash like 'scrypt$%'
    ) as exists`;
  const creating = !(onlyIfNone && exists);
  if (creating && given !== undefined && given.length < ADMIN_PASSWORD_MIN) {
    console.error(`ADMIN_PASSWORD: ${securityMessages.adminPasswordTooShort}.`);
    Deno.exitCode = 1;
  } else if (creating) {
    const passwordHash = await hashPassword(password);
    const secret = setUpTotp ? (givenSecret ?? newTotpSecret()) : undefined;
    const recoveryCodes = newRecoveryCodes();
    await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      await tx`select app.create_admin(${username}, ${passwordHash}, ${'Administrator'}, ${`${username}@admin.local`}, ${promote})`;
      if (secret) await tx`select app.set_admin_totp(${username}, ${secret}, ${recoveryCodes.map(recoveryCodeHash)})`;
    });
    console.log(
      `Admin account: username "${username}", password ${given ? '(from ADMIN_PASSWORD)' : `"${password}" (one-time: shown only now)`}`,
    );
    if (secret && givenSecret) console.log('Two-factor sign-in: on, with the secret of ADMIN_TOTP_SECRET.');
    if (secret && !givenSecret)
      console.log(`Two-factor sign-in: on. Add this to your authenticator app: ${totpUri(secret, username)}`);
    if (secret) console.log(`Recovery codes (each works once; shown only now): ${recoveryCodes.join(' ')}`);
    if (!secret) console.log('Two-factor sign-in: off (optional here): turn it on from the Security screen.');
  }
} catch (error) {
  // The database's refusals (a player's username without --promote, a bad name) are the operator's to fix.
  if (error instanceof Error && /^BT\d{3}$/.test(String((error as { code?: unknown }).code))) {
    console.error(error.message);
    Deno.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await sql.end();
}
