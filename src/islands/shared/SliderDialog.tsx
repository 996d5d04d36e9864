import { useState } from 'react';
import { authApi } from '../../api/auth';
import type { Messages } from '../../i18n';
import { closeDialog } from '../../stores/dialog';
import { SliderCaptcha } from '../../ui/SliderCaptcha';
import { TurnstileCheck } from '../../ui/TurnstileCheck';

interface SliderDialogProps {
  scene: 'sms' | 'login';
  subject: string;
  labels: Messages['signIn']['slider'] & { networkError: string };
}

/**
 * The human check wired to the gateway: it answers the open 'slider' dialog with the passed check. The
 * gateway's first answer says which check this deployment uses: our slider, or Cloudflare Turnstile.
 */
export function SliderDialog({ scene, subject, labels }: SliderDialogProps) {
  const [turnstileKey, setTurnstileKey] = useState<string | null>(null);
  if (turnstileKey !== null) {
    return (
      <TurnstileCheck
        siteKey={turnstileKey}
        lang={document.documentElement.lang.startsWith('zh') ? 'zh' : 'en'}
        verify={async (token) => {
          const result = await authApi.turnstileVerify({ scene, subject, token });
          if (result.ok) closeDialog(result.data);
          return result.ok;
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
        if (!result.ok) return null;
        if (result.data.provider === 'slider') return result.data;
        setTurnstileKey(result.data.siteKey);
        return 'elsewhere';
      }}
      verify={async (sessionId, x, trail, pow) => {
        const result = await authApi.sliderVerify({ sessionId, x, trail, pow });
        return result.ok ? result.data : null;
      }}
      labels={labels}
      onPassed={(check) => closeDialog(check)}
      onCancel={() => closeDialog()}
    />
  );
}
