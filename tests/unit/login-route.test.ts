import { describe, expect, it } from 'vitest';
import { routeForLoginCase } from '../../src/lib/login-route';
import type { LoginCaseAnswer } from '../../src/schemas/auth';

const base: LoginCaseAnswer = {
  userLoginCase: 2,
  userType: 2,
  registerMobile: '+8613800138000',
  username: 'Li Lei',
  userId: 'u1',
  companyInfo: null,
  ifJumpToSaas: false,
  originalFlag: false,
  accountSize: 1,
};
const to = (patch: Partial<LoginCaseAnswer>, redirect?: string) => routeForLoginCase({ ...base, ...patch }, redirect);

describe('routeForLoginCase (spec 2)', () => {
  it('case 1 goes to onboarding with loginType 1 when a mobile is registered, else 2', () => {
    expect(to({ userLoginCase: 1 })).toEqual({ kind: 'go', to: '/enterprise_adm_and_staff?loginType=1' });
    expect(to({ userLoginCase: 1, registerMobile: null })).toEqual({ kind: 'go', to: '/enterprise_adm_and_staff?loginType=2' });
  });

  it('case 1 of someone who registered to join a company goes straight to the join form (issue 47)', () => {
    expect(routeForLoginCase({ ...base, userLoginCase: 1 }, undefined, { joining: true })).toEqual({ kind: 'go', to: '/join?loginType=1' });
    // Only case 1: a person who has a company or a pending request goes where that case says.
    expect(routeForLoginCase({ ...base, userLoginCase: 5 }, undefined, { joining: true }).to).toMatch(/^\/completion_of_application/);
  });

  it('case 2 goes to change password, company creation or account choice', () => {
    expect(to({ originalFlag: true })).toEqual({ kind: 'go', to: '/change_password' });
    expect(to({ accountSize: 0 })).toEqual({ kind: 'go', to: '/create_account' });
    expect(to({ accountSize: 2 })).toEqual({ kind: 'go', to: '/account' });
    expect(to({ accountSize: 2 }, 'https://portal.example.com/x')).toEqual({ kind: 'go', to: '/account?redirect=https%3A%2F%2Fportal.example.com%2Fx' });
  });

  it('case 3 signs in anonymously, then goes to the web home', () => {
    expect(to({ userLoginCase: 3 })).toEqual({ kind: 'anonymous-then', to: '/go/web_home' });
  });

  it('cases 4 and 5 go to the completion page, 4 with ifJumpToSaas', () => {
    expect(to({ userLoginCase: 4, ifJumpToSaas: true })).toEqual({ kind: 'go', to: '/completion_of_application?userType=2&loginType=1&ifJumpToSaas=true' });
    expect(to({ userLoginCase: 5, registerMobile: null })).toEqual({ kind: 'go', to: '/completion_of_application?userType=2&loginType=2' });
  });

  it('cases 6, 7 and 9 go to onboarding', () => {
    for (const userLoginCase of [6, 7, 9] as const) {
      expect(to({ userLoginCase })).toEqual({ kind: 'go', to: '/enterprise_adm_and_staff?loginType=1' });
    }
  });
});
