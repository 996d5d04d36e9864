import type { Config } from '../../config';
import { DEV_HANDOFF_KEY, importHandoffKey, type HandoffKey } from './blob';

// Importing a key costs a WebCrypto call; a key's text never changes within an isolate.
const keyCache = new Map<string, Promise<HandoffKey>>();
const cachedKey = (base64: string) => {
  let key = keyCache.get(base64);
  if (!key) {
    key = importHandoffKey(base64);
    keyCache.set(base64, key);
    key.catch(() => keyCache.delete(base64));
  }
  return key;
};

/**
 * The hand-off keys: HANDOFF_KEY first (it seals outgoing blobs), then HANDOFF_KEY_PREVIOUS (accepted on
 * arrival during a rotation). Without HANDOFF_KEY only a local run (devHandoffKey) gets the public dev key;
 * elsewhere the list is empty and every blob is refused.
 */
export async function handoffKeys(config: Pick<Config, 'handoffKey' | 'handoffKeyPrevious' | 'devHandoffKey'>): Promise<HandoffKey[]> {
  const current = config.handoffKey ?? (config.devHandoffKey ? DEV_HANDOFF_KEY : undefined);
  if (!current) return [];
  const keys = [await cachedKey(current)];
  if (config.handoffKeyPrevious) keys.push(await cachedKey(config.handoffKeyPrevious));
  return keys;
}
