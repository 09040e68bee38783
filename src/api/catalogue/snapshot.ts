import { sql } from 'drizzle-orm';
import type { CatalogueSnapshot } from '../../domain/catalogue';
import { inTransaction, type Db } from '../db/client';
import { allCars, butlerCarList, carVersions, carsWithIds, catalogueVersion, garageList, liveCarChunks, modelsDigest } from './catalogue';
import { faqList, policyList } from './content';
import { wallMs } from '../jobs/clock';
import { todayInKorea } from '../../domain/dates';

/**
 * Everything the static build pre-renders, with the catalogue version: GET /catalogue answers it
 * and the publisher writes it into each build's snapshot (src/host/publish/build-inputs.ts).
 */
export async function catalogueSnapshot(db: Db): Promise<CatalogueSnapshot> {
  const [rest, list] = await Promise.all([catalogueRest(db), allCars(db)]);
  return { ...rest, cars: list };
}

/**
 * The catalogue but its cars: a few hundred rows, read whole for every publish. One query after
 * another: an edit reads it in a transaction (readForEdit), one client, which runs one at a time.
 */
async function catalogueRest(db: Db): Promise<Omit<CatalogueSnapshot, 'cars'>> {
  const version = await catalogueVersion(db);
  // The published fleet's reserved days from the real today: a build is not business time (the form reads them live).
  const butler_cars = await butlerCarList(db, { today: todayInKorea(new Date(wallMs())) });
  const garage_list = await garageList(db);
  const faqs = await faqList(db);
  const terms = await policyList(db, 'terms');
  const privacy_policies = await policyList(db, 'privacy');
  return { version, butler_cars, garage_list, faqs, terms, privacy_policies };
}

/**
 * What a full build reads: the cars' row versions and the models' digest first, then the rest of
 * the catalogue, and the cars in chunks as the snapshot is written (liveCarChunks). Not one
 * transaction: a read of 100,000 cars would hold PGlite's one connection for seconds. Whatever
 * changes after the versions were read is newer than they say, so the next edit renders it again.
 */
export async function readForBuild(db: Db) {
  const [versions, models] = await Promise.all([carVersions(db), modelsDigest(db)]);
  return { versions, models, rest: await catalogueRest(db), cars: () => liveCarChunks(db) };
}

/**
 * What an edit reads, in one repeatable-read transaction: the cars' row versions and the models'
 * digest, and, when `pick` names the cars it needs once it has seen the versions (null: none,
 * a full build follows), the rest of the catalogue and those cars.
 */
export async function readForEdit(db: Db, pick: (versions: Record<string, string>, models: string) => number[] | null) {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    // One query at a time: the transaction is one client.
    const versions = await carVersions(tx);
    const models = await modelsDigest(tx);
    const ids = pick(versions, models);
    if (!ids) return { versions, models, data: null };
    const rest = await catalogueRest(tx);
    return { versions, models, data: { rest, cars: await carsWithIds(tx, ids) } };
  });
}
