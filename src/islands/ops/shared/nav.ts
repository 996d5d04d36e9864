import type { OperatorView } from '../../../schemas/ops';

export type OpsNavKey = 'home' | 'companies' | 'people' | 'support' | 'audit' | 'delivery' | 'operators' | 'clients' | 'webhooks';
type Role = OperatorView['role'];

/**
 * The operators' areas and who sees them: reviewers the companies, support the people, everyone the audit
 * trail, admins everything (the gateway's requireOperator enforces the same; this only hides dead ends).
 */
export const OPS_NAV: readonly { key: OpsNavKey; href: string; roles: readonly Role[] }[] = [
  { key: 'home', href: '/ops', roles: ['reviewer', 'support', 'admin'] },
  { key: 'companies', href: '/ops/companies', roles: ['reviewer', 'admin'] },
  { key: 'people', href: '/ops/people', roles: ['support', 'admin'] },
  { key: 'support', href: '/ops/support', roles: ['support', 'admin'] },
  { key: 'audit', href: '/ops/audit', roles: ['reviewer', 'support', 'admin'] },
  { key: 'delivery', href: '/ops/delivery', roles: ['reviewer', 'support', 'admin'] },
  { key: 'operators', href: '/ops/operators', roles: ['admin'] },
  { key: 'clients', href: '/ops/clients', roles: ['admin'] },
  { key: 'webhooks', href: '/ops/webhooks', roles: ['admin'] },
];

export const opsNavFor = (role: Role) => OPS_NAV.filter((item) => item.roles.includes(role));
