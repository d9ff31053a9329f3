/**
 * Account security, shared by the SPA and the API: changing the password, the user's sessions and
 * two-factor sign-in (TOTP). The texts are here, plain; the request schemas and answers are in
 * account-security-schemas.ts (zod, which the player's pages load after their first paint). The rules live
 * in the database (supabase/schemas/10_identity.sql).
 */

export const securityMessages = {
  passwordChanged: 'Password changed',
  currentPasswordIncorrect: 'Current password is incorrect',
  currentPasswordRequired: 'Enter your current password',
  passwordsDiffer: 'Passwords do not match',
  mfaRequired: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'Invalid code',
  usernameNotAvailable: 'This username is not available',
} as const;
