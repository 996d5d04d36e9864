export const companyTypes = {
  shipOwner: 'Ship owner',
  charterer: 'Charterer',
  shipAgent: 'Ship agent',
  shipyard: 'Shipyard',
  fuelSupplier: 'Fuel supplier',
  voyageManager: 'Voyage manager',
};

export const statuses = {
  approving: 'Under review',
  notVerified: 'Not verified',
  verified: 'Verified',
  verificationFailed: 'Verification failed',
  additionalInformationRequired: 'Additional information required',
  pendingToBind: 'Pending to bind',
  failToBind: 'Fail to bind',
  blocked: 'Blocked',
  expired: 'Expired',
};
