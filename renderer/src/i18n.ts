/**
 * The screen's words: the one catalogue in src/messages (shared with the headless console and the
 * command line), re-exported under the names the screens use.
 */
export {
  answerText,
  dictionaries,
  isLang,
  LANGS,
  t,
  type Lang,
  type MessageKey,
  type Params,
} from '../../src/messages/catalogue.js';
export { punchText, refusalText } from '../../src/messages/punch-text.js';
