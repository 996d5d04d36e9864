import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { PORTS } from '../../functions/gateway/places/ports';
import type { CountryItem, Port } from '../../src/schemas/onboarding';
import { startWorkerEnv } from './worker-env';

/** Country and port search through the Worker (in-memory lists, no session). */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('places');
});
afterAll(() => worker.dispose());

type Envelope<T> = { code: string; data: T };
const get = async <T>(path: string) => {
  const res = await app.request(`http://localhost/api${path}`, {}, worker.env, worker.ctx);
  return { status: res.status, body: (await res.json()) as Envelope<T> };
};

describe('searchCountry', () => {
  it('finds countries by English or Chinese name, prefix before substring', async () => {
    const { body } = await get<CountryItem[]>('/agg-web/country/searchCountry?name=chin');
    expect(body.code).toBe('0');
    expect(body.data[0]).toMatchObject({ id: 'CN', nameCn: '中国' });
    const zh = await get<CountryItem[]>(`/agg-web/country/searchCountry?name=${encodeURIComponent('新加坡')}`);
    expect(zh.body.data.map((c) => c.id)).toEqual(['SG']);
    const substring = await get<CountryItem[]>('/agg-web/country/searchCountry?name=land');
    expect(substring.body.data.length).toBeGreaterThan(3);
    expect(substring.body.data.length).toBeLessThanOrEqual(20);
    expect((await get<CountryItem[]>('/agg-web/country/searchCountry?name=a')).body.data).toHaveLength(20);
  });

  it('refuses an empty or overlong key', async () => {
    for (const q of ['', '%20%20', 'x'.repeat(65)]) {
      const { status, body } = await get(`/agg-web/country/searchCountry?name=${q}`);
      expect([status, body.code]).toEqual([400, 'PL0001']);
    }
    expect((await get('/agg-web/country/searchCountry')).body.code).toBe('PL0001');
  });
});

describe('ports', () => {
  it('has a real seed list with well-formed, unique UN/LOCODEs', () => {
    expect(PORTS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(PORTS.map((p) => p.code)).size).toBe(PORTS.length);
    for (const p of PORTS) expect(p.code).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
    for (const [code, name] of [['CNSHA', 'Shanghai'], ['CNNGB', 'Ningbo'], ['CNZOS', 'Zhoushan'], ['SGSIN', 'Singapore'], ['NLRTM', 'Rotterdam'], ['KRPUS', 'Busan'], ['AEJEA', 'Jebel Ali'], ['USLAX', 'Los Angeles'], ['DEHAM', 'Hamburg'], ['BEANR', 'Antwerp']]) {
      expect(PORTS.find((p) => p.code === code)?.name).toBe(name);
    }
  });

  it('searches by code, English or Chinese name', async () => {
    const byCode = await get<Port[]>('/agg-web/port/searchPortByNameOrCode?searchKey=cnzos');
    expect(byCode.body.data[0]).toEqual({ id: 'CNZOS', name: 'Zhoushan', nameCn: '舟山', code: 'CNZOS', countryId: 'CN' });
    const byName = await get<Port[]>('/agg-web/port/searchPortByNameOrCode?searchKey=Zhou');
    expect(byName.body.data.map((p) => p.code)).toContain('CNZOS');
    const byCn = await get<Port[]>(`/agg-web/port/searchPortByNameOrCode?searchKey=${encodeURIComponent('舟山')}`);
    expect(byCn.body.data.map((p) => p.code)).toEqual(['CNZOS']);
    const many = await get<Port[]>('/agg-web/port/searchPortByNameOrCode?searchKey=a');
    expect(many.body.data).toHaveLength(20);
    expect((await get('/agg-web/port/searchPortByNameOrCode?searchKey=')).body.code).toBe('PL0001');
    expect((await get(`/agg-web/port/searchPortByNameOrCode?searchKey=${'z'.repeat(65)}`)).body.code).toBe('PL0001');
  });

  it('answers related ports of the same country', async () => {
    const { body } = await get<Port[]>('/agg-web/port/getRelatedPorts?portId=CNZOS');
    expect(body.code).toBe('0');
    expect(body.data.length).toBeGreaterThan(5);
    expect(body.data.length).toBeLessThanOrEqual(20);
    expect(body.data.every((p) => p.countryId === 'CN' && p.id !== 'CNZOS')).toBe(true);
    expect(body.data.map((p) => p.code)).toContain('CNNGB');
    expect((await get('/agg-web/port/getRelatedPorts?portId=XXXXX')).body.code).toBe('PL0002');
  });

  it('stays cheap under a search storm', async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => get<Port[]>(`/agg-web/port/searchPortByNameOrCode?searchKey=${'an'.slice(0, 1 + (i % 2))}`)));
    expect(answers.every((a) => a.body.code === '0' && a.body.data.length <= 20)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
