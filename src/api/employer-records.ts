/**
 * Reading an employer (`GET /payment-sources/{id}`; the spec's "Employer (payment source)": name,
 * cpf or cnpj without mask, address with cep, street_name, street_number, complement, city, state).
 * Read shapes are "not shown", so every field is optional and read on its own; a CPF or CNPJ that
 * is not of its pattern is not an identifier we can print on a receipt or an AFD header (null).
 */
import { cutText, FIELD_TEXT_MAX } from '../domain/people/long-text.js';

export type EmployerRecord = { name: string | null; cnpj: string | null; cpf: string | null; address: string | null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const t = v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return t === '' ? null : cutText(t, FIELD_TEXT_MAX);
};

/** "Rua das Flores, 100, sala 2 - São Paulo/SP - CEP 01000-000" from the parts that are there. */
function addressLine(raw: unknown): string | null {
  if (!isObject(raw)) return null;
  const street = [text(raw['street_name']), text(raw['street_number']), text(raw['complement'])]
    .filter(Boolean)
    .join(', ');
  const city = [text(raw['city']), text(raw['state'])].filter(Boolean).join('/');
  const cep = text(raw['cep']);
  const parts = [street, city, cep ? `CEP ${cep}` : ''].filter((p) => p !== '');
  return parts.length === 0 ? null : parts.join(' - ');
}

/** Null: the answer is not an object. */
export function readEmployer(raw: unknown): EmployerRecord | null {
  if (!isObject(raw)) return null;
  const cnpj = typeof raw['cnpj'] === 'string' && /^[0-9A-Z]{12}\d{2}$/.test(raw['cnpj']) ? raw['cnpj'] : null;
  const cpf = typeof raw['cpf'] === 'string' && /^\d{11}$/.test(raw['cpf']) ? raw['cpf'] : null;
  // Exactly one of them, says the spec; both is no answer we can choose from.
  return {
    name: text(raw['name']),
    cnpj: cpf && cnpj ? null : cnpj,
    cpf: cpf && cnpj ? null : cpf,
    address: addressLine(raw['address']),
  };
}
