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
 * ADMIN_MFA is `required`; otherwise the admin can turn it on from their Security screen. The secret is
 * sealed with TOTP_ENCRYPTION_KEY (required then) like the API seals it, and the recovery codes are hashed
 * under a salt of the admin's own.
 *
 * Every run (`--if-none` included, so every `npm start`) also seals the two-factor secrets still kept in clear
 * from before sealing existed: the database cannot, since the key never reaches it.
 */
import { ADMIN_PASSWORD_MIN, securityMessages } from '../src/domain/account-security.ts';
import { encodeBase64Url } from '../edge-functions/_shared/base64url.ts';
import { connect } from '../edge-functions/_shared/db.ts';
import { env } from '../edge-functions/_shared/env.ts';
import { hashPassword } from '../edge-functions/_shared/password.ts';
import {
  isTotpSecret,
  newRecoveryCodes,
  newRecoverySalt,
  newTotpSecret,
  recoveryCodeHash,
  sealTotpSecret,
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
const key = env.totpEncryptionKey;
const NO_KEY = 'TOTP_ENCRYPTION_KEY is not set: two-factor secrets are sealed with it (use the one the API has)';

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
  } else if (creating && setUpTotp && !key) {
    console.error(NO_KEY);
    Deno.exitCode = 1;
  } else if (creating) {
    const passwordHash = await hashPassword(password);
    const secret = setUpTotp ? (givenSecret ?? newTotpSecret()) : undefined;
    const recoveryCodes = newRecoveryCodes();
    await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      const [admin] =
        await tx`select id from app.create_admin(${username}, ${passwordHash}, ${'Administrator'}, ${`${username}@admin.local`}, ${promote})`;
      if (secret) {
        const salt = newRecoverySalt();
        await tx`select app.set_admin_totp(${username}, ${sealTotpSecret(key!, admin.id, secret)},
                                           ${recoveryCodes.map((code) => recoveryCodeHash(code, salt))}, ${salt})`;
      }
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
  await sealPlainSecrets();
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

/** Seals the two-factor secrets kept in clear from before sealing (each only if it is still the same). */
async function sealPlainSecrets() {
  const plain = await sql.begin(async (tx) => {
    await tx`set local role service_role`;
    return await tx`select user_id, totp_secret from app.plain_totp_secrets()`;
  });
  if (plain.length === 0) return;
  if (!key) {
    console.error(`${plain.length} two-factor secret(s) are kept in clear. ${NO_KEY}.`);
    Deno.exitCode = 1;
    return;
  }
  await sql.begin(async (tx) => {
    await tx`set local role service_role`;
    for (const { user_id: userId, totp_secret: secret } of plain) {
      await tx`select app.seal_totp_secret(${userId}, ${secret}, ${sealTotpSecret(key, userId, secret)})`;
    }
  });
  console.log(`Two-factor secrets sealed with TOTP_ENCRYPTION_KEY: ${plain.length} kept in clear from before.`);
}
