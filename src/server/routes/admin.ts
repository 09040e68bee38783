import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { FEE_TERMS } from '../../domain/car';
import { AdminCarPatchSchema, AdminCarSchema, type AdminCarInput } from '../../domain/schemas/admin';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { cars, models } from '../db/schema';
import { badRequest } from '../errors';
import { ok, validJson, validParams, type AppEnv } from '../http';
import { requireAdmin } from '../middleware/auth';
import { bumpCatalogueVersion, carById, feeColumns } from '../services/catalogue';

function carColumns(input: Partial<AdminCarInput>, current?: Awaited<ReturnType<typeof carById>>) {
  const feesGiven = FEE_TERMS.some((t) => `subscription_fee_${t}` in input);
  const fees = feesGiven ? feeColumns({ ...(current ?? {}), ...input }) : {};
  const map: Record<string, unknown> = {
    modelId: input.model_id, subModel: input.sub_model, trim: input.trim, images: input.images, color: input.color,
    mileage: input.mileage, licensePlate: input.license_plate, description: input.description, retailPrice: input.retail_price,
    isNew: input.is_new, isHot: input.is_hot, isSubscriptable: input.is_subscriptable,
    subscriptionAvailableFrom: input.subscription_available_from, releaseDate: input.release_date,
  };
  const defined = Object.fromEntries(Object.entries(map).filter(([, v]) => v !== undefined));
  return { ...defined, ...fees } as Partial<typeof cars.$inferInsert>;
}

/** Staff catalogue writes (ADMIN_TOKEN); each bumps the catalogue version and triggers a rebuild. */
export const adminCatalogueRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .post('/cars', validJson(AdminCarSchema), async (c) => {
    const input = c.req.valid('json');
    const { db } = c.var.deps;
    const [model] = await db.select({ id: models.id }).from(models).where(eq(models.id, input.model_id));
    if (!model) throw badRequest('존재하지 않는 모델입니다.', { model_id: ['존재하지 않는 모델입니다.'] });
    const [row] = await db.insert(cars).values({ ...carColumns(input), modelId: input.model_id } as typeof cars.$inferInsert).returning({ id: cars.id });
    await bumpCatalogueVersion(db);
    c.var.deps.onCatalogueChange();
    return ok(c, { car: await carById(db, row.id) }, 201);
  })
  .patch('/cars/:id', validParams(IdParamSchema), validJson(AdminCarPatchSchema), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const { db } = c.var.deps;
    const current = await carById(db, id);
    const values = { ...carColumns(input, current), updatedAt: new Date() };
    await db.update(cars).set(values).where(eq(cars.id, id));
    await bumpCatalogueVersion(db);
    c.var.deps.onCatalogueChange();
    return ok(c, { car: await carById(db, id) });
  });
