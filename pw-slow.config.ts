import base from './playwright.config';
export default { ...base, workers: 2, webServer: { ...(base.webServer as object), timeout: 400_000 } };
