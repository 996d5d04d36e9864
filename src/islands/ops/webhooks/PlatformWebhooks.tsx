import { platformWebhooksApi } from '../../../api/webhooks';
import type { ConsoleMessages as Messages } from '../../../i18n';
import type { Lang } from '../../../lib/lang';
import { WebhookEndpoints } from '../../shared/WebhookEndpoints';

type Words = Pick<Messages, 'ops' | 'webhooks' | 'errors'>;

/**
 * /ops/webhooks (admins, issue 45): the platform apps' endpoints, with the user center's endpoint part
 * (shared/WebhookEndpoints.tsx): add one (its secret shown once), choose its event types and app, send a test, see
 * the recent deliveries and the dead letters, and send a failed one again. No fresh proof: the operator's own
 * sign-in is the second factor, and every change is an audit row.
 */
export default function PlatformWebhooks({ lang, messages }: { lang: Lang; messages: Words }) {
  const t = messages.ops.webhooks;
  return (
    <div className="ops-webhooks">
      <WebhookEndpoints
        lead={t.note}
        lang={lang}
        idPrefix="platform-webhooks"
        title={t.title}
        level={2}
        listLabel={t.listLabel}
        deliveriesLabel={t.deliveriesLabel}
        messages={messages}
        api={platformWebhooksApi}
        withClientId
      />
    </div>
  );
}
