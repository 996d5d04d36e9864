import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCatalogue } from '../../functions/gateway/generated/module-catalogue';
import { MODULE_CATALOGUE_FILE, MODULE_CATALOGUE_MODULE, moduleCatalogueModule, readModuleCatalogue } from '../../scripts/module-catalogue.ts';
import { COMPANY_TYPE_KEYS, COMPANY_TYPES, companyTypeFromDb, companyTypeToDb } from '../../src/schemas/onboarding';

/** The platform's module catalogue is checked at build; the Worker's copy is in step with the file. */
const catalogueFile = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'modules-')), 'modules.yaml');
  writeFileSync(file, text);
  return file;
};
const problemWith = (text: string) => {
  try {
    readModuleCatalogue(catalogueFile(text));
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};
const entry = (key: string, types = COMPANY_TYPES.join(', ')) => `  - key: ${key}\n    zh: 模块\n    en: Module\n    companyTypes: [${types}]\n`;

describe('module catalogue', () => {
  it('the generated module is the checked file', () => {
    expect(readFileSync(MODULE_CATALOGUE_MODULE, 'utf8')).toBe(moduleCatalogueModule(readModuleCatalogue()));
    expect(moduleCatalogue.modules.length).toBeGreaterThan(0);
  });

  it('names the file and the field of every problem', () => {
    expect(problemWith(`modules:\n${entry('invoices')}`)).toBe('');
    expect(problemWith(`modules:\n${entry('invoices')}${entry('invoices')}`)).toMatch(/modules\.yaml: field "modules\.1\.key" duplicate key "invoices"/);
    expect(problemWith(`modules:\n${entry('Bad Key')}`)).toMatch(/field "modules\.0\.key"/);
    expect(problemWith(`modules:\n${entry('invoices', 'shipOwner, tanker')}`)).toMatch(/field "modules\.0\.companyTypes\.1"/);
    expect(problemWith(`modules:\n${entry('invoices', 'shipOwner')}`)).toMatch(/no module for company type "charterer"/);
    expect(problemWith(`modules:\n  - key: invoices\n    en: Invoices\n    companyTypes: [shipOwner]\n`)).toMatch(/field "modules\.0\.zh"/);
    expect(problemWith('modules: [')).toMatch(/modules\.yaml: /);
  });

  it('a bad file fails the build step, naming it', () => {
    const bad = catalogueFile(`modules:\n${entry('invoices', 'nobody')}`);
    const script = `import { readModuleCatalogue } from './scripts/module-catalogue.ts'; readModuleCatalogue(${JSON.stringify(bad)});`;
    expect(() => execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' })).toThrow(/modules\.yaml: field "modules\.0\.companyTypes\.0"/);
    expect(MODULE_CATALOGUE_FILE).toBe('content/platform/modules.yaml');
    expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.build).toMatch(/node scripts\/module-catalogue\.mjs && astro build$/);
  });
});

describe('enterprise type keys', () => {
  it('keep the data model names in one table and read the keys stored before', () => {
    expect(COMPANY_TYPE_KEYS.shipOwner.db).toBe('consigner');
    expect(COMPANY_TYPE_KEYS.shipAgent.db).toBe('consignee');
    expect(COMPANY_TYPE_KEYS.fuelSupplier.db).toBe('oiler');
    for (const type of COMPANY_TYPES) {
      expect(companyTypeFromDb(COMPANY_TYPE_KEYS[type].db)).toBe(type);
      expect(companyTypeFromDb(COMPANY_TYPE_KEYS[type].legacy)).toBe(type);
      expect(companyTypeToDb(type)).toBe(COMPANY_TYPE_KEYS[type].db);
      expect(companyTypeToDb(COMPANY_TYPE_KEYS[type].legacy)).toBe(COMPANY_TYPE_KEYS[type].db);
    }
    expect(new Set(COMPANY_TYPES.map((type) => COMPANY_TYPE_KEYS[type].db)).size).toBe(COMPANY_TYPES.length);
  });
});
