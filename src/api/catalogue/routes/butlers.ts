import { Hono } from 'hono';
import type { ButlerCarAnswer, ButlerFleetAnswer } from '../../../domain/butler';
import { IdParamSchema } from '../../../domain/schemas/catalogue';
import { notFound } from '../../errors';
import { ok, validParams, type AppEnv } from '../../http';
import { butlerCarList } from '../catalogue';
import { todayInKorea } from '../../../domain/dates';

/** The public butler fleet. */
export const butlerCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', async (c) => ok(c, { cars: await butlerCarList(c.var.deps.db, { today: todayInKorea(c.var.deps.clock.now()) }) } satisfies ButlerFleetAnswer))
  .get('/cars/:id', validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const [car] = await butlerCarList(c.var.deps.db, { id, today: todayInKorea(c.var.deps.clock.now()) });
    if (!car) throw notFound('차량 정보를 찾을 수 없습니다.');
    return ok(c, { car } satisfies ButlerCarAnswer);
  });
