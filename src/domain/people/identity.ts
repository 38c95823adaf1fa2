import { readCpf } from './cpf.js';

/**
 * Which employee a scanned or typed code belongs to. Pure: the lookups are passed in, so the
 * order, the per-input rules and the CPF check are tested without a database.
 */
export type LookupKey = 'badge' | 'external_id' | 'registration_number' | 'cpf';
export type InputKind = 'badge' | 'id';

export type IdentityRules = {
  order: readonly LookupKey[];
  allowed: Readonly<Record<InputKind, readonly LookupKey[]>>;
};

/** Unique keys give one employee or none; shared ones may give several (then we refuse to guess). */
export type Lookups<E> = {
  badge(code: string): E | null;
  external_id(code: string): E | null;
  registration_number(code: string): E[];
  cpf(digits: string): E[];
};

export type Resolution<E> =
  | { kind: 'found'; employee: E; key: LookupKey }
  | { kind: 'unknown' }
  | { kind: 'invalid_cpf' }
  | { kind: 'ambiguous'; key: LookupKey; count: number };

export function keysFor(input: InputKind, rules: IdentityRules): LookupKey[] {
  return rules.order.filter((k) => rules.allowed[input].includes(k));
}

export function resolveCredential<E>(
  code: string,
  input: InputKind,
  rules: IdentityRules,
  lookups: Lookups<E>,
): Resolution<E> {
  let invalidCpf = false;
  for (const key of keysFor(input, rules)) {
    let found: E[];
    switch (key) {
      case 'badge':
      case 'external_id': {
        const e = lookups[key](code);
        found = e === null ? [] : [e];
        break;
      }
      case 'registration_number':
        found = lookups.registration_number(code);
        break;
      case 'cpf': {
        const cpf = readCpf(code);
        // A CPF with wrong check digits is a typo: it is never looked up, so it can never land
        // on somebody else's record. Another key may still know the code.
        if (cpf.kind === 'invalid_cpf') invalidCpf = true;
        found = cpf.kind === 'cpf' ? lookups.cpf(cpf.digits) : [];
        break;
      }
    }
    if (found.length === 1) return { kind: 'found', employee: found[0] as E, key };
    if (found.length > 1) return { kind: 'ambiguous', key, count: found.length };
  }
  return invalidCpf ? { kind: 'invalid_cpf' } : { kind: 'unknown' };
}
