import { useStore } from '@nanostores/react';
import { pageTime } from '../../../lib/notice-time';
import { useEffect } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { format } from '../../../i18n/format';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import type { ProviderOverview, WindowFigures } from '../../../schemas/ops-delivery';
import { $delivery, loadDelivery } from '../../../stores/ops-delivery';
import { channelLines, isTextRoute, providerState, type ChannelLine } from '../../../lib/delivery-state';
import { RatePlot } from '../../../ui/RatePlot';
import { ScrollTable } from '../../../ui/ScrollTable';
import { timeLabel } from '../../user-center/security-labels';

interface DeliveryOverviewProps {
  lang: Lang;
  messages: Pick<Messages, 'opsDelivery' | 'errors'>;
}

/**
 * /ops/delivery, read-only: every provider's tries, sends, failures and delivery rate over the last hour and
 * day, its breaker, its latest failure reasons, and its rates hour by hour (a plot, and the same as a table).
 */
export default function DeliveryOverview({ lang, messages }: DeliveryOverviewProps) {
  const m = messages.opsDelivery;
  const s = useStore($delivery);
  useEffect(() => {
    void loadDelivery();
  }, []);

  const percent = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en', { style: 'percent', maximumFractionDigits: 1 });
  const rate = (value: number | null) => (value === null ? m.noRate : percent.format(value));
  /** "trying again at 22:41 GMT+1": a moment within the day, its zone named. */
  const clock = (at: number) => pageTime(at, lang, { timeOnly: true });
  const name = (provider: string) => m.providers[provider as keyof typeof m.providers] ?? provider;
  /** The provider's state in plain words, and its colour by outcome (issue 47 item 7). */
  const stateOf = (p: ProviderOverview) => {
    const state = providerState(p);
    const st = m.states;
    const text =
      state.kind === 'paused'
        ? format(st.paused, { count: String(state.failures), time: state.retryAt ? clock(state.retryAt) : '' })
        : state.kind === 'trial'
          ? st.trial
          : state.allFailed
            ? format(st.allFailed, { count: String(state.failedInRow) })
            : state.failedInRow > 0
              ? format(st.failedInRow, { count: String(state.failedInRow) })
              : state.outcome === 'idle'
                ? st.idle
                : st.sending;
    return { text, outcome: state.outcome };
  };
  const pill = (p: ProviderOverview) => {
    const { text, outcome } = stateOf(p);
    return <span className={`outcome-state outcome-${outcome}`}>{text}</span>;
  };
  const channelNames: Record<string, string> = { sms: m.channels.sms, smsInternational: m.channels.smsInternational, email: m.channels.email };
  const channelName = (route: string) => channelNames[route] ?? format(m.callingCodeChannel, { code: route });
  const list = (items: string[]) => items.join(lang === 'zh' ? '、' : ', ');
  const channelText = (line: ChannelLine) => {
    const channel = channelName(line.route);
    if (line.kind === 'sent') return format(m.channelSent, { channel, count: String(line.sent), providers: list(line.providers.map(name)) });
    if (line.kind === 'quiet') return format(m.channelQuiet, { channel });
    return isTextRoute(line.route) ? format(m.channelNoText, { channel }) : m.channelNoEmail;
  };
  const row = (p: ProviderOverview, period: string, w: WindowFigures, first: boolean) => (
    <tr key={`${p.provider}-${period}`}>
      {/* Named on both rows: on a phone each row is a card of its own, and "Last 24 hours" must say whose. */}
      <td>{name(p.provider)}</td>
      <td>{period}</td>
      <td>{w.tries}</td>
      <td>{w.sends}</td>
      <td>{w.failures}</td>
      <td>{rate(w.sendRate)}</td>
      <td>{rate(w.deliveryRate)}</td>
      <td>{first ? pill(p) : ''}</td>
    </tr>
  );
  /** A line of the plot in words: its range and latest value over the hours that had sends. */
  const inWords = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    if (!known.length) return m.noPoints;
    return format(m.rangeSummary, { low: percent.format(Math.min(...known)), high: percent.format(Math.max(...known)), latest: percent.format(known.at(-1)!) });
  };

  const o = s.overview;
  const c = m.columns;
  return (
    <div className="ops-delivery">
      <p className="hint">{m.readOnly}</p>
      <div className="ops-delivery-bar">
        <button type="button" className="button secondary" disabled={s.loading} onClick={() => void loadDelivery()}>
          {s.loading ? m.loading : m.refresh}
        </button>
        <p role="status">{o && format(m.updated, { time: timeLabel(o.at, lang) })}</p>
      </div>
      {s.error && (
        <p className="error" role="alert">
          {problemText(messages, s.error)}
        </p>
      )}
      {o && o.providers.length === 0 && <p className="hint">{m.none}</p>}
      {o && o.providers.length > 0 && (
        <>
          <section className="delivery-channels" aria-labelledby="delivery-channels-title">
            <h2 id="delivery-channels-title" className="section-title">
              {m.channelsTitle}
            </h2>
            <ul>
              {channelLines(o.channels, o.providers).map((line) => (
                <li key={line.route} className={`outcome-line outcome-${line.outcome}`}>
                  {channelText(line)}
                </li>
              ))}
            </ul>
          </section>
          <ScrollTable label={m.tableLabel} className="members delivery-table" columns={[c.provider, c.period, c.tries, c.sent, c.failed, c.sendRate, c.deliveryRate, c.breaker]}>
            {o.providers.flatMap((p) => [row(p, m.lastHour, p.hour, true), row(p, m.lastDay, p.day, false)])}
          </ScrollTable>
          {o.providers.map((p) => {
            const send = p.series.map((point) => point.sendRate);
            const delivery = p.series.map((point) => point.deliveryRate);
            return (
              <section key={p.provider} className="delivery-provider" aria-labelledby={`provider-${p.provider}`}>
                <h2 id={`provider-${p.provider}`} className="section-title">
                  {name(p.provider)}
                </h2>
                <p className="hint">{p.routes.length ? format(m.usedFor, { routes: p.routes.map((r) => m.routes[r as keyof typeof m.routes] ?? format(m.callingCodeRoute, { code: r })).join(lang === 'zh' ? '、' : ', ') }) : m.notRouted}</p>
                <p>
                  {pill(p)}
                </p>
                <h3 className="delivery-subtitle">{m.plotTitle}</h3>
                <RatePlot
                  title={`${name(p.provider)}: ${m.plotTitle}`}
                  summary={format(m.plotSummary, { provider: name(p.provider), send: inWords(send), delivery: inWords(delivery) })}
                  lines={[
                    { label: m.sendRate, values: send, className: 'rate-plot-send' },
                    { label: m.deliveryRate, values: delivery, className: 'rate-plot-delivery' },
                  ]}
                  xLabels={[m.dayAgo, m.halfDayAgo, m.now]}
                  yLabels={[percent.format(0), percent.format(0.5), percent.format(1)]}
                />
                <details className="delivery-figures">
                  <summary>{m.figuresTitle}</summary>
                  <ScrollTable label={`${name(p.provider)}: ${m.figuresTitle}`} className="members" columns={[m.hourColumn, c.tries, c.sendRate, c.deliveryRate]}>
                    {p.series
                      .filter((point) => point.tries > 0)
                      .map((point) => (
                        <tr key={point.at}>
                          <td>{clock(point.at)}</td>
                          <td>{point.tries}</td>
                          <td>{rate(point.sendRate)}</td>
                          <td>{rate(point.deliveryRate)}</td>
                        </tr>
                      ))}
                  </ScrollTable>
                </details>
                <h3 className="delivery-subtitle">{m.failuresTitle}</h3>
                {p.latestFailures.length === 0 ? (
                  <p className="hint">{m.noFailures}</p>
                ) : (
                  <ul className="delivery-failures">
                    {p.latestFailures.map((failure, i) => (
                      <li key={i}>
                        {timeLabel(failure.at, lang)} · {m.outcomes[failure.outcome as keyof typeof m.outcomes] ?? failure.outcome}
                        {failure.reason && <code>{failure.reason}</code>}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </>
      )}
    </div>
  );
}
