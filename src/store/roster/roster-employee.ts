/** An employee as the terminal keeps them (store/roster/roster.ts), one row of roster_employees. */
export type RosterEmployee = {
  /** The service's `_id`; `ext:<external_id>` for a record that came without one. */
  id: string;
  external_id: string | null;
  /** The name on screen: the service's, else the registration number, else the external id. */
  full_name: string;
  cpf: string | null;
  registration_number: string | null;
  /** A zone the terminal can use, or null (then the site's, else the terminal's). */
  timezone: string | null;
  work_schedule: string | null;
  payment_source: string | null;
  /** `allow_external_api_record`: 1, 0, or null (not defined by the service). */
  allow_api_record: 0 | 1 | null;
  /** The zone the service gave when the terminal cannot load it (shown in roster health). */
  timezone_invalid: string | null;
};
