/**
 * Listas de registros del administrador, última respuesta del servicio y errores del servicio en palabras (ver
 * en/punches.ts).
 */
import type { Texts } from '../text.js';
import type { enPunches } from '../en/punches.js';

export const esPunches: Texts<typeof enPunches> = {
  'tab.punches': 'Registros',
  'waiting.title': 'Esperando envío',
  'waiting.none': 'Nada en espera: todos los registros fueron entregados.',
  'waiting.shown': 'Se listan los {shown} más antiguos de {total}.',
  'waiting.nsr': 'NSR {nsr}',
  'punches.title': 'Registros de un empleado',
  'punches.query': 'Empleado: matrícula, n.º de registro, CPF o parte del nombre',
  'punches.date': 'Día',
  'punches.search': 'Buscar',
  'punches.tooShort': 'Escriba al menos 2 caracteres.',
  'punches.nobody': 'Nadie coincide con «{query}».',
  'punches.none': 'Sin registros el {date}.',
  'punches.more': 'Coinciden más empleados; solo se muestran los primeros. Escriba más del nombre.',
  'punches.sentAt': 'entregado {time}',
  'punches.state.pending': 'en espera',
  'punches.state.sending': 'enviando',
  'punches.state.in_doubt': 'en duda',
  'punches.state.sent': 'enviado',
  'punches.state.rejected': 'rechazado',
  'punches.state.held': 'retenido',
  'csv.title': 'Exportar registros (planilla CSV)',
  'csv.period': 'Registros del',
  'csv.export': 'Exportar CSV',
  'csv.exporting': 'Exportando…',
  'csv.badRange': 'Elija fecha inicial y final, la inicial no después de la final, como máximo {max} días.',
  'csv.doneDrive': 'CSV guardado en {label}, carpeta {folder}: {rows} registros.',
  'csv.doneDownload': 'CSV listo: {rows} registros. Descárguelo abajo.',
  'csv.downloadFile': 'Descargar el CSV',
  'conn.lastAnswered': 'Última respuesta del servicio',
  'conn.lastError': 'Último error del servicio',
  'svcerr.refused':
    'El servidor del servicio rechazó la conexión: puede estar caído, o la dirección o el puerto son incorrectos.',
  'svcerr.dns': 'No se encontró la dirección del servicio (DNS): revise la dirección y la red de este terminal.',
  'svcerr.unreachable':
    'La red no tiene ruta hasta el servicio: revise el cable o el Wi-Fi de este terminal y el router.',
  'svcerr.timeout': 'El servicio tardó demasiado en responder: la red está lenta o el servicio sobrecargado.',
  'svcerr.reset': 'La conexión con el servicio se cortó a mitad (un proxy, un firewall o una red inestable).',
  'svcerr.certificate':
    'No se aceptó el certificado de seguridad del servicio: revise la dirección, la fecha de este terminal y cualquier proxy que inspeccione HTTPS.',
  'svcerr.server': 'El servicio tuvo un problema interno (HTTP {status}); el envío se reintenta automáticamente.',
  'svcerr.unauthorized': 'El servicio rechazó el token de la API (401): configure un token válido en Ajustes.',
  'svcerr.forbidden': 'El servicio negó el permiso (403): revise lo que el token y el empleado tienen permitido.',
  'svcerr.rateLimited':
    'El servicio pidió ir más despacio (429, demasiadas solicitudes); el envío sigue al ritmo permitido.',
};
