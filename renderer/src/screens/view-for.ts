/**
 * Which view draws which screen of the state machine: one switch, so App only decides when a
 * screen is drawn afresh and the screens stay unaware of each other.
 */
import type { ScreenName } from '../machine.js';
import { applyLook } from '../look.js';
import { adminView } from './admin.js';
import { leadView } from './lead.js';
import type { AdminCalls } from './admin-common.js';
import { idleView } from './idle.js';
import { keypadView } from './keypad.js';
import { resultScreen } from './result.js';
import { loadingView, offlineAgentView } from './simple.js';
import type { Ctx, View } from './view.js';

/** `admin`: the admin screen's calls (a `forbidden` answer ends the session) and its lock button. */
export function viewFor(name: ScreenName, ctx: Ctx, admin: { calls: AdminCalls; lock: () => void }): View {
  // The theme comes with the screen settings; every screen drawn afresh after they arrive wears it.
  applyLook(ctx.settings);
  switch (name) {
    case 'loading':
      return loadingView(ctx);
    case 'offline-agent':
      return offlineAgentView(ctx);
    case 'idle':
      return idleView(ctx);
    case 'keypad':
    case 'pin':
    case 'admin-login':
      return keypadView(ctx);
    case 'result':
      return resultScreen(ctx);
    case 'admin':
      // A shift lead's session draws only what it may do (issue 29).
      if (ctx.model.screen.name === 'admin' && ctx.model.screen.role === 'lead')
        return leadView(ctx, admin.calls, admin.lock);
      return adminView(ctx, admin.calls, admin.lock);
  }
}
