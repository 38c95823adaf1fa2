/** A worker who forgot the PIN (issue 29): the punch held for the manager, and the reset request it leaves. */
import { z } from 'zod';
import { epochMs, text } from './common.js';
import { requestIdSchema } from './punch.js';

/** What the forgotten PIN was asked for: the credential the screen submitted, or a reader's one-time challenge. */
export const forgotPinInputSchema = z.union([
  z.strictObject({
    credential: z.strictObject({ kind: z.enum(['badge', 'id']), value: text(200) }),
    requestId: requestIdSchema.optional(),
  }),
  z.strictObject({ challenge: text(64).min(1), requestId: requestIdSchema.optional() }),
]);

/** A worker waiting for a new PIN: since the punch that said so, until a PIN is set (or cleared) for them. */
export const pinResetRequestSchema = z.object({
  /** The worker's external id (else the API id): what the PIN field takes. */
  employee: text(200),
  name: text(300),
  requestedAt: epochMs,
});
export type PinResetRequest = z.infer<typeof pinResetRequestSchema>;

/** Who opened the admin session: the manager (every tab), or a shift lead (held punches to confirm, PINs to reset). */
export const adminRoleSchema = z.enum(['manager', 'lead']);
export type AdminRole = z.infer<typeof adminRoleSchema>;
