// The one clock of edge and gateway is part of the contract (functions/contract.ts); services keep importing it
// from here.
export { now, systemClock, type Clock } from '../../contract';
