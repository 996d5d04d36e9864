import { map } from 'nanostores';
import { opsDeliveryApi } from '../api/ops-delivery';
import { problemOf, type Problem } from '../i18n/problem';
import type { DeliveryOverview } from '../schemas/ops-delivery';

/** The operators' delivery view: the overview as last loaded. */
export const $delivery = map({
  overview: null as DeliveryOverview | null,
  loading: false,
  error: null as Problem | null,
});

/** Loads (or reloads) the overview; a failure keeps the figures already shown beside its error. */
export async function loadDelivery() {
  $delivery.setKey('loading', true);
  const answer = await opsDeliveryApi.overview();
  $delivery.set({
    overview: answer.ok ? answer.data : $delivery.get().overview,
    loading: false,
    error: answer.ok ? null : problemOf(answer),
  });
}
