/**
 * Figure 14 replayed offline, many times (issue 50): `node bench/promise-replay.ts [runs] [--judged-on-seen]`. The same
 * store as bench/promise.ts (destinations, services, 12 labels a business day at about 10 h, one handling day), each
 * parcel's transit drawn from the sandbox carrier's profiles (sandbox/carrier/transit-times.ts), each promise worked
 * out by `estimateLane` from what the watcher's evening look would have known then — without the BFF, the sandbox or
 * their HTTP, so a run takes a second where the figure takes minutes. It says how often the figure's goals are met
 * over `runs` seeds: one run of the figure is one draw, and a lane of 35 held-out parcels moves by 4 points between
 * draws. A proxy, not the figure: no watcher, no database, posting and delivery read straight from the draw.
 * `--judged-on-seen`: "where the platform's count is kept ≥ 95 %" judged on the share its held-out parcels showed, as
 * the figure did before issue 50, instead of beyond their doubt (`keptAtLeast`).
 */
import { type DeliveredParcel, estimateLane, type OpenParcel } from '../bff/promise/estimate.ts';
import { keptAtLeast } from '../bff/promise/quantile.ts';
import { deliveryDaysOf } from '../sandbox/carrier/prices.ts';
import { carrierService } from '../sandbox/carrier/services.ts';
import {
  isCarrierDay,
  isPeakDay,
  PEAK_SHARE,
  type Profile,
  pick,
  profileOf,
} from '../sandbox/carrier/transit-times.ts';
import {
  addBusinessDays,
  businessDaysAfter,
  firstPostingDay,
  isBusinessDay,
  saoPauloDay,
} from '../shared/business-days.ts';
import { laneOf } from '../shared/lanes.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import { ufOfCep } from '../shared/uf.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** bench/promise.ts's destinations and their weights. */
const DESTINATIONS: readonly [cep: string, weight: number][] = [
  ['01310-100', 12],
  ['04538-132', 6],
  ['13035-680', 8],
  ['18035-000', 4],
  ['14015-000', 3],
  ['20040-020', 10],
  ['24020-000', 3],
  ['30130-000', 8],
  ['36010-000', 2],
  ['80010-000', 6],
  ['88010-000', 2],
  ['90010-000', 3],
  ['70040-010', 3],
  ['74003-010', 2],
  ['40010-000', 3],
  ['44001-000', 9],
  ['50010-000', 2],
  ['60010-000', 2],
  ['63010-000', 7],
  ['66010-000', 1],
  ['68005-000', 8],
  ['69005-000', 2],
  ['69900-000', 0.4],
  ['69301-000', 0.4],
];
const SERVICES = [
  { code: '03298', name: 'pac', share: 0.7 },
  { code: '03220', name: 'sedex', share: 0.3 },
] as const;

interface Drawn extends DeliveredParcel {
  name: string;
  profile: Profile;
  labelledAt: number;
  postedAt: number;
  postedDay: number;
  deliveredAt: number;
}
interface Scored extends Drawn {
  own: boolean;
  learnt: boolean;
  to: number;
  single: boolean;
  platformTo: number;
  labelDay: number;
}

/** The destination a draw of the weights' total falls on. */
function destinationAt(u: number): string {
  let left = u;
  for (const [cep, weight] of DESTINATIONS) {
    left -= weight;
    if (left <= 0) return cep;
  }
  return DESTINATIONS[0]?.[0] ?? '01310-100';
}

/** One simulated year of the store; the held-out quarter's parcels with the promise each was given. */
export function replay(seed: number, year = 2027, perDay = 12): Scored[] {
  const random = seededRandom(seed);
  const start = Date.parse(`${year}-01-01T08:00:00-03:00`);
  const end = Date.parse(`${year + 1}-01-01T00:00:00-03:00`);
  const heldOut = Date.parse(`${year}-10-01T00:00:00-03:00`);
  const total = DESTINATIONS.reduce((sum, [, weight]) => sum + weight, 0);
  const history = new Map<string, Drawn[]>();
  const scored: Scored[] = [];
  for (let instant = start; instant < end; instant += DAY) {
    const { day: today, start: midnight } = saoPauloDay(instant);
    if (!isBusinessDay(today)) continue;
    const at = midnight + 10 * HOUR + random() * HOUR;
    const look = midnight + 21 * HOUR;
    const count = Math.max(0, Math.round(perDay + (random() - 0.5) * 4));
    for (let i = 0; i < count; i += 1) {
      const cep = destinationAt(random() * total);
      const service = random() < SERVICES[0].share ? SERVICES[0] : SERVICES[1];
      const lane = laneOf(cep);
      const uf = ufOfCep(cep);
      const carrier = carrierService(service.code);
      if (!lane || !uf || !carrier) continue;
      const platformDays = deliveryDaysOf(carrier, 'SP', uf);
      // As the sandbox's drawTransit: posted 2 to 21 hours after the label, a day more for some in the peak season.
      const draw = seededRandom(Math.floor(random() * 2 ** 31));
      const profile = profileOf('SP', lane, service.code);
      const postedAt = at + (2 + Math.floor(draw() * 20)) * HOUR;
      const postedDay = saoPauloDay(postedAt).day;
      const peak = isPeakDay(postedDay) && draw() < PEAK_SHARE ? 1 : 0;
      const carrierDays = Math.max(1, platformDays + pick(profile, draw()) + peak);
      let deliveredDay = postedDay;
      for (let left = carrierDays; left > 0; ) {
        deliveredDay += 1;
        if (isCarrierDay(deliveredDay)) left -= 1;
      }
      const deliveredAt = Math.max(
        postedAt + 24 * HOUR,
        saoPauloDay(deliveredDay * DAY + 12 * HOUR).start + (9 + draw() * 8) * HOUR,
      );
      const endedDay = saoPauloDay(deliveredAt).day;
      const parcel: Drawn = {
        ...lane,
        name: `${lane.uf} ${lane.area} ${service.name}`,
        profile,
        labelledAt: at,
        postedAt,
        postedDay,
        deliveredAt,
        endedDay,
        days: businessDaysAfter(postedDay, endedDay),
        platformDays,
      };
      const known = history.get(service.name) ?? [];
      history.set(service.name, known);
      known.push(parcel);
      if (at < heldOut) continue;
      // Promised at the evening's look: delivered by then, or posted and on the way.
      const delivered = known.filter((p) => p.deliveredAt <= look);
      const open: OpenParcel[] = known.filter((p) => p.postedAt <= look && p.deliveredAt > look);
      const estimate = estimateLane(lane, delivered, open, {
        quantile: 0.95,
        minParcels: 30,
        today,
        storeDays: { handlingDays: 1 },
      });
      const posting = firstPostingDay(at);
      const platformTo = addBusinessDays(posting, 1 + platformDays);
      const to = estimate
        ? addBusinessDays(posting, 1 + Math.max(1, platformDays + estimate.toOffset))
        : platformTo;
      scored.push({
        ...parcel,
        own: estimate?.level === 'prefix' || estimate?.level === 'area',
        learnt: estimate !== undefined,
        to,
        single: estimate !== undefined && estimate.fromOffset === estimate.toOffset,
        platformTo,
        labelDay: today,
      });
    }
  }
  return scored;
}

/** Figure 14's goals on one replayed year: what misses (none: met). */
export function goalsMissed(scored: readonly Scored[], judgedOnSeen = false): string[] {
  const lanes = new Map<string, Scored[]>();
  for (const parcel of scored) lanes.set(parcel.name, [...(lanes.get(parcel.name) ?? []), parcel]);
  const kept = (p: Scored) => p.endedDay <= p.to;
  const learnt = scored.filter((p) => p.learnt);
  const missed: string[] = [];
  const share = (part: number, of: number) => (of === 0 ? 100 : Math.round((1000 * part) / of) / 10);
  if (share(learnt.filter(kept).length, learnt.length) < 95) missed.push('kept on history');
  for (const [name, parcels] of lanes) {
    if (parcels.filter((p) => p.own).length < parcels.length / 2) continue;
    const n = parcels.length;
    const keptPlatform = parcels.filter((p) => p.endedDay <= p.platformTo).length;
    const days = (of: (p: Scored) => number) =>
      parcels.reduce((sum, p) => sum + businessDaysAfter(p.labelDay, of(p)), 0) / n;
    const [learntDays, platformDays] = [days((p) => p.to), days((p) => p.platformTo)];
    if (share(parcels.filter(kept).length, n) < 95) missed.push(`${name} kept`);
    if (parcels[0]?.profile === 'early' && !(learntDays < platformDays))
      missed.push(`${name} not fewer days`);
    const platformKept = judgedOnSeen ? share(keptPlatform, n) >= 95 : keptAtLeast(keptPlatform, n) >= 0.95;
    if (platformKept && learntDays > platformDays) missed.push(`${name} longer than the platform`);
  }
  const single = learnt.filter((p) => p.single);
  if (single.length > 0 && share(single.filter(kept).length, single.length) < 95)
    missed.push('one date kept');
  return missed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 40) || 40;
  const judgedOnSeen = process.argv.includes('--judged-on-seen');
  const misses = new Map<string, number>();
  let met = 0;
  for (let seed = 1; seed <= runs; seed += 1) {
    const missed = goalsMissed(replay(seed), judgedOnSeen);
    if (missed.length === 0) met += 1;
    for (const what of missed) misses.set(what, (misses.get(what) ?? 0) + 1);
  }
  process.stdout.write(`met in ${met} of ${runs} replayed years\n`);
  for (const [what, n] of [...misses].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`  ${what}: missed ${n}\n`);
}
