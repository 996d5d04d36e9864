import { describe, expect, it } from 'vitest';
import { goOnSignedIn, providerReturn } from '../../src/stores/provider-return';
import type { LoginAnswer } from '../../src/schemas/auth';

// The pages WeChat and a company's identity provider send the person back to read the answer the same way.
describe("a sign-in provider's return", () => {
  it('reads the code, the state and the issuer; without a code or a state the person cancelled there', () => {
    expect(providerReturn('?code=c1&state=s1&iss=https%3A%2F%2Fidp.example.com')).toEqual({ code: 'c1', state: 's1', iss: 'https://idp.example.com' });
    expect(providerReturn('?code=c1&state=s1')).toEqual({ code: 'c1', state: 's1', iss: null });
    expect(providerReturn('?state=s1&error=access_denied')).toBeNull();
    expect(providerReturn('?code=c1')).toBeNull();
    expect(providerReturn('')).toBeNull();
  });

  it('a sign-in that owes the second step goes to it, and nothing is called a failure', async () => {
    const went: string[] = [];
    const failed: unknown[] = [];
    const browser = { storage: new Map() as never, navigate: (url: string) => void went.push(url), search: '' };
    const answer: LoginAnswer = { accountSize: 1, companyId: null, isMaster: false, originalFlag: false, tracelessCheckResult: 0, userId: 'u1', newUser: false, type: 1, secondStep: { expiresIn: 300 } };
    await goOnSignedIn(answer, browser, (problem) => void failed.push(problem));
    expect(went).toEqual(['/login?secondStep=1']);
    expect(failed).toEqual([]);
  });
});
