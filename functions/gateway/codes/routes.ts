import { Hono } from 'hono';
import { z } from 'zod';
import type { EdgeBindings } from '../../env';
import { emailCodeRequest, smsSendRequest } from '../../../src/schemas/auth';
import { validate } from '../validate';
import { clientIp, ok, requestLang, traceIdOf } from '../errors';
import { consumeSliderCheck } from '../captcha/service';
import { now } from '../../contract';
import { codePurposeOfType, issueCode } from './service';
import { emailRecipient, phoneRecipient, smsCallingCode } from '../identity/sign-in-names';
import { isBlockedRecipient } from '../account/db';

// Format errors in the phone or e-mail answer the specific PH0001 / PH0002 (from phoneRecipient /
// emailRecipient) rather than the generic GW0400, so the form can say which field is wrong; the shared schemas
// are therefore loosened for those fields here
// (they are zod/mini objects, which have no `.extend`: spreading the shape gives the same object).
const smsSendBody = z.object({ ...smsSendRequest.shape, mobile: z.string().max(32) });
const emailCodeBody = z.object({ ...emailCodeRequest.shape, emailAddress: z.string().max(254) });

/** Sending one-time codes: SMS after a passed slider, e-mail directly. */
export const codeRoutes = new Hono<EdgeBindings>()
  .post('/agg-web/sms/send', validate('json', smsSendBody), async (c) => {
    const body = c.req.valid('json');
    const at = now(c);
    // The number is checked (valid, able to take a text) before the slider check is spent, so a typo does not
    // cost a slide; issueCode checks it again as the owner of every SMS.
    const recipient = phoneRecipient(body.phoneCodeValue, body.mobile);
    smsCallingCode(recipient);
    await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'sms', subject: recipient, now: at });
    await issueCode(c.env, {
      recipient,
      channel: 'sms',
      purpose: codePurposeOfType(body.type),
      ip: clientIp(c),
      now: at,
      lang: requestLang(c),
      traceId: traceIdOf(c),
      // A blocked account gets no code, and the answer of an unknown one (a decoy under the same waits and caps).
      deliver: !(await isBlockedRecipient(c.env.DB, recipient)),
    });
    return ok(c, null);
  })
  .post('/agg-web/user/getRegVerificationCode', validate('json', emailCodeBody), async (c) => {
    const body = c.req.valid('json');
    const recipient = emailRecipient(body.emailAddress);
    await issueCode(c.env, {
      recipient,
      channel: 'email',
      deliver: !(await isBlockedRecipient(c.env.DB, recipient)),
      purpose: codePurposeOfType(body.type),
      ip: clientIp(c),
      now: now(c),
      lang: requestLang(c),
      traceId: traceIdOf(c),
    });
    return ok(c, null);
  });
