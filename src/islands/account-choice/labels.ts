import type { Messages } from '../../i18n';
import { companyTypeFromDb, verificationStatusFromDb } from '../../schemas/company-status';

/** A company type as the person reads it; stored (snake_case) and wire (camelCase) spellings both work. */
export function companyTypeLabel(type: string, labels: Messages['companyTypes']): string {
  const key = companyTypeFromDb(type);
  return key in labels ? labels[key as keyof Messages['companyTypes']] : type;
}

/** One of the nine verification statuses ('active' reads as verified). */
export function statusLabel(status: string, labels: Messages['statuses']): string {
  const key = verificationStatusFromDb(status);
  return key in labels ? labels[key as keyof Messages['statuses']] : status;
}

/** Status tone for the badge colour: good, waiting or bad. */
export function statusTone(status: string): 'good' | 'waiting' | 'bad' {
  const key = verificationStatusFromDb(status);
  if (key === 'verified') return 'good';
  if (key === 'approving' || key === 'notVerified' || key === 'additionalInformationRequired' || key === 'pendingToBind') return 'waiting';
  return 'bad';
}
