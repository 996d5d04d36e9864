import { GatewayError } from '../../errors';
import { ERR } from '../../../../src/schemas/error-codes';

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/i.test(error.message);
}

/**
 * Runs statements as one D1 batch (all or nothing), such as a new user with its first session. A UNIQUE
 * clash (the same phone, e-mail or usId registered by a parallel request) becomes US0003 and leaves nothing;
 * `refusal` lets the owner of another write in the batch name its own clash first (wechat/db.ts bindingRefusal).
 */
export async function runBatch(db: D1Database, statements: D1PreparedStatement[], refusal?: (error: unknown) => GatewayError | null): Promise<D1Result[]> {
  try {
    return await db.batch(statements);
  } catch (error) {
    const named = refusal?.(error);
    if (named) throw named;
    if (isUniqueViolation(error)) throw new GatewayError(ERR.ACCOUNT_JUST_REGISTERED);
    throw error;
  }
}
