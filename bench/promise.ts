import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DESK } from '../bff/policies/policies.ts';
import { dayOfIso, lateDays } from '../bff/promise/learn.ts';
import { keptAtLeast } from '../bff/promise/quantile.ts';
import { startBff } from '../bff/testing.ts';
import { deliveryDaysOf } from '../sandbox/carrier/prices.ts';
import { carrierService } from '../sandbox/carrier/services.ts';
import { profileOf } from '../sandbox/carrier/transit-times.ts';
import { SAMPLE_LABEL, samplePartyAt, startSandbox } from '../sandbox/testing.ts';
import { businessDaysAfter, isBusinessDay, saoPauloDay } from '../shared/business-days.ts';
import { platformPromise } from '../shared/delivery-promise.ts';
import { AgentLabelInputSchema } from '../shared/labels/agent-label.ts';
import { laneOf } from '../shared/lanes.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import { ufOfCep } from '../shared/uf.ts';
import { startSmtp } from '../testing/receivers.ts';
import { type Figure, round } from './stats.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * Where the simulated store ships: CEP, city, and its share of the store's parcels. Enough to some lanes of each profile
 * (early, on time, late) for their own history; a few rare on purpose (they back off, or fall back to the platform).
 */
const DESTINATIONS: readonly [cep: string, city: string, weight: number][] = [
  ['01310-100', 'São Paulo', 12],
  ['04538-132', 'São Paulo', 6],
  ['13035-680', 'Campinas', 8],
  ['18035-000', 'Sorocaba', 4],
  ['14015-000', 'Ribeirão Preto', 3],
  ['20040-020', 'Rio de Janeiro', 10],
  ['24020-000', 'Niterói', 3],
  ['30130-000', 'Belo Horizonte', 8],
  ['36010-000', 'Juiz de Fora', 2],
  ['80010-000', 'Curitiba', 6],
  ['88010-000', 'Florianópolis', 2],
  ['90010-000', 'Porto Alegre', 3],
  ['70040-010', 'Brasília', 3],
  ['74003-010', 'Goiânia', 2],
  ['40010-000', 'Salvador', 3],
  ['44001-000', 'Feira de Santana', 9],
  ['50010-000', 'Recife', 2],
  ['60010-000', 'Fortaleza', 2],
  ['63010-000', 'Juazeiro do Norte', 7],
  ['66010-000', 'Belém', 1],
  ['68005-000', 'Santarém', 8],
  ['69005-000', 'Manaus', 2],
  ['69900-000', 'Rio Branco', 0.4],
  ['69301-000', 'Boa Vista', 0.4],
];
/** The store posts by the next business day (the carrier's agency picks up 2 to 21 hours after the label). */
const STORE_DAYS = { handlingDays: 1 };

const SERVICES = [
  { serviceCode: '03298', serviceId: 'correios-pac', share: 0.7 },
  { serviceCode: '03220', serviceId: 'correios-sedex', share: 0.3 },
] as const;

interface Parcel {
  attemptId: string;
  cep: string;
  serviceId: string;
  lane: string;
  profile: string;
  labelledAt: number;
  platformDays: number;
}

interface Score {
  parcels: number;
  keptLearnt: number;
  keptPlatform: number;
  inRange: number;
  single: number;
  keptSingle: number;
  daysLearnt: number;
  daysPlatform: number;
  /** Business days from delivery to the promise's last day, summed (a late parcel's are negative). */
  slackLearnt: number;
  slackPlatform: number;
  history: number;
}

const empty = (): Score => ({
  parcels: 0,
  keptLearnt: 0,
  keptPlatform: 0,
  inRange: 0,
  single: 0,
  keptSingle: 0,
  daysLearnt: 0,
  daysPlatform: 0,
  slackLearnt: 0,
  slackPlatform: 0,
  history: 0,
});
const pct = (n: number, of: number) => (of === 0 ? 0 : round((100 * n) / of, 1));

/**
 * Figure 14: the delivery promise learnt from the store's own parcels against the platform's count. A store posting
 * `perDay` parcels each business day from São Paulo to 24 destinations (two of them rare) labels them through the
 * BFF on the sandbox, whose carrier draws each transit from its lane's profile (sandbox/README.md, "Transit times");
 * the BFF's watcher follows them on the sandbox's clock (`BFF_TEST_CLOCK=sandbox`, moved twelve hours at a time) and
 * learns. Each label is promised, when it is issued, what the history known then gives (`basis: "history"`) or the
 * platform's count; the held-out quarter (October to December) is scored against what the carrier then did.
 */
export async function measurePromise(perDay = 12): Promise<Figure> {
  const started = Date.now();
  const random = seededRandom(36);
  const sandbox = await startSandbox({
    labelPdfDelayMs: 0,
    rateLimit: { calls: 10_000_000, seconds: 60 },
    clockSpeed: 0,
  });
  const smtp = await startSmtp();
  const dataDir = mkdtempSync(join(existsShm() ? '/dev/shm' : tmpdir(), 'bench-promise-'));
  // The simulated year starts on 1 January after today, at 08:00 in São Paulo.
  const year = new Date(Date.now()).getUTCFullYear() + 1;
  const start = Date.parse(`${year}-01-01T08:00:00-03:00`);
  const carrierNow = async () =>
    ((await (await sandbox.control('clock', undefined, 'GET')).json()) as { now: number }).now;
  await sandbox.control('advance', { hours: (start - (await carrierNow())) / HOUR });
  const bff = await startBff(
    sandbox.url,
    {
      BFF_TEST_CLOCK: 'sandbox',
      BFF_DATA_DIR: dataDir,
      SHIPPING_RATE_LIMIT: '10000000/60',
      // The watcher runs where someone is told; nobody is e-mailed here.
      BFF_SMTP_URL: smtp.url,
      BFF_MAIL_FROM: 'Loja <loja@bench.example>',
      BFF_MAIL_EVENTS: 'none',
      BFF_WATCH_INTERVAL_S: '3600',
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
      BFF_HANDLING_DAYS: String(STORE_DAYS.handlingDays),
    },
    { notifications: { timers: false } },
  );
  const clock = bff.sandboxClock;
  if (!clock) throw new Error('the bench BFF does not follow the sandbox’s clock');
  // The sandbox's clock is stopped: it moves only here, and the BFF reads it at once.
  const moveTo = async (instant: number) => {
    const now = clock.now();
    if (instant > now) await sandbox.control('advance', { hours: (instant - now) / HOUR });
    await clock.poll();
  };
  const totalWeight = DESTINATIONS.reduce((sum, [, , w]) => sum + w, 0);
  const pickDestination = () => {
    let u = random() * totalWeight;
    for (const destination of DESTINATIONS) {
      u -= destination[2];
      if (u <= 0) return destination;
    }
    return DESTINATIONS[0] as (typeof DESTINATIONS)[number];
  };

  const parcels: Parcel[] = [];
  const end = Date.parse(`${year + 1}-01-01T00:00:00-03:00`);
  // Labels until the year ends, then three more weeks for the last of them to arrive.
  const until = end + 25 * DAY;
  let serial = 0;
  try {
    let labelling = 0;
    let watching = 0;
    for (let day = start; day < until; day += DAY) {
      const today = saoPauloDay(day).day;
      if (day < end && isBusinessDay(today)) {
        // The day's labels at about 10 h, issued a few at a time as a busy desk would.
        await moveTo(saoPauloDay(day).start + 10 * HOUR + random() * HOUR);
        const t0 = Date.now();
        const count = Math.max(0, Math.round(perDay + (random() - 0.5) * 4));
        const orders = Array.from({ length: count }, () => {
          const [cep, city] = pickDestination();
          const service = random() < SERVICES[0].share ? SERVICES[0] : SERVICES[1];
          return { cep, city, service, key: `bench-${year}-${++serial}` };
        });
        for (let i = 0; i < orders.length; i += 4) {
          await Promise.all(
            orders.slice(i, i + 4).map(async ({ cep, city, service, key }) => {
              const answer = await bff.labels.generate(
                AgentLabelInputSchema.parse({
                  ...SAMPLE_LABEL,
                  serviceCode: service.serviceCode,
                  recipient: samplePartyAt(cep, ufOfCep(cep) ?? 'SP', city),
                  idempotencyKey: key,
                }),
                DESK,
              );
              const lane = laneOf(cep);
              const carrier = carrierService(service.serviceCode);
              if (answer.kind !== 'issued' || answer.outcome.kind !== 'created' || !lane || !carrier) return;
              parcels.push({
                attemptId: answer.outcome.attemptId,
                cep,
                serviceId: service.serviceId,
                lane: `${lane.uf} ${lane.area} ${service.serviceId.replace('correios-', '')}`,
                profile: profileOf('SP', lane, service.serviceCode),
                labelledAt: clock.now(),
                platformDays: deliveryDaysOf(carrier, 'SP', lane.uf),
              });
            }),
          );
        }
        labelling += Date.now() - t0;
      }
      // One look a day, in the evening: the day's labels start their history (and their promise), the others move.
      await moveTo(saoPauloDay(day).start + 21 * HOUR);
      const t1 = Date.now();
      await bff.notifications.tick();
      watching += Date.now() - t1;
    }

    const rows = new Map();
    for (let i = 0; i < parcels.length; i += 500) {
      const part = await bff.backends.transits.of(parcels.slice(i, i + 500).map((p) => p.attemptId));
      for (const [id, row] of part) rows.set(id, row);
    }
    const heldOutFrom = Date.parse(`${year}-10-01T00:00:00-03:00`);
    // Every held-out parcel (`all`); those promised from history (`history`): on their own lane (its CEP prefix, or
    // its state's capital or interior) or backed off to the state or the region; the platform's count (`thin`).
    const all = empty();
    const history = empty();
    const backedOff = empty();
    const thin = empty();
    const lanes = new Map<string, Score & { profile: string; own: number }>();
    let undelivered = 0;
    for (const parcel of parcels) {
      if (parcel.labelledAt < heldOutFrom) continue;
      const row = rows.get(parcel.attemptId);
      if (!row?.promisedTo || row.outcome !== 'delivered' || row.endedDay === null) {
        undelivered += 1;
        continue;
      }
      const labelDay = saoPauloDay(parcel.labelledAt).day;
      const platform = platformPromise(
        { at: parcel.labelledAt, deliveryDays: parcel.platformDays },
        STORE_DAYS,
      );
      const learntTo = dayOfIso(row.promisedTo);
      const learntFrom = dayOfIso(row.promisedFrom);
      const platformTo = dayOfIso(platform.to);
      const learnt = row.promisedBasis === 'history';
      const own = learnt && (row.promisedLevel === 'prefix' || row.promisedLevel === 'area');
      const lane = lanes.get(parcel.lane) ?? { ...empty(), profile: parcel.profile, own: 0 };
      lanes.set(parcel.lane, lane);
      lane.own += own ? 1 : 0;
      for (const score of [all, lane, learnt ? history : thin, ...(learnt && !own ? [backedOff] : [])]) {
        score.parcels += 1;
        score.keptLearnt += row.endedDay <= learntTo ? 1 : 0;
        score.keptPlatform += row.endedDay <= platformTo ? 1 : 0;
        score.inRange += row.endedDay >= learntFrom && row.endedDay <= learntTo ? 1 : 0;
        score.single += learntFrom === learntTo ? 1 : 0;
        score.keptSingle += learntFrom === learntTo && row.endedDay <= learntTo ? 1 : 0;
        score.daysLearnt += businessDaysAfter(labelDay, learntTo);
        score.daysPlatform += businessDaysAfter(labelDay, platformTo);
        score.slackLearnt -= lateDays(learntTo, row.endedDay);
        score.slackPlatform -= lateDays(platformTo, row.endedDay);
        score.history += learnt ? 1 : 0;
      }
    }
    const laneRows = [...lanes]
      .map(([name, s]) => ({
        lane: name,
        profile: s.profile,
        parcels: s.parcels,
        ownHistory: s.own,
        keptLearnt: pct(s.keptLearnt, s.parcels),
        keptPlatform: pct(s.keptPlatform, s.parcels),
        // The least share of the lane's parcels its held-out ones can stand for (95 % confidence: 37 of 37 is 92.8 %).
        keptPlatformSure: round(100 * keptAtLeast(s.keptPlatform, s.parcels), 1),
        avgDaysLearnt: round(s.daysLearnt / Math.max(1, s.parcels), 1),
        avgDaysPlatform: round(s.daysPlatform / Math.max(1, s.parcels), 1),
        slackLearnt: round(s.slackLearnt / Math.max(1, s.parcels), 1),
        slackPlatform: round(s.slackPlatform / Math.max(1, s.parcels), 1),
        singleShare: pct(s.single, s.parcels),
      }))
      .sort((a, b) => b.parcels - a.parcels);
    // A lane has enough history when most of its held-out parcels were promised from its own parcels.
    const enough = laneRows.filter((lane) => lane.ownHistory >= lane.parcels / 2 && lane.parcels > 0);
    const early = enough.filter((lane) => lane.profile === 'early');
    const late = enough.filter((lane) => lane.keptPlatform < 80);
    // Where the platform's own count is kept ≥ 95 % on the held-out parcels (judged from each label's date), the promise
    // is never longer: the issue's words, judged on the share seen. Beside it, the lanes where it is kept beyond the
    // doubt of their few parcels (`keptAtLeast`, 95 % confidence), as the promise itself judges: a lane keeping it 93 %
    // (the carrier's on-time profile here) shows ≥ 95 % on 37 parcels one run in four, and no promise given before them
    // can know which run (an offline replay, bench/promise-replay.ts, over 40 seeds: met 10 times judged on the share
    // seen, 23 judged beyond doubt; before issue 50's fix: once and 5 times). Not loosened to the latter: said instead.
    const platformSeen = enough.filter((lane) => lane.keptPlatform >= 95);
    const platformKept = enough.filter((lane) => lane.keptPlatformSure >= 95);
    const worst = enough.reduce((min, lane) => Math.min(min, lane.keptLearnt), 100);
    const kept = pct(history.keptLearnt, history.parcels);
    const avg = (score: Score, key: 'daysLearnt' | 'daysPlatform' | 'slackLearnt' | 'slackPlatform') =>
      round(score[key] / Math.max(1, score.parcels), 2);
    const met =
      kept >= 95 &&
      worst >= 95 &&
      early.every((lane) => lane.avgDaysLearnt < lane.avgDaysPlatform) &&
      platformSeen.every((lane) => lane.avgDaysLearnt <= lane.avgDaysPlatform) &&
      late.every((lane) => lane.keptLearnt >= 95) &&
      // One date only where it is kept ≥ 95 % (none shown is met: a range is then the honest promise).
      (history.single === 0 || pct(history.keptSingle, history.single) >= 95);
    return {
      id: 14,
      figure: `delivery promise learnt from the store's parcels vs the platform's deliveryDays: ${parcels.length} parcels labelled over a simulated year (${perDay} a business day, 24 destinations, PAC and SEDEX, handling 1 day) on the sandbox's carrier (transit profiles, holidays, a strike week, the peak season), followed by the watcher on the sandbox's clock; each promised at its label from what was known then; the held-out quarter (Oct–Dec, ${all.parcels} parcels) scored`,
      value:
        `promised from history (${history.parcels} parcels): kept ${kept} % vs platform ${pct(history.keptPlatform, history.parcels)} % on the same parcels, avg ${avg(history, 'daysLearnt')} vs ${avg(history, 'daysPlatform')} business days, slack (delivery to the promise's last day) ${avg(history, 'slackLearnt')} vs ${avg(history, 'slackPlatform')}; ` +
        `per lane with enough history (kept, days, slack; learnt vs platform): ${enough.map((l) => `${l.lane} ${l.keptLearnt} % ${l.avgDaysLearnt} d ${l.slackLearnt} vs ${l.keptPlatform} % ${l.avgDaysPlatform} d ${l.slackPlatform}, one date ${l.singleShare} %`).join('; ')}; ` +
        `lanes where the platform is kept ≥ 95 % beyond doubt: ${platformKept.map((l) => `${l.lane} ${l.keptPlatform} % (≥ ${l.keptPlatformSure} %)`).join(', ') || 'none'}; ` +
        `seen ≥ 95 % on the held-out parcels only (judged by the goal too): ${
          platformSeen
            .filter((l) => !platformKept.includes(l))
            .map(
              (l) =>
                `${l.lane} ${l.keptPlatform} % (≥ ${l.keptPlatformSure} %) ${l.avgDaysLearnt} vs ${l.avgDaysPlatform} d`,
            )
            .join(', ') || 'none'
        }; ` +
        `${enough.length} lanes with enough history, the worst kept ${worst} %; early lanes ${early.map((l) => `${l.lane} ${l.avgDaysLearnt} vs ${l.avgDaysPlatform} d`).join(', ')}; ` +
        `lanes where the platform is kept < 80 %: ${late.map((l) => `${l.lane} ${l.keptLearnt} % vs ${l.keptPlatform} %`).join(', ')}; ` +
        `one date on ${pct(history.single, history.parcels)} % of promises (kept ${pct(history.keptSingle, history.single)} %), ranges: delivered within ${pct(history.inRange - history.keptSingle, history.parcels - history.single)} %; ` +
        `apart: ${backedOff.parcels} backed off to a state or region (kept ${pct(backedOff.keptLearnt, backedOff.parcels)} %), ${thin.parcels} on the platform's count (kept ${pct(thin.keptLearnt, thin.parcels)} %); ` +
        `all ${all.parcels}: kept ${pct(all.keptLearnt, all.parcels)} % vs platform ${pct(all.keptPlatform, all.parcels)} %; ${undelivered} unscored; ${Math.round((Date.now() - started) / 1000)} s`,
      comparedWith:
        "the platform's deliveryDays + the same handling day on the same parcels; AfterShip's published accuracy: ~91 % for a single date, ~96 % for a range",
      goal: "≥ 95 % kept on history and on every lane with enough history; fewer days on early lanes; never more days than the platform's count where it is kept ≥ 95 % on the held-out parcels; ≥ 95 % where the platform is kept < 80 %; one date only where it is kept ≥ 95 %; the mean slack (business days from delivery to the promise's last day) beside the kept share",
      met,
      data: {
        parcels: parcels.length,
        heldOut: all.parcels,
        all,
        history,
        backedOff,
        thin,
        lanes: laneRows,
        seconds: Math.round((Date.now() - started) / 1000),
        labellingS: Math.round(labelling / 1000),
        watchingS: Math.round(watching / 1000),
      },
    };
  } finally {
    await bff.stop();
    await smtp.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Memory-backed storage where the machine has it: the bench measures the promise, not the disk's fsync. */
function existsShm(): boolean {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
