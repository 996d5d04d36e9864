import { useEffect, useState } from 'react';
import { grantsApi } from '../../api/grants';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import { imoProblem } from '../../lib/imo';
import type { Lang } from '../../lib/lang';
import { VESSEL_RELATIONS, type CompanyLookupAnswer, type Grant, type GrantsAnswer, type Vessel, type VesselRelation } from '../../schemas/grants';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import { ModalForm } from '../../ui/ModalForm';
import { TextField } from '../../ui/TextField';

interface CompanyGrantsProps {
  lang: Lang;
  companyId: string;
  companyName: string;
  messages: Pick<Messages, 'grants' | 'errors'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** yyyy-mm-dd in Beijing time: grants run in whole Beijing days. */
const beijingDay = (at: number) => new Date(at + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);
const list = (text: string) => text.split(/[\s,，;；]+/).map((item) => item.trim()).filter(Boolean);

/** The words of an IMO number typed in a field: null when it is one. */
function imoError(t: Messages['grants'], value: string): string | null {
  const problem = imoProblem(value);
  if (!problem) return null;
  return problem.kind === 'form' ? t.imoForm : format(t.imoCheckDigit, { digit: String(problem.expected) });
}

interface VesselDraft {
  imo: string;
  name: string;
  relation: VesselRelation;
  startsOn: string;
  endsOn: string;
  imoError: string | null;
  busy: boolean;
  error: Problem | null;
}

interface GrantDraft {
  side: 'principal' | 'agent';
  otherName: string;
  found: CompanyLookupAnswer['companies'] | null;
  ownModules: CompanyLookupAnswer['ownModules'];
  otherId: string;
  vessels: string[];
  vesselText: string;
  ports: string;
  modules: string[];
  level: 'read' | 'act';
  startsOn: string;
  endsOn: string;
  busy: boolean;
  error: Problem | null;
}

/**
 * A company's vessels and its grants with other companies (issue 41), for its administrators: declare a vessel by
 * IMO number (the check digit is checked as it is typed), ask for or give a grant ("Confirm it's you" first when
 * the proof is stale), answer the other side's requests, end a grant, accept an agent automatically.
 */
export function CompanyGrants({ lang, companyId, companyName, messages }: CompanyGrantsProps) {
  const t = messages.grants;
  const [vessels, setVessels] = useState<Vessel[] | null>(null);
  const [grants, setGrants] = useState<GrantsAnswer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [vesselDraft, setVesselDraft] = useState<VesselDraft | null>(null);
  const [grantDraft, setGrantDraft] = useState<GrantDraft | null>(null);
  const id = `grants-${companyId}`;
  const nameOf = (party: { nameEn: string; nameCn: string | null }) => (lang === 'zh' ? party.nameCn || party.nameEn : party.nameEn || party.nameCn || '');
  const day = (at: number) => new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeZone: 'Asia/Shanghai' }).format(at);

  async function load() {
    const [listedVessels, listedGrants] = await Promise.all([grantsApi.vessels(companyId), grantsApi.list(companyId)]);
    if (listedVessels.ok) setVessels(listedVessels.data);
    else setProblem(problemOf(listedVessels));
    if (listedGrants.ok) setGrants(listedGrants.data);
    else setProblem(problemOf(listedGrants));
  }
  useEffect(() => void load(), [companyId]);

  async function declare(draft: VesselDraft) {
    const imoWords = imoError(t, draft.imo);
    if (imoWords) return setVesselDraft({ ...draft, imoError: imoWords });
    if (draft.busy) return;
    setVesselDraft({ ...draft, busy: true, error: null });
    const charter = draft.relation === 'charterer';
    const answer = await grantsApi.declareVessel({ companyId, imo: draft.imo, name: draft.name.trim(), relation: draft.relation, startsOn: charter ? draft.startsOn || null : null, endsOn: charter ? draft.endsOn || null : null });
    if (!answer.ok) return setVesselDraft({ ...draft, busy: false, error: problemOf(answer) });
    setVesselDraft(null);
    setNotice(answer.data.vessel ? format(t.declared, { name: answer.data.vessel.name, imo: answer.data.vessel.imo }) : format(t.disputed, { relation: t.relations[draft.relation] }));
    await load();
  }

  async function removeVessel(vessel: Vessel) {
    const answer = await grantsApi.removeVessel(companyId, vessel.id);
    if (!answer.ok) return setProblem(problemOf(answer));
    setNotice(format(t.removed, { name: vessel.name }));
    await load();
  }

  const openGrantForm = () => {
    setNotice(null);
    setGrantDraft({ side: 'principal', otherName: '', found: null, ownModules: [], otherId: '', vessels: [], vesselText: '', ports: '', modules: [], level: 'read', startsOn: beijingDay(Date.now()), endsOn: beijingDay(Date.now() + 30 * DAY_MS), busy: false, error: null });
  };

  async function find(draft: GrantDraft) {
    const answer = await grantsApi.lookUp(companyId, draft.otherName);
    if (!answer.ok) return setGrantDraft({ ...draft, error: problemOf(answer) });
    setGrantDraft({ ...draft, found: answer.data.companies, ownModules: answer.data.ownModules, otherId: answer.data.companies[0]?.id ?? '', modules: [], error: null });
  }

  async function create(draft: GrantDraft) {
    if (draft.busy) return;
    setGrantDraft({ ...draft, busy: true, error: null });
    const request = {
      companyId,
      side: draft.side,
      otherCompanyId: draft.otherId,
      vessels: draft.side === 'principal' ? draft.vessels : list(draft.vesselText),
      ports: list(draft.ports).map((port) => port.toUpperCase()),
      modules: draft.modules,
      level: draft.level,
      startsOn: draft.startsOn,
      endsOn: draft.endsOn,
    };
    const created = await withFreshProof(() => grantsApi.create(request));
    if (!created.ok) return setGrantDraft({ ...draft, busy: false, error: created.code === STEP_UP_CANCELLED ? null : problemOf(created) });
    setGrantDraft(null);
    const other = draft.side === 'principal' ? created.data.agent : created.data.principal;
    setNotice(format(created.data.status === 'active' ? t.createdActive : t.created, { company: nameOf(other) }));
    await load();
  }

  async function answer(grant: Grant, action: 'accept' | 'decline' | 'revoke') {
    const other = grant.principal.id === companyId ? grant.agent : grant.principal;
    const call = action === 'accept' ? () => withFreshProof(() => grantsApi.accept(companyId, grant.id)) : action === 'decline' ? () => grantsApi.decline(companyId, grant.id) : () => grantsApi.revoke(companyId, grant.id);
    const answered = await call();
    if (!answered.ok) {
      if (answered.code !== STEP_UP_CANCELLED) setProblem(problemOf(answered));
      return;
    }
    setProblem(null);
    setNotice(format(action === 'accept' ? t.accepted : action === 'decline' ? t.declinedNotice : t.ended, { company: nameOf(other) }));
    await load();
  }

  async function autoAccept(agentId: string, on: boolean) {
    const changed = await grantsApi.autoAccept(companyId, agentId, on);
    if (!changed.ok) return setProblem(problemOf(changed));
    if (grants) setGrants({ ...grants, autoAccept: changed.data.autoAccept });
  }

  const lookedUp = grantDraft?.found?.find((company) => company.id === grantDraft.otherId);
  const grantable = (vessels ?? []).filter((vessel) => vessel.relation !== 'operator');

  return (
    <>
      <section className="api-clients company-vessels" aria-labelledby={`${id}-vessels`} aria-busy={vessels === null || undefined}>
        <h3 id={`${id}-vessels`} className="subsection-title">{format(t.vesselsTitle, { company: companyName })}</h3>
        <p className="hint">{t.vesselsLead}</p>
        <div className="live-region" role="status" aria-live="polite">
          {notice && <p className="notice">{notice}</p>}
        </div>
        {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
        <p>
          <button type="button" className="button secondary" disabled={!vessels} onClick={() => setVesselDraft({ imo: '', name: '', relation: 'owner', startsOn: '', endsOn: '', imoError: null, busy: false, error: null })}>
            {t.declare}
          </button>
        </p>
        {vessels?.length === 0 && <p className="hint">{t.vesselsNone}</p>}
        {vessels && vessels.length > 0 && (
          <ul className="session-list" aria-label={format(t.vesselsLabel, { company: companyName })}>
            {vessels.map((vessel) => (
              <li key={vessel.id} className="session-card" data-vessel={vessel.imo}>
                <div className="session-head">
                  <span className="session-device">{vessel.name}</span>
                  <span className="badge">{t.relations[vessel.relation]}</span>
                </div>
                <p className="hint">
                  IMO {vessel.imo}
                  {vessel.startsOn && vessel.endsOn ? ` · ${format(t.charterDays, { from: vessel.startsOn, to: vessel.endsOn })}` : ''}
                </p>
                <button type="button" className="button secondary small" aria-label={format(t.removeNamed, { name: vessel.name })} onClick={() => void removeVessel(vessel)}>
                  {t.remove}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="api-clients company-grants" aria-labelledby={`${id}-grants`} aria-busy={grants === null || undefined}>
        <h3 id={`${id}-grants`} className="subsection-title">{format(t.grantsTitle, { company: companyName })}</h3>
        <p className="hint">{t.grantsLead}</p>
        {grants?.suspended && <p className="error" role="alert">{t.suspended}</p>}
        <p>
          <button type="button" className="button secondary" disabled={!grants || grants.suspended} onClick={openGrantForm}>
            {t.newGrant}
          </button>
        </p>
        {grants?.grants.length === 0 && <p className="hint">{t.grantsNone}</p>}
        {grants && grants.grants.length > 0 && (
          <ul className="session-list" aria-label={format(t.grantsLabel, { company: companyName })}>
            {grants.grants.map((grant) => {
              const weArePrincipal = grant.principal.id === companyId;
              const other = weArePrincipal ? grant.agent : grant.principal;
              const open = grant.status === 'pending' || grant.status === 'active';
              return (
                <li key={grant.id} className="session-card" data-grant={grant.id} data-state={grant.status}>
                  <div className="session-head">
                    <span className="session-device">{format(weArePrincipal ? t.weGrant : t.theyGrant, { company: nameOf(other) })}</span>
                    <span className="badge" data-tone={grant.status === 'active' ? 'good' : grant.status === 'pending' ? undefined : 'bad'}>
                      {t.statuses[grant.status]}
                    </span>
                  </div>
                  <ul className="connect-scopes">
                    <li>{format(t.scopeVessels, { list: grant.vessels.join(', ') || t.none })}</li>
                    <li>{format(t.scopePorts, { list: grant.ports.join(', ') || t.none })}</li>
                    <li>{format(t.scopeModules, { list: grant.modules.map((module) => module.name).join(lang === 'zh' ? '、' : ', ') })}</li>
                    <li>
                      {t.levels[grant.level]} · {format(t.scopeDates, { from: day(grant.startsAt), to: day(grant.endsAt - 1) })}
                    </li>
                  </ul>
                  {grant.status === 'pending' && !grant.mayAnswer && <p className="hint">{format(t.waitingForThem, { company: nameOf(other) })}</p>}
                  <div className="card-actions">
                    {grant.mayAnswer && (
                      <>
                        <button type="button" className="button primary small" onClick={() => void answer(grant, 'accept')}>
                          {t.accept}
                        </button>
                        <button type="button" className="button secondary small" onClick={() => void answer(grant, 'decline')}>
                          {t.decline}
                        </button>
                      </>
                    )}
                    {open && !grant.mayAnswer && (
                      <button type="button" className="button secondary small" aria-label={format(t.endNamed, { company: nameOf(other) })} onClick={() => void answer(grant, 'revoke')}>
                        {t.end}
                      </button>
                    )}
                  </div>
                  {weArePrincipal && (
                    <label className="check">
                      <input type="checkbox" checked={grants.autoAccept.includes(other.id)} onChange={(event) => void autoAccept(other.id, event.target.checked)} />
                      <span>{format(t.autoAccept, { company: nameOf(other) })}</span>
                    </label>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {vesselDraft && (
        <ModalForm
          title={t.declare}
          onCancel={() => setVesselDraft(null)}
          onSubmit={() => void declare(vesselDraft)}
          error={vesselDraft.error && problemText(messages, vesselDraft.error)}
          disabled={vesselDraft.busy}
          cancelLabel={t.cancel}
          submitLabel={t.save}
        >
          <TextField
            id={`${id}-imo`}
            label={t.imoLabel}
            hint={t.imoHint}
            inputMode="numeric"
            autoComplete="off"
            required
            maxLength={20}
            value={vesselDraft.imo}
            error={vesselDraft.imoError ?? undefined}
            onChange={(imo) => setVesselDraft({ ...vesselDraft, imo, imoError: null })}
            onBlur={() => setVesselDraft({ ...vesselDraft, imoError: vesselDraft.imo ? imoError(t, vesselDraft.imo) : null })}
          />
          <TextField id={`${id}-vessel-name`} label={t.vesselNameLabel} required maxLength={100} value={vesselDraft.name} onChange={(name) => setVesselDraft({ ...vesselDraft, name })} />
          <fieldset className="field module-list">
            <legend>{t.relationLabel}</legend>
            {VESSEL_RELATIONS.map((relation) => (
              <label key={relation} className="check">
                <input type="radio" name={`${id}-relation`} checked={vesselDraft.relation === relation} onChange={() => setVesselDraft({ ...vesselDraft, relation })} />
                <span>{t.relations[relation]}</span>
              </label>
            ))}
          </fieldset>
          {vesselDraft.relation === 'charterer' && (
            <>
              <TextField id={`${id}-charter-from`} label={t.charterFrom} type="date" required value={vesselDraft.startsOn} onChange={(startsOn) => setVesselDraft({ ...vesselDraft, startsOn })} />
              <TextField id={`${id}-charter-to`} label={t.charterTo} type="date" required value={vesselDraft.endsOn} onChange={(endsOn) => setVesselDraft({ ...vesselDraft, endsOn })} />
            </>
          )}
        </ModalForm>
      )}

      {grantDraft && (
        <ModalForm
          title={t.formTitle}
          onCancel={() => setGrantDraft(null)}
          onSubmit={() => void create(grantDraft)}
          error={grantDraft.error && problemText(messages, grantDraft.error)}
          disabled={grantDraft.busy || !grantDraft.otherId}
          cancelLabel={t.cancel}
          submitLabel={t.submit}
        >
          <fieldset className="field module-list">
            <legend>{t.sideLabel}</legend>
            {(['principal', 'agent'] as const).map((side) => (
              <label key={side} className="check">
                <input type="radio" name={`${id}-side`} checked={grantDraft.side === side} onChange={() => setGrantDraft({ ...grantDraft, side })} />
                <span>{side === 'principal' ? t.sidePrincipal : t.sideAgent}</span>
              </label>
            ))}
          </fieldset>
          <TextField id={`${id}-other`} label={t.otherLabel} hint={t.otherHint} required maxLength={200} value={grantDraft.otherName} onChange={(otherName) => setGrantDraft({ ...grantDraft, otherName, found: null, otherId: '' })} />
          <p>
            <button type="button" className="button secondary small" disabled={grantDraft.otherName.trim().length < 2} onClick={() => void find(grantDraft)}>
              {t.find}
            </button>
          </p>
          {grantDraft.found?.length === 0 && <p className="error" role="alert">{t.noneFound}</p>}
          {grantDraft.found && grantDraft.found.length > 0 && (
            <fieldset className="field module-list">
              <legend>{t.pickCompany}</legend>
              {grantDraft.found.map((company) => (
                <label key={company.id} className="check">
                  <input type="radio" name={`${id}-other-company`} checked={grantDraft.otherId === company.id} onChange={() => setGrantDraft({ ...grantDraft, otherId: company.id, modules: [] })} />
                  <span>{nameOf(company)}</span>
                </label>
              ))}
            </fieldset>
          )}
          {grantDraft.side === 'principal' ? (
            <fieldset className="field module-list">
              <legend>{t.vesselsField}</legend>
              <p className="hint">{t.ownVesselsHint}</p>
              {grantable.map((vessel) => (
                <label key={vessel.id} className="check">
                  <input
                    type="checkbox"
                    checked={grantDraft.vessels.includes(vessel.imo)}
                    onChange={(event) => setGrantDraft({ ...grantDraft, vessels: event.target.checked ? [...grantDraft.vessels, vessel.imo] : grantDraft.vessels.filter((imo) => imo !== vessel.imo) })}
                  />
                  <span>
                    {vessel.name} (IMO {vessel.imo})
                  </span>
                </label>
              ))}
            </fieldset>
          ) : (
            <TextField id={`${id}-vessel-list`} label={t.vesselsField} hint={t.vesselsFieldHint} value={grantDraft.vesselText} onChange={(vesselText) => setGrantDraft({ ...grantDraft, vesselText })} />
          )}
          <TextField id={`${id}-ports`} label={t.portsField} hint={t.portsHint} value={grantDraft.ports} onChange={(ports) => setGrantDraft({ ...grantDraft, ports })} />
          {lookedUp && (
            <fieldset className="field module-list">
              <legend>{t.modulesField}</legend>
              {(grantDraft.side === 'principal' ? lookedUp.modules : grantDraft.ownModules).map((module) => (
                <label key={module.key} className="check">
                  <input
                    type="checkbox"
                    checked={grantDraft.modules.includes(module.key)}
                    onChange={(event) => setGrantDraft({ ...grantDraft, modules: event.target.checked ? [...grantDraft.modules, module.key] : grantDraft.modules.filter((key) => key !== module.key) })}
                  />
                  <span>{module.name}</span>
                </label>
              ))}
            </fieldset>
          )}
          <fieldset className="field module-list">
            <legend>{t.levelField}</legend>
            {(['read', 'act'] as const).map((level) => (
              <label key={level} className="check">
                <input type="radio" name={`${id}-level`} checked={grantDraft.level === level} onChange={() => setGrantDraft({ ...grantDraft, level })} />
                <span>{t.levels[level]}</span>
              </label>
            ))}
          </fieldset>
          <TextField id={`${id}-from`} label={t.fromField} type="date" required value={grantDraft.startsOn} onChange={(startsOn) => setGrantDraft({ ...grantDraft, startsOn })} />
          <TextField id={`${id}-until`} label={t.untilField} hint={t.datesHint} type="date" required value={grantDraft.endsOn} onChange={(endsOn) => setGrantDraft({ ...grantDraft, endsOn })} />
        </ModalForm>
      )}
    </>
  );
}
