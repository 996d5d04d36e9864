import { authApi } from '../../api/auth';
import type { Messages } from '../../i18n';
import { closeDialog } from '../../stores/dialog';
import { SliderCaptcha } from '../../ui/SliderCaptcha';

interface SliderDialogProps {
  scene: 'sms' | 'login';
  subject: string;
  labels: Messages['signIn']['slider'] & { networkError: string };
}

/** The slider captcha wired to the gateway: it answers the open 'slider' dialog with the passed check. */
export function SliderDialog({ scene, subject, labels }: SliderDialogProps) {
  return (
    <SliderCaptcha
      load={async () => {
        const result = await authApi.sliderInit({ scene, subject });
        return result.ok ? result.data : null;
      }}
      verify={async (sessionId, x, trail) => {
        const result = await authApi.sliderVerify({ sessionId, x, trail });
        return result.ok ? result.data : null;
      }}
      labels={labels}
      onPassed={(check) => closeDialog(check)}
      onCancel={() => closeDialog()}
    />
  );
}
