import { Hono } from 'hono';
import * as z from 'zod/mini';
import { callingCodeSchema, emailSchema, mobileSchema } from '../../../src/schemas/auth';
import { companyNameKey, companyTypeToDb } from '../../../src/schemas/onboarding';
import type { EdgeBindings } from '../../env';
import { insertUserStatement } from '../identity/db/people';
import { runBatch } from '../identity/db/batch';
import { fail, GatewayError, ok } from '../errors';
import { now } from '../../contract';
import { consentStatements } from '../legal/consents';
import { emailRecipient, phoneRecipient } from '../identity/sign-in-names';
import { assertPlainPasswordAllowed, hashPassword, sha256Hex } from '../identity/passwords';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';
import { seedCompanyStatement, seedMemberStatement } from './db';

/**
 * POST /dev/users seeds a user for automated browser tests, only where the dev routes are on (a local run,
 * DEV_OUTBOX "true"; otherwise the ordinary 404 envelope, so the route does not show). The plain password is hashed as a browser would
 * (SHA-256 hex, of password + legacySalt for a legacy version-1 record) and then by the server's KDF.
 * `companies` adds memberships, so each login case can be reached.
 */
/** A string of min..max characters. */
const chars = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const devUserRequest = z
  .object({
    phone: z.optional(z.object({ callingCode: callingCodeSchema, mobile: mobileSchema })),
    email: z.optional(emailSchema),
    usId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
    password: z.optional(chars(1, 128)),
    legacySalt: z.optional(chars(1, 64)),
    /** Seeds a password from before today's rule (any text), to reach the insecure-password modal; otherwise the whole rule applies. */
    insecurePassword: z.optional(z.boolean()),
    originalFlag: z.optional(z.boolean()),
    userType: z.optional(z.union([z.literal(0), z.literal(1), z.literal(2)])),
    realName: z.optional(z.string().check(z.maxLength(64))),
    pendingCompanyName: z.optional(z.string().check(z.maxLength(128))),
    /** The new-user dialog's answer: 1 principal, 2 service provider. */
    identity: z.optional(z.union([z.literal(1), z.literal(2)])),
    /** A UN/LOCODE of the port list, kept with the company name (login case 7). */
    pendingPortId: z.optional(z.string().check(z.length(5))),
    isPartner: z.optional(z.boolean()),
    /** Records agreement to today's terms and privacy, so the sign-in does not ask for consent. */
    agreed: z.optional(z.boolean()),
    companies: z.optional(
      z
        .array(
          z.object({
            /** An existing company to join (nameEn and type are then ignored); otherwise a new company is created. */
            companyId: z.optional(chars(1, 64)),
            nameEn: z._default(chars(1, 128), 'Seeded Company'),
            type: z._default(chars(1, 32), 'ship_owner'),
            status: z._default(chars(1, 32), 'verified'),
            role: z._default(z.enum(['administrator', 'staff']), 'administrator'),
            memberStatus: z._default(z.enum(['pending', 'active', 'rejected']), 'active'),
            isMain: z._default(z.boolean(), false),
            hireTime: z.optional(z.string().check(z.maxLength(10))),
            /** A new company that requires two-step verification of its members (companies.require_two_step). */
            requireTwoStep: z.optional(z.boolean()),
            /** The company's device rules (issue 44): companies.confirm_new_devices and forbid_trusted_devices. */
            confirmNewDevices: z.optional(z.boolean()),
            forbidTrustedDevices: z.optional(z.boolean()),
          }),
        )
        .check(z.maxLength(10)),
    ),
  })
  .check(z.refine((u) => u.phone || u.email || u.usId, { message: 'phone, email or usId is required' }));

// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const devUserRoutes = /* @__PURE__ */ (() =>
  new Hono<EdgeBindings>()
    .use('/dev/users', async (c, next) => (c.get('config').devRoutes ? next() : fail(c, ERR.NO_SUCH_API)))
    .post('/dev/users', validate('json', devUserRequest), async (c) => {
      const body = c.req.valid('json');
      const db = c.env.DB;
      const at = now(c);
      const id = crypto.randomUUID();
      // A plain password the server sees meets the whole rule (letters and digits, 6-18, not on the blocklist).
      if (body.password && !body.insecurePassword) await assertPlainPasswordAllowed(db, body.password);
      const password = body.password
        ? await hashPassword(await sha256Hex(body.password + (body.legacySalt ?? '')), c.env)
        : null;
      const statements = [
        insertUserStatement(db, {
          id,
          phone: body.phone ? phoneRecipient(body.phone.callingCode, body.phone.mobile) : null,
          email: body.email ? emailRecipient(body.email) : null,
          usId: body.usId ?? null,
          realName: body.realName,
          password,
          passwordVersion: body.legacySalt ? 1 : 2,
          legacySalt: body.legacySalt ?? null,
          originalFlag: body.originalFlag,
          userType: body.userType,
          pendingCompanyName: body.pendingCompanyName ?? null,
          identity: body.identity ?? null,
          pendingPortId: body.pendingPortId ?? null,
          isPartner: body.isPartner,
          source: 'dev-seed',
          now: at,
        }),
      ];
      if (body.agreed) statements.push(...consentStatements(db, id, at));
      const companyIds: string[] = [];
      for (const company of body.companies ?? []) {
        const companyId = company.companyId ?? crypto.randomUUID();
        companyIds.push(companyId);
        if (!company.companyId) {
          statements.push(
            seedCompanyStatement(db, {
              id: companyId,
              nameEn: company.nameEn,
              nameKey: companyNameKey(company.nameEn),
              type: companyTypeToDb(company.type),
              status: company.status,
              createdBy: id,
              at,
              requireTwoStep: company.requireTwoStep ?? false,
              confirmNewDevices: company.confirmNewDevices ?? false,
              forbidTrustedDevices: company.forbidTrustedDevices ?? false,
            }),
          );
        }
        statements.push(
          seedMemberStatement(db, {
            companyId,
            userId: id,
            role: company.role,
            status: company.memberStatus,
            isMain: company.isMain,
            at,
            hireTime: company.hireTime ?? null,
          }),
        );
      }
      try {
        await runBatch(db, statements);
      } catch (error) {
        // A clash here (the identity or a company name and type already seeded) is the caller's mistake.
        if (error instanceof GatewayError) throw new GatewayError(ERR.REQUEST_INVALID, [{ path: '', message: 'already exists' }]);
        throw error;
      }
      return ok(c, { userId: id, companyIds });
    })
)();
