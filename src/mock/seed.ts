import type { Employee, Site } from '../api/shapes.js';
import { cpfCheck } from '../domain/people/cpf.js';
import { mulberry32 } from './faults.js';
import type { LeaveInput } from './self-service-input.js';
import { DEMO_NAMES, FIRST_NAMES, JOB_ROLES, LAST_NAMES, STATES } from './seed-names.js';

/** The employee read shape plus mock-internal state that is never sent in responses. */
export type MockEmployee = Employee & { active: boolean; site_ids: string[] };
/**
 * `leaves` and `balances` (hours-bank `final_balance` by `_id` or external id) are optional; those
 * of an employee not in `employees` (a seed derived from the demo one) are left out.
 */
export type MockSeed = {
  sites: Site[];
  employees: MockEmployee[];
  leaves?: LeaveInput[];
  balances?: Record<string, string>;
  paymentSources?: MockPaymentSource[];
};

/** An employer as `GET /payment-sources/{id}` answers it (the spec's Employer: exactly one of cpf and cnpj, bare). */
export type MockPaymentSource = {
  _id: string;
  name: string;
  cnpj?: string;
  cpf?: string;
  external_id?: string;
  period_cut_day?: number;
  address?: {
    cep?: string;
    street_name?: string;
    street_number?: string;
    complement?: string;
    city?: string;
    state?: string;
  };
};

/**
 * The demo's leaves span every date a demo runs on, so the employee screen always has something to
 * show: 1033 is on approved vacation (the screen notes it), 1002 has an approved partial leave and
 * 1003 a vacation not yet approved (neither is noted).
 */
const DEMO_LEAVES: LeaveInput[] = [
  { employee: '1033', type: 'ferias', start_date: '2000-01-01', end_date: '2099-12-31', approved: true },
  {
    employee: '1002',
    type: 'abono',
    start_date: '2000-01-01',
    end_date: '2099-12-31',
    start_time: '08:00',
    end_time: '10:00',
    approved: true,
  },
  { employee: '1003', type: 'ferias', start_date: '2000-01-01', end_date: '2099-12-31', approved: false },
];
const DEMO_BALANCES: Record<string, string> = { '1001': '12.50', '1002': '-3.25' };

/** FNV-1a 32-bit: turns any prefix into 8 hex characters so ids of different kinds never collide. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const prefixHashes = new Map<string, string>();
const ZEROS = '0000000000000000';

/** Deterministic 24-hex id: 8 hex chars from the prefix's hash, then `n` as 16 hex digits. */
export function objectIdFor(prefix: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`objectIdFor: n must be a non-negative safe integer, got ${n}`);
  let head = prefixHashes.get(prefix);
  if (head === undefined) {
    head = fnv1a(prefix).toString(16).padStart(8, '0');
    prefixHashes.set(prefix, head);
  }
  const tail = n.toString(16);
  return head + ZEROS.slice(tail.length) + tail;
}

/** Nine base digits from a PRNG, never all equal (such CPFs are invalid even with right checks). */
function cpfFromRandom(random: () => number): string {
  const ds = new Array<number>(11);
  for (;;) {
    let allSame = true;
    for (let i = 0; i < 9; i++) {
      ds[i] = Math.floor(random() * 10);
      if (ds[i] !== ds[0]) allSame = false;
    }
    if (allSame) continue;
    ds[9] = cpfCheck(ds, 9);
    ds[10] = cpfCheck(ds, 10);
    return ds.join('');
  }
}

export { cpfFromBase, isValidCpf } from '../domain/people/cpf.js';

export const DEMO_SITE_ID = '64b7f3a2c1d0e9f8a7b6c5d4';
export const DEMO_WORK_SCHEDULE_ID = objectIdFor('work_schedule', 1);
export const DEMO_PAYMENT_SOURCE_ID = objectIdFor('payment_source', 1);
/** The site's subcontractor: employees 1029 to 1033 work for it (issue 26: each worker's own employer). */
export const DEMO_SUBCONTRACTOR_ID = objectIdFor('payment_source', 2);

/** The demo's two employers: the builder (the CNPJ the examples configure) and an electrical subcontractor. */
export function demoPaymentSources(): MockPaymentSource[] {
  return [
    {
      _id: DEMO_PAYMENT_SOURCE_ID,
      name: 'Construtora Exemplo Ltda',
      cnpj: '11222333000181',
      period_cut_day: 25,
      address: { cep: '01001000', street_name: 'Praça da Sé', street_number: '100', city: 'São Paulo', state: 'SP' },
    },
    {
      _id: DEMO_SUBCONTRACTOR_ID,
      name: 'Elétrica Parceira Instalações Ltda',
      cnpj: '11444777000161',
      period_cut_day: 20,
      address: {
        cep: '04538132',
        street_name: 'Avenida Brigadeiro Faria Lima',
        street_number: '3477',
        complement: 'sala 5',
        city: 'São Paulo',
        state: 'SP',
      },
    },
  ];
}

function registration(n: number): string {
  return `M-${String(n).padStart(4, '0')}`;
}

/**
 * The demo account: one construction site in São Paulo and 36 employees. Deliberate odd ones:
 * 1034 has no work schedule and 1035 no employer (their records are stored but, per rule 3 of the
 * spec, not displayed), 1036 has no external_id (it must be addressed by `_id`), and 1010/1020 work
 * on Manaus time.
 */
export function demoSeed(): MockSeed {
  const site: Site = {
    _id: DEMO_SITE_ID,
    name: 'Obra Centro — São Paulo',
    timezone: 'America/Sao_Paulo',
    city: 'São Paulo',
    state: 'SP',
  };
  const random = mulberry32(20261121);
  const employees: MockEmployee[] = DEMO_NAMES.map((full_name, idx) => {
    const n = idx + 1;
    const external = String(1000 + n);
    const manaus = external === '1010' || external === '1020';
    const emp: MockEmployee = {
      _id: objectIdFor('employee', n),
      full_name,
      cpf: cpfFromRandom(random),
      city: manaus ? 'Manaus' : 'São Paulo',
      state: manaus ? 'AM' : 'SP',
      timezone: manaus ? 'America/Manaus' : 'America/Sao_Paulo',
      contract_data: {
        registration_number: registration(n),
        job_role: JOB_ROLES[idx % JOB_ROLES.length],
        admission_date: `2025-${String((idx % 12) + 1).padStart(2, '0')}-${String((idx % 27) + 1).padStart(2, '0')}`,
      },
      active: true,
      site_ids: [DEMO_SITE_ID],
    };
    if (external !== '1036') emp.external_id = external;
    if (external !== '1034') emp.work_schedule = DEMO_WORK_SCHEDULE_ID;
    if (external !== '1035' && emp.contract_data)
      emp.contract_data.payment_source = n >= 29 && n <= 33 ? DEMO_SUBCONTRACTOR_ID : DEMO_PAYMENT_SOURCE_ID;
    return emp;
  });
  return {
    sites: [site],
    employees,
    leaves: DEMO_LEAVES.map((l) => ({ ...l })),
    balances: { ...DEMO_BALANCES },
    paymentSources: demoPaymentSources(),
  };
}

/**
 * A large deterministic account for load tests: `employees` spread round-robin over `sites`,
 * employee i (0-based) has external_id String(100000 + i) and `_id` objectIdFor('gen-employee', i).
 * Built with plain loops and one PRNG so 100,000 employees take well under a second.
 */
export function generatedSeed(opts: { employees: number; sites: number; seed?: number }): MockSeed {
  const { employees: count, sites: siteCount } = opts;
  if (!Number.isInteger(count) || count < 0) throw new RangeError('employees must be a non-negative integer');
  if (!Number.isInteger(siteCount) || siteCount < 1) throw new RangeError('sites must be a positive integer');
  const random = mulberry32(opts.seed ?? 1);
  const workSchedule = objectIdFor('work_schedule', 1);
  const paymentSource = objectIdFor('payment_source', 1);

  const sites: Site[] = [];
  for (let s = 0; s < siteCount; s++) {
    const [city, state] = STATES[s % STATES.length] as [string, string];
    sites.push({
      _id: objectIdFor('gen-site', s),
      name: `Unidade ${s + 1} — ${city}`,
      timezone: 'America/Sao_Paulo',
      city,
      state,
    });
  }

  const employees: MockEmployee[] = new Array<MockEmployee>(count);
  for (let i = 0; i < count; i++) {
    const site = sites[i % siteCount] as Site;
    const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)] as string;
    const last1 = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)] as string;
    const last2 = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)] as string;
    employees[i] = {
      _id: objectIdFor('gen-employee', i),
      external_id: String(100000 + i),
      full_name: `${first} ${last1} ${last2}`,
      cpf: cpfFromRandom(random),
      city: site.city,
      state: site.state,
      timezone: 'America/Sao_Paulo',
      work_schedule: workSchedule,
      contract_data: { registration_number: `M-${String(i + 1).padStart(6, '0')}`, payment_source: paymentSource },
      active: true,
      site_ids: [site._id],
    };
  }
  return {
    sites,
    employees,
    paymentSources: [{ _id: paymentSource, name: 'Empregador Gerado Ltda', cnpj: '11222333000181' }],
  };
}
