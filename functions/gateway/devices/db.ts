import { mayManageSql, type Asker } from '../authority/db';

/**
 * The company's device rules (issue 44; read with its two-step rule, companies/db.ts MEMBERSHIP_COLUMNS): one
 * conditional UPDATE that holds only for an active administrator the company's two-step rule does not keep out
 * (mayManageSql), and that forbids trusted devices only while the company requires two-step. A field left out stays.
 * The company's rules after the change, or null when refused.
 */
export async function setCompanyDeviceRules(
  db: D1Database,
  { companyId, userId, mfaCompanyId, confirmNewDevices, forbidTrustedDevices }: Asker & { companyId: string; confirmNewDevices?: boolean; forbidTrustedDevices?: boolean },
): Promise<{ confirm_new_devices: number; forbid_trusted_devices: number } | null> {
  const flag = (value: boolean | undefined) => (value === undefined ? null : value ? 1 : 0);
  return db
    .prepare(
      `UPDATE companies SET confirm_new_devices = COALESCE(?3, confirm_new_devices), forbid_trusted_devices = COALESCE(?4, forbid_trusted_devices)
       WHERE id = ?1 AND ${mayManageSql('?1', '?2', '?5')} AND (?4 IS NOT 1 OR require_two_step = 1)
       RETURNING confirm_new_devices, forbid_trusted_devices`,
    )
    .bind(companyId, userId, flag(confirmNewDevices), flag(forbidTrustedDevices), mfaCompanyId)
    .first<{ confirm_new_devices: number; forbid_trusted_devices: number }>();
}

/** The company's device rules as stored. */
export async function companyDeviceRulesOf(db: D1Database, companyId: string): Promise<{ confirm_new_devices: number; forbid_trusted_devices: number } | null> {
  return db
    .prepare('SELECT confirm_new_devices, forbid_trusted_devices * require_two_step AS forbid_trusted_devices FROM companies WHERE id = ?')
    .bind(companyId)
    .first<{ confirm_new_devices: number; forbid_trusted_devices: number }>();
}
