/**
 * What the stores need of the browser, passed in so that a unit test can give its own: the tab's
 * sessionStorage, a way to go to another page, and the page's query string.
 */
export interface BrowserEnv {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  navigate: (url: string) => void;
  search: string;
}

/** The real browser (called when a flow starts, never at import: the stores load in tests too). */
export const realBrowser = (): BrowserEnv => ({ storage: sessionStorage, navigate: (url) => location.assign(url), search: location.search });

/**
 * Every sessionStorage key of the portal: what one step of this tab's onboarding hands to the next.
 * companyName and ports: the sign-in's company and first port, pre-filling the administrator form;
 * application: the company this tab's administrator form created or filled last; passwordChanged: the user
 * center confirms the password change that sent the person back to it.
 */
export const SESSION_KEYS = { companyName: 'companyName', ports: 'ports', application: 'onboardingCompanyId', passwordChanged: 'passwordChanged', registryOutcome: 'registryOutcome' } as const;
