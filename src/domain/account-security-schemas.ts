/**
 * Account security's request schemas and answers (zod), shared by the SPA's forms and the API: changing the
 * password, the user's sessions and two-factor sign-in (TOTP). Its texts are account-security.ts's.
 */
import { z } from 'zod';
import { securityMessages } from './account-security.ts';
import { messages } from './messages.ts';
import { loginSchema } from './schemas.ts';

/** POST /api/account/password. The new password follows the sign-up rules. */
export const changePasswordSchema = z.object({
  current_password: z
    .string({ error: securityMessages.currentPasswordRequired })
    .min(1, securityMessages.currentPasswordRequired)
    .max(255, securityMessages.currentPasswordIncorrect),
  new_password: loginSchema.shape.password,
});

/** The Security screen's form: the new password typed twice. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirm_password: z.string({ error: messages.passwordMin }) })
  .refine((form) => form.new_password === form.confirm_password, {
    message: securityMessages.passwordsDiffer,
    path: ['confirm_password'],
  });

/** A code from the authenticator app: 6 digits (spaces typed in between are dropped). */
export const totpCodeSchema = z.object({
  code: z
    .string({ error: securityMessages.mfaRequired })
    .regex(/^\s*(?:\d\s*){6}$/, securityMessages.mfaRequired)
    .transform((code) => code.replace(/\s/g, '')),
});

/**
 * What proves the owner of an account before a second factor is set up (POST /api/account/two-factor and its
 * confirmation), which a stolen session lacks: the password, and a code of the current second factor (or a
 * recovery code) when there is one.
 */
export const twoFactorProofSchema = z.object({
  current_password: changePasswordSchema.shape.current_password,
  totp_code: loginSchema.shape.totp_code,
});

/** POST /api/account/two-factor/confirm: a code from the new secret, with the owner's proof again. */
export const confirmTwoFactorSchema = totpCodeSchema.extend(twoFactorProofSchema.shape);

/** GET /api/account/sessions: one signed-in browser. The token never leaves the server; `id` names it. */
export const sessionEntity = z.object({
  id: z.number().int(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** the session of the request that asked */
  current: z.boolean(),
});

/** GET /api/account/two-factor. */
export const twoFactorStatusEntity = z.object({
  enabled: z.boolean(),
  /** only administrators sign in with a second factor */
  available: z.boolean(),
  /** ADMIN_MFA=required: the admin pages answer 403 until it is on */
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** until when ten wrong codes in 15 minutes have locked it for browsers that have not signed in as the user */
  locked_until: z.string().nullable(),
});

/** POST /api/account/two-factor: the secret being set up, for the QR code or to type in. */
export const twoFactorSetupEntity = z.object({ secret: z.string(), uri: z.string() });

/** POST /api/account/two-factor/confirm: the recovery codes, shown this once. */
export const recoveryCodesEntity = z.object({ recovery_codes: z.array(z.string()) });

/** POST /api/login's 401: `mfa_required` when the password was right and a code is needed. */
export const loginRefusalEntity = z.object({ message: z.string(), mfa_required: z.boolean().optional() });

export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;
export type Session = z.infer<typeof sessionEntity>;
export type TwoFactorStatus = z.infer<typeof twoFactorStatusEntity>;
export type TwoFactorSetup = z.infer<typeof twoFactorSetupEntity>;
export type TwoFactorProof = z.infer<typeof twoFactorProofSchema>;
