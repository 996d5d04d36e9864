/** Countries counted as the China region: queryIPRegion's answer and the edge's .cn/.com redirect. */
const chinaRegion = new Set(['CN']);

export function isChinaRegion(country: string | undefined): boolean {
  return country !== undefined && chinaRegion.has(country.toUpperCase());
}
