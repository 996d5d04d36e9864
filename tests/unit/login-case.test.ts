import { describe, expect, it } from 'vitest';
import { loginCaseOf, type LoginCaseMembership, type LoginCaseUser } from '../../functions/gateway/companies/login-case';

const user = (over: Partial<LoginCaseUser> = {}): LoginCaseUser => ({ originalFlag: false, userType: 0, pendingCompanyName: null, pendingPort: null, ...over });
const member = (over: Partial<LoginCaseMembership> = {}): LoginCaseMembership => ({
  role: 'administrator',
  memberStatus: 'active',
  companyStatus: 'verified',
  ...over,
});

describe('loginCaseOf', () => {
  it('sends a user who must change the password to case 2 first, whatever else holds', () => {
    expect(loginCaseOf(user({ originalFlag: true, userType: 1 }), [member()])).toMatchObject({ userLoginCase: 2, accountSize: 1 });
    expect(loginCaseOf(user({ originalFlag: true }), [])).toMatchObject({ userLoginCase: 2, accountSize: 0 });
  });

  it('gives an individual user case 3', () => {
    expect(loginCaseOf(user({ userType: 1 }), [])).toMatchObject({ userLoginCase: 3 });
  });

  it('gives a member of a usable company case 2 with the number of companies', () => {
    const result = loginCaseOf(user({ userType: 2 }), [member(), member({ role: 'staff', companyStatus: 'active' }), member({ companyStatus: 'approving' })]);
    expect(result).toEqual({ userLoginCase: 2, accountSize: 2, ifJumpToSaas: false, companyName: null, ports: [] });
  });

  it('gives an administrator of a company awaiting verification case 4, without the SaaS', () => {
    expect(loginCaseOf(user({ userType: 2 }), [member({ companyStatus: 'approving' })])).toEqual({
      userLoginCase: 4,
      accountSize: 0,
      ifJumpToSaas: false,
      companyName: null,
      ports: [],
    });
    expect(loginCaseOf(user(), [member({ companyStatus: 'additional_info' })]).userLoginCase).toBe(4);
  });

  it('lets case 4 jump to the SaaS only when the company is already verified', () => {
    expect(loginCaseOf(user({ userType: 2 }), [member({ memberStatus: 'pending', companyStatus: 'verified' })])).toMatchObject({
      userLoginCase: 4,
      ifJumpToSaas: true,
    });
  });

  it('gives staff whose join is pending case 5', () => {
    expect(loginCaseOf(user({ userType: 2 }), [member({ role: 'staff', memberStatus: 'pending' })]).userLoginCase).toBe(5);
  });

  it('gives a user who registered with a company name but has no company case 6 with that name', () => {
    expect(loginCaseOf(user({ pendingCompanyName: 'Blue Whale Shipping' }), [])).toEqual({
      userLoginCase: 6,
      accountSize: 0,
      ifJumpToSaas: false,
      companyName: 'Blue Whale Shipping',
      ports: [],
    });
  });

  it('gives a user who registered with a company name and a serviced port case 7 with both', () => {
    const port = { id: 'CNZOS', name: 'Zhoushan', code: 'CNZOS' };
    expect(loginCaseOf(user({ pendingCompanyName: 'Blue Whale Shipping', pendingPort: port }), [])).toEqual({
      userLoginCase: 7,
      accountSize: 0,
      ifJumpToSaas: false,
      companyName: 'Blue Whale Shipping',
      ports: [port],
    });
  });

  it('gives a user whose every application or join ended case 9, before the stored name', () => {
    const ended = [
      member({ companyStatus: 'verification_failed' }),
      member({ companyStatus: 'fail_bind' }),
      member({ role: 'staff', companyStatus: 'expired' }),
      member({ companyStatus: 'blocked' }),
      member({ role: 'staff', memberStatus: 'rejected', companyStatus: 'active' }),
    ];
    for (const m of ended) expect(loginCaseOf(user({ userType: 2 }), [m]).userLoginCase).toBe(9);
    expect(loginCaseOf(user({ pendingCompanyName: 'Blue Whale Shipping' }), ended)).toMatchObject({ userLoginCase: 9, companyName: null });
    // One application still alive wins over the ended ones.
    expect(loginCaseOf(user(), [...ended, member({ companyStatus: 'approving' })]).userLoginCase).toBe(4);
    expect(loginCaseOf(user(), [...ended, member({ role: 'staff', memberStatus: 'pending' })]).userLoginCase).toBe(5);
  });

  it('gives a user who never chose anything case 1', () => {
    expect(loginCaseOf(user(), []).userLoginCase).toBe(1);
  });

  it('gives an enterprise user with no company case 2 with accountSize 0 (→ /create_account)', () => {
    expect(loginCaseOf(user({ userType: 2 }), [])).toMatchObject({ userLoginCase: 2, accountSize: 0 });
  });

  it('does not count a pending membership of a verified company as an account', () => {
    expect(loginCaseOf(user({ userType: 2 }), [member({ role: 'staff', memberStatus: 'pending' })]).accountSize).toBe(0);
  });
});
