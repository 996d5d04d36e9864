import { fetchWithin, OutboundFailure } from '../../outbound';

/**
 * TXT records through DNS-over-HTTPS, JSON form (`application/dns-json`, as Cloudflare's and Google's resolvers
 * answer it): `Status` 0 is NOERROR, 3 NXDOMAIN; each TXT answer's `data` is one or more quoted strings, joined.
 * Locally and in the tests DOH_URL points at a stand-in resolver that answers the same way.
 */
export const DOH_TIMEOUT_MS = 5_000;

export async function txtRecords(dohUrl: string, name: string): Promise<string[] | 'unreachable'> {
  const url = new URL(dohUrl);
  url.searchParams.set('name', name);
  url.searchParams.set('type', 'TXT');
  let body: { Status?: number; Answer?: { type?: number; data?: string }[] };
  try {
    const answer = await fetchWithin(url.href, { headers: { accept: 'application/dns-json' } }, DOH_TIMEOUT_MS);
    if (!answer.ok) {
      await answer.body?.cancel();
      return 'unreachable';
    }
    body = (await answer.json()) as typeof body;
  } catch (error) {
    if (error instanceof OutboundFailure || error instanceof SyntaxError) return 'unreachable';
    throw error;
  }
  if (body.Status === 3) return [];
  if (body.Status !== 0) return 'unreachable';
  return (body.Answer ?? [])
    .filter((record) => record.type === 16 && typeof record.data === 'string')
    .map((record) => [...record.data!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((part) => part[1]!.replace(/\\(.)/g, '$1')).join('') || record.data!);
}
