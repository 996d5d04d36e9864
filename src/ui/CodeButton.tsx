import { useEffect, useState } from 'react';
import { format } from '../i18n/format';

interface CodeButtonProps {
  cooldownUntil: number;
  /** True once a code has been sent: the label becomes Resend after the countdown. */
  sentBefore: boolean;
  busy: boolean;
  labels: { getCode: string; resend: string; resendIn: string };
  onClick: () => void;
}

/** Get Code → 60 s countdown, disabled → Resend. The server enforces the same wait against scripted bursts. */
export function CodeButton({ cooldownUntil, sentBefore, busy, labels, onClick }: CodeButtonProps) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (cooldownUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [cooldownUntil]);
  // The clock as of this render: `now` is stale until the first tick after a new wait starts (it read 69-71 s).
  const secondsLeft = Math.max(0, Math.ceil((cooldownUntil - Math.max(now, Date.now())) / 1000));
  const label = secondsLeft > 0 ? format(labels.resendIn, { s: secondsLeft }) : sentBefore ? labels.resend : labels.getCode;
  return (
    <button type="button" className="button secondary code-button" disabled={busy || secondsLeft > 0} onClick={onClick}>
      {label}
    </button>
  );
}
