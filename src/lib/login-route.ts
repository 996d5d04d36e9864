import type { LoginCaseAnswer } from '../schemas/auth';

/** Where the platform's other sites are reached: the edge redirects these to the configured URLs. */
export const destinations = {
  webApp: '/go/web_app',
  webHome: '/go/web_home',
  /** A partner with no company: the partners' workspace (PARTNER_APP_URL, by default this portal's /partner). */
  partnerApp: '/go/partner_app',
} as const;

export type LoginCaseRoute =
  | { kind: 'go'; to: string }
  /** Case 3: sign in as an anonymous (individual) account first, then go to the web home. */
  | { kind: 'anonymous-then'; to: string };

/**
 * The route after sign-in for each login case (portal-spec.md §2, "Redirect after login, by login case").
 * `redirect` is an already allow-listed target carried to /account. `joining`: the person just registered to join
 * a company by invitation (the new-user dialog's first question), so case 1 goes to the join form, not to the
 * question they answered already (issue 47).
 */
export function routeForLoginCase(answer: LoginCaseAnswer, redirect?: string, { joining = false }: { joining?: boolean } = {}): LoginCaseRoute {
  const loginType = answer.registerMobile ? 1 : 2;
  const completion = (withSaas: boolean) => {
    const query = new URLSearchParams({ userType: String(answer.userType), loginType: String(loginType) });
    if (withSaas) query.set('ifJumpToSaas', String(answer.ifJumpToSaas));
    return `/completion_of_application?${query}`;
  };
  switch (answer.userLoginCase) {
    case 2:
      if (answer.originalFlag) return { kind: 'go', to: '/change_password' };
      if (answer.accountSize === 0) return { kind: 'go', to: '/create_account' };
      return { kind: 'go', to: redirect ? `/account?${new URLSearchParams({ redirect })}` : '/account' };
    case 3:
      return { kind: 'anonymous-then', to: destinations.webHome };
    case 4:
      return { kind: 'go', to: completion(true) };
    case 5:
      return { kind: 'go', to: completion(false) };
    case 1:
      return { kind: 'go', to: `/${joining ? 'join' : 'enterprise_adm_and_staff'}?loginType=${loginType}` };
    case 6:
    case 7:
    case 9:
      return { kind: 'go', to: `/enterprise_adm_and_staff?loginType=${loginType}` };
  }
}

/**
 * A partner (navigator) sign-in whose login case leads to a company's onboarding goes to the partners'
 * workspace instead: a partner with no company is not an enterprise administrator (issue 33).
 */
export function routeForPartner(route: LoginCaseRoute): LoginCaseRoute {
  const onboarding = route.kind === 'go' && (route.to.startsWith('/enterprise_adm_and_staff') || route.to.startsWith('/create_account'));
  return onboarding ? { kind: 'go', to: destinations.partnerApp } : route;
}

/** A 500 ms pause precedes the redirect after sign-in (the person sees the success state). */
export const REDIRECT_DELAY_MS = 500;
