/**
 * Server variants: answers the API spec allows but our own choices (src/api/shapes.ts) do not make.
 * The spec leaves them open ("absent field = value not yet defined", "max_results maximum: not
 * shown", "fields of the employee read response / of the site record: not shown"), so a real
 * deployment may serve any of them and the client must cope. Off unless set.
 */
import { z } from 'zod';

export const serverVariantsSchema = z.strictObject({
  /** List endpoints serve at most this many items per page, whatever `max_results` asks. */
  pageCap: z.number().int().min(1).optional(),
  /** Paginated envelopes without `_links`. */
  omitLinks: z.boolean().optional(),
  /** Paginated envelopes without `_meta`. */
  omitMeta: z.boolean().optional(),
  /** `_meta.total` on pages >= 2 of GET /employees is the real total plus this (never below 0). */
  totalDrift: z.number().int().optional(),
  /** The first `times` (default 1) answers for this page of GET /employees stop half-way through the body. */
  cutBody: z
    .strictObject({
      page: z.number().int().min(1),
      times: z.number().int().min(1).optional(),
    })
    .optional(),
  /** Site reads omit `name`. */
  siteWithoutName: z.boolean().optional(),
  /** GET /employees ignores the site filter parameter (serves every active employee). */
  ignoreSiteFilter: z.boolean().optional(),
  /** Employee reads rewrite records by insertion index: see `oddRecordKind`. */
  oddRecords: z.boolean().optional(),
});

export type ServerVariants = z.infer<typeof serverVariantsSchema>;

export type OddRecordKind = 'none' | 'cpf_null' | 'contract_data_null' | 'no_full_name' | 'city_null' | 'unknown_members' | 'bad_timezone' | 'no_ids';

const ODD_KINDS: readonly OddRecordKind[] = ['none', 'cpf_null', 'contract_data_null', 'no_full_name', 'city_null', 'unknown_members', 'bad_timezone', 'no_ids'];

/** What the `oddRecords` variant does to the employee at 0-based insertion index `index` (cycle of 8). */
export function oddRecordKind(index: number): OddRecordKind {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`oddRecordKind: index must be a non-negative integer, got ${index}`);
  return ODD_KINDS[index % ODD_KINDS.length] as OddRecordKind;
}

/** Rewrites a fresh wire copy of an employee in place (its `contract_data` is copied before a change). */
export function applyOddRecord(wire: Record<string, unknown>, kind: OddRecordKind): Record<string, unknown> {
  switch (kind) {
    case 'none':
      break;
    case 'cpf_null':
      wire.cpf = null;
      break;
    case 'contract_data_null':
      wire.contract_data = null;
      break;
    case 'no_full_name':
      delete wire.full_name;
      break;
    case 'city_null':
      wire.city = null;
      wire.state = null;
      break;
    case 'unknown_members': {
      wire.badge_color = { hex: '#fff' };
      const cd = wire.contract_data;
      wire.contract_data = { ...(typeof cd === 'object' && cd !== null ? cd : {}), unknown_flag: 'x' };
      break;
    }
    case 'bad_timezone':
      wire.timezone = 'Mars/Olympus_Mons';
      break;
    case 'no_ids':
      delete wire._id;
      delete wire.external_id;
      break;
  }
  return wire;
}
