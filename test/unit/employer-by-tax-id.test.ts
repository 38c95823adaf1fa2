/**
 * The employer a journal chain names, as receipts and the AFD header read it (store/roster/employers.ts): the newest
 * cached answer for that CNPJ or CPF, whichever payment source it came through; an employer the service called
 * missing is not one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EmployerCache, saveEmployer } from '../../src/store/roster/employers.js';
import { tempDatabase, type TempDatabase } from '../helpers/temp-database.js';

const CNPJ = '11222333000181';
const CPF = '52998224725';
let open: TempDatabase | null = null;
afterEach(() => {
  open?.close();
  open = null;
});

describe('an employer by its tax id', () => {
  it('the newest answer among the payment sources that name it; a CPF as well; none for an unknown id', () => {
    open = tempDatabase('timeclock-employers-');
    const { db } = open;
    const firm = (name: string) => ({ name, cnpj: CNPJ, cpf: null, address: null });
    // Three payment sources of one firm, read at different times, the newest in the middle of the table.
    saveEmployer(db, 'ps-1', firm('Construtora Antiga Ltda'), 1_000);
    saveEmployer(db, 'ps-2', firm('Construtora Nova Ltda'), 3_000);
    saveEmployer(db, 'ps-3', firm('Construtora Intermediária Ltda'), 2_000);
    saveEmployer(db, 'ps-4', { name: 'Maria Empreiteira', cnpj: null, cpf: CPF, address: 'Rua A, 1' }, 1_000);
    const cache = new EmployerCache(db);
    expect(cache.byTaxId(CNPJ)).toEqual({ name: 'Construtora Nova Ltda', kind: 'cnpj', id: CNPJ, address: null });
    expect(cache.byTaxId(CPF)).toEqual({ name: 'Maria Empreiteira', kind: 'cpf', id: CPF, address: 'Rua A, 1' });
    expect(cache.byTaxId('99888777000166')).toBeNull();

    // The newest source found missing since: the next newest answer names the firm.
    saveEmployer(db, 'ps-2', 'missing', 4_000);
    expect(cache.byTaxId(CNPJ)?.name).toBe('Construtora Intermediária Ltda');
  });
});
