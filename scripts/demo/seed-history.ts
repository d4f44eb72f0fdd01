import { LEDGER_MIGRATIONS } from '../../bff/labels/migrations.ts';
import { NOTIFICATION_MIGRATIONS } from '../../bff/notifications/migrations.ts';
import { SECRET_MIGRATIONS } from '../../bff/orders/link-secret.ts';
import { TransitHistory } from '../../bff/promise/history-store.ts';
import { lateDays } from '../../bff/promise/learn.ts';
import { PROMISE_MIGRATIONS } from '../../bff/promise/migrations.ts';
import { deliveryDaysOf } from '../../sandbox/carrier/prices.ts';
import { carrierService } from '../../sandbox/carrier/services.ts';
import { drawTransit } from '../../sandbox/carrier/transit-times.ts';
import { businessDaysAfter, isBusinessDay, saoPauloDay } from '../../shared/business-days.ts';
import { platformPromise } from '../../shared/delivery-promise.ts';
import { laneOf } from '../../shared/lanes.ts';
import { makeS10 } from '../../shared/s10.ts';
import { migrate } from '../../shared/sql/migrate.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { ufOfCep } from '../../shared/uf.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The demo store's usual destinations: a parcel a business day to each, by PAC and SEDEX. */
const DESTINATIONS = [
  ['01310-100', 'São Paulo'],
  ['13035-680', 'Campinas'],
  ['20040-020', 'Rio de Janeiro'],
  ['30130-000', 'Belo Horizonte'],
  ['44001-000', 'Feira de Santana'],
] as const;
const SERVICES = [
  ['03298', 'correios-pac'],
  ['03220', 'correios-sedex'],
] as const;

/**
 * `npm start` with a fresh demo ledger: 90 days of the demo store's delivered parcels (drawn by the sandbox's carrier,
 * sandbox/carrier/transit-times.ts, as its labels would be), each scored against the platform's count it would have
 * been sold with. So the calculator shows promises learnt from history from the first quote, and the desk's
 * "Prazos" page has something to show; lanes not listed here show the platform's count (`basis: "platform"`).
 * Written into the demo's own ledger before the BFF opens it; answers how many parcels.
 */
export async function seedDemoHistory(dataDir: string, now = Date.now()): Promise<number> {
  const sql = new SqliteSql({ dataDir, file: 'labels.sqlite' });
  try {
    for (const steps of [LEDGER_MIGRATIONS, NOTIFICATION_MIGRATIONS, SECRET_MIGRATIONS, PROMISE_MIGRATIONS])
      await migrate(sql, steps);
    // A demo ledger written once before the BFF opens it: no fsync per row (measured: 600 rows took a minute).
    await sql.run('PRAGMA synchronous = OFF');
    const history = new TransitHistory(sql);
    const today = saoPauloDay(now).day;
    let serial = 0;
    for (let day = today - 90; day < today - 1; day++) {
      if (!isBusinessDay(day)) continue;
      const createdAt = saoPauloDay(day * DAY + 12 * HOUR).start + 10 * HOUR;
      for (const [cep, city] of DESTINATIONS) {
        for (const [serviceCode, serviceId] of SERVICES) {
          const lane = laneOf(cep);
          const service = carrierService(serviceCode);
          const uf = ufOfCep(cep);
          if (!lane || !service || !uf) continue;
          const platformDays = deliveryDaysOf(service, 'SP', uf);
          const code = makeS10(service.trackingPrefix, 90_000_000 + ++serial);
          const transit = drawTransit({
            code,
            route: { originUf: 'SP', originCity: 'São Paulo', destinationUf: uf, destinationCity: city },
            destinationCep: cep,
            serviceCode,
            platformDays,
            createdAt,
          });
          const postedDay = saoPauloDay(createdAt + (transit.plan[0]?.afterHours ?? 0) * HOUR).day;
          const endedDay = saoPauloDay(createdAt + (transit.plan.at(-1)?.afterHours ?? 0) * HOUR).day;
          if (endedDay >= today) continue;
          const promise = platformPromise({ at: createdAt, deliveryDays: platformDays }, {});
          const attemptId = `demo-history-${serial}`;
          await history.start(
            [
              {
                attemptId,
                trackingCode: code,
                origin: '01310',
                serviceId,
                lane,
                createdAt,
                createdDay: day,
                promise,
                platformDays,
              },
            ],
            now,
          );
          await history.change(
            sql,
            attemptId,
            {
              outcome: 'delivered',
              postedDay,
              endedDay,
              transitDays: businessDaysAfter(postedDay, endedDay),
              lateDays: lateDays(Date.parse(`${promise.to}T00:00:00Z`) / DAY, endedDay),
            },
            now,
          );
        }
      }
    }
    return serial;
  } finally {
    await sql.close();
  }
}
