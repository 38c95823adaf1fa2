/**
 * The contract's calls mapped onto the agent facade, and the admin session they are gated by; the
 * one dispatcher (src/bridge/dispatcher.ts) validates, gates and calls them for both transports.
 * Typed against src/contract.ts: a call added there does not compile until it is handled here, and
 * an agent result that no longer fits its output schema is a compile error, not a runtime surprise.
 */
import type { Agent } from './facade/agent.js';
import type { CallInput, CallName, CallOutput, ScreenSettings } from '../contract.js';
import { DEFAULT_WEDGE_OPTIONS } from '../input/wedge-detector.js';
import type { AdminSession } from './identity/admin-session.js';
import { auditSummaryOf } from './delivery/audit-runner.js';

export { AdminSession, LoginGuard, type AdminPin, type AdminPinCheck } from './identity/admin-session.js';

/** The part of the facade a bridge uses. */
export type BridgeAgent = Pick<
  Agent,
  | 'punch'
  | 'scanned'
  | 'answerPin'
  | 'status'
  | 'syncRoster'
  | 'listUnresolved'
  | 'confirmRosterShrink'
  | 'retryRejected'
  | 'retryAllRejected'
  | 'listHeld'
  | 'decideHeld'
  | 'listRejected'
  | 'enrollNextScan'
  | 'admin'
  | 'on'
  | 'setApiToken'
  | 'setSite'
  | 'setRateBudget'
  | 'receipt'
  | 'receiptPdf'
  | 'afd'
  | 'auditCompare'
  | 'auditCompareState'
  | 'forgotPin'
  | 'listPinResets'
  | 'presence'
> &
  // Issue 31: optional, so bridges built on a part of the facade (tests) need not name it.
  Partial<Pick<Agent, 'photos'>>;

export type Handlers = { [N in CallName]: (input: CallInput<N>) => Promise<CallOutput<N>> | CallOutput<N> };

/** What a bridge started without config (tests) tells the screen. */
export const DEFAULT_SCREEN_SETTINGS: ScreenSettings = {
  language: 'pt-BR',
  wedge: DEFAULT_WEDGE_OPTIONS,
  pinRequiredFor: [],
  adminEnabled: true,
  resultMs: 4_000,
  receiptMs: 12_000,
};

export function agentHandlers(
  agent: BridgeAgent,
  session: AdminSession,
  screen: ScreenSettings = DEFAULT_SCREEN_SETTINGS,
): Handlers {
  return {
    screenSettings: () => ({ ...screen, adminEnabled: screen.adminEnabled && session.enabled }),
    punch: (i) => agent.punch(i.credential, i.pin === undefined ? {} : { pin: i.pin }),
    badgeScan: (i) => agent.scanned(i.code, i.source),
    answerPin: (i) => agent.answerPin(i.challenge, i.pin),
    status: () => agent.status(),
    adminLogin: (i) => session.login(i.pin),
    adminLogout: () => {
      session.end();
      return { ok: true };
    },
    lock: () => {
      session.end();
      return { ok: true };
    },
    listRejected: () => agent.listRejected(),
    retryRejected: (i) =>
      agent.retryRejected(i.punchId)
        ? { ok: true, code: 'retry_queued', params: { id: String(i.punchId) } }
        : { ok: false, code: 'retry_not_rejected', params: { id: String(i.punchId) } },
    retryAllRejected: () => {
      const n = agent.retryAllRejected();
      return { ok: n > 0, code: 'retry_all_queued', params: { n: String(n) } };
    },
    listHeld: () => agent.listHeld(),
    decideHeld: (i) => {
      const params = { id: String(i.punchId) };
      if (i.decision === 'dispute' && !i.reason?.trim()) return { ok: false, code: 'held_reason_required', params };
      if (!agent.decideHeld(i.punchId, i.decision, 'the admin screen', i.reason ?? '')) {
        return { ok: false, code: 'held_not_held', params };
      }
      if (i.decision === 'resend') return { ok: true, code: 'held_resend_queued', params };
      if (i.decision === 'delivered') return { ok: true, code: 'held_marked_delivered', params };
      return { ok: true, code: 'held_disputed', params };
    },
    syncRoster: () => agent.syncRoster(),
    listUnresolved: () => agent.listUnresolved(),
    confirmRosterShrink: () => agent.confirmRosterShrink(),
    enrollBadge: (i) => agent.admin.enrollBadge(i.code, i.employee, 'admin'),
    unenrollBadge: (i) => agent.admin.unenrollBadge(i.code),
    enrollNextScan: (i) => agent.enrollNextScan(i.employee, i.timeoutMs),
    setPin: (i) => agent.admin.setPin(i.employee, i.pin),
    clearPin: (i) => agent.admin.clearPin(i.employee),
    // The token goes to the agent and no further: the answer is only ok and a message about it.
    setApiToken: (i) => agent.setApiToken(i.token),
    setSite: (i) => agent.setSite(i.siteId),
    setRateBudget: (i) => agent.setRateBudget(i.limit, i.windowMs),
    receipt: (i) => agent.receipt(i.nsr),
    afdTargets: () => agent.afd.targets(),
    exportAfd: (i) => agent.afd.export(i),
    auditCompare: async (i) => auditSummaryOf(await agent.auditCompare(i)),
    auditCompareState: () => agent.auditCompareState(),
    listWaiting: () => agent.afd.punches.waiting(),
    findPunches: (i) => agent.afd.punches.find(i),
    exportPunchesCsv: (i) => agent.afd.punches.exportCsv(i),
    unmountDrive: (i) => agent.afd.unmount(i.path),
    receiptPdf: (i) => agent.receiptPdf(i.nsr),
    forgotPin: (i) => agent.forgotPin('challenge' in i ? { challenge: i.challenge } : { credential: i.credential }),
    listPinResets: () => agent.listPinResets(),
    setShiftLeadPin: (i) => agent.admin.setShiftLeadPin(i.pin),
    punchPhoto: async (i) => (agent.photos ? agent.photos.take(i) : { ok: false, code: 'no_photo_mode' }),
    cameraState: (i) => {
      agent.photos?.cameraState(i);
      return { ok: true };
    },
    punchPhotoView: (i) => agent.photos?.view(i.nsr) ?? { state: 'none', jpeg: null },
    presenceBoard: () => agent.presence.board(),
    rollCall: () => agent.presence.rollCall(),
    rollCallStart: () => agent.presence.startRollCall(),
    rollCallMark: (i) => {
      const code = agent.presence.markSafe(i.employeeKey);
      return { ok: code === 'marked' || code === 'already', code };
    },
    rollCallEnd: () => agent.presence.endRollCall(),
  };
}
