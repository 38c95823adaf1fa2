import type { Texts } from '../text.js';
import type { enStatus } from '../en/status.js';

export const esStatus: Texts<typeof enStatus> = {
  'status.label.version': 'versión:',
  'status.label.terminal': 'terminal:',
  'status.label.agent': 'agente:',
  'status.label.connection': 'conexión:',
  'status.label.queue': 'cola:',
  'status.label.oldestUnsent': 'más antiguo:',
  'status.label.rateWindow': 'ventana de envío:',
  'status.label.sharedWindow': 'ventana común:',
  'status.label.idConflict': 'CONFLICTO DE ID:',
  'status.label.windowKey': 'clave de la ventana:',
  'status.windowKey': '{key} (de {from})',
  'status.label.roster': 'empleados:',
  'status.label.site': 'sede:',
  'status.label.badges': 'credenciales:',
  'status.label.clockSkew': 'desfase de reloj:',
  'status.label.serviceClock': 'reloj del servicio:',
  'status.label.database': 'base de datos:',
  'status.label.journal': 'diario:',
  'status.label.delivered': 'entregados:',
  'status.label.lastPruned': 'última limpieza:',
  'status.label.databaseFile': 'archivo de la base:',
  'status.label.apiToken': 'token de la API:',
  'status.label.held': 'retenidos:',
  'status.label.warning': 'aviso:',
  'status.label.sameMinute': 'mismo minuto:',
  'status.label.lastError': 'último error:',
  'status.label.diskLow': 'POCO ESPACIO:',
  'status.label.notSaved': 'NO GUARDADOS:',
  'status.label.nextSync': 'próxima sincronización:',
  'status.label.siteFilter': 'FILTRO DE SEDE:',
  'status.label.skipped': 'omitidos:',
  'status.label.notAllowed': 'sin permiso:',
  'status.label.rosterHealth': 'datos de empleados:',
  'status.label.noCpf': 'sin CPF:',
  'status.label.noEmployer': 'sin empleador:',
  'status.label.unmatched': 'sin identificar:',
  'status.never': 'nunca',
  'status.none': 'ninguno',
  'status.unknown': 'desconocido',
  'status.unknownReason': 'motivo desconocido',
  'status.na': 'n/d',
  'status.ago.s': 'hace {s} s',
  'status.ago.m': 'hace {m} min {s} s',
  'status.ago.h': 'hace {h} h {m} min',
  'status.ago.d': 'hace {d} d {h} h',
  'status.since': ' ({ago})',
  'status.shortly': 'en breve',
  'status.afterStart': 'cuando se inicie',
  'status.mb': '{n} MB',
  'status.onHost': '{id} en el equipo {host}',
  'status.agent.running': 'en marcha',
  'status.agent.stopped': 'detenido (estado leído de la base de datos)',
  'status.conn.errors': 'EL SERVICIO RESPONDE CON ERRORES: los registros se conservan, el envío espacia los intentos',
  'status.conn.errorsWhy':
    'EL SERVICIO RESPONDE CON ERRORES ({why}): los registros se conservan, el envío espacia los intentos',
  'status.conn.none': 'ninguna solicitud todavía',
  'status.conn.online': 'conectado',
  'status.conn.offline': 'SIN CONEXIÓN',
  'status.conn.offlineWhy': 'SIN CONEXIÓN ({why})',
  'status.conn.lastAnswer': '; última respuesta {ago}',
  'status.queue':
    'pendientes {pending}, enviando {sending}, en duda {in_doubt}, enviados {sent}, rechazados {rejected}, ' +
    'retenidos {held}',
  'status.rateWindow': '{used}/{limit} usadas (cada {seconds} s)',
  'status.rate.unknown': 'desconocida (el agente en marcha no la registró)',
  'status.rate.local': 'solo este terminal (sin Redis configurado): se ajusta al límite de la cuenta al recibir 429',
  'status.rate.redis': 'compartida con los terminales de la cuenta en Redis',
  'status.rate.joining':
    'uniéndose a la ventana de la cuenta en Redis (no se envía nada hasta que responda, o como mucho unos segundos)',
  'status.rate.fallback': 'CUOTA LOCAL: {why}; este terminal envía con su propia cuota ({setting}) — {fix}',
  'status.rate.fallbackSaid':
    'CUOTA LOCAL: {why} ({said}); este terminal envía con su propia cuota ({setting}) — {fix}',
  'status.redisWhy.connecting': 'Redis no ha respondido desde el inicio',
  'status.redisWhy.unreachable': 'Redis es inaccesible',
  'status.redisWhy.auth': 'Redis rechazó la contraseña',
  'status.redisWhy.timeout': 'Redis dejó de responder a tiempo',
  'status.redisWhy.bad_answer': 'Redis responde lo que los scripts nunca devuelven',
  'status.redisWhy.error': 'Redis respondió con un error',
  'status.redisFix.connecting': 'revise {setting} y la red',
  'status.redisFix.unreachable': 'revise {setting} (host y puerto), la red y que Redis esté en marcha',
  'status.redisFix.auth': 'revise la contraseña en {setting} (redis://:CONTRASEÑA@host:6379)',
  'status.redisFix.timeout': 'revise la carga de Redis y la red',
  'status.redisFix.bad_answer': 'revise que {setting} apunte a un Redis (no a un proxy ni a otro servicio)',
  'status.redisFix.error': 'revise el log de Redis',
  'status.conflict':
    'el ID de terminal {id} también lo usa {others}; este funciona en el equipo {host} (instancia {instance}). ' +
    'Dé a cada terminal su propio ID: borre el archivo terminal-id en la carpeta de datos copiada y reinícielo, ' +
    'o configure otro terminalId',
  'status.conflictOther': 'el equipo {host} (instancia {instance}, pid {pid}, iniciado el {started})',
  'status.roster': {
    one: '{n} empleado, última sincronización {ago}',
    other: '{n} empleados, última sincronización {ago}',
  },
  'status.roster.failed': ' (el último intento falló: {error})',
  'status.roster.syncing': ' (sincronizando: página {done}/{total})',
  'status.site.none': 'todos los empleados activos (ninguna sede configurada)',
  'status.badges': { one: '{n} registrada', other: '{n} registradas' },
  'status.reader': 'lector {name}: {state}, {counts}',
  'status.reader.connected': 'conectado ({device})',
  'status.reader.lost': 'DESCONECTADO',
  'status.reader.lostSince': 'DESCONECTADO {ago}',
  'status.reader.counts': '{scans} lecturas, última {last}, {errors} descartadas, {disconnects} desconexiones',
  'status.skew.none': 'ninguno medible (menos de ±1 s respecto al servicio)',
  'status.skew.off': '{s} s respecto al servicio',
  'status.svcClock.ahead': 'adelantado',
  'status.svcClock.behind': 'atrasado',
  'status.svcClock.off':
    'el reloj del servicio está {way} {offset} (más que {setting}, {bound}); ' +
    'el reloj de este terminal está sincronizado por NTP y se mantiene: ' +
    'los registros llevan la hora de este terminal, ' +
    'marcados service_clock_off',
  'status.svcClock.noDate':
    'el servicio no envía una cabecera Date utilizable; registros enviados con el reloj de este terminal, ' +
    'marcados unanchored',
  'status.svcClock.noDateHeader':
    'el servicio no envía una cabecera Date utilizable (Date: "{header}"); ' +
    'registros enviados con el reloj de este terminal, marcados unanchored',
  'status.svcClock.agrees': 'el reloj del servicio coincide con el de este terminal',
  'status.svcClock.inUse':
    'se usa el reloj del servicio: {way} {offset} respecto a este terminal (dentro de {setting})',
  'status.svcClock.inUseConfirmed':
    'se usa el reloj del servicio: {way} {offset} respecto a este terminal (dentro de {setting}, o confirmado por una segunda respuesta)',
  'status.svcClock.unconfirmed':
    'el Date del servicio está {way} {offset} respecto a la hora vigente; ' +
    'esperando una segunda respuesta que coincida antes de usarlo',
  'status.db.notYet': 'sin verificar todavía (el terminal la verifica {when}, luego a diario)',
  'status.db.when': '{ago}, tardó {s} s',
  'status.db.ok': 'integridad correcta (verificada {when})',
  'status.db.unchecked': 'la verificación de integridad no pudo hacerse ({when}): {problem}',
  'status.db.damaged':
    'BASE DE DATOS DAÑADA: la verificación de integridad falló ({when}); los registros se siguen tomando — ' +
    'guarde una copia del archivo para soporte y vea "Troubleshooting" en el README:',
  'status.journal.restored':
    'DIARIO RESTAURADO {ago}: la carpeta de datos se repuso desde una copia anterior; ' +
    'los NSR {from}-{to} se omiten (visto en {where})',
  'status.journal.notYet': 'próximo NSR {nsr}; sin verificar todavía (el terminal lo verifica {when})',
  'status.journal.when': '{ago}, {marks}, {facts}',
  'status.journal.marks': { one: '{n} marcación', other: '{n} marcaciones' },
  'status.journal.facts': { one: '{n} hecho', other: '{n} hechos' },
  'status.journal.ok': 'próximo NSR {nsr}; cadenas verificadas ({when})',
  'status.journal.broken':
    'EL DIARIO NO CUADRA ({when}): {problem}; los registros se siguen tomando — ' +
    'guarde una copia de la carpeta de datos para soporte',
  'status.delivered':
    '{ever} en total: {kept} guardados aquí, {deleted} borrados tras {days} días (registro de auditoría guardado ' +
    '{auditDays} días)',
  'status.pruned.never': 'nunca (el terminal limpia {when}, luego a diario)',
  'status.pruned':
    '{ago}: {punches} registros, {journal} filas del diario, {audit} líneas de auditoría; {freed} devueltos al disco',
  'status.pruned.stopped': ' (interrumpida porque el agente se detuvo: sigue en el próximo inicio)',
  'status.pruned.failed': ' (FALLÓ: {error})',
  'status.file': '{size}, de ellos {free} libres',
  'status.file.legacy':
    'creado por una versión anterior: el espacio liberado se reutiliza, no se devuelve; ' +
    '`timeclock data compact` (con el terminal detenido) lo reduce y lo convierte una sola vez',
  'status.tokenRefused': 'TOKEN RECHAZADO: {reason} ({ago}); envío en pausa, los registros se conservan',
  'status.sendingPaused': 'envío en pausa: {reason} hasta {when}',
  'status.setupProblem':
    'PROBLEMA DE CONFIGURACIÓN: {reason} ({ago}); el envío espacia los intentos, los registros se conservan — ' +
    'revise {setting}',
  'status.notOnService': 'fuera del servicio: {line}',
  'status.held': {
    one: '{n} registro guardado y no enviado (timeclock held list)',
    other: '{n} registros guardados y no enviados (timeclock held list)',
  },
  'status.sameMinute': {
    one:
      '{n} registro cae en el mismo minuto local que otro del mismo empleado (un cambio de horario): ' +
      'ambos se guardaron y enviaron; el área de nóminas debe revisarlos:',
    other:
      '{n} registros caen en el mismo minuto local que otros del mismo empleado (un cambio de horario): ' +
      'todos se guardaron y enviaron; el área de nóminas debe revisarlos:',
  },
  'status.lastError': '{message} ({ago})',
  'status.diskLow': '{mb} MB libres para la carpeta de datos: libere espacio ya, los registros lo necesitan',
  'status.notSaved': {
    one: '{n} registro rechazado desde que se inició el agente: {why} (el último {ago})',
    other: '{n} registros rechazados desde que se inició el agente: {why} (el último {ago})',
  },
  'status.employeeList':
    'LISTA DE EMPLEADOS: ninguna completa todavía — los códigos desconocidos se conservan ' +
    'y se asocian cuando llegue una (no se rechaza ninguno)',
  'status.nextSync.changes': ' (solo cambios: el servicio filtra por _updated)',
  'status.heldShrink':
    'LISTA MENOR RETENIDA: una sincronización trajo {n} empleados, menos de la mitad de los {inUse} en uso; ' +
    'la actual sigue hasta que una sincronización posterior coincida{recheck} o un responsable confirme en la ' +
    'pantalla de administración',
  'status.siteFilter':
    'el servicio cuenta tantos empleados con el filtro de sede como sin él: ' +
    'puede que lo ignore (revise {setting})',
  'status.skipped': {
    one: '{n} registro de la última sincronización que el terminal no puede usar:',
    other: '{n} registros de la última sincronización que el terminal no puede usar:',
  },
  'status.skipped.no_ids': 'sin _id y sin external_id',
  'status.skipped.other': 'no es un objeto JSON',
  'status.notAllowed': {
    one: '{n} empleado no puede registrar por API (allow_external_api_record false); sus registros se retienen aquí:',
    other:
      '{n} empleados no pueden registrar por API (allow_external_api_record false); sus registros se retienen ' +
      'aquí:',
  },
  'status.notAllowed.held': { one: '{n} retenido', other: '{n} retenidos' },
  'status.health':
    '{schedule} sin horario de trabajo, {employer} sin empleador ' +
    '(el servicio no mostrará sus registros hasta que ambos estén definidos), ' +
    '{zone} con una zona horaria que el terminal no puede usar (se usa la de la sede):',
  'status.health.missing': 'falta {what}',
  'status.health.and': ' y ',
  'status.missing.work_schedule': 'horario de trabajo',
  'status.missing.employer': 'empleador',
  'status.missing.timezone': 'zona horaria',
  'status.noCpf': {
    one: '{n} trabajador sin CPF: sus registros se conservan, el AFD muestra doce ceros para él:',
    other: '{n} trabajadores sin CPF: sus registros se conservan, el AFD muestra doce ceros para ellos:',
  },
  'status.noEmployer': {
    one:
      '{n} trabajador cuyo empleador el servicio no indica: los comprobantes y el AFD usan el empleador ' +
      'configurado:',
    other:
      '{n} trabajadores cuyo empleador el servicio no indica: los comprobantes y el AFD usan el empleador ' +
      'configurado:',
  },
  'status.noEmployer.unread': 'empleador aún no leído',
  'status.noEmployer.unknown': 'el servicio no tiene ese empleador',
  'status.unmatched': {
    one:
      '{n} registro de código desconocido guardado (el más antiguo {oldest}), se asociará en la próxima ' +
      'sincronización',
    other:
      '{n} registros de códigos desconocidos guardados (el más antiguo {oldest}), se asociarán en la próxima ' +
      'sincronización',
  },
  'status.label.archives': 'archivos:',
  'status.archives.none': 'ninguno todavía',
  'status.archives.kept': { one: '{n} mes ({from} a {to}), {size}', other: '{n} meses ({from} a {to}), {size}' },
  'status.archives.neverRun': 'todavía no se ejecutó',
  'status.archives.run': 'última ejecución {ago}: {archives} escritos, {marks} marcas',
  'status.archives.runFailed': 'última ejecución {ago} FALLÓ: {error}',
  'status.archives.missing':
    'ARCHIVO AUSENTE: {name} (sus marcas ya salieron de la base; restaure el archivo desde una copia)',
  'status.archives.changed': 'ARCHIVO ALTERADO: {name} no es el archivo sellado (journal verify indica la diferencia)',
  'status.archives.unsigned': 'archivo sin firma: {name} se selló sin firma aunque {setting} está definido',
};
