import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { EdgeBindings } from '../../env';
import { emailCodeRequest, emailInsteadRequest, smsSendRequest } from '../../../src/schemas/auth';
import { validate } from '../validate';
import { clientIp, GatewayError, ok, requestLang, traceIdOf } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import { emailInstead, issueFallbackTicket } from './fallback';
import { consumeSliderCheck } from '../captcha/service';
import { now } from '../../contract';
import { codePurposeOfType, issueCode } from './service';
import { emailRecipient, phoneRecipient, smsCallingCode } from '../identity/sign-in-names';

// Format errors in the phone or e-mail answer the specific PH0001 / PH0002 (from phoneRecipient /
// emailRecipient) rather than the generic GW0400, so the form can say which field is wrong; the shared schemas
// are therefore loosened for those fields here
// (they are zod/mini objects, which have no `.extend`: spreading the shape gives the same object).
const smsSendBody = z.object({ ...smsSendRequest.shape, mobile: z.string().check(z.maxLength(32)) });
const emailCodeBody = z.object({ ...emailCodeRequest.shape, emailAddress: z.string().check(z.maxLength(254)) });

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
    const purpose = codePurposeOfType(body.type);
    try {
      await issueCode(c.env, {
        recipient,
        channel: 'sms',
        purpose,
        ip: clientIp(c),
        now: at,
        lang: requestLang(c),
        traceId: traceIdOf(c),
        // The slider was passed for this send (issue 33 item 16: the per-network cap grows with proven sends).
        humanChecked: true,
        // A blocked account gets no code, and the answer of an unknown one (a decoy under the same waits and caps).
        decoyWhenBlocked: true,
      });
    } catch (error) {
      // No SMS provider could send: the answer carries the way out (the e-mail offer), the same for any number.
      if (!(error instanceof GatewayError) || error.code !== ERR.DELIVERY_NO_SMS_PROVIDER) throw error;
      const emailTicket = await issueFallbackTicket(c.env.DB, { recipient, purpose, lang: requestLang(c), now: at });
      throw new GatewayError(ERR.DELIVERY_NO_SMS_PROVIDER, { emailTicket });
    }
    return ok(c, null);
  })
  // "Send the code by e-mail instead": the ticket of a DL0010 answer; the same answer whatever the number.
  .post('/agg-web/sms/email-instead', validate('json', emailInsteadRequest), async (c) => {
    await emailInstead(c.env, {
      ticket: c.req.valid('json').emailTicket,
      ip: clientIp(c),
      now: now(c),
      traceId: traceIdOf(c),
      background: (work) => c.executionCtx.waitUntil(work),
    });
    return ok(c, null);
  })
  .post('/agg-web/user/getRegVerificationCode', validate('json', emailCodeBody), async (c) => {
    const body = c.req.valid('json');
    const recipient = emailRecipient(body.emailAddress);
    await issueCode(c.env, {
      recipient,
      channel: 'email',
      decoyWhenBlocked: true,
      purpose: codePurposeOfType(body.type),
      ip: clientIp(c),
      now: now(c),
      lang: requestLang(c),
      traceId: traceIdOf(c),
    });
    return ok(c, null);
  });
