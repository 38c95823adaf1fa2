import { describe, expect, it } from 'vitest';
import {
  clockWarning,
  connectionText,
  IDLE_LOCATION_CHARS,
  setupKindOf,
  setupProblemView,
  shorten,
  shortLocation,
  warningsView,
} from '../src/connection-view.js';
import { status } from './status-fixture.js';

// 2025-03-05 15:07:30 UTC = 12:07:30 in São Paulo
const AT = Date.UTC(2025, 2, 5, 15, 7, 30);
const SP = 'America/Sao_Paulo';

const redirect = {
  at: AT,
  reason: 'the service answered from another address: https://sso.example.com/login (HTTP 302)',
  location: 'https://sso.example.com/login',
};
const noLocation = {
  at: AT,
  reason: 'the service answered from another address: (no Location header) (HTTP 301)',
  location: null,
};
const notApi = {
  at: AT,
  reason: 'this address does not look like the API (HTTP 404, text/html: <html><body>Not Found</body></html>)',
  location: null,
};

describe('set-up problem: the service answered from another address, or not as the API', () => {
  it('a redirect names where it points and asks to check the API address, in the screen’s language', () => {
    const pt = setupProblemView(redirect, 'pt-BR', SP);
    expect(pt.kind).toBe('redirect');
    expect(pt.location).toBe('https://sso.example.com/login');
    expect(pt.line).toBe(
      'Envio pausado: o serviço respondeu de outro endereço (https://sso.example.com/login) — verifique o endereço da API',
    );
    expect(setupProblemView(redirect, 'en', SP).line).toBe(
      'Sending paused: the service answered from another address (https://sso.example.com/login) — check the API address',
    );
  });

  it('a redirect without a Location header still says it is another address, without one', () => {
    expect(setupKindOf(noLocation)).toBe('redirect');
    const v = setupProblemView(noLocation, 'pt-BR', SP);
    expect(v.location).toBeNull();
    expect(v.line).toBe('Envio pausado: o serviço respondeu de outro endereço — verifique o endereço da API');
    expect(setupProblemView(noLocation, 'en', SP).line).toBe(
      'Sending paused: the service answered from another address — check the API address',
    );
  });

  it('an answer that is not the API’s (an HTML page, a proxy’s 404) asks to check the API address (words, not a configuration key)', () => {
    expect(setupKindOf(notApi)).toBe('not_api');
    expect(setupProblemView(notApi, 'pt-BR', SP).line).toBe(
      'Envio pausado: este endereço não parece ser a API — confira o endereço da API na configuração',
    );
    expect(setupProblemView(notApi, 'en', SP).line).toBe(
      'Sending paused: this address does not look like the API — check the API address in the configuration',
    );
  });

  it('the admin screen shows the service’s answer and since when, saying punches are still saved', () => {
    const pt = setupProblemView(notApi, 'pt-BR', SP);
    expect(pt.reason).toBe(
      'Detalhes: this address does not look like the API (HTTP 404, text/html: <html><body>Not Found</body></html>)',
    );
    expect(pt.since).toBe(
      'Desde 05/03/2025, 12:07:30. Os registros continuam sendo salvos aqui, e o envio é tentado de novo automaticamente.',
    );
    const en = setupProblemView(redirect, 'en', SP);
    expect(en.reason).toBe(
      'Details: the service answered from another address: https://sso.example.com/login (HTTP 302)',
    );
    expect(en.since).toBe(
      'Since 03/05/2025, 12:07:30. Punches are still saved here, and sending is tried again automatically.',
    );
  });

  it('a long address is shortened on the line (its query first), and kept whole in `location`', () => {
    const long = 'https://login.microsoftonline.com/common/oauth2/authorize?client_id=abc&redirect_uri=x';
    const v = setupProblemView({ at: AT, reason: 'x', location: long }, 'pt-BR', SP, {
      maxLocation: IDLE_LOCATION_CHARS,
    });
    expect(v.location).toBe(long);
    expect(v.line).toBe(
      'Envio pausado: o serviço respondeu de outro endereço (https://login.microsoftonline.com/commo…) — verifique o endereço da API',
    );
    expect(shortLocation('https://api.example.com/v1/?page=2', 30)).toBe('https://api.example.com/v1/');
    expect(shortLocation('https://api.example.com/', 30)).toBe('https://api.example.com/');
    expect(shorten('short', 10)).toBe('short');
    expect(shorten('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('idle connection line', () => {
  it('says online, sending, offline, paused and connecting in the screen’s language', () => {
    expect(connectionText(status(), 'pt-BR')).toBe('Conectado');
    expect(connectionText(status({ unsent: 2 }), 'en')).toBe('Online — sending 2 punches');
    expect(connectionText(status({ online: false, unsent: 3 }), 'pt-BR')).toBe(
      'Sem conexão — 3 registros aguardando envio',
    );
    expect(connectionText(status({ online: false }), 'en')).toBe('No connection — punches are saved here');
    expect(connectionText(status({ sendingPaused: { reason: 'auth', until: 1 }, unsent: 5 }), 'pt-BR')).toBe(
      'Envio pausado — 5 registros aguardando',
    );
    expect(connectionText(null, 'en')).toBe('Connecting…');
  });

  it('a service answering with server errors says so, with what waits, in the three languages', () => {
    const service = { state: 'errors' as const, since: 5, reason: 'HTTP 503' };
    expect(connectionText(status({ online: false, service, unsent: 3 }), 'pt-BR')).toBe(
      'Serviço com erro — 3 registros aguardando',
    );
    expect(connectionText(status({ online: false, service, unsent: 1 }), 'es')).toBe(
      'Servicio con errores — 1 registro en espera',
    );
    expect(connectionText(status({ online: false, service }), 'en')).toBe('Service errors — punches are saved here');
  });

  it('with a set-up problem, says so plainly instead', () => {
    expect(connectionText(status({ setupProblem: redirect, unsent: 4 }), 'pt-BR')).toBe(
      'Envio pausado: o serviço respondeu de outro endereço (https://sso.example.com/login) — verifique o endereço da API',
    );
    expect(connectionText(status({ setupProblem: notApi, online: false }), 'en')).toBe(
      'Sending paused: this address does not look like the API — check the API address in the configuration',
    );
  });
});

describe('configuration warnings', () => {
  it('lists the agent’s warnings under a heading in the screen’s language', () => {
    const w =
      'api.rateLimit.limit is 120 per 60 s, above the account’s 60 per minute: the service may refuse requests (429)';
    expect(warningsView([w], 'pt-BR')).toEqual({ title: 'Avisos de configuração', items: [w] });
    expect(warningsView([w, '  '], 'en')).toEqual({ title: 'Configuration warnings', items: [w] });
  });

  it('says nothing without warnings', () => {
    expect(warningsView([], 'pt-BR')).toBeNull();
    expect(warningsView([''], 'en')).toBeNull();
  });
});

describe('the clock error, said plainly past the 30 s tolerance', () => {
  it("names how far and which way, in the screen's language; nothing within the tolerance", () => {
    expect(clockWarning(null, 'pt-BR')).toBeNull();
    expect(clockWarning(-29_000, 'pt-BR')).toBeNull();
    expect(clockWarning(-7_200_000, 'pt-BR')).toMatch(
      /^O relógio deste terminal está 2 h adiantado em relação ao do serviço\. Os registros usam a hora do serviço/,
    );
    expect(clockWarning(45_000, 'en')).toMatch(/^This terminal's clock is 45 sec slow against the service's\./);
  });
});
