/**
 * What a message is: one text, or plural forms chosen by `Intl.PluralRules` for the number in its
 * `count` param (`n` unless it names another). Forms a language does not need fall back to `other`.
 */
import type { AdminCode } from '../contract/admin-codes.js';

export type PluralText = {
  readonly count?: string;
  readonly zero?: string;
  readonly one?: string;
  readonly two?: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
};
export type Text = string | PluralText;

/** A translation of a table: exactly the English table's keys (the compiler checks), each a text. */
export type Texts<T> = { readonly [K in keyof T]: Text };

/** The answers of the admin calls: one text per code of the contract's adminCodeSchema. */
export type AnswerTexts = { readonly [C in AdminCode as `answer.${C}`]: Text };
