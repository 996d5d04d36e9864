import type { UserRow } from '../identity/db/people';

/** What a person changes of their own account: kind, profile, photo (the people table is the identity core's). */

export async function setUserType(db: D1Database, userId: string, userType: 0 | 1 | 2): Promise<void> {
  await db.prepare('UPDATE users SET user_type = ? WHERE id = ?').bind(userType, userId).run();
}

/** The person's own profile fields (updateUserInfo); null clears a field. */
export interface ProfileUpdate {
  realName: string;
  countryId: string | null;
  countryName: string | null;
  birthday: string | null;
  sex: 'male' | 'female' | null;
}

export async function updateProfile(db: D1Database, userId: string, profile: ProfileUpdate): Promise<UserRow | null> {
  return db
    .prepare('UPDATE users SET real_name = ?, country_id = ?, country_name = ?, birthday = ?, sex = ? WHERE id = ? RETURNING *')
    .bind(profile.realName, profile.countryId, profile.countryName, profile.birthday, profile.sex, userId)
    .first<UserRow>();
}

/**
 * Makes one of the user's own uploads their photo (null removes it): only a JPEG or PNG they uploaded that no
 * company form has taken. Returns whether it was set.
 */
export async function setPhoto(db: D1Database, userId: string, fileId: string | null): Promise<boolean> {
  const changed = await db
    .prepare(
      `UPDATE users SET photo_file_id = ?2 WHERE id = ?1 AND (?2 IS NULL OR EXISTS (SELECT 1 FROM files
         WHERE id = ?2 AND owner_user_id = ?1 AND company_id IS NULL AND content_type IN ('image/jpeg', 'image/png')))`,
    )
    .bind(userId, fileId)
    .run();
  return changed.meta.changes > 0;
}
