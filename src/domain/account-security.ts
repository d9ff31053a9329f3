/**
 * Account security, shared by the SPA and the API: changing the password, the user's sessions and
 * two-factor sign-in (TOTP). The texts are here, plain; the request schemas and answers are in
 * account-security-schemas.ts (zod, which the player's pages load after their first paint). The rules live
 * in the database (supabase/schemas/11_credentials.sql, 12_sessions.sql).
 */

/**
 * An administrator's password is at least this long (players': 6): an admin's account moves other people's
 * money. Checked where an admin's password is set: `npm run admin:create` (a new admin, a reset, a
 * promotion) and an admin's own change on the Security screen.
 */
export const ADMIN_PASSWORD_MIN = 12;

export const securityMessages = {
  passwordChanged: 'Password changed',
  adminPasswordTooShort: `Administrator passwords must be at least ${ADMIN_PASSWORD_MIN} characters`,
  currentPasswordIncorrect: 'Current password is incorrect',
  currentPasswordRequired: 'Enter your current password',
  passwordsDiffer: 'Passwords do not match',
  mfaRequired: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'Invalid code',
  codesLocked: 'Too many wrong codes. Please try again in a few minutes.',
  usernameNotAvailable: 'This username is not available',
} as const;
