export const legal = {
  /** Shown above each legal text: "Version 1.0.0 · Effective 2026-11-01". */
  version: 'Version',
  effective: 'Effective',
  contents: 'Contents',
  otherDocs: 'Legal documents',
  /** Link to the same text in the other language (the header toggle names the language it switches to). */
  langSwitch: '中文',
  langSwitchLabel: 'Read this in Chinese',
  docs: { terms: 'Terms of Service', privacy: 'Privacy Policy', disclaimer: 'Disclaimer', registration: 'Registration Agreement' },
};
