import { startMockServer } from '../../mock/mock-server.js';
import { demoSeed, generatedSeed, type MockSeed } from '../../mock/seed.js';
import { ABSENT_ROUTES, serverVariantsSchema, type ServerVariants } from '../../mock/variants.js';
import { Exit, intFlag, UsageError, type CliOptions } from '../common/options.js';

export type MockVariantFlags = {
  variants: ServerVariants;
  /** Employees (external_id or _id) whose contract_data.allow_external_api_record is set to false. */
  notAllowed: string[];
};

const VARIANT_NAMES = [
  'page-cap',
  'omit-links',
  'omit-meta',
  'total-drift',
  'cut-body',
  'site-without-name',
  'ignore-site-filter',
  'odd-records',
  'not-allowed',
  'forbid-punches',
  'redirect',
  'non-api',
  'conflict-on-duplicate',
  'error-body-on-2xx',
  'times-format',
  'times-end-exclusive',
  'times-answer',
  'retry-after-date',
  'timesheet-query',
  'timesheet-without-hours-bank',
  'timesheet-malformed-days',
  'leaves-without-approval',
  'times-garbage-record',
  'long-strings',
  'compress',
  'post-times-body',
  'absent-routes',
  'date',
] as const;
type VariantName = (typeof VARIANT_NAMES)[number];
/** Names that may be given more than once (their lists add up). */
const REPEATABLE: readonly VariantName[] = ['not-allowed', 'forbid-punches'];
type Switch =
  | 'omitLinks'
  | 'omitMeta'
  | 'siteWithoutName'
  | 'ignoreSiteFilter'
  | 'oddRecords'
  | 'conflictOnDuplicate'
  | 'errorBodyOn2xx'
  | 'timesEndExclusive'
  | 'retryAfterDate'
  | 'timesheetWithoutHoursBank'
  | 'timesheetMalformedDays'
  | 'leavesWithoutApproval'
  | 'timesGarbageRecord';
const SWITCHES: Partial<Record<VariantName, Switch>> = {
  'omit-links': 'omitLinks',
  'omit-meta': 'omitMeta',
  'site-without-name': 'siteWithoutName',
  'ignore-site-filter': 'ignoreSiteFilter',
  'odd-records': 'oddRecords',
  'conflict-on-duplicate': 'conflictOnDuplicate',
  'error-body-on-2xx': 'errorBodyOn2xx',
  'times-end-exclusive': 'timesEndExclusive',
  'retry-after-date': 'retryAfterDate',
  'timesheet-without-hours-bank': 'timesheetWithoutHoursBank',
  'timesheet-malformed-days': 'timesheetMalformedDays',
  'leaves-without-approval': 'leavesWithoutApproval',
  'times-garbage-record': 'timesGarbageRecord',
};
const MAX_INT = 1_000_000_000;

function wholeNumber(name: string, raw: string, min: number): number {
  const n = /^-?\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= MAX_INT))
    throw new UsageError(`--variant ${name} needs a whole number from ${min} to ${MAX_INT} (got '${raw}')`);
  return n;
}

function idList(name: string, value: string): string[] {
  const ids = value.split(',').map((s) => s.trim());
  if (ids.some((id) => id === ''))
    throw new UsageError(`--variant ${name} needs a comma-separated list of employee ids (got '${value}')`);
  return ids;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--variant ${name} needs one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

/**
 * `--variant NAME[=VALUE]` flags of `timeclock mock`, checked one by one so a mistake gets one
 * line naming the flag (UsageError: exit 2). A name may appear once, except `not-allowed` and
 * `forbid-punches`.
 */
export function parseVariantFlags(flags: readonly string[]): MockVariantFlags {
  const variants: ServerVariants = {};
  const notAllowed: string[] = [];
  const seen = new Set<string>();
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const name = eq < 0 ? flag : flag.slice(0, eq);
    const value = eq < 0 ? undefined : flag.slice(eq + 1);
    if (!(VARIANT_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`unknown --variant '${name}'; known: ${VARIANT_NAMES.join(', ')}`);
    }
    const v = name as VariantName;
    if (!REPEATABLE.includes(v) && seen.has(v)) throw new UsageError(`--variant ${v} given twice`);
    seen.add(v);
    const sw = SWITCHES[v];
    if (sw !== undefined) {
      if (value !== undefined) throw new UsageError(`--variant ${v} takes no value (got '${flag}')`);
      variants[sw] = true;
      continue;
    }
    if (value === undefined || value === '') throw new UsageError(`--variant ${v} needs a value: ${v}=…`);
    switch (v) {
      case 'page-cap':
        variants.pageCap = wholeNumber(v, value, 1);
        break;
      case 'total-drift':
        variants.totalDrift = wholeNumber(v, value, -MAX_INT);
        break;
      case 'cut-body': {
        const m = /^([^x]+)(?:x(.+))?$/.exec(value);
        if (!m)
          throw new UsageError(
            `--variant cut-body needs PAGE or PAGExTIMES, e.g. cut-body=2 or cut-body=2x3 (got '${value}')`,
          );
        variants.cutBody = {
          page: wholeNumber('cut-body (page)', m[1] as string, 1),
          times: m[2] === undefined ? 1 : wholeNumber('cut-body (times)', m[2], 1),
        };
        break;
      }
      case 'not-allowed':
        notAllowed.push(...idList(v, value));
        break;
      case 'forbid-punches':
        variants.forbiddenPunches = [...(variants.forbiddenPunches ?? []), ...idList(v, value)];
        break;
      case 'redirect': {
        const m = /^(301|302|307|308):([\x21-\x7e]+)$/.exec(value);
        if (!m)
          throw new UsageError(
            `--variant redirect needs STATUS:URL with STATUS 301, 302, 307 or 308 and a URL without spaces, e.g. redirect=302:https://login.example/ (got '${value}')`,
          );
        variants.redirect = { status: Number(m[1]) as 301 | 302 | 307 | 308, location: m[2] as string };
        break;
      }
      case 'non-api':
        variants.nonApi = oneOf(v, value, ['html', 'html-404', 'text'] as const);
        break;
      case 'times-format':
        variants.timesTimeFormat = oneOf(v, value, ['seconds', 'offset', 'utc-z', 'utc-offset', 'rfc1123'] as const);
        break;
      case 'times-answer':
        variants.timesAnswer = Number(oneOf(v, value, ['404', '400'] as const)) as 404 | 400;
        break;
      case 'timesheet-query':
        variants.timesheetQuery = oneOf(v, value, ['employee-from-to', 'data-inicio-fim'] as const);
        break;
      case 'long-strings': {
        const n = wholeNumber(v, value, 1);
        if (n > 1_000_000)
          throw new UsageError(`--variant long-strings needs a length from 1 to 1000000 (got '${value}')`);
        variants.longStrings = n;
        break;
      }
      case 'compress':
        variants.compress = oneOf(v, value, ['gzip', 'deflate', 'br'] as const);
        break;
      case 'post-times-body':
        variants.postTimesBody = oneOf(v, value, ['text', 'html', 'xml', 'truncated-json', 'bad-gzip', 'cut'] as const);
        break;
      case 'absent-routes':
        variants.absentRoutes = value.split(',').map((r) => oneOf(v, r, ABSENT_ROUTES));
        break;
      case 'date': {
        const m = /^offset:(-?\d{1,12})$/.exec(value);
        if (m) variants.date = { mode: 'offset', offsetMs: Number(m[1]) };
        else if (value === 'missing' || value === 'garbage') variants.date = { mode: value };
        else
          throw new UsageError(
            `--variant date needs missing, garbage or offset:MS (e.g. offset:3600000) (got '${value}')`,
          );
        break;
      }
    }
  }
  // The hand parser and the schema the server applies must agree.
  return { variants: serverVariantsSchema.parse(variants), notAllowed };
}

function checkKnownEmployees(seed: MockSeed, flag: string, ids: readonly string[]): void {
  const known = new Set<string>();
  for (const e of seed.employees) {
    known.add(e._id);
    if (e.external_id !== undefined) known.add(e.external_id);
  }
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(
      `--variant ${flag}: no employee with external_id or _id ${unknown.map((id) => `'${id}'`).join(', ')}`,
    );
}

/** The mock T&A API on its own, for manual tests and for pointing a terminal at it. */
export async function runMock(opts: CliOptions): Promise<number> {
  const host = opts.host ?? '127.0.0.1';
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host))
    throw new UsageError('--host must be a loopback address: the mock has unauthenticated control endpoints');
  const employees = opts.employees === undefined ? null : intFlag('employees', opts.employees, 0, 1, 1_000_000);
  const sites = intFlag('sites', opts.sites, 1, 1, 1_000);
  const flags = opts.variant ?? [];
  const { variants, notAllowed } = parseVariantFlags(flags);
  const seed = employees === null ? demoSeed() : generatedSeed({ employees, sites });
  checkKnownEmployees(seed, 'not-allowed', notAllowed);
  checkKnownEmployees(seed, 'forbid-punches', variants.forbiddenPunches ?? []);
  const mock = await startMockServer({
    host,
    port: intFlag('port', opts.port, 0, 0, 65_535),
    tokens: [opts.token ?? 'demo-token'],
    rateLimit: {
      limit: intFlag('limit', opts.limit, 60, 1, 1_000_000),
      windowMs: intFlag('window-ms', opts['window-ms'], 60_000, 1, 3_600_000),
    },
    seed,
    variants,
  });
  for (const id of notAllowed) mock.setAllowExternalApiRecord(id, false);
  process.stdout.write(
    `mock T&A API listening at ${mock.url} (token ${opts.token ?? 'demo-token'}); control: ${mock.origin}/__mock/records, /__mock/requests, /__mock/variants\n`,
  );
  if (flags.length > 0) process.stdout.write(`server variants: ${flags.join(', ')}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await mock.close();
  return Exit.ok;
}
