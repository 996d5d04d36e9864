import * as ERR from '../schemas/error-names';
import { atom, map } from 'nanostores';
import { opsPeopleApi, type SupportAction } from '../api/ops-people';
import { problem, problemOf, type Problem } from '../i18n/problem';
import type { PersonDetail, PersonSummary } from '../schemas/ops-people';

/**
 * People support: the search, the person opened from it and the action waiting for its reason. Holds data and
 * problems, never words; the island says them.
 */
export const $people = map({
  query: '',
  page: 1,
  results: null as PersonSummary[] | null,
  more: false,
  searching: false,
  person: null as PersonDetail | null,
  notice: null as Problem | null,
  error: null as Problem | null,
});

/** What the reason dialog is asking about: a person action, or making a member their company's administrator. */
export type PendingAction =
  | { kind: 'person'; action: SupportAction }
  | { kind: 'transfer'; companyId: string; companyName: string };

export const $pendingAction = atom<PendingAction | null>(null);
export const $reason = atom('');
export const $reasonError = atom<Problem | null>(null);
export const $acting = atom(false);

export function setQuery(query: string) {
  $people.setKey('query', query);
}

export async function search(page = 1) {
  const query = $people.get().query.trim();
  if (!query) {
    $people.set({ ...$people.get(), results: null, error: problem('opsPeople.queryRequired') });
    return;
  }
  $people.set({ ...$people.get(), searching: true, error: null, notice: null, person: null });
  const answer = await opsPeopleApi.find(query, page);
  $people.set({
    ...$people.get(),
    searching: false,
    page,
    results: answer.ok ? answer.data.people : [],
    more: answer.ok && answer.data.more,
    error: answer.ok ? null : problemOf(answer),
  });
}

/** The accounts in their cooling-off or erased, in place of search results. */
export async function listClosing() {
  $people.set({ ...$people.get(), searching: true, error: null, notice: null, person: null });
  const answer = await opsPeopleApi.closing();
  $people.set({ ...$people.get(), searching: false, page: 1, more: false, results: answer.ok ? answer.data : [], error: answer.ok ? null : problemOf(answer) });
}

export async function openPerson(id: string) {
  $people.set({ ...$people.get(), error: null, notice: null });
  const answer = await opsPeopleApi.detail(id);
  if (answer.ok) $people.setKey('person', answer.data);
  else $people.setKey('error', [problem('opsPeople.loadFailed'), problemOf(answer)]);
}

export function closePerson() {
  $people.set({ ...$people.get(), person: null, notice: null, error: null });
}

export function askReason(pending: PendingAction) {
  $reason.set('');
  $reasonError.set(null);
  $pendingAction.set(pending);
}

export function cancelAction() {
  $pendingAction.set(null);
}

/** Sends the pending action with the reason typed; the person is read again whatever the answer. */
export async function confirmAction() {
  const pending = $pendingAction.get();
  const person = $people.get().person;
  if (!pending || !person || $acting.get()) return;
  const reason = $reason.get().trim();
  if (reason.length < 4 || reason.length > 500) {
    $reasonError.set(problem('opsPeople.reasonRequired'));
    return;
  }
  $acting.set(true);
  const answer =
    pending.kind === 'person'
      ? await opsPeopleApi.act(person.profile.id, pending.action, reason)
      : await opsPeopleApi.transferAdministrator(pending.companyId, person.profile.id, reason);
  $acting.set(false);
  if (!answer.ok && answer.code === ERR.SUPPORT_REASON_MISSING) {
    $reasonError.set(problemOf(answer));
    return;
  }
  $pendingAction.set(null);
  const action = pending.kind === 'person' ? pending.action : 'transfer';
  await openPerson(person.profile.id);
  if (answer.ok) $people.setKey('notice', problem('opsPeople.done', { action: problem(`opsPeople.actions.${action}`) }));
  else $people.setKey('error', problemOf(answer));
}
