/**
 * Which employer a worker's marks belong to (issue 26): the worker's payment source as the service
 * names it (store/roster/employers.ts), else the configured employer. A mark's chain key records it when
 * it is sealed, so a receipt and the AFD name the employer of the punch, not of today's roster.
 */
import type { Config } from '../../config.js';
import { chainOf, EmployerCache, taxIdOfChain, type Employer } from '../../store/roster/employers.js';

type ConfiguredEmployer = Config['employer'];

/** The configured employer as an Employer (null: no CNPJ or CPF configured). */
export function configuredEmployer(e: ConfiguredEmployer, address: string | null = null): Employer | null {
  if (e.cnpj) return { name: e.name ?? null, kind: 'cnpj', id: e.cnpj, address };
  if (e.cpf) return { name: e.name ?? null, kind: 'cpf', id: e.cpf, address };
  return null;
}

/**
 * The chain a worker's new mark joins: their employer's, or '' (the configured one, also when the service names that
 * same one).
 */
export function employerChainOf(
  cache: EmployerCache,
  configured: ConfiguredEmployer,
): (paymentSource: string | null) => string {
  return (paymentSource) => {
    try {
      const e = cache.byPaymentSource(paymentSource);
      if (e === null) return '';
      const own = configuredEmployer(configured);
      return own !== null && own.kind === e.kind && own.id === e.id ? '' : chainOf(e);
    } catch {
      return ''; // a cache that cannot be read never stops a punch: the configured employer's chain
    }
  };
}

/**
 * The employer a chain names: the configured one for '', else the cached employer with that tax id (name null when not
 * cached).
 */
export function employerOfChain(
  chain: string,
  cache: EmployerCache | null,
  configured: ConfiguredEmployer,
): Employer | null {
  const t = taxIdOfChain(chain);
  if (t === null) return configuredEmployer(configured);
  const cached = cache?.byTaxId(t.id) ?? null;
  return { kind: t.kind, id: t.id, name: cached?.name ?? null, address: cached?.address ?? null };
}
