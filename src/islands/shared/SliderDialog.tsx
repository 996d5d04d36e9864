import { useState } from 'react';
import { authApi } from '../../api/auth';
import type { Messages } from '../../i18n';
import { closeDialog } from '../../stores/dialog';
import { isGatewayAnswer } from '../../api/result';
import { refusalText, SliderCaptcha, type OtherWay, type SliderRefusal } from '../../ui/SliderCaptcha';
import { TurnstileCheck } from '../../ui/TurnstileCheck';

/** Whether a failed call is the gateway's answer (not the network's, a time limit's or a proxy's). */
const isRefusal = isGatewayAnswer;
const refusalOf = (result: { message: string; data?: unknown }): SliderRefusal => ({
  message: result.message,
  retryAfter: (result.data as { retryAfter?: number } | null | undefined)?.retryAfter,
});

interface SliderDialogProps {
  scene: 'sms' | 'login';
  subject: string;
  labels: Messages['signIn']['slider'] & { networkError: string };
  /** Offered when the gateway refuses a puzzle (too many checks or failures): each closes the dialog first. */
  otherWays?: OtherWay[];
}

/**
 * The human check wired to the gateway: it answers the open 'slider' dialog with the passed check. The
 * gateway's first answer says which check this deployment uses: our slider, or Cloudflare Turnstile.
 */
export function SliderDialog({ scene, subject, labels, otherWays }: SliderDialogProps) {
  const [turnstileKey, setTurnstileKey] = useState<string | null>(null);
  if (turnstileKey !== null) {
    return (
      <TurnstileCheck
        siteKey={turnstileKey}
        lang={document.documentElement.lang.startsWith('zh') ? 'zh' : 'en'}
        verify={async (token) => {
          const result = await authApi.turnstileVerify({ scene, subject, token });
          if (result.ok) closeDialog(result.data);
          // A refusal (CP0001, CP0005–CP0008, CP0009) in the gateway's words and with its wait.
          return result.ok || (isRefusal(result.code) && refusalText(refusalOf(result), labels.tryAgainIn));
        }}
        labels={labels}
        onCancel={() => closeDialog()}
      />
    );
  }
  return (
    <SliderCaptcha
      load={async () => {
        const result = await authApi.sliderInit({ scene, subject });
        // No answer, or not the gateway's: tried again, then "network error, please refresh the page".
        // The gateway said no (CP0005–CP0008, say): its own message and wait, not the network's.
        if (!result.ok) return isRefusal(result.code) ? refusalOf(result) : null;
        if (result.data.provider === 'slider') return result.data;
        setTurnstileKey(result.data.siteKey);
        return 'elsewhere';
      }}
      verify={async (sessionId, x, trail, pow, input) => {
        const result = await authApi.sliderVerify({ sessionId, x, trail, pow, input });
        return result.ok ? result.data : null;
      }}
      labels={labels}
      otherWays={otherWays?.map((way) => ({
        label: way.label,
        choose: () => {
          closeDialog();
          way.choose();
        },
      }))}
      onPassed={(check) => closeDialog(check)}
      onCancel={() => closeDialog()}
    />
  );
}
