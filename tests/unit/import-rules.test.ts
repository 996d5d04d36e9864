import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/import-rules.mjs is what `npm run check` runs: each rule of the gateway's floors (issue 40) is shown
// refusing a tree that breaks it, and passing one that keeps it.
const script = resolve(import.meta.dirname, '../../scripts/import-rules.mjs');
let tree: string;

/** Writes `files` (path → source) into a fresh tree and runs the rules over it: the exit code and what it printed. */
function check(files: Record<string, string>): { status: number; output: string } {
  tree = mkdtempSync(join(tmpdir(), 'import-rules-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  try {
    return { status: 0, output: execFileSync('node', [script, tree], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { status: failed.status, output: failed.stderr };
  }
}

afterEach(() => rmSync(tree, { recursive: true, force: true }));

const core = "export const x = 1;\n";

describe('the import rules', () => {
  it('pass a tree that keeps them', () => {
    const { status } = check({
      'functions/gateway/identity/db/people.ts': "import { GatewayError } from '../../errors';\n",
      'functions/gateway/errors.ts': core,
      'functions/gateway/codes/db.ts': "import { x } from '../identity/db/people';\n",
      'functions/gateway/codes/service.ts': "import { x } from './db';\n",
      'functions/gateway/codes/routes.ts': "import { x } from './service';\nimport { y } from '../sessions/service';\n",
      'functions/gateway/sessions/service.ts': core,
      'functions/gateway/app.ts': "import { r } from './codes/routes';\n",
    });
    expect(status).toBe(0);
  });

  it('refuse an import from the identity core to a capability above it', () => {
    const { status, output } = check({
      'functions/gateway/identity/proof.ts': "import { issueCode } from '../codes/service';\n",
      'functions/gateway/codes/service.ts': core,
    });
    expect(status).toBe(1);
    expect(output).toContain('functions/gateway/identity/proof.ts: imports ../codes/service (the identity core imports nothing above it)');
  });

  it("refuse a route that imports another capability's db", () => {
    const { status, output } = check({
      'functions/gateway/account/routes.ts': "import { setSessionCompany } from '../sessions/db';\n",
      'functions/gateway/sessions/db.ts': core,
    });
    expect(status).toBe(1);
    expect(output).toContain("functions/gateway/account/routes.ts: imports ../sessions/db (a route imports its own capability's service, never another capability's db)");
  });

  it('refuse a service that imports a route', () => {
    const { status, output } = check({
      'functions/gateway/wechat/service.ts': "import { CODE_REFUSALS } from '../sign-in/routes';\n",
      'functions/gateway/sign-in/routes.ts': core,
    });
    expect(status).toBe(1);
    expect(output).toContain('functions/gateway/wechat/service.ts: imports ../sign-in/routes (only routes and app.ts import a routes file: a service never imports a route)');
  });

  it('refuse a db file that imports a service, and the gateway importing the edge', () => {
    const { status, output } = check({
      'functions/gateway/oidc/clients-db.ts': "import { companyAuthority } from '../authority/service';\n",
      'functions/gateway/authority/service.ts': core,
      'functions/gateway/oidc/token.ts': "import { h } from '../../edge/handoff';\n",
      'functions/edge/handoff.ts': core,
    });
    expect(status).toBe(1);
    expect(output).toContain("functions/gateway/oidc/clients-db.ts: imports ../authority/service (a capability's db file imports only db files");
    expect(output).toContain('functions/gateway/oidc/token.ts: imports ../../edge/handoff (the gateway imports no edge module)');
  });
});
