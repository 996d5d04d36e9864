import { deliveryOverview } from '../schemas/ops-delivery';
import { callGateway } from './client';

/** The operators' delivery view (contract in schemas/ops-delivery.ts). */
export const opsDeliveryApi = {
  overview: () => callGateway('ops/v1/delivery', deliveryOverview, { method: 'GET' }),
};
