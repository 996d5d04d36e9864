import { meContactAnswer } from '../schemas/me-contact';
import { callGateway } from './client';

/**
 * GET agg-web/user/fetchMeByUserToken, read for the person's name, phone and identity only (the join form's prefill, the company form's types): the
 * whole answer is onboardingApi.fetchMe.
 */
export const fetchMeContact = () => callGateway('agg-web/user/fetchMeByUserToken', meContactAnswer, { method: 'GET' });
