/**
 * How long a PIN prompt stays open without a key (issue 29): the console's prompt and the screen's
 * PIN step both close after it, so a worker who typed an ID and walked away does not leave the next
 * person's ID to be taken as a PIN. Issue 29 asks for 10-15 s; a PIN is 4-8 digits, typed in a few.
 * Shared with the browser: the screen's PIN step uses the same figure.
 */
export const PIN_PROMPT_MS = 12_000;

/**
 * The agent's one-time challenge for a scanned badge's PIN lives this long from the scan, whatever
 * keys are typed: a slow typist whose prompt keeps being renewed by keys still gets an answer.
 */
export const PIN_CHALLENGE_MS = 30_000;
