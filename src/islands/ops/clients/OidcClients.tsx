import { useStore } from '@nanostores/react';
import { pageTime } from '../../../lib/notice-time';
import { useEffect } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { format } from '../../../i18n/format';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import type { ConsoleClient } from '../../../schemas/oidc-clients';
import {
  $clients,
  $confirming,
  $draft,
  $secret,
  $sends,
  askConfirm,
  cancelConfirm,
  closeDraft,
  closeSends,
  confirmAction,
  editDraft,
  enableClient,
  forgetSecret,
  loadClients,
  openDraft,
  openSends,
  saveDraft,
} from '../../../stores/ops-clients';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { FieldFrame } from '../../../ui/FieldFrame';
import { Modal } from '../../../ui/Modal';
import { SecretOnce } from '../../../ui/SecretOnce';
import { ScrollTable } from '../../../ui/ScrollTable';
import { TextField } from '../../../ui/TextField';
import './clients.css';

type Words = Pick<Messages, 'opsClients' | 'errors'>;

/** /ops/clients (admins): the platform's OpenID clients; register, edit, new secret, disable and enable, logout sends. */
export default function OidcClients({ messages, lang }: { messages: Words; lang: Lang }) {
  const t = messages.opsClients;
  const s = useStore($clients);
  const confirming = useStore($confirming);
  useEffect(() => void loadClients(), []);
  const kindOf = (client: ConsoleClient) => (client.public ? t.public : client.redirectUris.length ? t.confidential : t.machine);

  return (
    <div className="ops-clients">
      <div className="live-region" role="status" aria-live="polite">
        {s.notice && <p className="notice">{problemText(messages, s.notice)}</p>}
      </div>
      {s.error && <p className="error form-error" role="alert">{problemText(messages, s.error)}</p>}
      <p>
        <button type="button" className="button primary" onClick={() => openDraft()}>
          {t.register}
        </button>
      </p>
      {s.list === null && <p className="hint" role="status">…</p>}
      {s.list?.length === 0 && <p className="hint">{t.none}</p>}
      {s.list && s.list.length > 0 && (
        <ScrollTable label={t.caption} className="members ops-clients-table" columns={[t.name, t.uris, t.status]}>
          {s.list.map((client) => (
            <tr key={client.id} data-client={client.id}>
              <td>
                <span className="member-name">{client.name}</span>
                <span className="member-contact">
                  {kindOf(client)}
                  {client.trusted && ` · ${t.trustedBadge}`}
                  {client.idTokenAlg === 'RS256' && ' · RS256'}
                </span>
                <span className="member-contact" data-pkce={client.pkceRequired ? 'required' : 'off'}>
                  {client.pkceRequired ? t.pkceRequiredBadge : format(t.pkceOffBadge, { reason: client.pkceOffReason ?? '' })}
                </span>
                <code className="member-contact client-id">{client.id}</code>
              </td>
              <td className="client-uris">{client.redirectUris.length ? client.redirectUris.map((uri) => <span key={uri}>{uri}</span>) : '—'}</td>
              <td>
                <span className="badge" data-tone={client.disabledAt === null ? 'good' : 'bad'}>
                  {client.disabledAt === null ? t.enabled : t.disabled}
                </span>
                <div className="member-actions">
                  <button type="button" className="button secondary small" disabled={s.busy} aria-label={format(t.editLabel, { name: client.name })} onClick={() => openDraft(client)}>
                    {t.edit}
                  </button>
                  {!client.public && (
                    <button type="button" className="button secondary small" disabled={s.busy} aria-label={format(t.rotateLabel, { name: client.name })} onClick={() => askConfirm('rotate', client)}>
                      {t.rotate}
                    </button>
                  )}
                  {client.disabledAt === null ? (
                    <button type="button" className="button secondary small" disabled={s.busy} aria-label={format(t.disableLabel, { name: client.name })} onClick={() => askConfirm('disable', client)}>
                      {t.disable}
                    </button>
                  ) : (
                    <button type="button" className="button secondary small" disabled={s.busy} aria-label={format(t.enableLabel, { name: client.name })} onClick={() => void enableClient(client)}>
                      {t.enable}
                    </button>
                  )}
                  {client.backchannelLogoutUri && (
                    <button type="button" className="button secondary small" aria-label={format(t.sendsLabel, { name: client.name })} onClick={() => void openSends(client)}>
                      {t.sends}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      <ClientForm messages={messages} />
      <ShownSecret messages={messages} />
      <LogoutSends messages={messages} lang={lang} />
      {confirming && (
        <ConfirmModal
          title={format(confirming.action === 'rotate' ? t.rotateTitle : t.disableTitle, { name: confirming.client.name })}
          text={confirming.action === 'rotate' ? t.rotateText : t.disableText}
          cancelLabel={t.cancel}
          confirmLabel={confirming.action === 'rotate' ? t.rotate : t.disable}
          onCancel={cancelConfirm}
          onConfirm={() => void confirmAction()}
        />
      )}
    </div>
  );
}

function ClientForm({ messages }: { messages: Words }) {
  const t = messages.opsClients;
  const draft = useStore($draft);
  const busy = useStore($clients).busy;
  if (!draft) return null;
  const textArea = (id: string, label: string, value: string, key: 'redirectUris' | 'postLogoutUris', hint?: string) => (
    <FieldFrame id={id} label={label} hint={hint}>
      {(aria) => <textarea {...aria} id={id} className="input" rows={3} spellCheck={false} value={value} onChange={(event) => editDraft({ [key]: event.target.value })} />}
    </FieldFrame>
  );
  return (
    <Modal wide title={draft.id ? format(t.formTitleEdit, { name: draft.name }) : t.formTitleNew} onCancel={closeDraft}>
      <form
        className="ops-client-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void saveDraft();
        }}
      >
        <TextField id="client-name" label={t.nameLabel} required maxLength={100} value={draft.name} onChange={(name) => editDraft({ name })} />
        {textArea('client-redirects', t.redirectLabel, draft.redirectUris, 'redirectUris', `${t.urisHint} ${t.machineHint}`)}
        {textArea('client-logouts', t.postLogoutLabel, draft.postLogoutUris, 'postLogoutUris')}
        <TextField id="client-backchannel" label={t.backchannelLabel} type="url" value={draft.backchannelLogoutUri} onChange={(backchannelLogoutUri) => editDraft({ backchannelLogoutUri })} />
        <fieldset className="field module-list" aria-describedby={draft.id ? 'client-kind-fixed' : undefined}>
          <legend>{t.kindLabel}</legend>
          {(['confidential', 'public'] as const).map((kind) => (
            <label key={kind} className="check">
              <input type="radio" name="client-kind" disabled={draft.id !== null} checked={draft.public === (kind === 'public')} onChange={() => editDraft({ public: kind === 'public' })} />
              <span>{kind === 'public' ? t.publicOption : t.confidentialOption}</span>
            </label>
          ))}
          {draft.id && (
            <p id="client-kind-fixed" className="hint">
              {t.kindFixed}
            </p>
          )}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={draft.trusted} onChange={(event) => editDraft({ trusted: event.target.checked })} />
          <span>{t.trusted}</span>
        </label>
        <FieldFrame id="client-alg" label={t.idTokenAlgLabel} hint={t.idTokenAlgHint}>
          {(aria) => (
            <select {...aria} id="client-alg" className="input" value={draft.idTokenAlg} onChange={(event) => editDraft({ idTokenAlg: event.target.value === 'RS256' ? 'RS256' : 'ES256' })}>
              <option value="ES256">ES256</option>
              <option value="RS256">RS256</option>
            </select>
          )}
        </FieldFrame>
        {draft.id && !draft.public && (
          <>
            <label className="check">
              <input type="checkbox" checked={draft.pkceRequired} onChange={(event) => editDraft({ pkceRequired: event.target.checked })} />
              <span>{t.pkceRequired}</span>
            </label>
            {!draft.pkceRequired && (
              <FieldFrame id="client-pkce-reason" label={t.pkceReasonLabel} hint={t.pkceReasonHint} required>
                {(aria) => <textarea {...aria} id="client-pkce-reason" className="input" rows={2} required maxLength={300} value={draft.pkceOffReason} onChange={(event) => editDraft({ pkceOffReason: event.target.value })} />}
              </FieldFrame>
            )}
          </>
        )}
        {draft.error && (
          <p className="error form-error" role="alert">
            {problemText(messages, draft.error)}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={closeDraft}>
            {t.cancel}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {t.save}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The secret of a client just registered or given a new one: shown this once. */
function ShownSecret({ messages }: { messages: Words }) {
  const t = messages.opsClients;
  const shown = useStore($secret);
  if (!shown) return null;
  return (
    <SecretOnce title={format(t.secretTitle, { name: shown.name })} idLabel={t.clientIdLabel} id={shown.clientId} secret={shown.secret} words={t} onDone={forgetSecret} />
  );
}

function LogoutSends({ messages, lang }: { messages: Words; lang: Lang }) {
  const t = messages.opsClients;
  const open = useStore($sends);
  if (!open) return null;
  const time = { format: (at: number) => pageTime(at, lang) };
  return (
    <Modal wide title={format(t.sendsLabel, { name: open.client.name })} onCancel={closeSends}>
      {open.error && <p className="error" role="alert">{problemText(messages, open.error)}</p>}
      {open.sends === null && <p className="hint" role="status">…</p>}
      {open.sends?.length === 0 && <p className="hint">{t.noSends}</p>}
      {open.sends && open.sends.length > 0 && (
        <ScrollTable label={format(t.sendsLabel, { name: open.client.name })} className="members" columns={[t.sendCreated, t.status, t.sendAttempts, t.sendResult]}>
          {open.sends.map((send) => (
            <tr key={`${send.createdAt}-${send.attempts}-${send.status}`}>
              <td>{time.format(send.createdAt)}</td>
              <td>{t.sendStatuses[send.status]}</td>
              <td>{send.attempts}</td>
              <td>{send.lastResult ?? '—'}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
      <div className="modal-actions">
        <button type="button" className="button primary" onClick={closeSends}>
          {t.close}
        </button>
      </div>
    </Modal>
  );
}
