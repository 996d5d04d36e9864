import { loginCaseAnswer } from '../schemas/sign-in-answers';
import { callGateway } from './client';

/**
 * findUserLoginCase: where the signed-in person goes next, and whether sign-in demanded a new password. A module of
 * its own (authApi.loginCase is this call), so /change_password reads it without the sign-in contracts (issue 31).
 */
export const fetchLoginCase = () => callGateway('agg-web/quick/user/findUserLoginCase', loginCaseAnswer, { body: {} });
