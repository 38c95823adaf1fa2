/** The account window's key (issue 24): one service spelled apart must meet in one window. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountUrl, defaultRateKey, rateKeyOrigin } from '../../src/sync/window/rate-key.js';

describe('accountUrl: the service address the window key is made from', () => {
  it.each([
    ['https://api.example.com/v2', 'https://api.example.com/v2'],
    ['https://api.example.com/v2/', 'https://api.example.com/v2'],
    ['https://api.example.com/v2//', 'https://api.example.com/v2'],
    ['HTTPS://API.Example.COM/v2', 'https://api.example.com/v2'],
    ['https://api.example.com:443/v2', 'https://api.example.com/v2'],
    ['http://api.example.com:80/', 'http://api.example.com'],
    ['https://api.example.com./v2', 'https://api.example.com/v2'],
    ['  https://api.example.com/v2  ', 'https://api.example.com/v2'],
    ['https://api.example.com/v2#top', 'https://api.example.com/v2'],
  ])('%s → %s', (given, normal) => {
    expect(accountUrl(given)).toBe(normal);
  });

  it('keeps what names another service: a port that is not the default, another path, another scheme, a query', () => {
    expect(accountUrl('https://api.example.com:8443/v2')).toBe('https://api.example.com:8443/v2');
    expect(accountUrl('http://api.example.com:443/v2')).toBe('http://api.example.com:443/v2');
    expect(accountUrl('https://api.example.com/V2')).toBe('https://api.example.com/V2');
    expect(accountUrl('https://api.example.com/v2?tenant=7')).toBe('https://api.example.com/v2?tenant=7');
  });

  it('never holds credentials (it is shown in status and doctor)', () => {
    expect(accountUrl('https://user:s3cret@api.example.com/v2')).toBe('https://api.example.com/v2');
  });
});

describe('defaultRateKey', () => {
  it('is one key for every spelling of one service and token, as before for an address spelled plainly', () => {
    const plain = defaultRateKey('https://api.example.com/v2', 'tok');
    for (const u of ['https://API.example.com:443/v2/', 'HTTPS://api.example.com/v2//', 'https://api.example.com./v2'])
      expect(defaultRateKey(u, 'tok')).toBe(plain);
    // The earlier version's key (sha256 of the address without trailing slashes, a newline, the token): terminals not
    // yet upgraded still meet.
    expect(plain).toBe(
      `timeclock:rate:${createHash('sha256').update('https://api.example.com/v2\ntok').digest('hex').slice(0, 16)}`,
    );
  });

  it('differs for another token or another service', () => {
    const plain = defaultRateKey('https://api.example.com/v2', 'tok');
    expect(defaultRateKey('https://api.example.com/v2', 'other')).not.toBe(plain);
    expect(defaultRateKey('https://api.example.com:8443/v2', 'tok')).not.toBe(plain);
  });
});

describe('rateKeyOrigin', () => {
  it('names the normalised address, or the setting when a key is configured', () => {
    expect(rateKeyOrigin(undefined, 'https://u:p@API.example.com:443/v2/', 'tok')).toEqual({
      key: defaultRateKey('https://api.example.com/v2', 'tok'),
      from: 'https://api.example.com/v2 and the API token',
    });
    expect(rateKeyOrigin('my:key', 'https://api.example.com', 'tok')).toEqual({
      key: 'my:key',
      from: 'rateLimit.redisKey',
    });
  });
});
