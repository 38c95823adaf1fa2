/**
 * The wire shapes of the Time and Attendance API v2.1 as this terminal uses them.
 *
 * The specification leaves several shapes "not shown". Each choice below is made once, here, and
 * the mock server (src/mock) accepts exactly these shapes. Where a real deployment could differ,
 * the choice is a setting (see `ApiDialect`) rather than a literal spread through the code.
 * SHAPES.md beside this file is the human-readable version of the same decisions.
 */
import { z } from 'zod';

export const API_VERSION_SEGMENT = '/v2.1';
export const BASIC_AUTH_USER = 'public';

export const objectIdPattern = /^[0-9a-fA-F]{24}$/;
export const localDatePattern = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const localTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;
/** `time` of a time record: minute precision, no offset (wall time in the employee's zone). */
export const localDateTimePattern = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Choices a deployment may need to change. Defaults are what the mock serves.
 * - `punchBody`: 'combined' sends `time: "YYYY-MM-DDTHH:MM"` (the field of the time record);
 *   'split' sends `date: "YYYY-MM-DD"` and `time: "HH:MM"`.
 * - `timesQuery`: parameter names of `GET /times` for the day range.
 * - `timesheetQuery`: parameter names of `GET /timesheets` (all "not shown"): the employee, by
 *   external id or by `_id`, and the period; defaults are those of `GET /times`.
 * - `siteFilterParam`: query parameter of `GET /employees` that selects a site's employees.
 * - `updatedFilterParam`: query parameter that filters a listing on `_updated` (Eve's `where`,
 *   a MongoDB-style JSON query); used only once a probe showed the service honours it.
 */
export const apiDialectSchema = z.object({
  punchBody: z.enum(['combined', 'split']).default('combined'),
  timesQuery: z
    .object({
      startDate: z.string().min(1).default('start_date'),
      endDate: z.string().min(1).default('end_date'),
    })
    .prefault({}),
  timesheetQuery: z
    .object({
      employeeExternalId: z.string().min(1).default('employee_external_id'),
      employeeId: z.string().min(1).default('employee_id'),
      startDate: z.string().min(1).default('start_date'),
      endDate: z.string().min(1).default('end_date'),
    })
    .prefault({}),
  siteFilterParam: z.string().min(1).default('site_id'),
  updatedFilterParam: z.string().min(1).default('where'),
});
export type ApiDialect = z.infer<typeof apiDialectSchema>;
/** A dialect as written in settings or tests: any member may be left to its default. */
export type ApiDialectInput = z.input<typeof apiDialectSchema>;
export const defaultApiDialect: ApiDialect = apiDialectSchema.parse({});

/** Who a punch is for: the API takes exactly one of these two. */
export type EmployeeRef = { kind: 'external_id'; value: string } | { kind: 'employee_id'; value: string };

export type PunchBody = Record<string, string>;

export function buildPunchBody(dialect: ApiDialect, ref: EmployeeRef, localDate: string, localTime: string): PunchBody {
  const who: PunchBody = ref.kind === 'external_id' ? { employee_external_id: ref.value } : { employee_id: ref.value };
  return dialect.punchBody === 'combined'
    ? { ...who, time: `${localDate}T${localTime}` }
    : { ...who, date: localDate, time: localTime };
}

/** `POST /times` success (201). */
export const createdSchema = z.object({
  _id: z.string().min(1),
  _status: z.string().optional(),
  _created: z.string().optional(),
});
export type Created = z.infer<typeof createdSchema>;

/** Error body on every non-2xx answer (Eve style, as the envelope of the API suggests). */
export const errorBodySchema = z.object({
  _status: z.literal('ERR').optional(),
  _error: z.object({ code: z.number().int().optional(), message: z.string() }),
  _issues: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const timeRecordSchema = z.object({
  _id: z.string().optional(),
  approved: z.boolean().optional(),
  type: z.string().optional(),
  time: z.string().regex(localDateTimePattern),
  justification: z.string().optional(),
});
export type TimeRecord = z.infer<typeof timeRecordSchema>;

/** `GET /times?employee_external_id=…&start_date=…&end_date=…` (dates inclusive). */
export const timesResponseSchema = z.object({
  employee_id: z.string(),
  times: z.array(timeRecordSchema),
});
export type TimesResponse = z.infer<typeof timesResponseSchema>;

export const contractDataSchema = z
  .object({
    payment_source: z.string().optional(),
    registration_number: z.string().optional(),
    department: z.string().optional(),
    job_role: z.string().optional(),
    admission_date: z.string().optional(),
    dismissal_date: z.string().optional(),
  })
  .loose();

/** Employee read shape (not shown in the specification): the create fields plus `_id` and meta. */
export const employeeSchema = z
  .object({
    _id: z.string().min(1),
    external_id: z.string().optional(),
    full_name: z.string(),
    cpf: z.string().optional(),
    timezone: z.string().optional(),
    work_schedule: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    contract_data: contractDataSchema.optional(),
  })
  .loose();
export type Employee = z.infer<typeof employeeSchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    _items: z.array(item),
    _links: z.object({ parent: z.unknown().optional(), self: z.unknown().optional() }).loose(),
    _meta: z.object({
      max_results: z.number().int().positive(),
      page: z.number().int().positive(),
      total: z.number().int().min(0),
    }),
  });
}
export const employeePageSchema = pageSchema(employeeSchema);
export type EmployeePage = z.infer<typeof employeePageSchema>;

/** Site read shape (not shown in the specification). */
export const siteSchema = z
  .object({
    _id: z.string().min(1),
    name: z.string(),
    timezone: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
  })
  .loose();
export type Site = z.infer<typeof siteSchema>;
export const sitePageSchema = pageSchema(siteSchema);

/** Largest `max_results` the API accepts (not shown; the mock enforces this). */
export const MAX_PAGE_SIZE = 100;
