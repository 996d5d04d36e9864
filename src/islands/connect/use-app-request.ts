import { useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../api/client';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';

type Refusal = Extract<ApiResult<unknown>, { ok: false }>;

/** What a page about an app's waiting request shows: its own `asking` views, or one of these. */
export type AppRequestView<Asking> = { kind: 'loading' } | Asking | { kind: 'leaving' } | { kind: 'problem'; text: string };

/**
 * What /connect and /sign_out share about an app's waiting request (`?request=ID`, functions/gateway/oidc/): the
 * id, the view, the refusal's words, the focus on the heading of each new view, and the person's decision, sent
 * once however often the button is pressed, then the browser goes back to the app.
 */
export function useAppRequest<Asking extends { kind: string }>(
  errors: Messages['errors'],
  /** What to say when the page was opened without `?request=` (a link typed or cut short), instead of the gateway's "No such API". */
  noRequest: string,
  wordsFor: (refusal: Refusal) => string | undefined = () => undefined,
) {
  const [view, setView] = useState<AppRequestView<Asking>>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const deciding = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const [id] = useState(() => new URLSearchParams(window.location.search).get('request') ?? '');

  const fail = (refusal: Refusal) =>
    setView({ kind: 'problem', text: (id ? undefined : noRequest) ?? wordsFor(refusal) ?? problemText({ errors }, { code: refusal.code, message: refusal.message, traceId: refusal.traceId }) });

  async function decide(send: () => Promise<ApiResult<{ redirectTo: string }>>) {
    // A doubled click sends one decision: the request is decided once, so a second would only answer a refusal.
    if (deciding.current) return;
    deciding.current = true;
    setBusy(true);
    const answer = await send();
    setBusy(false);
    if (!answer.ok) {
      deciding.current = false;
      return fail(answer);
    }
    setView({ kind: 'leaving' });
    window.location.assign(answer.data.redirectTo);
  }

  useEffect(() => heading.current?.focus(), [view.kind]);
  return { id, view, setView, busy, heading, fail, decide };
}
