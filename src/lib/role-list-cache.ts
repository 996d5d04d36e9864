import { readCookie } from './read-cookie';
import { removeCookie, writeCookie } from './write-cookie';

/**
 * The role list (client state): the person's companies with their role and type, cached in a cookie
 * so pages can show them before the company list answers. The cookie carries the list version; a cache
 * written by another version is ignored and removed. Never a secret: ids, roles and types only.
 */
export const ROLE_LIST_COOKIE = 'ROLE_LIST';
export const ROLE_LIST_VERSION = '1.0.5';
/** Cookies hold about 4 KB; a longer list is simply not cached. */
const MAX_COOKIE_LENGTH = 3500;

export interface CachedRole {
  companyId: string;
  role: 'administrator' | 'staff';
  companyType: string;
}

interface RoleListCookie {
  v: string;
  roles: CachedRole[];
}

export function readRoleList(): CachedRole[] | undefined {
  const text = readCookie(document.cookie, ROLE_LIST_COOKIE);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<RoleListCookie>;
    if (value.v === ROLE_LIST_VERSION && Array.isArray(value.roles)) {
      return value.roles.filter(
        (r): r is CachedRole =>
          typeof r?.companyId === 'string' && (r.role === 'administrator' || r.role === 'staff') && typeof r.companyType === 'string',
      );
    }
  } catch {
    // An unreadable cache is dropped below and rebuilt from the next company list.
  }
  void clearRoleList();
  return undefined;
}

export async function writeRoleList(roles: readonly CachedRole[]) {
  const value = JSON.stringify({ v: ROLE_LIST_VERSION, roles: roles.map(({ companyId, role, companyType }) => ({ companyId, role, companyType })) });
  if (encodeURIComponent(value).length > MAX_COOKIE_LENGTH) return clearRoleList();
  // A session cookie: the list belongs to this sign-in.
  writeCookie(ROLE_LIST_COOKIE, value);
}

export async function clearRoleList() {
  removeCookie(ROLE_LIST_COOKIE);
}
