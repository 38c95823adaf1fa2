// Configuration of the terminal's evidence (issue 15): who the employer is (the AFD's header and
// the receipt name them), what the receipt's QR code links to, and how AFD files are signed.
// config.ts holds these in its schema.
import { z } from 'zod';
import { isValidCpf } from './domain/people/cpf.js';
import { normalizeCnpj } from './domain/people/cnpj.js';
import { INPI_RULE, normalizeInpiRegistration } from './domain/afd/inpi.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const cnpjSchema = z.string().transform((s, ctx) => {
  const n = normalizeCnpj(s);
  if (n === null) ctx.addIssue({ code: 'custom', message: 'is not a valid CNPJ (14 characters, check digits)' });
  return n ?? s;
});
const cpfSchema = z
  .string()
  .transform((s) => s.replace(/[.-]/g, ''))
  .refine(isValidCpf, 'is not a valid CPF (11 digits, check digits)');

export const employerSchema = z
  .object({
    /** Razão social or the employer's name (AFD header: up to 150 characters). */
    name: z.string().trim().min(1).max(150).optional(),
    cnpj: cnpjSchema.optional(),
    /** An employer that is a person. */
    cpf: cpfSchema.optional(),
    /** CNO or CAEPF, when the employer has one (14 digits). */
    cno: z
      .string()
      .regex(/^\d{14}$/, 'must be 14 digits')
      .optional(),
    /**
     * The REP-P's registration number (INPI), when the employer registered this terminal as one; kept as digits
     * (src/domain/afd/inpi.ts, the export's rule too).
     */
    repRegistration: z
      .string()
      .transform((s, ctx) => {
        const n = normalizeInpiRegistration(s);
        if (n === null) ctx.addIssue({ code: 'custom', message: `is not ${INPI_RULE}` });
        return n ?? s;
      })
      .optional(),
  })
  .strict()
  .refine((e) => !(e.cnpj && e.cpf), { message: 'set cnpj or cpf, not both', path: ['cpf'] })
  .default({});

export const receiptSchema = z
  .object({
    /** The service's employee portal: the receipt's QR code carries this link too (Art. 80). */
    portalUrl: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')
      .optional(),
    /**
     * The place of work the receipt names (Art. 79), e.g. "Obra Centro - Rua X, 100 - São Paulo/SP"; absent: the site's
     * name from the service.
     */
    workplace: z.string().trim().min(1).max(300).optional(),
    /** Each punch's PDF receipt is kept at least this long in the data directory (Art. 80 asks 48 h), then pruned. */
    keepHours: int(48, 24 * 366).default(48),
  })
  .strict()
  .prefault({});

export const afdSchema = z
  .object({
    /** PKCS#12 file (.p12/.pfx) with the certificate and key that sign exported AFD files (detached CMS, .p7s). */
    signingKey: z.string().min(1).optional(),
    /** Its passphrase (TIMECLOCK_AFD_SIGNING_PASSWORD): a secret, never logged. */
    signingKeyPassword: z.string().optional(),
    /** The developer of this REP-P named in the AFD header (CNPJ or CPF); absent: zeros. */
    developerCnpj: cnpjSchema.optional(),
  })
  .strict()
  .default({});

export const journalSchema = z
  .object({
    /** The evidence journal's chain is checked again this often (and once at start), in the background. */
    verifyEveryMs: int(60_000, 30 * 24 * 3_600_000).default(24 * 3_600_000),
    /**
     * A directory OUTSIDE the data directory where the NSR reservation and the chain's head are
     * copied (a restore of the data directory does not roll them back). Default: /var/lib/timeclock-kiosk-nsr
     * when it exists (the package makes it); "" turns the mirror off.
     */
    nsrMirrorPath: z.string().optional(),
    /**
     * Marks and facts of a month move into a sealed archive file beside the database
     * (<dataDir>/journal-archive/) once the whole month is older than this (agent/journal/journal-archiver.ts);
     * export, receipt and verify read archives as if the rows were still in the database.
     */
    archiveAfterDays: int(7, 3_650).default(90),
    /** Archives are removed (with a journal fact saying so) once their newest mark is older than this. */
    keepYears: int(1, 30).default(5),
  })
  .strict()
  .prefault({});

/** Environment variables of these keys (config.ts adds them to its own). */
export const evidenceEnvKeys: Record<string, string> = {
  TIMECLOCK_EMPLOYER_NAME: 'employer.name',
  TIMECLOCK_EMPLOYER_CNPJ: 'employer.cnpj',
  TIMECLOCK_AFD_SIGNING_KEY: 'afd.signingKey',
  TIMECLOCK_AFD_SIGNING_PASSWORD: 'afd.signingKeyPassword',
};
