/**
 * The members around the flights: Commission, Over, Fees, Product, Ratio, Van and Remark, plausibly
 * filled; optional members are omitted with a seeded probability so receivers see both shapes.
 */
import type { NotificationBody } from '../contract/index.js';
import type { NameSource } from './names.js';
import { maskedPan } from './payments.js';
import { DIGITS, LETTERS, type Rng } from './random.js';
import type { Currency } from './reference/index.js';
import { toAmount, usdToMinor } from './units.js';

/** A percentage with one decimal in [min, max]. */
function pct(rng: Rng, min: number, max: number): number {
  return Math.round((min + rng.next() * (max - min)) * 10) / 10;
}

/** Commission and Over; the Partner* discounts only on partner bookings. */
export function buildIncentives(rng: Rng, partner: boolean, paxTypes: readonly string[]) {
  const Commission: NotificationBody['Commission'] = { Pct: pct(rng, 0, 10) };
  if (partner) Commission.PartnerCDISC = pct(rng, 0, 3);
  const distinct = [...new Set(paxTypes)];
  const overPct = pct(rng, 0, 5);
  const overPaxType = distinct.length === 1 || rng.chance(0.6) ? 'ALL' : distinct.join('|');
  // Members in the schema's order, which the contract's parse answers and the wire carries.
  const overCalculation = rng.chance(0.7) ? rng.pick(['D', 'I'] as const) : undefined;
  const Over: NotificationBody['Over'] = {
    OverPct: overPct,
    ...(overCalculation !== undefined ? { OverCalculation: overCalculation } : {}),
    OverPaxType: overPaxType,
  };
  if (partner) Over.PartnerODISC = pct(rng, 0, 2);
  return { Commission, Over };
}

/** Fees in the booking currency, and the part charged to the customer (minor units). */
export function buildFees(rng: Rng, currency: Currency, partner: boolean) {
  const money = (maxUsd: number) => (rng.chance(0.2) ? 0 : usdToMinor(rng.next() * maxUsd, currency));
  const contentFee = money(15);
  const apiFee = money(10);
  // ContentCost is what the content costs the agency; it is not charged to the traveller.
  const contentCost = rng.chance(0.5) ? toAmount(money(8), currency) : undefined;
  // Members in the schema's order (ContentCost first).
  const ApiFees: NotificationBody['Fees']['ApiFees'] = {
    Application: 'ETK',
    Currency: currency.code,
    ...(contentCost !== undefined ? { ContentCost: contentCost } : {}),
    ContentFee: toAmount(contentFee, currency),
    ApiFee: toAmount(apiFee, currency),
  };
  const PartnerFees: NotificationBody['Fees']['PartnerFees'] = {
    Application: 'ETK',
    Currency: currency.code,
  };
  let partnerMinor = 0;
  if (partner) {
    const cfee = money(25);
    const afee = money(20);
    PartnerFees.CFEE = toAmount(cfee, currency);
    PartnerFees.AFEE = toAmount(afee, currency);
    partnerMinor = cfee + afee;
  }
  return { Fees: { ApiFees, PartnerFees }, chargedMinor: contentFee + apiFee + partnerMinor };
}

/** The agency that owns and sells the product. */
export function buildProduct(rng: Rng, names: NameSource): NotificationBody['Product'] {
  const owner = names.company();
  const ownChannel = rng.chance(0.7);
  return {
    Owner: owner,
    OwnProduct: rng.chance(0.8),
    IdWeb: rng.int(1000, 99_999),
    WebOwner: ownChannel ? owner : names.company(),
    OwnChannel: ownChannel,
  };
}

/** Conversion from the booking currency to US dollars (and back), at most 8 decimals. */
export function buildRatios(currency: Currency): NotificationBody['Ratio'] {
  const toUsd = Math.round(currency.usdPerUnit * 1e8) / 1e8;
  const fromUsd = Math.round((1 / currency.usdPerUnit) * 1e8) / 1e8;
  if (currency.code === 'USD') return [{ Currency: 'USD', Amount: 1, TargetCurrency: 'USD' }];
  return [
    { Currency: currency.code, Amount: toUsd, TargetCurrency: 'USD' },
    { Currency: 'USD', Amount: fromUsd, TargetCurrency: currency.code },
  ];
}

const VIRTUAL_CARD_PROVIDERS = ['CONFERMA', 'WEX', 'AIRPLUS', 'ENETT'] as const;

/** Virtual cards the agency used to pay the airline. */
export function buildVans(rng: Rng): NotificationBody['Van'] {
  return Array.from({ length: rng.int(1, 2) }, (_, i) => ({
    Used: i === 0 || rng.chance(0.5),
    CardType: rng.pick(VIRTUAL_CARD_PROVIDERS),
    CardNumber: maskedPan(rng, rng.pick(['4', '5']), 16),
  }));
}

const REMARK_TYPES = ['COSTCENTER', 'PROJECT', 'EMPLOYEEID', 'DEPARTMENT', 'APPROVER'] as const;

/** Customer-specific remarks; passenger 1 by default, sometimes another passenger. */
export function buildRemarks(rng: Rng, paxCount: number): NotificationBody['Remark'] {
  return Array.from({ length: rng.int(1, 3) }, () => ({
    PaxNumber: rng.chance(0.8) ? 1 : rng.int(1, paxCount),
    Type: rng.pick(REMARK_TYPES),
    Text: `${rng.chars(2, LETTERS)}-${rng.chars(4, DIGITS)}`,
  }));
}
