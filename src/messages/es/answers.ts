import type { Texts } from '../text.js';
import type { enAnswers } from '../en/answers.js';

export const esAnswers: Texts<typeof enAnswers> = {
  'answer.retry_queued': 'Registro {id} puesto de nuevo en la cola de envío.',
  'answer.retry_not_rejected': 'El registro {id} no está (ya) entre los rechazados.',
  'answer.employee_not_found':
    'Ningún empleado {query} en la lista de empleados (por matrícula, número de registro o CPF).',
  'answer.badge_invalid': 'Código de credencial no válido; no se asignó nada.',
  'answer.badge_enrolled': 'Credencial asignada a {name}.',
  'answer.badge_moved': 'Credencial asignada a {name} (antes era de {previousName}).',
  'answer.badge_unenrolled': 'Credencial {badge} dada de baja.',
  'answer.badge_not_enrolled': 'La credencial {badge} no estaba asignada.',
  'answer.enroll_timeout': 'No se pasó ninguna credencial a tiempo para {employee}. Intente de nuevo.',
  'answer.enroll_replaced': 'Reemplazado por una solicitud de alta de credencial más reciente.',
  'answer.pin_set': 'PIN definido para {name}.',
  'answer.pin_cleared': 'PIN de {name} eliminado.',
  'answer.pin_not_set': '{name} no tenía PIN.',
  'answer.pin_bad_format': 'El PIN debe tener de {min} a {max} dígitos (solo números del 0 al 9); no se cambió nada.',
  'answer.pin_save_failed': 'No se pudo guardar el PIN de {name} ({error}).',
  'answer.admin_pin_set': 'PIN del encargado definido.',
  'answer.settings_busy': 'Hay otro cambio de ajustes en curso; intente de nuevo en unos instantes.',
  'answer.token_saved': 'Token de la API guardado ({store}); el servicio aceptó el token y el envío se reanuda.',
  'answer.token_saved_unchecked':
    'Token de la API guardado ({store}), sin verificar: no se pudo contactar al servicio ({reason}); se usa a partir de ahora.',
  'answer.token_invalid':
    'El token no puede estar vacío, tener más de {max} caracteres ni contener espacios o saltos de línea; no se cambió nada.',
  'answer.token_demo':
    'Modo demostración: la demostración usa siempre su propio token; no se guardó nada. Configure la dirección de la API real y defina el token de nuevo.',
  'answer.token_refused': 'El servicio rechazó este token ({reason}); no se guardó y el token actual sigue en uso.',
  'answer.token_save_failed': 'No se pudo guardar el token ({error}); no se cambió nada.',
  'answer.site_set':
    'Sede definida: {name} ({siteId}). Se está descargando la lista de empleados de la sede; la lista actual sigue en uso hasta que la nueva esté completa.',
  'answer.site_set_unchecked':
    'Sede definida: {siteId}, sin verificar: no se pudo contactar al servicio ({reason}). La lista de empleados de la sede se descargará en cuanto sea posible; la actual sigue en uso hasta entonces.',
  'answer.site_same': 'El terminal ya usa la sede {siteId}.',
  'answer.site_invalid':
    'El ID de la sede tiene 24 caracteres hexadecimales (0-9, a-f), tal como lo muestra el servicio; no se cambió nada.',
  'answer.site_unknown': 'El servicio no tiene la sede {siteId}; no se cambió nada.',
  'answer.site_refused': 'El servicio rechazó la sede {siteId} ({reason}); no se cambió nada.',
  'answer.site_needs_token':
    'El servicio rechaza el token de la API, así que no se puede verificar la sede: defina primero un token válido; no se cambió nada.',
  'answer.site_save_failed': 'No se pudo guardar la sede ({error}); no se cambió nada.',
  'answer.budget_set':
    'Límite de solicitudes definido en {limit} cada {window} s (antes: {previousLimit} cada {previousWindow} s); las solicitudes ya hechas siguen contando.',
  'answer.budget_invalid':
    'Las solicitudes deben ser un número entero de 1 a 10000, y la ventana de 1 s a 1 h; no se cambió nada.',
  'answer.budget_save_failed': 'No se pudo guardar el límite de solicitudes ({error}); no se cambió nada.',
  'answer.roster_shrink_applied':
    'Confirmado: se aplica la nueva lista de empleados, más pequeña (descargada de nuevo antes si hace falta, sea cual sea su tamaño).',
  'answer.roster_shrink_none':
    'No hay ninguna lista de empleados retenida para confirmar (una sincronización posterior puede haberlo resuelto); no se cambió nada.',
  'answer.retry_all_queued': 'Registros rechazados puestos de nuevo en la cola de envío: {n}.',
  'answer.held_resend_queued': 'Registro retenido {id} puesto de nuevo en la cola de envío.',
  'answer.held_marked_delivered': 'Registro retenido {id} marcado como entregado; ya no se enviará nada para él.',
  'answer.held_not_held': 'El registro {id} no está (ya) retenido; no se cambió nada.',
  'answer.held_disputed': 'Registro {id} impugnado: queda guardado en este terminal y no se enviará.',
  'answer.held_reason_required': 'Escriba el motivo de la impugnación.',
  'answer.admin_pin_unlocked':
    'PIN del encargado desbloqueado: el conteo de PIN incorrectos se borró y la pantalla de administración acepta el PIN desde ya.',
  'answer.admin_pin_not_locked': 'El PIN del encargado no estaba bloqueado; el conteo de PIN incorrectos se borró.',
  'answer.lead_pin_set':
    'PIN del jefe de turno guardado: solo abre los registros retenidos por confirmar y el cambio de PIN de los trabajadores.',
};
