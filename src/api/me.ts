import { meAnswer, type UpdateUserInfoInput } from '../schemas/profile';
import { callGateway } from './client';

/** The signed-in person (onboardingApi spreads these): the user center reads them without the onboarding calls. */
export const meApi = {
  fetchMe: () => callGateway('agg-web/user/fetchMeByUserToken', meAnswer, { method: 'GET' }),
  /** Answers the updated "me". */
  updateUserInfo: (body: UpdateUserInfoInput) => callGateway('agg-web/user/updateUserInfo', meAnswer, { body }),
};
