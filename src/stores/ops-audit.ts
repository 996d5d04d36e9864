import { map } from 'nanostores';
import { opsPeopleApi } from '../api/ops-people';
import { problemOf, type Problem } from '../i18n/problem';
import type { AuditEntry } from '../schemas/ops-people';

/** The audit trail page: its filter (as typed), the entries shown and the id the next older page starts before. */
export const $audit = map({
  actor: '',
  target: '',
  action: '',
  /** 'YYYY-MM-DD' from date inputs; the day starts and ends in the operator's own time zone. */
  from: '',
  to: '',
  entries: [] as AuditEntry[],
  next: null as number | null,
  loading: false,
  loaded: false,
  error: null as Problem | null,
});

export type AuditFilter = 'actor' | 'target' | 'action' | 'from' | 'to';

export function setFilter(field: AuditFilter, value: string) {
  $audit.setKey(field, value);
}

const dayStart = (day: string, plusDays = 0) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return Number.isNaN(date.getTime()) ? undefined : date.getTime();
};

/** Only the answer of the latest load is shown: an earlier, slower one must not replace a newer filter's entries. */
let latestLoad = 0;

/** Loads the newest entries that match the filter, or (`older`) the page after those shown. */
export async function loadAudit(older = false) {
  const load = ++latestLoad;
  const s = $audit.get();
  $audit.set({ ...s, loading: true, error: null });
  const answer = await opsPeopleApi.audit({
    actor: s.actor.trim() || undefined,
    target: s.target.trim() || undefined,
    action: s.action || undefined,
    from: dayStart(s.from),
    // "Until" includes the whole day.
    to: dayStart(s.to, 1),
    before: older ? (s.next ?? undefined) : undefined,
  });
  if (load !== latestLoad) return;
  const entries = answer.ok ? answer.data.entries : [];
  $audit.set({
    ...$audit.get(),
    loading: false,
    loaded: true,
    entries: older ? [...s.entries, ...entries] : entries,
    next: answer.ok ? answer.data.next : null,
    error: answer.ok ? null : problemOf(answer),
  });
}
