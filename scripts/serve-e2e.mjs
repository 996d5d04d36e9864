// Serves the built portal for the Playwright suite: a fresh local D1 and R2 under .wrangler/e2e-PORT,
// migrated, then `wrangler dev` on E2E_PORT. Playwright starts and stops it (playwright.config.ts).
import { rmSync } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';

const port = process.env.E2E_PORT ?? '8799';
const persist = `.wrangler/e2e-${port}`;
rmSync(persist, { recursive: true, force: true });
execFileSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist], { stdio: 'inherit' });
const dev = spawn(
  'npx',
  [
    'wrangler', 'dev', '--ip', '127.0.0.1', '--port', port,
    // Its own inspector port: two servers started at once (one per Playwright worker) otherwise both probe for a
    // free one and may pick the same ("Address already in use", seen in CI).
    '--inspector-port', String(Number(port) + 1000), '--persist-to', persist, '--show-interactive-dev-session=false', '--log-level', 'info',
    // Sign-in links are built on the configured origin: this server's own.
    '--var', `PORTAL_ORIGIN:http://127.0.0.1:${port}`, '--var', `NAVIGATOR_ORIGIN:http://navigator.localhost:${port}`,
    // Passkeys need a host name (browsers refuse an IP address): the passkey tests open this server as localhost.
    '--var', `PASSKEY_ORIGINS:http://localhost:${port}`,
    // A trivial proof of work: the suite passes the slider in most specs, and a second each would add minutes.
    // A deployed Worker refuses such values (captcha/service.ts POW_FLOOR); the bench measures the real ones.
    '--var', 'CAPTCHA_POW_COST:1', '--var', 'CAPTCHA_POW_COUNTER:16',
    // Failover lists as a deployment has them. Without provider keys a local run stands the outbox in for each
    // provider (every code still lands in /api/dev/outbox), and /api/dev/delivery/faults makes one fail for one
    // number (tests/e2e/delivery-failover.spec.ts). The breakers and the tracking cap are the deployed ones: this
    // server is one Playwright worker's, whose tests run one after another. delivery-failover.spec.ts leaves
    // every breaker it made fail shut again (a success through it) before the worker's next test; tracking.spec.ts
    // moves the dev clock past the tracking window, since a beacon sent as its page unloads carries no test
    // header and counts against the loopback network every test of the worker shares.
    '--var', 'SMS_PROVIDER:aliyun,tencent', '--var', 'SMS_INTERNATIONAL_PROVIDER:twilio,tencent', '--var', 'EMAIL_PROVIDER:ses,webhook',
    // The WeChat button on English pages too (it shows on Chinese pages by default), so tests/e2e/wechat.spec.ts
    // runs the WeChat stand-in in both languages.
    '--var', 'WECHAT_LOGIN_EVERYWHERE:true',
    // Company domains are proved through DNS-over-HTTPS: tests/e2e/company-sso.spec.ts answers as a stand-in
    // resolver on this worker's port + 2000 (nothing listens there otherwise, and no other spec proves a domain).
    '--var', `DOH_URL:http://127.0.0.1:${Number(port) + 2000}/dns-query`,
  ],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code) => process.exit(code ?? 0));
