import * as z from 'zod/mini';
import { contactUndoAnswer, dataRightsState, type ConsentPurpose, type ContactChangeRequest } from '../schemas/data-rights';
import { callGateway } from './client';

/** One function per gateway call of "Your data" (contracts in schemas/data-rights.ts). */
export const dataRightsApi = {
  state: () => callGateway('agg-web/user/data', dataRightsState, { method: 'GET' }),
  askCopy: () => callGateway('agg-web/user/data/copy', dataRightsState, { body: {} }),
  consent: (purpose: ConsentPurpose, granted: boolean) => callGateway('agg-web/user/data/consent', dataRightsState, { body: { purpose, granted } }),
  close: () => callGateway('agg-web/user/data/close', dataRightsState, { body: {} }),
  keep: () => callGateway('agg-web/user/data/keep', dataRightsState, { body: {} }),
  contact: (body: ContactChangeRequest) => callGateway('agg-web/user/data/contact', z.null(), { body }),
  /** A local run only (dev routes): runs the data-rights job now, as the Cron Trigger would on a deployed Worker. */
  runJobLocally: () => callGateway('dev/data-rights/run', z.unknown(), { body: {} }),
  /** "This wasn't me" (no session needed): the link's secret puts the old e-mail address back. */
  undoContact: (token: string) => callGateway('agg-web/user/contact/undo', contactUndoAnswer, { body: { token } }),
};

/** Where the browser downloads a ready copy (a plain link: the file streams to disk, with the session cookie). */
export const dataCopyUrl = (id: string) => `/api/agg-web/user/data/copy/${encodeURIComponent(id)}`;
