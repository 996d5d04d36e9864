import * as ERR from '../schemas/error-names';
import { map } from 'nanostores';
import { opsReviewApi } from '../api/ops-review';
import { problemOf, type Problem } from '../i18n/problem';
import type { Lang } from '../lib/lang';
import {
  REVIEW_RULES,
  type ReviewAction,
  type ReviewDetailAnswer,
  type ReviewQueueItem,
  type ReviewReason,
} from '../schemas/ops-review';

/**
 * Company review for operators: the queue (/ops/companies) and one company's review page (/ops/company).
 * The filter lives in the page's query string, so a filtered queue can be reloaded and shared between reviewers.
 */

export interface QueueFilter {
  status: string;
  q: string;
  country: string;
  type: string;
  page: number;
}

const defaultFilter: QueueFilter = { status: 'approving', q: '', country: '', type: '', page: 1 };

export const $queue = map({
  phase: 'loading' as 'loading' | 'ready',
  filter: defaultFilter,
  items: [] as ReviewQueueItem[],
  total: 0,
  pageSize: 20,
  error: null as Problem | null,
});

/** The filter a query string names (anything missing takes its default). */
export function filterFromSearch(search: string): QueueFilter {
  const query = new URLSearchParams(search);
  const page = Number(query.get('page'));
  return {
    status: query.get('status') || defaultFilter.status,
    q: query.get('q') ?? '',
    country: query.get('country') ?? '',
    type: query.get('type') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The query string of a filter, without the defaults. */
export function searchOfFilter(filter: QueueFilter): string {
  const query = new URLSearchParams();
  if (filter.status !== defaultFilter.status) query.set('status', filter.status);
  if (filter.q) query.set('q', filter.q);
  if (filter.country) query.set('country', filter.country);
  if (filter.type) query.set('type', filter.type);
  if (filter.page > 1) query.set('page', String(filter.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}

export async function loadQueue(filter: QueueFilter) {
  $queue.set({ ...$queue.get(), filter, error: null });
  const query: Record<string, string> = { status: filter.status, page: String(filter.page) };
  if (filter.q.trim()) query.q = filter.q.trim();
  if (filter.country.trim()) query.country = filter.country.trim();
  if (filter.type) query.type = filter.type;
  const answer = await opsReviewApi.queue(query);
  if (!answer.ok) {
    $queue.set({ ...$queue.get(), phase: 'ready', items: [], total: 0, error: problemOf(answer) });
    return;
  }
  $queue.set({ ...$queue.get(), phase: 'ready', items: answer.data.items, total: answer.data.total, pageSize: answer.data.pageSize });
}

/** Runs the filter and keeps it in the address bar. */
export async function searchQueue(filter: QueueFilter) {
  history.replaceState(null, '', `${location.pathname}${searchOfFilter(filter)}`);
  await loadQueue(filter);
}

// ---------------------------------------------------------------------------------------------------------
// One company
// ---------------------------------------------------------------------------------------------------------

export interface DecisionDraft {
  action: ReviewAction;
  reason: ReviewReason | '';
  note: string;
}

export const $review = map({
  phase: 'loading' as 'loading' | 'ready' | 'missing',
  detail: null as ReviewDetailAnswer | null,
  /** The decision being written, if any. */
  draft: null as DecisionDraft | null,
  busy: false,
  /** After a decision: the new status and whether the administrator was told. */
  done: null as { status: string; notified: boolean } | null,
  error: null as Problem | null,
  /** The registry check asked again (issue 42): under way, and its failure. */
  registryBusy: false,
  registryError: null as Problem | null,
});

export async function loadReview(companyId: string) {
  const answer = companyId ? await opsReviewApi.detail(companyId) : null;
  if (!answer?.ok) {
    $review.set({ ...$review.get(), phase: 'missing', error: answer ? problemOf(answer) : null });
    return;
  }
  $review.set({ ...$review.get(), phase: 'ready', detail: answer.data });
}

/** Asks the registry again (name and code); the page then shows the new verdict. A provider failing is a verdict, "not checked". */
export async function checkRegistryAgain() {
  const { detail, registryBusy } = $review.get();
  if (!detail || registryBusy) return;
  $review.set({ ...$review.get(), registryBusy: true, registryError: null });
  const answer = await opsReviewApi.registryCheck(detail.companyId);
  const now = $review.get();
  if (!answer.ok) return void $review.set({ ...now, registryBusy: false, registryError: problemOf(answer) });
  $review.set({ ...now, registryBusy: false, detail: now.detail && { ...now.detail, registry: { ...now.detail.registry, latest: answer.data } } });
}

export function startDecision(action: ReviewAction) {
  $review.set({ ...$review.get(), draft: { action, reason: '', note: '' }, done: null, error: null });
}

export function editDecision(change: Partial<Omit<DecisionDraft, 'action'>>) {
  const draft = $review.get().draft;
  if (draft) $review.set({ ...$review.get(), draft: { ...draft, ...change }, error: null });
}

export function cancelDecision() {
  $review.set({ ...$review.get(), draft: null, error: null });
}

/** A decision needs a reason from its list; 'other' needs words (the gateway says the same: RV0003, RV0005). */
export function draftProblem(draft: DecisionDraft): typeof ERR.REVIEW_REASON_NOT_CHOSEN | typeof ERR.REVIEW_REASON_TEXT_MISSING | null {
  const reasons = REVIEW_RULES[draft.action].reasons;
  if (reasons.length && !draft.reason) return ERR.REVIEW_REASON_NOT_CHOSEN;
  if (draft.reason === 'other' && !draft.note.trim()) return ERR.REVIEW_REASON_TEXT_MISSING;
  return null;
}

/**
 * Sends the decision from the status this page shows. Another operator who decided first makes it RV0001:
 * the page then shows the company as it now stands.
 */
export async function submitDecision(lang: Lang) {
  const { detail, draft, busy } = $review.get();
  if (!detail || !draft || busy) return;
  const problem = draftProblem(draft);
  if (problem) {
    // The error catalogue (every code, both languages: about 6 KB) loads only for these words.
    const { errorMessage } = await import('../schemas/error-codes');
    $review.setKey('error', { code: problem, message: errorMessage(problem, lang) });
    return;
  }
  $review.set({ ...$review.get(), busy: true, error: null });
  const answer = await opsReviewApi.decide({
    companyId: detail.companyId,
    action: draft.action,
    expectedStatus: detail.status as never,
    reason: draft.reason || null,
    note: draft.note.trim() || null,
  });
  if (!answer.ok) {
    $review.set({ ...$review.get(), busy: false, error: problemOf(answer) });
    if (answer.code === ERR.REVIEW_DECIDED_MEANWHILE || answer.code === ERR.REVIEW_DECISION_NOT_ALLOWED) await loadReview(detail.companyId);
    return;
  }
  $review.set({ ...$review.get(), busy: false, draft: null, done: { status: answer.data.status, notified: answer.data.notified } });
  await loadReview(detail.companyId);
}
