/**
 * `timeclock doctor [--json] [--config FILE]`: checks a terminal end to end, one line per check.
 * Safe beside a running terminal: it never takes the agent's lock, opens the database read-only,
 * makes one GET of the API (and, through a proxy, one CONNECT tunnel to test the way) and writes nothing. Exit 0 unless
 * a check failed (1); 2 when the
 * configuration cannot be read, as every command.
 */
import { openCheckedDatabase, type CheckedDatabase } from '../../agent/diagnostics/doctor-reads.js';
import { readNtpSync, type NtpReading } from '../../agent/host/ntp-sync.js';
import type { LoadedConfig } from '../../config.js';
import { ConfigError, loadConfig } from '../../config.js';
import type { Clock } from '../../domain/time/clock.js';
import type { HidBackend } from '../../input/hid-backend.js';
import { NodeHidBackend } from '../../input/node-hid-backend.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';
import {
  browserCheck,
  configurationCheck,
  databaseCheck,
  dataDirCheck,
  diskSpaceCheck,
  realFs,
  versionsCheck,
  type FsIo,
} from './local-checks.js';
import { fail, failed, resultLines, type CheckResult } from './result.js';
import {
  clockCheck,
  probeService,
  realApi,
  serviceCheck,
  siteCheck,
  tokenInUse,
  type DoctorApiFactory,
  type ServiceProbe,
} from './service-checks.js';
import { checkNetwork, proxyCheck, trustCheck } from './network-checks.js';
import { withAbsentRoutes } from './route-checks.js';
import { adminPinCheck, rosterCheck, siteFilterOf, siteInForce, type StoredFacts } from './stored-checks.js';
import { fleetChecks } from './fleet-checks.js';
import { nsrGuardCheck, rosterEvidenceCheck, timeZoneCheck } from './evidence-checks.js';
import { journalArchivesCheck } from './archive-check.js';
import { systemTimeZone } from '../../agent/host/runtime.js';
import { realRedisProbe, type RedisProber } from '../../agent/diagnostics/redis-probe.js';
import { openForRead, readerChecks, realRunner, timeSyncCheck, type CommandRunner } from './system-checks.js';
import { drivesCheck } from './drive-checks.js';
import { cameraCheck } from './camera-check.js';
import { DEFAULT_DRIVE_ROOTS, type DriveRoots } from '../../agent/host/removable-drives.js';

/** Every edge the doctor touches, so each check can be run against stand-ins. */
export type DoctorIo = {
  clock: Clock;
  env: NodeJS.ProcessEnv;
  fs: FsIo;
  /** Read-only, with SQLite's quick_check (agent/diagnostics/doctor-reads.ts). */
  openDb(dataDir: string): CheckedDatabase;
  api: DoctorApiFactory;
  /** The fleet's Redis (agent/diagnostics/redis-probe.ts), asked only with rateLimit.redisUrl. */
  redis: RedisProber;
  run: CommandRunner;
  hid(): HidBackend;
  openForRead(path: string): void;
  versions: NodeJS.ProcessVersions;
  /** Where removable drives are looked for (default: /proc/mounts, /sys/block, /media, /run/media, /mnt). */
  drives?: DriveRoots;
  /** This machine's time zone (default: the runtime's). */
  systemZone?: () => string;
};

export function realDoctorIo(): DoctorIo {
  return {
    clock: { now: () => Date.now() },
    env: process.env,
    fs: realFs,
    // The explicit full check: quick_check over the whole file, as the agent's background one.
    openDb: openCheckedDatabase,
    api: realApi,
    redis: realRedisProbe,
    run: realRunner,
    hid: () => new NodeHidBackend(),
    openForRead,
    versions: process.versions,
  };
}

/** Runs every check in the documented order. Throws ConfigError when the configuration cannot be loaded. */
export async function doctorResults(loaded: LoadedConfig, io: DoctorIo): Promise<CheckResult[]> {
  const { config, demo } = loaded;
  const out: CheckResult[] = [configurationCheck(loaded)];
  const dir = dataDirCheck(loaded, io.fs);
  out.push(dir.result, diskSpaceCheck(config.dataDir, io.fs));
  const database = databaseCheck(config.dataDir, dir.state, demo, io.fs, io.openDb);
  let facts: StoredFacts | null = null;
  try {
    if (database.db) facts = database.db.facts(config, demo);
  } catch (e) {
    database.result = fail(
      'database',
      `passes its integrity check but its records cannot be read: ${(e as Error).message}`,
    );
  } finally {
    database.db?.close();
  }
  out.push(database.result);

  const siteId = siteInForce(facts, config, demo);
  let probe: ServiceProbe | null = null;
  // The way out first (proxy, CA list): the service check's request goes the same way.
  const network = config.api ? await checkNetwork(config.api, io.env) : null;
  out.push(proxyCheck(network), trustCheck(network, io.clock.now()));
  let tokenUsed: string | null = null;
  if (config.api) {
    const token = tokenInUse(config.api.token, config.dataDir, facts?.tokenSavedIn ?? null);
    tokenUsed = token.token;
    probe = await probeService(config.api, token, siteId, io.clock, io.api, network?.network);
  }
  out.push(withAbsentRoutes(serviceCheck(probe, config.api?.timeoutMs ?? 0), facts?.absentRoutes, io.clock.now()));
  out.push(siteCheck(siteId, probe, siteFilterOf(facts, siteId), demo));
  out.push(rosterCheck(facts, io.clock.now(), config.roster.refreshMs, demo));
  out.push(rosterEvidenceCheck(facts, Boolean(config.employer.cnpj || config.employer.cpf)));
  out.push(
    clockCheck(probe, config.clockSkewThresholdMs, demo, {
      ntp: await ntpReading(config.clock.ntpSynchronized, io),
      boundMs: config.clock.serviceSkewBoundMs,
    }),
  );
  out.push(...(await fleetChecks(config, tokenUsed, demo, io.redis)));
  out.push(await timeSyncCheck(io.run));
  out.push(...(await readerChecks(config.readers, io.hid, io.openForRead)));
  out.push(adminPinCheck(facts, demo));
  out.push(browserCheck(io.env, io.fs));
  out.push(versionsCheck(io.versions));
  out.push(await drivesCheck(io.drives ?? DEFAULT_DRIVE_ROOTS));
  out.push(timeZoneCheck(config, facts, (io.systemZone ?? systemTimeZone)(), demo), nsrGuardCheck(facts));
  out.push(...cameraCheck(config, facts));
  out.push(journalArchivesCheck(facts, io.clock.now()));
  return out;
}

/** This machine's NTP state as the agent would read it, or as the configuration says it. */
async function ntpReading(configured: 'auto' | 'yes' | 'no', io: DoctorIo): Promise<NtpReading> {
  if (configured !== 'auto') return { sync: configured, source: 'clock.ntpSynchronized in the configuration' };
  const exists = (p: string): boolean => {
    try {
      io.fs.stat(p);
      return true;
    } catch {
      return false;
    }
  };
  return readNtpSync({ run: io.run, exists, platform: process.platform });
}

function print(results: readonly CheckResult[], json: boolean | undefined): void {
  process.stdout.write((json ? JSON.stringify(results) : resultLines(results)) + '\n');
}

export async function runDoctor(opts: CliOptions, args: string[], io: DoctorIo = realDoctorIo()): Promise<number> {
  if (args.length > 0)
    throw new UsageError(
      `doctor takes no arguments (got '${args.join(' ')}'); usage: timeclock doctor [--json] [--config FILE]`,
    );
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig({ file: opts.config, env: io.env });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // Nothing else can be checked without it; the line says what, the exit code is every command's.
    print([fail('configuration', e.problems.join('; '))], opts.json);
    return Exit.usage;
  }
  const results = await doctorResults(loaded, io);
  print(results, opts.json);
  return failed(results) ? Exit.error : Exit.ok;
}
