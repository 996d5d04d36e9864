import { atom, map } from 'nanostores';
import { oidcConsoleApi } from '../api/oidc-clients';
import { problem, problemOf, type Problem } from '../i18n/problem';
import type { ConsoleClient, LogoutSend } from '../schemas/oidc-clients';

/**
 * The operators' client console (/ops/clients): the clients, the form being filled, the secret to show once, the
 * action waiting for confirmation and the logout sends being read. Data and problems only; the island says them.
 */
export const $clients = map({
  list: null as ConsoleClient[] | null,
  busy: false,
  notice: null as Problem | null,
  error: null as Problem | null,
});

export interface ClientDraft {
  /** The client being edited; null: a new one. */
  id: string | null;
  name: string;
  redirectUris: string;
  postLogoutUris: string;
  backchannelLogoutUri: string;
  public: boolean;
  trusted: boolean;
  idTokenAlg: 'ES256' | 'RS256';
  /** PKCE (issue 43): changed only for a confidential client being edited; off needs a reason. */
  pkceRequired: boolean;
  pkceOffReason: string;
  pkceBefore: { required: boolean; reason: string };
  error: Problem | null;
}
export const $draft = atom<ClientDraft | null>(null);
/** A secret just made: shown once, then forgotten. */
export const $secret = atom<{ name: string; clientId: string; secret: string } | null>(null);
export const $confirming = atom<{ action: 'rotate' | 'disable'; client: ConsoleClient } | null>(null);
export const $sends = atom<{ client: ConsoleClient; sends: LogoutSend[] | null; error: Problem | null } | null>(null);

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

export async function loadClients() {
  const answer = await oidcConsoleApi.list();
  if (answer.ok) $clients.setKey('list', answer.data);
  else $clients.setKey('error', problemOf(answer));
}

export function openDraft(client?: ConsoleClient) {
  $clients.set({ ...$clients.get(), notice: null, error: null });
  $draft.set({
    id: client?.id ?? null,
    name: client?.name ?? '',
    redirectUris: client?.redirectUris.join('\n') ?? '',
    postLogoutUris: client?.postLogoutUris.join('\n') ?? '',
    backchannelLogoutUri: client?.backchannelLogoutUri ?? '',
    public: client?.public ?? false,
    trusted: client?.trusted ?? false,
    idTokenAlg: client?.idTokenAlg ?? 'ES256',
    pkceRequired: client?.pkceRequired ?? true,
    pkceOffReason: client?.pkceOffReason ?? '',
    pkceBefore: { required: client?.pkceRequired ?? true, reason: client?.pkceOffReason ?? '' },
    error: null,
  });
}

export const editDraft = (change: Partial<ClientDraft>) => {
  const draft = $draft.get();
  if (draft) $draft.set({ ...draft, ...change });
};
export const closeDraft = () => $draft.set(null);

/** Registers or saves the draft; a new client's secret is then shown once. */
export async function saveDraft() {
  const draft = $draft.get();
  if (!draft || $clients.get().busy) return;
  const body = {
    name: draft.name.trim(),
    redirectUris: lines(draft.redirectUris),
    postLogoutUris: lines(draft.postLogoutUris),
    backchannelLogoutUri: draft.backchannelLogoutUri.trim() || null,
    trusted: draft.trusted,
    idTokenAlg: draft.idTokenAlg,
  };
  $clients.setKey('busy', true);
  const pkceChanged = draft.id !== null && (draft.pkceRequired !== draft.pkceBefore.required || (!draft.pkceRequired && draft.pkceOffReason.trim() !== draft.pkceBefore.reason));
  if (pkceChanged) {
    const pkce = await oidcConsoleApi.setPkce(draft.id!, draft.pkceRequired ? { required: true } : { required: false, reason: draft.pkceOffReason.trim() });
    if (!pkce.ok) {
      $clients.setKey('busy', false);
      return editDraft({ error: problemOf(pkce) });
    }
    editDraft({ pkceBefore: { required: draft.pkceRequired, reason: draft.pkceRequired ? '' : draft.pkceOffReason.trim() } });
  }
  const answer = draft.id ? await oidcConsoleApi.edit(draft.id, body) : await oidcConsoleApi.register({ ...body, public: draft.public });
  $clients.setKey('busy', false);
  if (!answer.ok) return editDraft({ error: problemOf(answer) });
  $draft.set(null);
  if ('secret' in answer.data) {
    const { client, secret } = answer.data;
    if (secret) $secret.set({ name: client.name, clientId: client.id, secret });
    $clients.setKey('notice', problem('opsClients.registered', { name: client.name }));
  } else {
    $clients.setKey('notice', problem('opsClients.saved', { name: answer.data.name }));
  }
  await loadClients();
}

export const askConfirm = (action: 'rotate' | 'disable', client: ConsoleClient) => $confirming.set({ action, client });
export const cancelConfirm = () => $confirming.set(null);

/** Rotates the secret (then shows the new one once) or disables the client the operator confirmed. */
export async function confirmAction() {
  const pending = $confirming.get();
  if (!pending) return;
  $confirming.set(null);
  const { action, client } = pending;
  $clients.set({ ...$clients.get(), busy: true, notice: null, error: null });
  const answer = action === 'rotate' ? await oidcConsoleApi.rotateSecret(client.id) : await oidcConsoleApi.setDisabled(client.id, true);
  $clients.setKey('busy', false);
  if (!answer.ok) return $clients.setKey('error', problemOf(answer));
  if ('secret' in answer.data && answer.data.secret) $secret.set({ name: client.name, clientId: client.id, secret: answer.data.secret });
  $clients.setKey('notice', problem(action === 'rotate' ? 'opsClients.rotated' : 'opsClients.disabledNotice', { name: client.name }));
  await loadClients();
}

export async function enableClient(client: ConsoleClient) {
  $clients.set({ ...$clients.get(), busy: true, notice: null, error: null });
  const answer = await oidcConsoleApi.setDisabled(client.id, false);
  $clients.setKey('busy', false);
  if (!answer.ok) return $clients.setKey('error', problemOf(answer));
  $clients.setKey('notice', problem('opsClients.enabledNotice', { name: client.name }));
  await loadClients();
}

export const forgetSecret = () => $secret.set(null);

export async function openSends(client: ConsoleClient) {
  $sends.set({ client, sends: null, error: null });
  const answer = await oidcConsoleApi.logoutSends(client.id);
  $sends.set({ client, sends: answer.ok ? answer.data : [], error: answer.ok ? null : problemOf(answer) });
}
export const closeSends = () => $sends.set(null);
