import type { AdminCode, AdminParams } from '../../src/contract.js';

/**
 * Every string the screens show. `en` is the typed source of keys; `pt-BR` must have exactly the
 * same keys (the compiler checks), and the same {placeholders} (a unit test checks).
 */
export type Lang = 'pt-BR' | 'en';
export const LANGS: readonly Lang[] = ['pt-BR', 'en'];

/**
 * The answers of the admin calls, one per `code` of src/contract.ts `adminCodeSchema` (the compiler
 * checks every code has one, and no more), filled with the answer's `params`. See `answerText`.
 */
type AnswerStrings = { readonly [C in AdminCode as `answer.${C}`]: string };

const enAnswers = {
  'answer.retry_queued': 'Punch {id} queued to be sent again.',
  'answer.retry_not_rejected': 'Punch {id} is not a rejected punch (any more).',
  'answer.employee_not_found': 'No employee {query} in the roster (by ID, registration number or CPF).',
  'answer.badge_invalid': 'This badge code is not valid; nothing was enrolled.',
  'answer.badge_enrolled': 'Badge enrolled for {name}.',
  'answer.badge_moved': 'Badge enrolled for {name} (it belonged to {previousName} before).',
  'answer.badge_unenrolled': 'Badge {badge} removed.',
  'answer.badge_not_enrolled': 'Badge {badge} was not enrolled.',
  'answer.enroll_timeout': 'No badge was scanned in time for {employee}. Try again.',
  'answer.enroll_replaced': 'Replaced by a newer badge enrollment request.',
  'answer.pin_set': 'PIN set for {name}.',
  'answer.pin_cleared': 'PIN removed for {name}.',
  'answer.pin_not_set': '{name} had no PIN.',
  'answer.pin_bad_format': 'A PIN has {min} to {max} digits (0-9 only); nothing was changed.',
  'answer.pin_save_failed': 'The PIN for {name} could not be saved ({error}).',
  'answer.admin_pin_set': 'Manager PIN set.',
  'answer.settings_busy': 'Another settings change is under way; try again in a moment.',
  'answer.token_saved': 'API token saved ({store}); the service accepted it and sending resumes.',
  'answer.token_saved_unchecked': 'API token saved ({store}), not checked: the service could not be reached ({reason}); it is used from now on.',
  'answer.token_invalid': 'The token must not be empty, longer than {max} characters, or contain spaces or line breaks; nothing was changed.',
  'answer.token_demo': 'Demo mode: the demo always uses its own token, so nothing was saved. Configure the real API (api.baseUrl) and set the token again there.',
  'answer.token_refused': 'The service refused this token ({reason}); it was not saved and the current token stays in use.',
  'answer.token_save_failed': 'The token could not be saved ({error}); nothing was changed.',
  'answer.site_set': 'Site set to {name} ({siteId}); its roster is being fetched, the current roster stays in use until the new one is complete.',
  'answer.site_set_unchecked': 'Site set to {siteId}, not checked: the service could not be reached ({reason}); its roster is fetched when it can be, the current roster stays in use until then.',
  'answer.site_same': 'The terminal already uses site {siteId}.',
  'answer.site_invalid': 'A site ID is 24 hexadecimal characters (0-9, a-f), as the service shows it; nothing was changed.',
  'answer.site_unknown': 'The service has no site {siteId}; nothing was changed.',
  'answer.site_refused': 'The service refused site {siteId} ({reason}); nothing was changed.',
  'answer.site_needs_token': 'The service refuses the API token, so the site cannot be checked: set a working token first; nothing was changed.',
  'answer.site_save_failed': 'The site could not be saved ({error}); nothing was changed.',
  'answer.budget_set': 'Request budget set to {limit} per {window} s (was {previousLimit} per {previousWindow} s); requests already made still count.',
  'answer.budget_invalid': 'Requests must be a whole number from 1 to 10000 and the window from 1 s to 1 h; nothing was changed.',
  'answer.budget_save_failed': 'The request budget could not be saved ({error}); nothing was changed.',
} as const satisfies AnswerStrings;

const ptAnswers: AnswerStrings = {
  'answer.retry_queued': 'Registro {id} reenviado para envio.',
  'answer.retry_not_rejected': 'O registro {id} não está (mais) entre os recusados.',
  'answer.employee_not_found': 'Nenhum funcionário {query} na equipe (por matrícula, número de registro ou CPF).',
  'answer.badge_invalid': 'Código de crachá inválido; nada foi cadastrado.',
  'answer.badge_enrolled': 'Crachá cadastrado para {name}.',
  'answer.badge_moved': 'Crachá cadastrado para {name} (antes era de {previousName}).',
  'answer.badge_unenrolled': 'Crachá {badge} descadastrado.',
  'answer.badge_not_enrolled': 'O crachá {badge} não estava cadastrado.',
  'answer.enroll_timeout': 'Nenhum crachá foi passado a tempo para {employee}. Tente novamente.',
  'answer.enroll_replaced': 'Substituído por um pedido de cadastro de crachá mais recente.',
  'answer.pin_set': 'PIN definido para {name}.',
  'answer.pin_cleared': 'PIN de {name} removido.',
  'answer.pin_not_set': '{name} não tinha PIN.',
  'answer.pin_bad_format': 'O PIN deve ter de {min} a {max} dígitos (apenas números de 0 a 9); nada foi alterado.',
  'answer.pin_save_failed': 'Não foi possível salvar o PIN de {name} ({error}).',
  'answer.admin_pin_set': 'PIN do gestor definido.',
  'answer.settings_busy': 'Outra alteração de ajustes está em andamento; tente novamente em instantes.',
  'answer.token_saved': 'Token da API salvo ({store}); o serviço aceitou o token e o envio foi retomado.',
  'answer.token_saved_unchecked': 'Token da API salvo ({store}), sem conferência: não foi possível falar com o serviço ({reason}); ele passa a ser usado a partir de agora.',
  'answer.token_invalid': 'O token não pode estar vazio, ter mais de {max} caracteres nem conter espaços ou quebras de linha; nada foi alterado.',
  'answer.token_demo': 'Modo demonstração: o token da demonstração é fixo; nada foi salvo. Configure a API real (api.baseUrl) e defina o token novamente.',
  'answer.token_refused': 'O serviço recusou este token ({reason}); ele não foi salvo e o token atual continua em uso.',
  'answer.token_save_failed': 'Não foi possível salvar o token ({error}); nada foi alterado.',
  'answer.site_set': 'Local definido: {name} ({siteId}). A equipe do local está sendo baixada; a equipe atual continua em uso até a nova ficar completa.',
  'answer.site_set_unchecked': 'Local definido: {siteId}, sem conferência: não foi possível falar com o serviço ({reason}). A equipe do local será baixada assim que possível; a atual continua em uso até lá.',
  'answer.site_same': 'O terminal já usa o local {siteId}.',
  'answer.site_invalid': 'O ID do local tem 24 caracteres hexadecimais (0-9, a-f), como o serviço o mostra; nada foi alterado.',
  'answer.site_unknown': 'O serviço não tem o local {siteId}; nada foi alterado.',
  'answer.site_refused': 'O serviço recusou o local {siteId} ({reason}); nada foi alterado.',
  'answer.site_needs_token': 'O serviço recusa o token da API, então o local não pode ser conferido: defina primeiro um token válido; nada foi alterado.',
  'answer.site_save_failed': 'Não foi possível salvar o local ({error}); nada foi alterado.',
  'answer.budget_set': 'Limite de requisições definido para {limit} a cada {window} s (antes: {previousLimit} a cada {previousWindow} s); as requisições já feitas continuam contando.',
  'answer.budget_invalid': 'As requisições devem ser um número inteiro de 1 a 10000, e a janela de 1 s a 1 h; nada foi alterado.',
  'answer.budget_save_failed': 'Não foi possível salvar o limite de requisições ({error}); nada foi alterado.',
};

const en = {
  'app.title': 'Time clock',
  'loading': 'Starting…',
  'agent.down.title': 'Terminal not answering',
  'agent.down.body': 'The time clock service is not responding. Punches cannot be taken right now; please try again in a moment or call the manager.',
  'agent.down.retrying': 'Trying again…',

  'idle.prompt': 'Scan your badge or type your ID',
  'idle.typeId': 'Type your ID',
  'idle.admin': 'Manager',
  'idle.language': 'Português',
  'idle.noSite': 'Time clock',

  'conn.online': 'Online',
  'conn.onlineSending': 'Online — sending {n} punches',
  'conn.offline': 'No connection — {n} punches waiting to be sent',
  'conn.offlineNone': 'No connection — punches are saved here',
  'conn.paused': 'Sending paused — {n} punches waiting',
  'conn.unknown': 'Connecting…',

  'keypad.titleId': 'Type your ID',
  'keypad.titlePin': 'Type your PIN',
  'keypad.titlePinFor': '{name}, type your PIN',
  'keypad.titleAdmin': 'Manager PIN',
  'keypad.ok': 'OK',
  'keypad.cancel': 'Cancel',
  'keypad.clear': 'Clear',
  'keypad.back': 'Erase',
  'keypad.sending': 'Sending…',

  'admin.wrongPin': 'Wrong PIN. Try again.',
  'admin.tooMany': 'Too many wrong PINs. Wait a minute and try again.',
  'admin.expired': 'Session expired. Type the manager PIN again.',

  'result.ok': 'Punch registered',
  'result.repeat': 'Already registered',
  'result.refused': 'Punch NOT registered',
  'result.enrollment': 'Badge enrollment',
  'result.unresolved': 'Punch saved',
  'result.saved': 'Registered at {time}.',
  'result.queued': 'Saved, will be sent when the connection returns.',
  'result.repeatAt': 'You already registered at {time}.',
  'result.tapToClose': 'Tap to close',
  'reason.unknown_credential': 'Badge or ID not recognised. Please see the manager.',
  'reason.invalid_code': 'This code is not valid. Please try again.',
  'reason.invalid_cpf': 'Invalid CPF: please check the digits.',
  'reason.ambiguous_credential': 'This ID matches more than one person. Please see the manager.',
  'reason.pin_required': 'A PIN is required: type your ID on the keypad.',
  'reason.pin_wrong': 'Wrong PIN. Please try again.',
  'reason.pin_locked': 'Your PIN is locked after too many wrong tries. Please see the manager.',
  'reason.pin_throttled': 'Too many wrong PINs at this terminal. Wait a moment and try again.',
  'reason.no_pin': 'You have no PIN yet. Please see the manager.',
  'reason.pin_expired': 'Too late for that PIN. Scan your badge again.',
  'reason.storage_failed': 'The punch could not be saved. Call the manager.',
  'reason.shutting_down': 'The terminal is restarting. Try again in a moment.',
  'reason.no_answer': 'The terminal did not answer. Please try again.',

  'tab.queue': 'Queue',
  'tab.roster': 'Roster',
  'tab.readers': 'Readers',
  'tab.connection': 'Connection',
  'tab.settings': 'Settings',
  'admin.lock': 'Lock',
  'admin.title': 'Administration',
  'admin.notice.punch': 'Punch: {name} at {time}',
  'admin.notice.refused': 'Punch refused: {message}',
  'admin.failed': 'Failed: {message}',

  'queue.pending': 'Waiting',
  'queue.sending': 'Sending',
  'queue.in_doubt': 'In doubt',
  'queue.sent': 'Sent',
  'queue.rejected': 'Rejected',
  'queue.oldest': 'Oldest waiting',
  'queue.none': 'none',
  'queue.lastError': 'Last error',
  'queue.paused': 'Sending paused',
  'queue.pausedRetryAfter': 'the service asked to wait, until {time}',
  'queue.pausedAuth': 'the service refused the API token (since {time})',
  'queue.authRefused': 'API token refused',
  'queue.notPaused': 'no',
  'queue.rejectedList': 'Rejected punches',
  'queue.noRejected': 'No rejected punches.',
  'queue.retry': 'Retry',
  'queue.attempts': '{n} attempts',
  'queue.refresh': 'Refresh',

  'roster.size': 'Employees',
  'roster.lastSync': 'Last sync',
  'roster.never': 'never',
  'roster.syncOk': 'OK, {n} employees',
  'roster.syncFailed': 'failed: {error}',
  'roster.lastOk': 'Last good sync',
  'roster.enrolled': 'Enrolled badges',
  'roster.syncNow': 'Sync now',
  'roster.syncing': 'Syncing…',
  'roster.progress': 'Syncing: page {done} of {total}',
  'roster.progressUnknown': 'Syncing: page {done}',
  'roster.syncDone': 'Roster synced: {n} employees.',
  'roster.health': 'Incomplete records',
  'roster.healthOk': 'Every employee has a work schedule and an employer.',
  'roster.missingSchedule': 'no work schedule',
  'roster.missingEmployer': 'no employer',
  'roster.healthCounts': '{schedule} without work schedule, {employer} without employer',
  'roster.enroll': 'Enroll a badge',
  'roster.employee': 'Employee (ID, registration, CPF)',
  'roster.scanNow': 'Scan the badge now',
  'roster.waitingScan': 'Scan the badge for {employee} now…',
  'roster.needEmployee': 'Type the employee first.',

  'readers.none': 'No badge readers are configured (keyboard readers work without configuration).',
  'readers.connected': 'Connected',
  'readers.disconnected': 'Not connected',
  'readers.device': 'Device',
  'readers.lastScan': 'Last scan',
  'readers.counts': '{scans} scans, {errors} errors, {disconnects} disconnects',
  'readers.lastError': 'Last error',

  'conn.title.online': 'Service',
  'conn.state.online': 'online',
  'conn.state.offline': 'offline',
  'conn.state.unknown': 'no contact yet',
  'conn.lastContact': 'Last contact',
  'conn.ago': '{age} ago',
  'conn.rate': 'Requests',
  'conn.rateValue': '{used} of {limit} per {window}',
  'conn.skew': 'Clock difference',
  'conn.unknownValue': 'unknown',
  'conn.unresolved': 'Unresolved punches',
  'conn.unresolvedValue': '{n}, oldest {age} ago',

  'settings.token': 'API token',
  'settings.tokenPlaceholder': 'new token',
  'settings.tokenSource': 'Kept in',
  'settings.source.config': 'the configuration file',
  'settings.source.keyring': 'the system secret store',
  'settings.source.file': 'a protected file',
  'settings.source.unknown': 'unknown',
  'settings.tokenSetAt': 'set {time}',
  'settings.save': 'Save',
  'settings.site': 'Site ID',
  'settings.budget': 'Request budget',
  'settings.limit': 'requests every',
  'settings.window': 'seconds',
  'settings.needToken': 'Type the new token first.',
  'settings.needSite': 'Type the site ID first.',
  'settings.badBudget': 'Requests must be 1 to 10000 and the window 1 to 3600 seconds.',

  'common.yes': 'yes',
  'common.no': 'no',
  'common.dash': '—',

  ...enAnswers,
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
type Dictionary = { readonly [K in MessageKey]: string };

const ptBR: Dictionary = {
  'app.title': 'Relógio de ponto',
  'loading': 'Iniciando…',
  'agent.down.title': 'Terminal sem resposta',
  'agent.down.body': 'O serviço do relógio de ponto não está respondendo. Não é possível registrar o ponto agora; tente de novo em instantes ou chame o gestor.',
  'agent.down.retrying': 'Tentando novamente…',

  'idle.prompt': 'Aproxime seu crachá ou digite sua matrícula',
  'idle.typeId': 'Digitar matrícula',
  'idle.admin': 'Gestor',
  'idle.language': 'English',
  'idle.noSite': 'Relógio de ponto',

  'conn.online': 'Conectado',
  'conn.onlineSending': 'Conectado — enviando {n} registros',
  'conn.offline': 'Sem conexão — {n} registros aguardando envio',
  'conn.offlineNone': 'Sem conexão — os registros ficam salvos aqui',
  'conn.paused': 'Envio pausado — {n} registros aguardando',
  'conn.unknown': 'Conectando…',

  'keypad.titleId': 'Digite sua matrícula',
  'keypad.titlePin': 'Digite seu PIN',
  'keypad.titlePinFor': '{name}, digite seu PIN',
  'keypad.titleAdmin': 'PIN do gestor',
  'keypad.ok': 'OK',
  'keypad.cancel': 'Cancelar',
  'keypad.clear': 'Limpar',
  'keypad.back': 'Apagar',
  'keypad.sending': 'Enviando…',

  'admin.wrongPin': 'PIN incorreto. Tente novamente.',
  'admin.tooMany': 'Muitos PINs incorretos. Aguarde um minuto e tente novamente.',
  'admin.expired': 'Sessão expirada. Digite o PIN do gestor novamente.',

  'result.ok': 'Ponto registrado',
  'result.repeat': 'Já registrado',
  'result.refused': 'Ponto NÃO registrado',
  'result.enrollment': 'Cadastro de crachá',
  'result.unresolved': 'Registro salvo',
  'result.saved': 'Registrado às {time}.',
  'result.queued': 'Salvo — será enviado quando a conexão voltar.',
  'result.repeatAt': 'Você já registrou às {time}.',
  'result.tapToClose': 'Toque para fechar',
  'reason.unknown_credential': 'Crachá ou matrícula não reconhecido. Procure o gestor.',
  'reason.invalid_code': 'Código inválido. Tente novamente.',
  'reason.invalid_cpf': 'CPF inválido: confira os dígitos.',
  'reason.ambiguous_credential': 'Este código corresponde a mais de uma pessoa. Procure o gestor.',
  'reason.pin_required': 'É preciso o PIN: digite sua matrícula no teclado.',
  'reason.pin_wrong': 'PIN incorreto. Tente novamente.',
  'reason.pin_locked': 'Seu PIN foi bloqueado por excesso de tentativas. Procure o gestor.',
  'reason.pin_throttled': 'Muitas tentativas erradas neste terminal. Aguarde um pouco e tente de novo.',
  'reason.no_pin': 'Você ainda não tem PIN cadastrado. Procure o gestor.',
  'reason.pin_expired': 'O tempo para o PIN acabou. Aproxime o crachá de novo.',
  'reason.storage_failed': 'Não foi possível salvar o registro. Chame o gestor.',
  'reason.shutting_down': 'O terminal está reiniciando. Tente novamente em instantes.',
  'reason.no_answer': 'O terminal não respondeu. Tente novamente.',

  'tab.queue': 'Fila',
  'tab.roster': 'Equipe',
  'tab.readers': 'Leitores',
  'tab.connection': 'Conexão',
  'tab.settings': 'Ajustes',
  'admin.lock': 'Bloquear',
  'admin.title': 'Administração',
  'admin.notice.punch': 'Ponto: {name} às {time}',
  'admin.notice.refused': 'Ponto recusado: {message}',
  'admin.failed': 'Falhou: {message}',

  'queue.pending': 'Aguardando',
  'queue.sending': 'Enviando',
  'queue.in_doubt': 'Em dúvida',
  'queue.sent': 'Enviados',
  'queue.rejected': 'Recusados',
  'queue.oldest': 'Mais antigo aguardando',
  'queue.none': 'nenhum',
  'queue.lastError': 'Último erro',
  'queue.paused': 'Envio pausado',
  'queue.pausedRetryAfter': 'o serviço pediu para aguardar, até {time}',
  'queue.pausedAuth': 'o serviço recusou o token da API (desde {time})',
  'queue.authRefused': 'Token da API recusado',
  'queue.notPaused': 'não',
  'queue.rejectedList': 'Registros recusados',
  'queue.noRejected': 'Nenhum registro recusado.',
  'queue.retry': 'Reenviar',
  'queue.attempts': '{n} tentativas',
  'queue.refresh': 'Atualizar',

  'roster.size': 'Funcionários',
  'roster.lastSync': 'Última sincronização',
  'roster.never': 'nunca',
  'roster.syncOk': 'OK, {n} funcionários',
  'roster.syncFailed': 'falhou: {error}',
  'roster.lastOk': 'Última sincronização boa',
  'roster.enrolled': 'Crachás cadastrados',
  'roster.syncNow': 'Sincronizar agora',
  'roster.syncing': 'Sincronizando…',
  'roster.progress': 'Sincronizando: página {done} de {total}',
  'roster.progressUnknown': 'Sincronizando: página {done}',
  'roster.syncDone': 'Funcionários sincronizados: {n}.',
  'roster.health': 'Cadastros incompletos',
  'roster.healthOk': 'Todos os funcionários têm jornada e empregador.',
  'roster.missingSchedule': 'sem jornada',
  'roster.missingEmployer': 'sem empregador',
  'roster.healthCounts': '{schedule} sem jornada, {employer} sem empregador',
  'roster.enroll': 'Cadastrar crachá',
  'roster.employee': 'Funcionário (matrícula, CPF)',
  'roster.scanNow': 'Passe o crachá agora',
  'roster.waitingScan': 'Passe o crachá de {employee} agora…',
  'roster.needEmployee': 'Digite o funcionário primeiro.',

  'readers.none': 'Nenhum leitor de crachá configurado (leitores tipo teclado funcionam sem configuração).',
  'readers.connected': 'Conectado',
  'readers.disconnected': 'Desconectado',
  'readers.device': 'Dispositivo',
  'readers.lastScan': 'Última leitura',
  'readers.counts': '{scans} leituras, {errors} erros, {disconnects} desconexões',
  'readers.lastError': 'Último erro',

  'conn.title.online': 'Serviço',
  'conn.state.online': 'conectado',
  'conn.state.offline': 'sem conexão',
  'conn.state.unknown': 'ainda sem contato',
  'conn.lastContact': 'Último contato',
  'conn.ago': 'há {age}',
  'conn.rate': 'Requisições',
  'conn.rateValue': '{used} de {limit} a cada {window}',
  'conn.skew': 'Diferença de relógio',
  'conn.unknownValue': 'desconhecida',
  'conn.unresolved': 'Registros não identificados',
  'conn.unresolvedValue': '{n}, o mais antigo há {age}',

  'settings.token': 'Token da API',
  'settings.tokenPlaceholder': 'novo token',
  'settings.tokenSource': 'Guardado em',
  'settings.source.config': 'arquivo de configuração',
  'settings.source.keyring': 'cofre de senhas do sistema',
  'settings.source.file': 'arquivo protegido',
  'settings.source.unknown': 'desconhecido',
  'settings.tokenSetAt': 'definido em {time}',
  'settings.save': 'Salvar',
  'settings.site': 'ID do local',
  'settings.budget': 'Limite de requisições',
  'settings.limit': 'requisições a cada',
  'settings.window': 'segundos',
  'settings.needToken': 'Digite o novo token primeiro.',
  'settings.needSite': 'Digite o ID do local primeiro.',
  'settings.badBudget': 'Requisições de 1 a 10000 e janela de 1 a 3600 segundos.',

  'common.yes': 'sim',
  'common.no': 'não',
  'common.dash': '—',

  ...ptAnswers,
};

export const dictionaries: { readonly [L in Lang]: Dictionary } = { en, 'pt-BR': ptBR };

export type Params = Readonly<Record<string, string | number>>;

/** The text for `key` in `lang`, with {placeholders} filled in. */
export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  return dictionaries[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === 'number' ? new Intl.NumberFormat(lang).format(v) : v;
  });
}

export function isLang(v: unknown): v is Lang {
  return v === 'pt-BR' || v === 'en';
}

/** An admin call's answer: `message` is the agent's English text, `code` and `params` what the screen words itself. */
export type AdminAnswer = { message: string; code?: AdminCode | undefined; params?: Readonly<AdminParams> | undefined };

/**
 * The text of an admin call's answer in `lang`: the `answer.<code>` string filled with its params,
 * or the agent's own message when it has no code (or one this page does not know). A `store` param
 * (where the token is kept) is worded as the settings panel words it.
 */
export function answerText(lang: Lang, a: AdminAnswer): string {
  if (a.code === undefined) return a.message;
  const key = `answer.${a.code}` as const;
  if (!Object.prototype.hasOwnProperty.call(dictionaries[lang], key)) return a.message;
  const params: Record<string, string> = { ...a.params };
  const store = params['store'];
  if (store === 'keyring' || store === 'file' || store === 'config') params['store'] = t(lang, `settings.source.${store}`);
  return t(lang, key, params);
}
