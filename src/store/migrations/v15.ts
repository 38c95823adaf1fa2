/**
 * Migration 15 (issue 30): who is on site, and the evacuation roll call.
 *
 * `presence_people`: each person's last known punch at the site (this terminal's, another
 * terminal's through the fleet's Redis, or the service's records of the day), so the board and
 * `timeclock presence` read one small table, beside a running terminal too. `presence_outbox`: what
 * is still to be published to the site's stream in Redis (a punch, a roll call's start, a mark, its
 * end), written after the punch's commit and deleted once Redis has it: a Redis out of reach delays
 * it, never the punch. `presence_meta`: where the stream was read up to. `roll_calls` and
 * `roll_call_marks`: a roll call's frozen list and who was marked safe, by whom, at which terminal.
 */
export const migration15 = `
  CREATE TABLE presence_people (
    employee_key   TEXT PRIMARY KEY,
    external_id    TEXT,
    event_id       TEXT NOT NULL,
    at             INTEGER NOT NULL,
    local_date     TEXT NOT NULL,
    local_time     TEXT NOT NULL,
    direction      TEXT NOT NULL,                 -- entry | exit
    terminal       TEXT NOT NULL,
    gate           TEXT NOT NULL,
    source         TEXT NOT NULL,                 -- own | stream | service
    entry_at       INTEGER,
    entry_gate     TEXT
  );
  CREATE TABLE presence_outbox (
    id          INTEGER PRIMARY KEY,
    event       TEXT NOT NULL,                 -- the stream entry's JSON (sync/presence-stream.ts)
    created_at  INTEGER NOT NULL
  );
  CREATE TABLE presence_meta (
    one         INTEGER PRIMARY KEY,            -- always 1
    stream_key  TEXT,
    stream_id   TEXT,                          -- the last stream entry applied
    sources     TEXT                           -- the running terminal's sources of the board (JSON), for the command line
  );
  CREATE TABLE roll_calls (
    id          TEXT PRIMARY KEY,
    started_at  INTEGER NOT NULL,
    started_by  TEXT NOT NULL,                 -- the terminal where it was started
    local_date  TEXT NOT NULL,
    list        TEXT NOT NULL,                 -- the frozen list (JSON)
    ended_at    INTEGER,
    files       TEXT                           -- the CSV and PDF written at the end (JSON)
  );
  CREATE TABLE roll_call_marks (
    roll_call_id TEXT NOT NULL,
    employee_key TEXT NOT NULL,
    at           INTEGER NOT NULL,
    how          TEXT NOT NULL,                -- touch | badge
    terminal     TEXT NOT NULL,
    PRIMARY KEY (roll_call_id, employee_key)
  );
  `;
