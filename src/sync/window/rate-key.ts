import { createHash } from 'node:crypto';

/**
 * The service's address as the account's window key is made from (issue 24): spelled apart, one
 * service would split the fleet into windows that each allow the whole limit. WHATWG parsing
 * lower-cases the scheme and host and drops a default port (:443, :80); credentials, the fragment
 * and trailing slashes go too. An address already spelled so is unchanged, so terminals of an
 * earlier version keep meeting in the same window. Never holds credentials: it is shown.
 */
export function accountUrl(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    // The config schema allows only URLs; this keeps a key for anything else, as before.
    return baseUrl.trim().replace(/\/+$/, '');
  }
  const host = u.host.toLowerCase().replace(/\.(?=:|$)/, ''); // `example.com.` is `example.com`
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${host}${path}${u.search}`;
}

/**
 * The key of an account's window: a hash of the service's address (accountUrl) and the token, so
 * the terminals of one account meet without configuring a key, and the token never reaches Redis.
 */
export function defaultRateKey(baseUrl: string, token: string): string {
  const account = `${accountUrl(baseUrl)}\n${token}`;
  return `timeclock:rate:${createHash('sha256').update(account).digest('hex').slice(0, 16)}`;
}

/**
 * Where the window's key comes from, for status and doctor: the key, and the address it was made from or the setting.
 */
export type RateKeyOrigin = { key: string; from: string };

export function rateKeyOrigin(redisKey: string | undefined, baseUrl: string, token: string): RateKeyOrigin {
  if (redisKey) return { key: redisKey, from: 'rateLimit.redisKey' };
  return { key: defaultRateKey(baseUrl, token), from: `${accountUrl(baseUrl)} and the API token` };
}
