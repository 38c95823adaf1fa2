import type { Texts } from '../text.js';
import type { enAnswers } from '../en/answers.js';

export const ptAnswers: Texts<typeof enAnswers> = {
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
  'answer.token_saved_unchecked':
    'Token da API salvo ({store}), sem conferência: não foi possível falar com o serviço ({reason}); ele passa a ser usado a partir de agora.',
  'answer.token_invalid':
    'O token não pode estar vazio, ter mais de {max} caracteres nem conter espaços ou quebras de linha; nada foi alterado.',
  'answer.token_demo':
    'Modo demonstração: o token da demonstração é fixo; nada foi salvo. Configure o endereço da API real e defina o token novamente.',
  'answer.token_refused': 'O serviço recusou este token ({reason}); ele não foi salvo e o token atual continua em uso.',
  'answer.token_save_failed': 'Não foi possível salvar o token ({error}); nada foi alterado.',
  'answer.site_set':
    'Local definido: {name} ({siteId}). A equipe do local está sendo baixada; a equipe atual continua em uso até a nova ficar completa.',
  'answer.site_set_unchecked':
    'Local definido: {siteId}, sem conferência: não foi possível falar com o serviço ({reason}). A equipe do local será baixada assim que possível; a atual continua em uso até lá.',
  'answer.site_same': 'O terminal já usa o local {siteId}.',
  'answer.site_invalid':
    'O ID do local tem 24 caracteres hexadecimais (0-9, a-f), como o serviço o mostra; nada foi alterado.',
  'answer.site_unknown': 'O serviço não tem o local {siteId}; nada foi alterado.',
  'answer.site_refused': 'O serviço recusou o local {siteId} ({reason}); nada foi alterado.',
  'answer.site_needs_token':
    'O serviço recusa o token da API, então o local não pode ser conferido: defina primeiro um token válido; nada foi alterado.',
  'answer.site_save_failed': 'Não foi possível salvar o local ({error}); nada foi alterado.',
  'answer.budget_set':
    'Limite de requisições definido para {limit} a cada {window} s (antes: {previousLimit} a cada {previousWindow} s); as requisições já feitas continuam contando.',
  'answer.budget_invalid':
    'As requisições devem ser um número inteiro de 1 a 10000, e a janela de 1 s a 1 h; nada foi alterado.',
  'answer.budget_save_failed': 'Não foi possível salvar o limite de requisições ({error}); nada foi alterado.',
  'answer.roster_shrink_applied':
    'Confirmado: a nova lista de funcionários, menor, é aplicada (baixada de novo antes, se preciso, qualquer que seja o tamanho).',
  'answer.roster_shrink_none':
    'Não há lista de funcionários retida para confirmar (uma sincronização posterior pode ter resolvido); nada foi alterado.',
  'answer.retry_all_queued': 'Registros recusados reenviados para envio: {n}.',
  'answer.held_resend_queued': 'Registro retido {id} colocado de novo na fila de envio.',
  'answer.held_marked_delivered': 'Registro retido {id} marcado como entregue; nada mais será enviado para ele.',
  'answer.held_not_held': 'O registro {id} não está (mais) retido; nada foi alterado.',
  'answer.held_disputed': 'Registro {id} contestado: fica guardado neste terminal e não será enviado.',
  'answer.held_reason_required': 'Escreva o motivo da contestação.',
  'answer.admin_pin_unlocked':
    'PIN do gestor liberado: a contagem de PINs incorretos foi zerada e a tela de administração aceita o PIN desde já.',
  'answer.admin_pin_not_locked': 'O PIN do gestor não estava bloqueado; a contagem de PINs incorretos foi zerada.',
  'answer.lead_pin_set':
    'PIN do líder de turno definido: ele abre só os registros retidos a confirmar e a troca de PIN dos trabalhadores.',
};
